// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <sys/mman.h>
#include <vector>

namespace TraceInspector {

/// Asks the kernel for transparent huge pages over the 2 MiB-aligned interior of
/// [data, data + bytes). The record arrays of a 1 GB trace are written once, front to back:
/// with 4 KiB pages every 4 KiB costs a page fault (a quarter of the reader's CPU time was
/// faults); with 2 MiB pages it is one fault per 2 MiB. Machines set to THP `madvise` (the
/// common default) only give huge pages to ranges advised so. Small ranges are left alone:
/// a small trace must not fault in 2 MiB it never uses.
inline void adviseHugePages(const void *data, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (bytes < 2 * kHuge)
        return;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHuge - 1);
    if (last > first)
        ::madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

/// Reserves room for \a count elements and advises huge pages for the new block.
template<typename T>
void reserveHuge(std::vector<T> &v, std::size_t count)
{
    if (count <= v.capacity())
        return;
    v.reserve(count);
    adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

} // namespace TraceInspector
