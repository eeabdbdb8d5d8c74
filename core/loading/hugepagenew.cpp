// SPDX-License-Identifier: MIT
// The process's global operator new: large blocks are advised to use transparent huge pages.
// Linked into the executables that load big traces (the CLI, the window, their benchmarks).
//
// The analysis of a 1 GB trace (health, memory) fills arrays of tens of MB that malloc maps
// fresh; with 4 KiB pages every 4 KiB written is a page fault, and on machines set to THP
// `madvise` (the common default) only advised ranges get 2 MiB pages. The reader already
// advises its record arrays (core/model/hugepages.h); this covers every other large
// allocation of the process, as glibc's `glibc.malloc.hugetlb=1` tunable would (measured on
// the 1 GB trace: ~10 % less CPU time for check --all, peak RSS +1.5 %). Blocks under 2 MiB
// are left alone, so a small trace faults in no 2 MiB page it does not use. Memory still
// comes from malloc and goes back with free(), as the library's own operator delete does.
//
// A large block is asked of malloc as a whole number of 2 MiB pages (hugeBlockBytes()): its
// own mapping, which the kernel then places on a 2 MiB boundary, starts with a huge page.
// Any other size left up to 2 MiB at its start in 4 KiB pages: ~512 page faults per block
// (measured with malloc tuned as the window tunes it: a zeroed vector of 8 MiB 516 faults, 5
// after; of 80 MiB 552, 41 after), a fault costing ~5-10 us on a virtual machine with shadow
// page tables, and the analyses of a 1 GB trace allocate dozens of such blocks. Where the
// slack is large, only the block's own bytes are advised: the slack after them stays in
// 4 KiB pages, never touched, so the rounding costs address space, not memory.
#include <cstdint>
#include <cstdlib>
#include <new>

#include "core/model/allocatorreplaced.h"
#include "core/model/hugepages.h"
#include "core/model/sparsereservation.h"

#if !defined(TI_ALLOCATOR_REPLACED) // a sanitizer's runtime has its own

namespace {
// One huge page: the span tree's and device time's arrays of one u32 per span or op (~3.9 MB
// on the 1 GB trace) fault by the 2 MiB too. A smaller block would not fill its huge page.
constexpr std::size_t kMinBytes = std::size_t(2) << 20;
// A block whose slack is at most this share of it is advised whole, slack included: its
// last huge page is then one fault, not one per 4 KiB of the block in it, for at most 1/8
// more memory. An array of one u32 per span on the 1 GB trace (3.86 MB in a 4 MiB block):
// 455 faults -> 2.
constexpr std::size_t kMaxSlackShare = 8;
// A block a little under one huge page is asked for as a whole one: the rest is at most 1/8
// of it (kMaxSlackShare), and an array of one u16 per span on the 1 GB trace (1.93 MB: span
// tree depths, device busy lanes) then faults once, not ~470 times. Its size is one huge page
// less malloc's header, like every large block's (hugeBlockBytes()): asked for as 2 MiB, it
// was a mapping of 2 MiB + 4 KiB, which the kernel does not place on a 2 MiB boundary, and
// all of it faulted by the 4 KiB (~940 of the window's faults after the read, 1 GB trace).
// malloc maps it on its own (its mmap threshold is just under 2 MiB, malloctuning.cpp).
constexpr std::size_t kOneHugePageFrom = kMinBytes - kMinBytes / (kMaxSlackShare + 1);

std::size_t blockBytes(std::size_t size)
{
    return size ? TraceInspector::hugeBlockBytes(size, kOneHugePageFrom) : 1;
}
} // namespace

void *operator new(std::size_t size)
{
    for (;;) {
        const std::size_t block = blockBytes(size);
        if (void *p = std::malloc(block)) {
            const bool whole = block - size <= size / kMaxSlackShare;
            TraceInspector::adviseHugePages(p, whole ? block : size, kOneHugePageFrom);
            // The block's last, partly used huge page stays in 4 KiB pages, also where malloc
            // advises its mappings whole (the window's glibc.malloc.hugetlb=1, malloctuning.h):
            // taken as huge pages, those ends were 18 MiB of the window's peak RSS. Those
            // pages are faulted in at once, up to the block's end: nearly every block is
            // filled whole (a vector of n values), and one call costs ~0.5 us a page where a
            // fault each costs ~11 us on a virtual machine. The window's analyses of the 1 GB
            // trace took ~5,200 such faults after the read. A reservation of an upper bound
            // (SparseReservation) is left to fault as it fills.
            if (!whole && size >= kMinBytes) {
                const auto end = reinterpret_cast<std::uintptr_t>(p) + size;
                const std::uintptr_t lastHuge = end & ~std::uintptr_t(kMinBytes - 1); // kMinBytes: one huge page
                const std::size_t smallFrom = lastHuge - reinterpret_cast<std::uintptr_t>(p);
                TraceInspector::adviseSmallPages(p, smallFrom, block);
                if (!TraceInspector::SparseReservation::active())
                    TraceInspector::populateForWrite(p, smallFrom, size);
            }
            return p;
        }
        std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

#endif
