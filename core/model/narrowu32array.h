// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace TraceInspector {

/// A read-only array of unsigned 32-bit values kept in 2 bytes each when every one of them
/// is below 2^16, else in 4. For indices that are nearly always small - memory slots, tree
/// depths, positions among siblings - of which the analyses of a 1 GB trace keep millions
/// for the life of the window, while a hostile trace (a million devices, a chain of a million
/// spans) still gets every value exact.
class NarrowU32Array
{
public:
    NarrowU32Array() = default;
    explicit NarrowU32Array(std::span<const std::uint32_t> values)
    {
        if (std::all_of(values.begin(), values.end(), [](std::uint32_t v) { return v <= UINT16_MAX; }))
            m_narrow.assign(values.begin(), values.end());
        else
            m_wide.assign(values.begin(), values.end());
    }

    /// Takes \a narrow over as the values, without a copy: for an array built 2 bytes a value
    /// from the start (its room beyond the values, if any, is kept and counted).
    explicit NarrowU32Array(std::vector<std::uint16_t> narrow)
        : m_narrow(std::move(narrow))
    {
    }

    std::size_t size() const { return m_wide.empty() ? m_narrow.size() : m_wide.size(); }
    bool empty() const { return size() == 0; }
    std::uint32_t operator[](std::size_t i) const { return m_wide.empty() ? m_narrow[i] : m_wide[i]; }
    /// Bytes held.
    std::size_t memoryUsage() const
    {
        return m_narrow.capacity() * sizeof(std::uint16_t) + m_wide.capacity() * sizeof(std::uint32_t);
    }

private:
    std::vector<std::uint16_t> m_narrow;
    std::vector<std::uint32_t> m_wide;
};

} // namespace TraceInspector
