// SPDX-License-Identifier: MIT
#include "core/model/pagerelease.h"

#include <algorithm>
#include <cstdint>
#include <sys/mman.h>

#include "core/model/hugepages.h"

namespace TraceInspector {

void releasePages(const void *begin, const void *end)
{
    constexpr std::uintptr_t kPage = 4096;
    const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) & ~(kPage - 1);
    if (last > first)
        ::madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
}

namespace {

// Small steps: the copy and what is left of the source are alive together up to one.
constexpr std::size_t kStep = std::size_t(256) << 10;

/// Makes the room \a out has for the copy take 4 KiB pages. A large string is advised huge
/// pages (hugepagenew.cpp), and writing a step into it faults a whole 2 MiB page while only
/// the step's bytes of the source go back: copy and source were alive together by up to
/// 2 MiB, which took a 200 MB value's strict error over the file plus the fixed cost
/// (bench/bench_hostile.sh). 4 KiB faults for a copy this size take a few milliseconds.
void adviseSmallRoom(std::string &out, std::size_t copied)
{
    if (copied < kStep)
        return; // the copy is one step: there is nothing to release behind it
    out.reserve(out.size() + copied);
    adviseSmallPages(out.data(), out.size(), out.capacity());
}

} // namespace

void appendReleasing(std::string &out, std::string_view from)
{
    adviseSmallRoom(out, from.size());
    for (std::size_t done = 0; done < from.size();) {
        const std::size_t n = std::min(kStep, from.size() - done);
        out.append(from.substr(done, n));
        done += n;
        releasePages(from.data(), from.data() + done);
    }
}

void appendReleasing(std::string &out, std::string_view from, void (*append)(std::string &, std::string_view))
{
    adviseSmallRoom(out, from.size()); // the escaped text is longer: callers reserve its size
    for (std::size_t done = 0; done < from.size();) {
        std::size_t n = std::min(kStep, from.size() - done);
        while (done + n < from.size() && (static_cast<unsigned char>(from[done + n]) & 0xC0) == 0x80)
            ++n; // a piece ends before a character's first byte
        append(out, from.substr(done, n));
        done += n;
        releasePages(from.data(), from.data() + done);
    }
}

} // namespace TraceInspector
