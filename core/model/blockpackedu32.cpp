// SPDX-License-Identifier: MIT
#include "core/model/blockpackedu32.h"

#include <algorithm>
#include <stdexcept>

namespace TraceInspector {

BlockPackedU32::BlockPackedU32(std::span<const std::uint32_t> values)
    : m_size(values.size())
{
    if (values.size() > (std::size_t(1) << 32))
        throw std::length_error("BlockPackedU32: more than 2^32 values");
    // Blocks first, then each array at its exact size.
    m_blocks.resize((values.size() + kBlockSize - 1) / kBlockSize);
    std::size_t narrow = 0;
    std::size_t wide = 0;
    for (std::size_t first = 0, i = 0; first < values.size(); first += kBlockSize, ++i) {
        const std::span<const std::uint32_t> block = values.subspan(first, std::min(kBlockSize, values.size() - first));
        const auto [lo, hi] = std::minmax_element(block.begin(), block.end());
        Block &b = m_blocks[i];
        b.base = *lo;
        b.wide = *hi - *lo > UINT16_MAX;
        std::size_t &used = b.wide ? wide : narrow;
        b.at = static_cast<std::uint32_t>(used);
        used += block.size();
    }
    m_narrow.resize(narrow);
    m_wide.resize(wide);
    for (std::size_t first = 0, i = 0; first < values.size(); first += kBlockSize, ++i) {
        const std::span<const std::uint32_t> block = values.subspan(first, std::min(kBlockSize, values.size() - first));
        const Block &b = m_blocks[i];
        if (b.wide) {
            std::copy(block.begin(), block.end(), m_wide.begin() + b.at);
        } else {
            for (std::size_t k = 0; k < block.size(); ++k)
                m_narrow[b.at + k] = static_cast<std::uint16_t>(block[k] - b.base);
        }
    }
}

std::size_t BlockPackedU32::memoryUsage() const
{
    return m_narrow.capacity() * sizeof(std::uint16_t) + m_wide.capacity() * sizeof(std::uint32_t)
           + m_blocks.capacity() * sizeof(Block);
}

} // namespace TraceInspector
