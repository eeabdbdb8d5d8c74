// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace TraceInspector {

/// A fixed-size array of \a Wide values, each kept as a \a Narrow, with the few that do not
/// fit kept aside whole ("escaped"): a value of at least the largest \a Narrow stores that
/// largest value, and a sorted list holds its real value. For values that are small nearly
/// always but not always - a span's device busy time in ns (beyond 4.3 s only for the few
/// outermost spans), its interval count - where NarrowU32Array's all-or-nothing choice would
/// make every value wide for a handful of large ones, and block-wise packing would make every
/// block wide, since the large values are scattered over the whole array.
///
/// Filled with set() in any order, then finish(); read with operator[] after that. At most
/// 2^32 values: an escaped value's index is kept in 32 bits.
template<typename Narrow, typename Wide>
class EscapedNarrowArray
{
    static_assert(std::numeric_limits<Narrow>::is_integer && !std::numeric_limits<Narrow>::is_signed);
    static_assert(std::numeric_limits<Wide>::is_integer && !std::numeric_limits<Wide>::is_signed);
    static_assert(sizeof(Narrow) < sizeof(Wide));

public:
    EscapedNarrowArray() = default;
    /// \a size values of 0.
    explicit EscapedNarrowArray(std::size_t size) { resize(size); }

    std::size_t size() const { return m_narrow.size(); }
    bool empty() const { return m_narrow.empty(); }
    /// Grows (with zeros) or shrinks the array; before finish() only.
    void resize(std::size_t size)
    {
        if (size > kMaxSize)
            throw std::length_error("EscapedNarrowArray: more than 2^32 values");
        m_narrow.resize(size, 0);
    }
    /// Value \a i is \a value from now on; before finish() only.
    void set(std::size_t i, Wide value)
    {
        if (value < kEscape) {
            m_narrow[i] = static_cast<Narrow>(value);
            return;
        }
        m_narrow[i] = kEscape;
        m_escaped.push_back({static_cast<std::uint32_t>(i), value});
    }
    /// Sorts the escaped values by index; of an index set more than once the last value counts.
    void finish()
    {
        std::stable_sort(m_escaped.begin(), m_escaped.end(),
                         [](const Escaped &a, const Escaped &b) { return a.index < b.index; });
        // Keep the last of each run of one index (set() later replaced the earlier ones), and
        // drop the escapes of values that a later narrow set() replaced.
        std::size_t kept = 0;
        for (std::size_t k = 0; k < m_escaped.size(); ++k) {
            const bool lastOfIndex = k + 1 == m_escaped.size() || m_escaped[k + 1].index != m_escaped[k].index;
            if (lastOfIndex && m_narrow[m_escaped[k].index] == kEscape)
                m_escaped[kept++] = m_escaped[k];
        }
        m_escaped.resize(kept);
        m_escaped.shrink_to_fit();
    }
    Wide operator[](std::size_t i) const
    {
        const Narrow n = m_narrow[i];
        if (n != kEscape) [[likely]]
            return n;
        const auto it = std::lower_bound(m_escaped.begin(), m_escaped.end(), i,
                                         [](const Escaped &e, std::size_t wanted) { return e.index < wanted; });
        return it->value;
    }
    /// How many values are kept aside.
    std::size_t escapedCount() const { return m_escaped.size(); }
    /// Bytes held.
    std::size_t memoryUsage() const
    {
        return m_narrow.capacity() * sizeof(Narrow) + m_escaped.capacity() * sizeof(Escaped);
    }

private:
    static constexpr Narrow kEscape = std::numeric_limits<Narrow>::max();
    static constexpr std::size_t kMaxSize = std::size_t(1) << 32;
    // 8 bytes for a 32-bit value: a track of spans keeps ~12 % of its lengths here.
    struct Escaped {
        std::uint32_t index;
        Wide value;
    };
    std::vector<Narrow> m_narrow;
    std::vector<Escaped> m_escaped;
};

} // namespace TraceInspector
