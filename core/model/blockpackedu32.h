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
/// with a hundred thousand children) keeps its values whole, so every value is exact.
class BlockPackedU32
{
public:
    static constexpr std::size_t kBlockShift = 8;
    static constexpr std::size_t kBlockSize = std::size_t(1) << kBlockShift;

    BlockPackedU32() = default;
    explicit BlockPackedU32(std::span<const std::uint32_t> values);

    std::size_t size() const { return m_narrow.size(); }
    bool empty() const { return m_narrow.empty(); }
    std::uint32_t operator[](std::size_t i) const
    {
        const Block &b = m_blocks[i >> kBlockShift];
        return b.wide == kNarrow ? b.base + m_narrow[i] : m_wide[b.wide + (i & (kBlockSize - 1))];
    }
    std::uint32_t back() const { return (*this)[size() - 1]; }
    /// Bytes held.
    std::size_t memoryUsage() const;

private:
    static constexpr std::uint32_t kNarrow = UINT32_MAX;
    struct Block {
        std::uint32_t base = 0;
        std::uint32_t wide = kNarrow; // index into m_wide of the block's first value
    };
    std::vector<std::uint16_t> m_narrow; // distances from the block's base (0 in a wide block)
    std::vector<std::uint32_t> m_wide;   // the values of the wide blocks, block after block
    std::vector<Block> m_blocks;
};

} // namespace TraceInspector
