// SPDX-License-Identifier: MIT
#include "core/model/blockpackedu64.h"

#include <algorithm>

namespace TraceInspector {

void BlockPackedU64::reserve(std::size_t count)
{
    m_low.reserve(count);
}

void BlockPackedU64::finish()
{
    if ((m_size & kBlockMask) != 0 && !m_pending.empty()) // not packed by an earlier finish()
        packPending(m_size & kBlockMask);
    std::vector<std::uint64_t>().swap(m_pending);
    // A reserve that was an upper bound (the memory profile's changes) leaves room that
    // was never written; more than an eighth of it is worth a copy.
    if (m_low.capacity() - m_low.size() > m_low.capacity() / 8)
        m_low.shrink_to_fit();
    m_high.shrink_to_fit();
    m_blocks.shrink_to_fit();
}

void BlockPackedU64::packPending(std::size_t count)
{
    const std::uint64_t *values = m_pending.data();
    const auto [lo, hi] = std::minmax_element(values, values + count);
    Block block;
    block.base = *lo;
    // Plain loops over sized arrays, which the compiler vectorizes (a push_back each did not).
    const std::size_t at = m_low.size();
    m_low.resize(at + count);
    std::uint32_t *low = m_low.data() + at;
    for (std::size_t k = 0; k < count; ++k)
        low[k] = static_cast<std::uint32_t>(values[k] - block.base);
    if (*hi - *lo > UINT32_MAX) {
        block.high = static_cast<std::uint32_t>(m_high.size());
        m_high.resize(block.high + count);
        std::uint32_t *high = m_high.data() + block.high;
        for (std::size_t k = 0; k < count; ++k)
            high[k] = static_cast<std::uint32_t>((values[k] - block.base) >> 32);
    }
    m_blocks.push_back(block);
}

std::size_t BlockPackedU64::firstAtLeast(std::uint64_t value, bool strict) const
{
    // A block's base is its first value when the array does not decrease: the blocks before
    // the first one starting at or past the value hold every candidate but that block's start.
    const auto below = [&](std::uint64_t v) { return strict ? v <= value : v < value; };
    const auto next =
        std::partition_point(m_blocks.begin(), m_blocks.end(), [&](const Block &b) { return below(b.base); });
    std::size_t block = static_cast<std::size_t>(next - m_blocks.begin());
    if (block == 0)
        return 0;
    --block;
    std::size_t lo = block << kBlockShift;
    std::size_t hi = std::min(m_size, lo + kBlockSize);
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (below((*this)[mid]))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

std::size_t BlockPackedU64::lowerBound(std::uint64_t value) const
{
    return firstAtLeast(value, false);
}

std::size_t BlockPackedU64::upperBound(std::uint64_t value) const
{
    return firstAtLeast(value, true);
}

std::size_t BlockPackedU64::memoryUsage() const
{
    return m_low.capacity() * sizeof(std::uint32_t) + m_high.capacity() * sizeof(std::uint32_t)
           + m_blocks.capacity() * sizeof(Block) + m_pending.capacity() * sizeof(std::uint64_t);
}

} // namespace TraceInspector
