// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/logicalmemorykeys.h"

namespace TraceInspector {

struct Trace;
struct MemoryProfile;

/// §8.3 metrics of one graph node; each member none when not set.
struct NodeMemoryMetrics {
    std::optional<std::uint64_t> directAllocatedBytes;
    std::optional<std::uint64_t> subtreePeakLiveBytes;
    std::optional<std::uint64_t> subtreeResidualBytes;
    std::optional<std::uint64_t> outputDenseBytes;

    bool empty() const
    {
        return !directAllocatedBytes && !subtreePeakLiveBytes && !subtreeResidualBytes && !outputDenseBytes;
    }
    friend bool operator==(const NodeMemoryMetrics &, const NodeMemoryMetrics &) = default;
};

/// (span id, per-span op index) → op node id. Ops not in the map get `{span_id}/op/{n}`.
using OpNodeIdMap = std::map<std::pair<std::string, std::uint64_t>, std::string>;

/// The §8.3 result, a map node id → metrics, kept compactly: per-span values in an array
/// aligned with Trace::spans, op output sizes read from the trace, op attributions keyed by
/// mapped id. find() and toMap() give exactly the §8.3 map (including the corner cases where
/// a mapped op id equals a span id or another op's id). Refers to the Trace.
class NodeMemoryMetricsTable
{
public:
    /// The §8.3 entry for \a nodeId; none when the map has no such entry.
    std::optional<NodeMemoryMetrics> find(const Trace &trace, std::string_view nodeId) const;
    /// The entry of the node named like span \a spanIndex (empty metrics when none).
    NodeMemoryMetrics forSpan(const Trace &trace, std::size_t spanIndex) const;
    /// The entry of op \a opIndex's node (empty metrics when none).
    NodeMemoryMetrics forOp(const Trace &trace, std::size_t opIndex) const;
    /// Node id of op \a opIndex: its mapped id or `{span_id}/op/{n}`.
    std::string opNodeId(const Trace &trace, std::size_t opIndex) const;
    /// Per-span number of op \a opIndex among its span's ops, in stream order.
    std::uint32_t opIndexInSpan(std::size_t opIndex) const { return m_opIndexInSpan[opIndex]; }
    /// Every entry, keyed byte-wise (allocates a string per node: small traces, tests).
    std::map<std::string, NodeMemoryMetrics> toMap(const Trace &trace) const;

private:
    friend NodeMemoryMetricsTable nodeMemoryMetrics(const Trace &, const MemoryProfile &, const OpNodeIdMap &);
    struct SpanValues {
        std::uint64_t direct = 0;
        std::uint64_t peak = 0;
        std::uint64_t residual = 0;
        std::uint8_t flags = 0; // 1 direct, 2 peak + residual
    };
    static constexpr std::uint32_t kUnmapped = UINT32_MAX;

    std::optional<std::uint64_t> lastOutputDense(const Trace &trace, std::string_view nodeId) const;

    std::vector<std::uint32_t> m_opIndexInSpan;
    std::vector<std::uint32_t> m_opMapped; // per op: index into m_mappedIds or kUnmapped
    std::vector<std::string> m_mappedIds;
    std::unordered_map<std::string, std::uint32_t> m_lastMappedResolvingOp; // mapped id → last op with a size
    std::map<std::string, std::uint64_t, std::less<>> m_opDirect;           // §8.3 step 4, by mapped id
    DenseKeyIndex m_opBySpanAndIndex;                                       // (span StringId, n) → op index
    std::vector<SpanValues> m_spans;                                        // aligned with Trace::spans
    DenseKeyIndex m_spanById;                                               // span StringId → span index
};

/// TRACE_FORMAT.md §8.3. \a mapping may be empty (then no op attribution happens: only
/// mapped op ids take part in step 4).
NodeMemoryMetricsTable nodeMemoryMetrics(const Trace &trace, const MemoryProfile &memory,
                                         const OpNodeIdMap &mapping = {});

} // namespace TraceInspector
