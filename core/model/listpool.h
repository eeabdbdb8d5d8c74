// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/model/hugepages.h"

namespace TraceInspector {

/// A slice of a ListPool: where a variable-length list (op inputs, a shape) lives.
struct ListRef {
    std::uint32_t offset = 0;
    std::uint32_t count = 0;
};

/// Flat storage for many short lists of T; records keep an 8-byte ListRef instead of a
/// std::vector each (24 bytes plus a heap block).
template<typename T>
class ListPool
{
public:
    ListRef append(std::span<const T> items)
    {
        ListRef ref{static_cast<std::uint32_t>(m_items.size()), static_cast<std::uint32_t>(items.size())};
        m_items.insert(m_items.end(), items.begin(), items.end());
        return ref;
    }
    std::span<const T> view(ListRef ref) const { return {m_items.data() + ref.offset, ref.count}; }
    /// Items of all lists together.
    std::size_t size() const { return m_items.size(); }
    /// Makes room for \a count items in all, \a expected of them sure to come (reserveHuge()).
    /// The op inputs of a 1 GB trace grew by doubling: each growth copied them all into
    /// fresh 4 KiB pages (a fifth of the read's page faults).
    void reserve(std::size_t count, std::size_t expected = 0) { reserveHuge(m_items, count, expected); }
    std::size_t memoryUsage() const { return m_items.capacity() * sizeof(T); }
    void shrinkToFit() { m_items.shrink_to_fit(); }

private:
    std::vector<T> m_items;
};

} // namespace TraceInspector
