// SPDX-License-Identifier: MIT
#include "core/model/pagerelease.h"

#include <algorithm>
#include <cstdint>
#include <sys/mman.h>

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

} // namespace

void appendReleasing(std::string &out, std::string_view from)
{
    for (std::size_t done = 0; done < from.size();) {
        const std::size_t n = std::min(kStep, from.size() - done);
        out.append(from.substr(done, n));
        done += n;
        releasePages(from.data(), from.data() + done);
    }
}

void appendReleasing(std::string &out, std::string_view from, void (*append)(std::string &, std::string_view))
{
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
