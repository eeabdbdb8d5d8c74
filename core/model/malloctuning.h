// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

namespace TraceInspector {

/// Sets glibc's malloc up for a process that holds a big trace (no effect elsewhere): at most
/// \a maxArenas arenas, blocks of 2 MiB less 4 KiB and more always mapped on their own, and up
/// to 4 MiB free at a heap's top kept for reuse. Call first thing in main(), before any thread
/// starts.
///
/// - glibc gives each thread that allocates concurrently an arena of its own, up to eight per
///   core, and memory freed in one arena is not reused by another: the loader's stages, the
///   sorts and the layouts each ran on a pool thread, so a 1 GB trace peaked at 719 MiB with
///   the default and at 673 MiB with two arenas (the window's kWindowArenas), without
///   loading slower.
/// - The command line takes one (kCommandLineArenas). Its threads (the reader's segment threads,
///   the helpers beside the merge and beside health) call malloc a few hundred times in all, so
///   they hardly ever wait for each other's lock. With two, check --all of the 100 MB trace grew
///   its resident set by 2.4 MiB while health and the memory peak ran, though the read had left
///   ~8 MiB free in the heap; with one, by 0.2 MiB. Its peak went from 41.6 to 40.9 MiB, and to
///   39.5 MiB together with its 256 KiB read buffers (traceinput.cpp), which alone, with two
///   arenas, changed nothing. The 1 GB trace's CPU time and peak were unchanged within noise
///   (medians of 7 and 3 alternating runs). glibc fixes the limit the first time a thread needs an
///   arena of its own: a later call has no effect on it.
/// - glibc raises its mmap threshold to the size of each mapped block freed (up to 32 MiB), so
///   after the first stage's scratch arrays went, the later stages' arrays of a few MiB to tens
///   of MiB came from the heap, where freed ones stayed held between live blocks (67-91 MiB
///   held free at the window's peak). A fixed threshold keeps them mapped and given back on
///   free: peak RSS on the 1 GB trace 636-648 MiB against 685-751 MiB, CPU time unchanged
///   within noise (issue 9: at most 0.7x the file). The threshold is just under 2 MiB, the
///   size from which operator new asks for huge pages (hugepagenew.cpp; its smallest such
///   block is one huge page less malloc's header): mapped on its own and sized in whole
///   2 MiB pages, such a block is faulted in by the 2 MiB, while from the heap it is by the
///   4 KiB. The span tree's and device time's arrays of one u32 per span or op are
///   ~3.9 MB on the 1 GB trace, just under the former 4 MiB.
/// - Setting the mmap threshold also fixes glibc's trim threshold at its default of 128 KiB:
///   freeing a block of the heap's top gave its pages back at once, and the next block there
///   faulted them in again. The span id sort (one radix histogram of 1 MiB per bucket of ids,
///   ~18 on the 1 GB trace), the timeline's layout and device time each did so over and over:
///   ~6,000 of the window's ~43,000 page faults on the 1 GB trace. With 4 MiB: 36,900, the
///   read ~7 % faster, peak RSS unchanged (bench_guiopen, medians of 5 alternating runs).
/// - The CLI is set up the same way. Without the trim threshold, the fixed mmap threshold made
///   its check of the 1 GB trace slower than with glibc's defaults (~6 % in alternating runs,
///   1.05 against 0.98 s; an earlier, noisier measurement said ~20 %), through the churn
///   above. With it, check --all of the 1 GB trace takes 10,800 page faults instead of
///   15,900 with glibc's defaults and peaks 5 MiB lower; at 100 MB it takes 0.19 s wall
///   instead of 0.21 s (medians of 9-11 alternating runs).
void tuneMallocForBigTraces(int maxArenas);

/// The arenas of tuneMallocForBigTraces() for the window and for the command line.
inline constexpr int kWindowArenas = 2;
inline constexpr int kCommandLineArenas = 1;

/// The GLIBC_TUNABLES value that adds glibc's `glibc.malloc.hugetlb=1` to \a current (the
/// variable's value, null when unset), or nullopt when \a current names that tunable already,
/// with any value: a user's own setting stands.
std::optional<std::string> tunablesWithHugePageHeap(const char *current);

/// Runs the program again (the same executable, arguments and descriptors) with malloc's
/// heaps in transparent huge pages, glibc's `glibc.malloc.hugetlb=1` tunable, unless it runs
/// so already; returns only when it does, when it was started again already (a variable it
/// sets says so, and is removed), or when it cannot (no glibc, a set-user-ID program, an exec
/// that failed), and the process then goes on as it is. Call first thing in main(), before
/// any thread starts or any input is read.
///
/// Why: the window's analyses after the read fill many arrays of under 2 MiB, which malloc
/// carves from its heaps in 4 KiB pages, a page fault each; operator new advises only blocks
/// of 2 MiB and more (hugepagenew.cpp). glibc reads tunables only when a program starts, and
/// mallopt() has no equivalent, hence the second start. Measured on the 1 GB trace
/// (bench_guiopen, 6 alternating pairs, medians): the layout's CPU 222 -> 156 ms, the span
/// tree's 116 -> 99, memory's 194 -> 162; the first panel 59 -> 33 ms after the read, the
/// window fully drawn 934 -> 734 ms after it; peak RSS 473.5 -> 473.6 MiB. The CLI does not
/// start again: its check --all gained ~40 ms of 1.0 s, within the noise.
void relaunchWithHugePageHeap(char **argv);

/// Gives the free memory inside malloc's heaps back to the system (glibc's malloc_trim(); no
/// effect elsewhere, nor under a sanitizer, whose allocator replaces malloc). glibc returns
/// only the top of a heap by itself: the scratch vectors an analysis freed between blocks
/// that stay live remain resident until they are reused. Each post-read analysis calls it when
/// done, so the next one's arrays do not come on top of them: peak RSS on the 1 GB trace
/// -8 MiB (563 -> 549-554 in bench_guiopen), a few ms of CPU. Safe from any thread.
void releaseFreeMemory();

} // namespace TraceInspector
