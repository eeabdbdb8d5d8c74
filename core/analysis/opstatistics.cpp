// SPDX-License-Identifier: MIT
#include "core/analysis/opstatistics.h"

#include <algorithm>

#include "core/analysis/densebytes.h"
#include "core/model/trace.h"

namespace TraceInspector {

OpStatistics OpStatistics::compute(const Trace &trace)
{
    return compute(trace, TimeWindow{});
}

bool OpStatistics::overlaps(std::uint64_t timestampNs, std::uint64_t durationNs, const TimeWindow &window)
{
    if (timestampNs >= window.end)
        return false;
    const std::uint64_t end = saturatingAdd(timestampNs, durationNs);
    return std::max(end, timestampNs + 1) > window.begin;
}

OpStatistics OpStatistics::compute(const Trace &trace, const TimeWindow &window)
{
    OpStatistics stats;
    const bool all = window.isEmpty();
    constexpr std::uint32_t kNone = UINT32_MAX;
    // op names are few and interned: a flat StringId -> row table avoids hashing.
    std::vector<std::uint32_t> rowOf(trace.strings.size(), kNone);
    for (const Op &op : trace.ops) {
        if (op.opName >= rowOf.size() || (!all && !overlaps(op.timestampNs, op.durationNs, window)))
            continue;
        std::uint32_t &row = rowOf[op.opName];
        if (row == kNone) {
            row = static_cast<std::uint32_t>(stats.m_rows.size());
            OpNameStatistics fresh;
            fresh.name = op.opName;
            fresh.minNs = op.durationNs;
            fresh.maxNs = op.durationNs;
            stats.m_rows.push_back(fresh);
        }
        OpNameStatistics &r = stats.m_rows[row];
        ++r.count;
        r.totalNs = saturatingAdd(r.totalNs, op.durationNs);
        r.minNs = std::min(r.minNs, op.durationNs);
        r.maxNs = std::max(r.maxNs, op.durationNs);
        stats.m_totalNs = saturatingAdd(stats.m_totalNs, op.durationNs);
        ++stats.m_opCount;
    }
    for (OpNameStatistics &r : stats.m_rows)
        r.meanNs = static_cast<double>(r.totalNs) / static_cast<double>(r.count);
    std::sort(stats.m_rows.begin(), stats.m_rows.end(), [&trace](const OpNameStatistics &a, const OpNameStatistics &b) {
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        return trace.strings.less(a.name, b.name);
    });
    return stats;
}

std::optional<double> OpStatistics::fractionOfTotal(std::size_t row) const
{
    if (m_totalNs == 0 || row >= m_rows.size())
        return std::nullopt;
    return static_cast<double>(m_rows[row].totalNs) / static_cast<double>(m_totalNs);
}

} // namespace TraceInspector
