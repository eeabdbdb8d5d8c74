// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/analysis/bitcount.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

/// A set of interned strings, each with its rank among them (in id order): a dense index for
/// the ids of one kind (span ids, storage ids) without a table of a slot per interned string.
/// A bit per string and the count of set bits before each 64 of them: on the 1 GB trace,
/// 2.2 M strings take 0.4 MiB, where a table of one u32 per string takes 8.6 MiB.
class StringIdRanks
{
public:
    StringIdRanks() = default;
    /// An empty set for ids under \a stringCount.
    explicit StringIdRanks(std::size_t stringCount)
        : m_bits((stringCount + 63) / 64, 0)
    {
    }

    /// Adds \a id (under the string count); only before finish().
    void insert(StringId id) { m_bits[id / 64] |= std::uint64_t(1) << (id % 64); }
    /// Counts the ranks; after it, contains() and rankOf() may be asked.
    void finish()
    {
        m_rank.resize(m_bits.size());
        std::uint32_t ranked = 0;
        for (std::size_t w = 0; w < m_bits.size(); ++w) {
            m_rank[w] = ranked;
            ranked += std::uint32_t(bitCount(m_bits[w]));
        }
        m_size = ranked;
    }

    /// The number of ids in the set.
    std::uint32_t size() const { return m_size; }
    bool contains(StringId id) const
    {
        const std::size_t word = id / 64;
        return word < m_bits.size() && (m_bits[word] & (std::uint64_t(1) << (id % 64))) != 0;
    }
    /// The number of ids in the set below \a id (under the string count, unlike contains()'s):
    /// its rank when it is in the set.
    std::uint32_t rankOf(StringId id) const
    {
        const std::size_t word = id / 64;
        return m_rank[word] + std::uint32_t(bitCount(m_bits[word] & ((std::uint64_t(1) << (id % 64)) - 1)));
    }

    std::size_t memoryUsage() const
    {
        return m_bits.capacity() * sizeof(std::uint64_t) + m_rank.capacity() * sizeof(std::uint32_t);
    }

private:
    std::vector<std::uint64_t> m_bits; // set: the id is in the set
    std::vector<std::uint32_t> m_rank; // the set bits before each word
    std::uint32_t m_size = 0;
};

} // namespace TraceInspector
