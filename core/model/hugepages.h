// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sys/mman.h>
#include <type_traits>
#include <vector>

namespace TraceInspector {

#ifdef __linux__
// Advice that glibc's <sys/mman.h> may not name yet.
inline constexpr int kMadvPopulateWrite = 23; // Linux 5.14
inline constexpr int kMadvCollapse = 25;      // Linux 6.1
#endif

/// Asks the kernel for transparent huge pages for the block [data, data + bytes). The
/// record arrays of a 1 GB trace are written once, front to back:
/// with 4 KiB pages every 4 KiB costs a page fault (a quarter of the reader's CPU time was
/// faults); with 2 MiB pages it is one fault per 2 MiB. Machines set to THP `madvise` (the
/// common default) only give huge pages to ranges advised so. Ranges under \a minBytes are
/// left alone: a small trace must not fault in 2 MiB it never uses.
inline void adviseHugePages(const void *data, std::size_t bytes, std::size_t minBytes = std::size_t(4) << 20)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    constexpr std::uintptr_t kPage = 4096;
    if (bytes < minBytes)
        return;
    // The whole pages under the block, not only its 2 MiB-aligned interior: a block that
    // malloc mapped on its own starts a few bytes into its mapping, and when the mapping is
    // 2 MiB-aligned (hugeBlockBytes()) its first and last 2 MiB are huge pages too. The
    // bytes beyond the block in its first and last 4 KiB page are malloc's own or a
    // neighbour's; the advice only lets them share a huge page.
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = begin & ~(kPage - 1);
    const std::uintptr_t last = (begin + bytes + kPage - 1) & ~(kPage - 1);
    ::madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
#ifdef __linux__
    // malloc wrote the block's header before the advice, which gave the block's first 2 MiB
    // a table of 4 KiB pages: every later write there would be a 4 KiB fault (half the
    // faults of reading 1 GB, one such head per array). Turn it into a huge page now; a
    // kernel without MADV_COLLAPSE (before 6.1) refuses and leaves it as it was.
    const std::uintptr_t head = first & ~(kHuge - 1);
    if (head == first && head + kHuge <= last)
        ::madvise(reinterpret_cast<void *>(head), kHuge, kMadvCollapse);
#endif
#else
    (void)data;
    (void)bytes;
#endif
}

/// A size of at least \a bytes for a large block from malloc() that fills whole 2 MiB pages:
/// the kernel places a mapping of a multiple of 2 MiB on a 2 MiB boundary, and glibc maps a
/// large block with its 16-byte header in front and rounds it to whole 4 KiB pages, so a
/// block of k * 2 MiB - 32 bytes is a mapping of exactly k * 2 MiB. Any other size leaves up
/// to 2 MiB at either end of the block in 4 KiB pages, each one a page fault (on a virtual
/// machine a fault costs ~10 us: 4 KiB pages made ~half the faults of reading 1 GB).
/// Blocks under \a minBytes are left alone (malloc may serve them from its heap).
inline std::size_t hugeBlockBytes(std::size_t bytes, std::size_t minBytes = std::size_t(4) << 20)
{
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    constexpr std::size_t kMallocOverhead = 32;
    if (bytes < minBytes)
        return bytes;
    return (bytes + kMallocOverhead + kHuge - 1) / kHuge * kHuge - kMallocOverhead;
}

/// Takes back the huge-page advice for the whole 4 KiB pages of [data + fromBytes, data +
/// bytes): faults there get 4 KiB pages. For the end of an array whose last elements will
/// not fill a whole huge page: that page would be resident in full, a few MB over a file's
/// arrays, which is most of what a 100 MB trace holds beyond its records.
inline void adviseSmallPages(const void *data, std::size_t fromBytes, std::size_t bytes)
{
#ifdef MADV_NOHUGEPAGE
    constexpr std::uintptr_t kPage = 4096;
    const auto base = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (base + fromBytes + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t last = (base + bytes) & ~(kPage - 1);
    if (last > first)
        ::madvise(reinterpret_cast<void *>(first), last - first, MADV_NOHUGEPAGE);
#else
    (void)data;
    (void)fromBytes;
    (void)bytes;
#endif
}

/// Faults in the whole 4 KiB pages of [data + fromBytes, data + toBytes) for writing, in one
/// call: for the small-page end of an array that is about to be written (adviseSmallPages()).
/// Each page's own fault is a trap into the kernel, ~10-20 us on a virtual machine; a 100 MB
/// trace's arrays are a third such ends, and their faults were a fifth of its read's CPU time.
/// A kernel before 5.14 does not know the advice and leaves the pages to fault one by one.
inline void populateForWrite(const void *data, std::size_t fromBytes, std::size_t toBytes)
{
#ifdef __linux__
    constexpr std::uintptr_t kPage = 4096;
    const auto base = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (base + fromBytes) & ~(kPage - 1);
    const std::uintptr_t last = (base + toBytes) & ~(kPage - 1);
    if (last > first)
        ::madvise(reinterpret_cast<void *>(first), last - first, kMadvPopulateWrite);
#else
    (void)data;
    (void)fromBytes;
    (void)toBytes;
#endif
}

/// Advises huge pages for \a v (in a huge-page block, reserveHuge()) as it grows to \a count
/// elements: for the whole huge pages up to its new end and not for the rest of its room, so
/// that the last, partly filled huge page is not made (adviseSmallPages()).
template<typename T>
void adviseHugeUpTo(std::vector<T> &v, std::size_t count)
{
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const std::size_t capacityBytes = v.capacity() * sizeof(T);
    if (capacityBytes < kHuge || count > v.capacity())
        return;
    const auto base = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t from = (base + v.size() * sizeof(T) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t to = (base + count * sizeof(T)) & ~(kHuge - 1);
#ifdef MADV_HUGEPAGE
    if (to > from)
        ::madvise(reinterpret_cast<void *>(from), to - from, MADV_HUGEPAGE);
#endif
    adviseSmallPages(v.data(), std::max(to, base) - base, capacityBytes);
}

/// Readies the rest of the huge page that \a v's elements end in for \a count elements to
/// be written in one go (a merge appends a segment's records), when they fill that page: it
/// becomes one huge page, or, where the kernel cannot make one, its 4 KiB pages are faulted
/// in at once. The reader left the end of each array in 4 KiB pages (adviseSmallPages()),
/// each a fault when first written; on the 1 GB trace the merge's fix loops took ~1,600 of
/// them, ~14 ms, where the collapse copies at most 2 MiB.
template<typename T>
void readyEndHugePage(std::vector<T> &v, std::size_t count)
{
#ifdef __linux__
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (v.capacity() * sizeof(T) < kHuge || count > v.capacity())
        return;
    const auto base = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t end = base + v.size() * sizeof(T);
    const std::uintptr_t head = end & ~(kHuge - 1);
    if (head == end || base + count * sizeof(T) < head + kHuge)
        return; // nothing of it is left, or the elements will not fill it
    ::madvise(reinterpret_cast<void *>(head), kHuge, MADV_HUGEPAGE);
    // Refused where the page spans mappings of different origin (pages an earlier merge
    // moved there), or before Linux 6.1.
    if (::madvise(reinterpret_cast<void *>(head), kHuge, kMadvCollapse) != 0)
        populateForWrite(v.data(), v.size() * sizeof(T), head + kHuge - base);
#else
    (void)v;
    (void)count;
#endif
}

/// Reserves room for at least \a count elements, in a block of whole huge pages when it is
/// large, and advises huge pages for the new block. Record arrays get them from one huge page
/// on: a 100 MB trace's arrays are 2-4 MB each, and in 4 KiB pages they made a third of its
/// 8,700 page faults (a fault costs ~20 us on a virtual machine; the 1 GB trace has as many
/// faults in all). The price is the unused part of each array's last huge page, ~3 MB.
/// The new block is advised before the elements are copied into it, so that the copy writes
/// huge pages, and a block too small for them has its room for the elements and the first
/// \a expected ones faulted in at once (populateForWrite()), before the copy writes it: the
/// part that will surely be written.
template<typename T>
void reserveHuge(std::vector<T> &v, std::size_t count, std::size_t expected = 0)
{
    static_assert(std::is_trivially_copyable_v<T>);
    if (count <= v.capacity())
        return;
    constexpr std::size_t kMin = std::size_t(2) << 20;
    std::vector<T> room;
    room.reserve(hugeBlockBytes(count * sizeof(T), kMin) / sizeof(T));
    const std::size_t bytes = room.capacity() * sizeof(T);
    adviseHugePages(room.data(), bytes, kMin);
    if (bytes < kMin)
        populateForWrite(room.data(), 0, std::min(std::max(expected, v.size()), room.capacity()) * sizeof(T));
    room.insert(room.end(), v.begin(), v.end());
    v.swap(room);
}

} // namespace TraceInspector
