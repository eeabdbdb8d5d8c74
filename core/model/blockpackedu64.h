// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace TraceInspector {

/// An append-only array of 64-bit values that lie close together - timestamps in time
/// order, running totals, allocation sizes - in about half the memory of a plain array.
/// Values are kept in blocks of kBlockSize: each block has a 64-bit base (its smallest
/// value) and every value's distance from that base in 32 bits; a block whose values span
/// 2^32 or more also keeps the distances' high halves, so every value is exact.
///
/// Fill with push_back(), then call finish() once before reading: the last, partial block
/// is packed only then. The memory profile and the memory chart's series keep several
/// arrays of a million such values each for the life of the window.
class BlockPackedU64
{
public:
    static constexpr std::size_t kBlockShift = 10;
    static constexpr std::size_t kBlockSize = std::size_t(1) << kBlockShift;

    /// Room for \a count values, so that filling does not grow the array; finish() gives
    /// back room that stayed largely unused.
    void reserve(std::size_t count);
    /// Inline: the memory profile and the chart's series push ~7 M values on the 1 GB trace,
    /// and a call each was a tenth of the profile's walk.
    void push_back(std::uint64_t value)
    {
        if (m_pending.empty()) [[unlikely]]
            m_pending.resize(kBlockSize);
        m_pending[m_size & kBlockMask] = value;
        if ((++m_size & kBlockMask) == 0)
            packPending(kBlockSize);
    }
    /// Packs the last block and gives back room a reserve left largely unused. Nothing may
    /// be pushed after it.
    void finish();

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint64_t operator[](std::size_t i) const
    {
        const Block &b = m_blocks[i >> kBlockShift];
        std::uint64_t distance = m_low[i];
        if (b.high != kNarrow)
            distance |= std::uint64_t(m_high[b.high + (i & (kBlockSize - 1))]) << 32;
        return b.base + distance;
    }
    std::uint64_t front() const { return (*this)[0]; }
    std::uint64_t back() const { return (*this)[m_size - 1]; }

    /// For a non-decreasing array: the first index whose value is not below \a value
    /// (std::lower_bound), or whose value is above it (std::upper_bound); size() if none.
    std::size_t lowerBound(std::uint64_t value) const;
    std::size_t upperBound(std::uint64_t value) const;

    /// Bytes held.
    std::size_t memoryUsage() const;

private:
    static constexpr std::uint32_t kNarrow = UINT32_MAX;
    static constexpr std::size_t kBlockMask = kBlockSize - 1;
    struct Block {
        std::uint64_t base = 0;
        std::uint32_t high = kNarrow; // index into m_high of the block's first value
    };
    /// Packs the first \a count values of m_pending as the next block.
    void packPending(std::size_t count);
    /// The first index whose value is at least \a value (+ 1 when \a strict).
    std::size_t firstAtLeast(std::uint64_t value, bool strict) const;

    std::vector<std::uint32_t> m_low;  // distances' low halves, of the packed blocks
    std::vector<std::uint32_t> m_high; // high halves of the wide blocks, block after block
    std::vector<Block> m_blocks;
    std::vector<std::uint64_t> m_pending; // the block being filled: kBlockSize, or empty
    std::size_t m_size = 0;               // values pushed, pending included
};

} // namespace TraceInspector
