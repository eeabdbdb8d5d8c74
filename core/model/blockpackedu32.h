// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace TraceInspector {

/// A read-only array of unsigned 32-bit values that lie close together - offsets into a
/// grouped list (a span's children, a point's changes), which grow by a few per entry - in
/// about half the memory: blocks of kBlockSize keep a 32-bit base (their smallest value) and
/// every value's distance from it in 16 bits; a block whose values span 2^16 or more (a span
/// with a hundred thousand children) keeps its values whole, so every value is exact, in no
/// more memory than a plain array: an array of mostly wide blocks (a timeline track's
/// payloads, spans and ops mixed) costs what a std::vector would. At most 2^32 values.
class BlockPackedU32
{
public:
    static constexpr std::size_t kBlockShift = 8;
    static constexpr std::size_t kBlockSize = std::size_t(1) << kBlockShift;

    BlockPackedU32() = default;
    explicit BlockPackedU32(std::span<const std::uint32_t> values);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint32_t operator[](std::size_t i) const
    {
        const Block &b = m_blocks[i >> kBlockShift];
        const std::size_t at = b.at + (i & (kBlockSize - 1));
        return b.wide ? m_wide[at] : b.base + m_narrow[at];
    }
    std::uint32_t back() const { return (*this)[size() - 1]; }
    /// Bytes held.
    std::size_t memoryUsage() const;

private:
    struct Block {
        std::uint32_t base = 0;
        std::uint32_t at = 0; // index of the block's first value in m_narrow, or m_wide if wide
        bool wide = false;
    };
    std::size_t m_size = 0;
    std::vector<std::uint16_t> m_narrow; // the narrow blocks' distances from their bases
    std::vector<std::uint32_t> m_wide;   // the values of the wide blocks, block after block
    std::vector<Block> m_blocks;
};

} // namespace TraceInspector
