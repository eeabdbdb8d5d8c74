// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
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
        void *p = ::mremap(m_data, bytes(m_count), bytes(count), MREMAP_MAYMOVE);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        m_data = static_cast<T *>(p);
        m_count = count;
        advise();
    }
    /// Gives the whole pages under the first \a count elements back to the kernel; those
    /// elements read as zero from here on. For an array read once front to back and dropped.
    void discardFront(std::size_t count)
    {
        constexpr std::size_t kPage = 4096;
        const std::size_t length = std::min(count, m_count) * sizeof(T) / kPage * kPage;
        if (length > 0)
            ::madvise(m_data, length, MADV_DONTNEED);
    }
    T &operator[](std::size_t i) { return m_data[i]; }
    const T &operator[](std::size_t i) const { return m_data[i]; }
    std::size_t size() const { return m_count; }
    std::size_t memoryUsage() const { return bytes(m_count); }

private:
    static std::size_t bytes(std::size_t count) { return count ? count * sizeof(T) : 1; }
    void allocate(std::size_t count)
    {
        void *p = ::mmap(nullptr, bytes(count), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        m_data = static_cast<T *>(p);
        m_count = count;
        advise();
    }
    void advise()
    {
#ifdef MADV_HUGEPAGE
        if (bytes(m_count) >= (std::size_t(2) << 20))
            ::madvise(m_data, bytes(m_count), MADV_HUGEPAGE);
#endif
    }
    void release()
    {
        if (m_data)
            ::munmap(m_data, bytes(m_count));
        m_data = nullptr;
        m_count = 0;
    }

    T *m_data = nullptr;
    std::size_t m_count = 0;
};

} // namespace TraceInspector
