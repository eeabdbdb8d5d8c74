// SPDX-License-Identifier: MIT
#include "core/diff/opgroupcounterpart.h"

#include <string>
#include <unordered_map>

#include "core/analysis/opstatistics.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

/// The row's group as text; a NUL separates the parts (no name holds one in practice, and a
/// collision would only pair two rows that print the same).
std::string groupKey(const Trace &trace, const OpNameStatistics &row, bool detailed)
{
    std::string key(trace.str(row.name));
    if (!detailed)
        return key;
    key += '\0';
    if (row.shape < trace.shapes.size()) {
        for (const std::uint64_t d : trace.shapes.view(row.shape)) {
            key += std::to_string(d);
            key += ',';
        }
    }
    key += '\0';
    key += trace.str(row.dtype);
    key += '\0';
    key += trace.str(row.device);
    return key;
}

} // namespace

OpGroupCounterpart OpGroupCounterpart::compute(const Trace &baseline, const OpStatistics &baselineStats,
                                               const Trace &candidate, const OpStatistics &candidateStats)
{
    OpGroupCounterpart result;
    result.baselineRow.assign(candidateStats.rows().size(), kNone);
    if (baselineStats.grouping() != candidateStats.grouping())
        return result;
    const bool detailed = candidateStats.grouping() == OpGrouping::NameShapeDtypeDevice;
    std::unordered_map<std::string, std::uint32_t> byKey;
    byKey.reserve(baselineStats.rows().size());
    for (std::size_t i = 0; i < baselineStats.rows().size(); ++i)
        byKey.emplace(groupKey(baseline, baselineStats.rows()[i], detailed), std::uint32_t(i));
    for (std::size_t i = 0; i < candidateStats.rows().size(); ++i) {
        const auto it = byKey.find(groupKey(candidate, candidateStats.rows()[i], detailed));
        if (it != byKey.end())
            result.baselineRow[i] = it->second;
    }
    return result;
}

} // namespace TraceInspector
