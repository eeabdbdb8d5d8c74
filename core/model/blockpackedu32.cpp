// SPDX-License-Identifier: MIT
#include "core/model/blockpackedu32.h"

#include <algorithm>

namespace TraceInspector {

BlockPackedU32::BlockPackedU32(std::span<const std::uint32_t> values)
    : m_narrow(values.size())
{
    m_blocks.reserve((values.size() + kBlockSize - 1) / kBlockSize);
    for (std::size_t first = 0; first < values.size(); first += kBlockSize) {
        const std::span<const std::uint32_t> block = values.subspan(first, std::min(kBlockSize, values.size() - first));
        const auto [lo, hi] = std::minmax_element(block.begin(), block.end());
        Block b;
        b.base = *lo;
        if (*hi - *lo > UINT16_MAX) {
            b.wide = static_cast<std::uint32_t>(m_wide.size());
            m_wide.insert(m_wide.end(), block.begin(), block.end());
        } else {
            for (std::size_t k = 0; k < block.size(); ++k)
                m_narrow[first + k] = static_cast<std::uint16_t>(block[k] - b.base);
        }
        m_blocks.push_back(b);
    }
}

std::size_t BlockPackedU32::memoryUsage() const
{
    return m_narrow.capacity() * sizeof(std::uint16_t) + m_wide.capacity() * sizeof(std::uint32_t)
           + m_blocks.capacity() * sizeof(Block);
}

} // namespace TraceInspector
