// SPDX-License-Identifier: MIT
#include "core/io/readrange.h"

#include <algorithm>
#include <cstring>
#include <unistd.h>

namespace TraceInspector {

ReadRange::ReadRange(std::uint64_t begin, std::uint64_t end)
    : m_begin(begin)
    , m_claimed(begin)
    , m_end(std::max(begin, end))
{
}

ReadRange::ReadRange(const ReadRange &other)
    : m_begin(other.m_begin)
{
    const std::lock_guard lock(other.m_mutex);
    m_claimed = other.m_claimed;
    m_end = other.m_end;
}

std::uint64_t ReadRange::end() const
{
    const std::lock_guard lock(m_mutex);
    return m_end;
}

std::uint64_t ReadRange::unclaimed() const
{
    const std::lock_guard lock(m_mutex);
    return m_end - m_claimed;
}

std::uint64_t ReadRange::claim(std::uint64_t offset, std::uint64_t want)
{
    const std::lock_guard lock(m_mutex);
    offset = std::clamp(offset, m_begin, m_end);
    const std::uint64_t granted = std::min(want, m_end - offset);
    m_claimed = std::max(m_claimed, offset + granted);
    return granted;
}

std::optional<ReadRange> ReadRange::takeBackPart(int fd, std::uint64_t minBytes)
{
    std::uint64_t claimed = 0;
    std::uint64_t end = 0;
    {
        const std::lock_guard lock(m_mutex);
        claimed = m_claimed;
        end = m_end;
    }
    if (end - claimed < std::max<std::uint64_t>(minBytes, 2))
        return std::nullopt;
    // The search reads the file outside the lock: the owner goes on meanwhile.
    const std::optional<std::uint64_t> split = afterNextNewline(fd, claimed + (end - claimed) / 2, end);
    if (!split || *split >= end)
        return std::nullopt;
    const std::lock_guard lock(m_mutex);
    if (m_claimed > *split || m_end != end)
        return std::nullopt;
    m_end = *split;
    return ReadRange(*split, end);
}

std::optional<std::uint64_t> afterNextNewline(int fd, std::uint64_t from, std::uint64_t end)
{
    char window[4096];
    while (from < end) {
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof window, end - from));
        const ssize_t n = ::pread(fd, window, want, static_cast<off_t>(from));
        if (n <= 0)
            return std::nullopt;
        if (const void *nl = std::memchr(window, '\n', static_cast<std::size_t>(n)))
            return from + static_cast<std::uint64_t>(static_cast<const char *>(nl) - window) + 1;
        from += static_cast<std::uint64_t>(n);
    }
    return std::nullopt;
}

} // namespace TraceInspector
