// SPDX-License-Identifier: MIT
#include "core/model/pagemove.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <sys/mman.h>

#include "core/model/pagerelease.h"

namespace TraceInspector {
namespace {

constexpr std::uintptr_t kPage = 4096;
// Moved in pieces that end at the source's 2 MiB boundaries: the advice on huge pages
// splits an array's mapping into several there (adviseSmallPages()), and before Linux 6.17
// one mremap() moves from a single mapping only. A piece the kernel refuses is copied, and
// the next piece is tried again.
constexpr std::uintptr_t kPiece = std::uintptr_t(2) << 20;

#if defined(__linux__) && !defined(MREMAP_DONTUNMAP)
#define MREMAP_DONTUNMAP 4 // Linux 5.7; a C library's headers may be older
#endif

} // namespace

bool moveWholePages(char *to, char *from, std::size_t length)
{
#ifdef __linux__
    // DONTUNMAP: the source stays mapped, empty: the address range still belongs to its
    // allocation, and another mapping must not appear there before the allocator frees it.
    void *p = ::mremap(from, length, length, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to);
    if (p == static_cast<void *>(to))
        return true;
    // A kernel may have unmapped the target before refusing (it does so first): map it
    // again, empty, so the copy has somewhere to go. It held nothing (see movePages()).
    p = ::mmap(to, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p != static_cast<void *>(to))
        throw std::bad_alloc();
    return false;
#else
    (void)to;
    (void)from;
    (void)length;
    return false;
#endif
}

std::size_t movePages(char *to, char *from, std::size_t bytes)
{
    return movePages(to, from, bytes, moveWholePages);
}

std::size_t movePages(char *to, char *from, std::size_t bytes, bool (*move)(char *, char *, std::size_t))
{
    const auto begin = reinterpret_cast<std::uintptr_t>(from);
    const std::uintptr_t first = (begin + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kPage - 1);
    if (last <= first || (reinterpret_cast<std::uintptr_t>(to) - begin) % kPage != 0) {
        std::memcpy(to, from, bytes);
        return 0;
    }
    const std::size_t head = first - begin;
    std::memcpy(to, from, head);
    std::size_t moved = 0;
    for (std::uintptr_t at = first; at < last;) {
        const std::uintptr_t end = std::min(last, (at + kPiece) & ~(kPiece - 1));
        char *source = reinterpret_cast<char *>(at);
        char *target = to + (at - begin);
        const std::size_t length = end - at;
        if (move(target, source, length)) {
            moved += length;
        } else {
            std::memcpy(target, source, length);
            releasePages(source, source + length);
        }
        at = end;
    }
    std::memcpy(to + (last - begin), reinterpret_cast<char *>(last), begin + bytes - last);
    return moved;
}

bool touchMovedPages(const StagedMove &staged, const std::atomic<bool> &stop)
{
    if (staged.copy)
        return true;
    const auto begin = reinterpret_cast<std::uintptr_t>(staged.moved + staged.movedFrom);
    const auto end = reinterpret_cast<std::uintptr_t>(staged.moved + staged.bytes);
    for (std::uintptr_t at = (begin + kPage - 1) & ~(kPage - 1); at + kPage <= end; at += kPage) {
        if ((at & (16 * kPage - 1)) == 0 && stop.load(std::memory_order_relaxed))
            return false;
        // A write: the fix loop writes there too, and a read alone may map the page read-only.
        auto *byte = reinterpret_cast<volatile char *>(at);
        *byte = *byte;
    }
    return true;
}

} // namespace TraceInspector
