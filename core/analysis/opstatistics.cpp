// SPDX-License-Identifier: MIT
#include "core/analysis/opstatistics.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/densebytes.h"
#include "core/analysis/logicalmemorykeys.h"
#include "core/analysis/spanidindex.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

struct GroupKey {
    std::uint64_t nameShape;
    std::uint64_t dtypeDevice;
    bool operator==(const GroupKey &) const = default;
};

struct GroupKeyHash {
    std::size_t operator()(const GroupKey &k) const
    {
        return std::hash<std::uint64_t>()(k.nameShape * 0x9E3779B97F4A7C15ULL ^ k.dtypeDevice);
    }
};

} // namespace

std::uint64_t opBytesMoved(std::uint64_t inputDenseBytes, std::uint64_t outputDenseBytes, bool hasOutput)
{
    return hasOutput ? saturatingAdd(inputDenseBytes, outputDenseBytes) : inputDenseBytes;
}

std::optional<double> OpNameStatistics::bytesPerNs() const
{
    if (totalNs == 0)
        return std::nullopt;
    return static_cast<double>(bytesMoved) / static_cast<double>(totalNs);
}

std::optional<double> OpNameStatistics::meanParentShare() const
{
    if (shareCount == 0)
        return std::nullopt;
    return parentShareSum / static_cast<double>(shareCount);
}

bool OpStatistics::overlaps(std::uint64_t timestampNs, std::uint64_t durationNs, const TimeWindow &window)
{
    if (timestampNs >= window.end)
        return false;
    const std::uint64_t end = saturatingAdd(timestampNs, durationNs);
    return std::max(end, timestampNs + 1) > window.begin;
}

OpStatistics OpStatistics::compute(const Trace &trace, OpGrouping grouping, const SpanTree *tree,
                                   const TimeWindow &window)
{
    return compute(trace, grouping, tree, nullptr, window);
}

OpStatistics OpStatistics::compute(const Trace &trace, const SpanIdIndex &ids)
{
    return compute(trace, OpGrouping::Name, nullptr, &ids, {});
}

OpStatistics OpStatistics::compute(const Trace &trace, OpGrouping grouping, const SpanTree *tree,
                                   const SpanIdIndex *ids, const TimeWindow &window)
{
    OpStatistics stats;
    const bool all = window.isEmpty();
    stats.m_grouping = grouping;
    if (tree && (tree->opCount() != trace.ops.size() || tree->spanCount() != trace.spans.size()))
        tree = nullptr;
    // Op names are few: a small hash of them, not a table of one slot per string (9 MB of
    // fresh memory on the 1 GB trace, before the window's first panel).
    DenseKeyIndex rowOfName(64);
    std::unordered_map<GroupKey, std::uint32_t, GroupKeyHash> rowOfKey;
    // Without a tree, the span id index finds each op's span in O(1).
    SpanIdIndex ownIds;
    if (!tree && !(ids && ids->covers(trace))) {
        ownIds = SpanIdIndex::build(trace);
        ids = &ownIds;
    }
    for (std::size_t i = 0; i < trace.ops.size(); ++i) {
        const Op &op = trace.ops[i];
        if (!all && !overlaps(op.timestampNs, op.durationNs, window))
            continue;
        // A key's row is its place in first appearance: a new key's is the next row.
        const auto nextRow = static_cast<std::uint32_t>(stats.m_rows.size());
        std::uint32_t row = 0;
        if (grouping == OpGrouping::Name) {
            if (op.opName >= trace.strings.size())
                continue;
            row = rowOfName.insert(op.opName);
        } else {
            const GroupKey key{(std::uint64_t(op.opName) << 32) | op.shape,
                               (std::uint64_t(op.dtype) << 32) | op.device};
            row = rowOfKey.try_emplace(key, nextRow).first->second;
        }
        if (row == nextRow) {
            OpNameStatistics fresh;
            fresh.name = op.opName;
            if (grouping == OpGrouping::NameShapeDtypeDevice) {
                fresh.shape = op.shape;
                fresh.dtype = op.dtype;
                fresh.device = op.device;
            }
            fresh.minNs = op.durationNs;
            fresh.maxNs = op.durationNs;
            stats.m_rows.push_back(fresh);
        }
        OpNameStatistics &r = stats.m_rows[row];
        ++r.count;
        r.totalNs = saturatingAdd(r.totalNs, op.durationNs);
        r.minNs = std::min(r.minNs, op.durationNs);
        r.maxNs = std::max(r.maxNs, op.durationNs);
        r.bytesMoved =
            saturatingAdd(r.bytesMoved, opBytesMoved(op.inputDenseBytes, op.outputDenseBytes, op.hasOutputDenseBytes));
        const std::uint32_t span = tree ? tree->spanOfOp(i) : ids->spanOf(op.spanId);
        if (span != kNone && span < trace.spans.size()) {
            const Span &s = trace.spans[span];
            if (s.closed && s.durationNs > 0) {
                r.parentShareSum += static_cast<double>(op.durationNs) / static_cast<double>(s.durationNs);
                ++r.shareCount;
            }
        }
        stats.m_totalNs = saturatingAdd(stats.m_totalNs, op.durationNs);
        ++stats.m_opCount;
    }
    for (OpNameStatistics &r : stats.m_rows)
        r.meanNs = static_cast<double>(r.totalNs) / static_cast<double>(r.count);
    std::sort(stats.m_rows.begin(), stats.m_rows.end(), [&trace](const OpNameStatistics &a, const OpNameStatistics &b) {
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        if (a.name != b.name)
            return trace.strings.less(a.name, b.name);
        if (a.shape != b.shape) {
            const auto sa = trace.shapes.view(a.shape);
            const auto sb = trace.shapes.view(b.shape);
            if (!std::equal(sa.begin(), sa.end(), sb.begin(), sb.end()))
                return std::lexicographical_compare(sa.begin(), sa.end(), sb.begin(), sb.end());
        }
        if (a.dtype != b.dtype)
            return trace.strings.less(a.dtype, b.dtype);
        return trace.strings.less(a.device, b.device);
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
