// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/model/hugepages.h"
#include "core/model/pagerelease.h"

namespace TraceInspector {

/// Puts the \a bytes at \a from at \a to, as memcpy() would, but moves the whole 4 KiB pages
/// of the range to \a to's pages (mremap()) instead of copying them. Merging a segment's
/// record arrays into the first segment's copied ~130 MB of a 1 GB trace into pages the
/// kernel had to fault in and zero, while as many of the source's were given back.
///
/// \a to must lie at the same offset within a page as \a from, and the ranges must not
/// overlap. Only [to, to + bytes) changes: its whole pages are replaced by the source's (so
/// it must be private anonymous memory, as malloc() hands out), and the bytes of its first
/// and last, partial pages are copied. The whole pages of [from, from + bytes) are given
/// back and read as zero afterwards (releasePages()); the source's partial pages, which it
/// may share with other data (an allocator's header), stay as they are.
///
/// A page the kernel refuses to move (no MREMAP_DONTUNMAP before Linux 5.7, not Linux) is
/// copied, and then given back like a moved one. Returns the bytes moved rather than copied.
std::size_t movePages(char *to, char *from, std::size_t bytes);

/// The kernel's part of movePages(): moves the pages of [from, from + length) (whole pages)
/// to \a to, leaving the source's read as zero. Returns false when the kernel refuses; the
/// pages at \a to are then empty, the source's as they were.
bool moveWholePages(char *to, char *from, std::size_t length);
/// movePages() with \a move in place of moveWholePages(): tests make it refuse.
std::size_t movePages(char *to, char *from, std::size_t bytes, bool (*move)(char *to, char *from, std::size_t length));

/// Where stageMovingPages() put an array's pages, for finishMovingPages().
struct StagedMove {
    char *moved = nullptr;     // the array's bytes lie here from movedFrom on
    std::size_t movedFrom = 0; // those before it are still in the source
    std::size_t bytes = 0;
    std::size_t movedBytes = 0; // moved rather than copied
    bool copy = true;           // a small array: its elements are copied
};

/// appendMovingPages()'s first step: makes \a dst's room and moves \a src's pages there.
/// \a dst and \a src must not change until finishMovingPages().
template<typename T>
StagedMove stageMovingPages(std::vector<T> &dst, std::vector<T> &src, std::size_t minMoveBytes = std::size_t(64) << 10,
                            std::size_t hugeMoveBytes = std::size_t(4) << 20)
{
    static_assert(std::is_trivially_copyable_v<T>);
    constexpr std::uintptr_t kPage = 4096;
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const std::size_t count = src.size();
    StagedMove staged;
    staged.bytes = count * sizeof(T);
    // The landing is less than a page (a huge page) past the end. A room already reserved
    // for a page's distance is not grown for a huge page's: that would copy the array.
    std::uintptr_t align = kPage;
    if (staged.bytes >= hugeMoveBytes) {
        const std::size_t pageRoom = dst.size() + count + kPage / sizeof(T) + 1;
        const std::size_t hugeRoom = dst.size() + count + kHuge / sizeof(T) + 1;
        if (dst.capacity() >= hugeRoom || dst.capacity() < pageRoom)
            align = kHuge;
    }
    staged.copy = staged.bytes < minMoveBytes || staged.bytes == 0;
    reserveHuge(dst, dst.size() + count + (staged.copy ? 0 : align / sizeof(T) + 1));
    // The merged array's last huge page would be resident in full for a few records.
    adviseHugeUpTo(dst, dst.size() + count);
    readyEndHugePage(dst, dst.size() + count);
    if (staged.copy)
        return staged;
    const auto end = reinterpret_cast<std::uintptr_t>(dst.data() + dst.size());
    char *const from = reinterpret_cast<char *>(src.data());
    const auto begin = reinterpret_cast<std::uintptr_t>(from);
    std::uintptr_t landing = (end & ~(align - 1)) + begin % align;
    if (landing < end)
        landing += align;
    staged.moved = reinterpret_cast<char *>(landing);
    if (align == kHuge)
        staged.movedFrom = std::min(staged.bytes, ((begin + kHuge - 1) & ~(kHuge - 1)) - begin);
    staged.movedBytes =
        movePages(staged.moved + staged.movedFrom, from + staged.movedFrom, staged.bytes - staged.movedFrom);
    return staged;
}

/// Writes to each 4 KiB page that \a staged moved, the byte it holds, until \a stop is set:
/// the faults of its first touch (see appendMovingPages()) are then taken here, on a thread
/// that would otherwise wait, and not in finishMovingPages(). Returns whether it got through.
bool touchMovedPages(const StagedMove &staged, const std::atomic<bool> &stop);

/// appendMovingPages()'s second step, with \a staged from stageMovingPages().
template<typename T, typename Fn>
std::size_t finishMovingPages(std::vector<T> &dst, std::vector<T> &src, const StagedMove &staged, Fn &&fix)
{
    constexpr std::uintptr_t kPage = 4096;
    const std::size_t count = src.size();
    if (staged.copy) {
        for (T &r : src) {
            fix(r);
            dst.push_back(r);
        }
        std::vector<T>().swap(src);
        return 0;
    }
    T *const out = dst.data() + dst.size();
    char *const from = reinterpret_cast<char *>(src.data());
    char *const moved = staged.moved;
    const std::size_t movedFrom = staged.movedFrom;
    // Element i lies at moved + i * sizeof(T), at or after its place (or in src): read it
    // whole before writing it, and it never overwrites a later one.
    const std::size_t readInPlace = (movedFrom + sizeof(T) - 1) / sizeof(T); // those with bytes before it
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t at = i * sizeof(T);
        T r;
        auto *bytesOfR = reinterpret_cast<char *>(&r);
        if (i >= readInPlace) [[likely]] {
            std::memcpy(bytesOfR, moved + at, sizeof(T));
        } else {
            const std::size_t before = std::min(sizeof(T), movedFrom - at);
            std::memcpy(bytesOfR, from + at, before);
            std::memcpy(bytesOfR + before, moved + at + before, sizeof(T) - before); // across movedFrom
        }
        fix(r);
        std::memcpy(static_cast<void *>(out + i), &r, sizeof(T));
        if (i + 1 == readInPlace)
            releasePages(from, from + movedFrom);
    }
    // What lay behind the last element, in the room: stale copies nothing reads.
    const auto movedEnd = (reinterpret_cast<std::uintptr_t>(moved) + staged.bytes + kPage - 1) & ~(kPage - 1);
    const auto roomEnd = reinterpret_cast<std::uintptr_t>(dst.data() + dst.capacity());
    releasePages(out + count, reinterpret_cast<const void *>(std::min(movedEnd, roomEnd)));
    // The elements are in place: this copies each onto itself, which memmove() skips.
    dst.insert(dst.end(), out, out + count);
    std::vector<T>().swap(src);
    return staged.movedBytes;
}

/// Appends \a src's elements to \a dst, each after \a fix(element &) changed it, and empties
/// \a src; \a dst's room comes from reserveHuge(). The elements' pages move to the room
/// after \a dst's end (movePages()), at the first address with their offset within a page,
/// and each element then moves down to its place as it is fixed: no fresh page is written
/// but the one \a dst ends in, and \a src's pages are given back as they move. Arrays of
/// under \a minMoveBytes are copied. Returns the bytes moved rather than copied.
///
/// An array of \a hugeMoveBytes or more lands at its offset within a 2 MiB page instead, so
/// that its huge pages move whole rather than split into 4 KiB ones: on a virtual machine
/// with shadow page tables the first touch of every moved 4 KiB page costs a hypervisor
/// fault (~5 us, invisible to the guest's fault counters), which made the fix loop of a
/// 1 GB trace's merge 190 ms of serial time; with whole huge pages it is 60 ms. Its part in
/// its first huge page, which it shares with malloc's header, does not move: moved, that
/// huge page was split into 4 KiB ones, each a fault, and \a dst's array kept them. Those
/// elements are read where they are, and their pages given back. The up to 2 MiB the
/// records leave behind them as they move down is given back too.
///
/// In two steps, stageMovingPages() and finishMovingPages(), the pages can move while
/// something else makes what \a fix needs.
template<typename T, typename Fn>
std::size_t appendMovingPages(std::vector<T> &dst, std::vector<T> &src, Fn &&fix,
                              std::size_t minMoveBytes = std::size_t(64) << 10,
                              std::size_t hugeMoveBytes = std::size_t(4) << 20)
{
    return finishMovingPages(dst, src, stageMovingPages(dst, src, minMoveBytes, hugeMoveBytes), fix);
}

} // namespace TraceInspector
