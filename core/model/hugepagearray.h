// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <type_traits>
#include <utility>

namespace TraceInspector {

/// A zero-initialised array of trivially copyable T in anonymous memory that asks the
/// kernel for transparent huge pages. Hash tables of a multi-GB trace are probed at
/// random; with 4 KiB pages nearly every probe is also a TLB miss.
template<typename T>
class HugePageArray
{
    static_assert(std::is_trivially_copyable_v<T>);

public:
    HugePageArray() = default;
    explicit HugePageArray(std::size_t count) { allocate(count); }
    HugePageArray(const HugePageArray &) = delete;
    HugePageArray &operator=(const HugePageArray &) = delete;
    HugePageArray(HugePageArray &&o) noexcept { *this = std::move(o); }
    HugePageArray &operator=(HugePageArray &&o) noexcept
    {
        if (this != &o) {
            release();
            m_data = std::exchange(o.m_data, nullptr);
            m_count = std::exchange(o.m_count, 0);
        }
        return *this;
    }
    ~HugePageArray() { release(); }

    /// Grows (or shrinks) to \a count elements, keeping the common prefix; new ones are 0.
    void resize(std::size_t count)
    {
        if (!m_data) {
            allocate(count);
            return;
        }
        const std::size_t from = mappedBytes(m_count);
        const std::size_t to = mappedBytes(count);
        if (to < from) {
            ::mremap(m_data, from, to, 0); // shrinking in place cannot fail
            // Elements cut off but still in the last page kept would be back if it grew again.
            const std::size_t kept = count * sizeof(T);
            const std::size_t end = std::min(m_count * sizeof(T), to);
            if (end > kept)
                std::memset(reinterpret_cast<char *>(m_data) + kept, 0, end - kept);
        } else if (to > from) {
            m_data = static_cast<T *>(grown(from, to, m_count * sizeof(T)));
        }
        m_count = count;
    }
    /// Gives the whole pages under the first \a count elements back to the kernel; those
    /// elements read as zero from here on. For an array read once front to back and dropped.
    void discardFront(std::size_t count)
    {
        const std::size_t length = std::min(count, m_count) * sizeof(T) / kPage * kPage;
        if (length > 0)
            ::madvise(m_data, length, MADV_DONTNEED);
    }
    T &operator[](std::size_t i) { return m_data[i]; }
    const T &operator[](std::size_t i) const { return m_data[i]; }
    std::size_t size() const { return m_count; }
    std::size_t memoryUsage() const { return bytes(m_count); }

private:
    static constexpr std::size_t kHuge = std::size_t(2) << 20;
    static constexpr std::size_t kPage = 4096;

    static std::size_t bytes(std::size_t count) { return count ? count * sizeof(T) : 1; }
    static std::size_t mappedBytes(std::size_t count) { return (bytes(count) + kPage - 1) / kPage * kPage; }

    /// A fresh mapping of \a length bytes (whole pages); from one huge page on it starts on a
    /// 2 MiB boundary, so that its first 2 MiB is a huge page too (a mapping that does not
    /// fill its last huge page may start anywhere: 4 KiB pages up to the first boundary,
    /// ~450 faults for each reading thread's string table on the 1 GB trace). Its end stays
    /// where it is: the last huge page the array only partly fills is in 4 KiB pages.
    static void *map(std::size_t length)
    {
        const std::size_t room = length >= kHuge ? length + kHuge : length;
        void *p = ::mmap(nullptr, room, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        if (room == length)
            return p;
        const auto first = reinterpret_cast<std::uintptr_t>(p);
        const std::uintptr_t start = (first + kHuge - 1) & ~std::uintptr_t(kHuge - 1);
        if (start > first)
            ::munmap(p, start - first);
        if (const std::size_t after = first + room - (start + length); after > 0)
            ::munmap(reinterpret_cast<void *>(start + length), after);
#ifdef MADV_HUGEPAGE
        ::madvise(reinterpret_cast<void *>(start), length, MADV_HUGEPAGE); // before any write
#endif
        return reinterpret_cast<void *>(start);
    }
    void allocate(std::size_t count)
    {
        m_data = static_cast<T *>(map(mappedBytes(count)));
        m_count = count;
    }
    /// The array's mapping grown from \a from to \a to bytes, the first \a keep kept.
    void *grown(std::size_t from, std::size_t to, std::size_t keep)
    {
        if (to < kHuge) {
            void *p = ::mremap(m_data, from, to, MREMAP_MAYMOVE);
            if (p != MAP_FAILED)
                return p;
        } else if (from >= kHuge) {
            // In place, or its pages moved to a fresh place on a boundary: never copied. The
            // mapping keeps its huge-page advice (map()) through mremap().
            void *p = ::mremap(m_data, from, to, 0);
            if (p == MAP_FAILED) {
                void *fresh = map(to);
                p = ::mremap(m_data, from, to, MREMAP_MAYMOVE | MREMAP_FIXED, fresh);
                if (p == MAP_FAILED)
                    ::munmap(fresh, to);
            }
            if (p != MAP_FAILED)
                return p;
        }
        // Grown out of small pages (or a move refused): the few small pages are copied into
        // a fresh mapping, whose first huge page they then start.
        void *fresh = map(to);
        std::memcpy(fresh, m_data, std::min(keep, from));
        ::munmap(m_data, from);
        return fresh;
    }
    void release()
    {
        if (m_data)
            ::munmap(m_data, mappedBytes(m_count));
        m_data = nullptr;
        m_count = 0;
    }

    T *m_data = nullptr;
    std::size_t m_count = 0;
};

} // namespace TraceInspector
