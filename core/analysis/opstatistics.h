// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/model/shapetable.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;
class SpanTree;
class SpanIdIndex;

/// How op records are grouped into aggregate rows.
enum class OpGrouping : std::uint8_t {
    Name,                 ///< one row per op_name
    NameShapeDtypeDevice, ///< one row per (op_name, output shape, dtype, device)
};

/// Per-group aggregate of a trace's `op` records. shape/dtype/device are set only when
/// grouping by them (0 / kNoString otherwise).
struct OpNameStatistics {
    StringId name = kNoString;
    ShapeId shape = 0;
    StringId dtype = kNoString;
    StringId device = kNoString;
    std::uint64_t count = 0;
    std::uint64_t totalNs = 0; // saturating
    std::uint64_t minNs = 0;
    std::uint64_t maxNs = 0;
    double meanNs = 0;
    /// input_dense_bytes + output_dense_bytes (when known) summed over the group (saturating).
    std::uint64_t bytesMoved = 0;
    /// Sum of each op's duration / its span's duration, over the ops whose span is closed
    /// with a non-zero duration (shareCount of them).
    double parentShareSum = 0;
    std::uint64_t shareCount = 0;

    /// bytesMoved / totalNs; none when no time was recorded.
    std::optional<double> bytesPerNs() const;
    /// Mean share of the owning span's host time; none when no op has a closed span.
    std::optional<double> meanParentShare() const;
};

/// Bytes an op moved: its dense inputs plus its dense output when that is known.
std::uint64_t opBytesMoved(std::uint64_t inputDenseBytes, std::uint64_t outputDenseBytes, bool hasOutput);

/// Op durations, bytes and parent shares aggregated in one O(n) pass.
///
/// Rows are ordered by total time, longest first, ties by name (byte-wise), then shape,
/// dtype and device.
class OpStatistics
{
public:
    OpStatistics() = default;
    /// \a tree (of the same trace) resolves each op's span; without it spans are found by id.
    /// A non-empty \a window takes only the ops whose run overlaps it (a zero-length op counts
    /// where it starts).
    static OpStatistics compute(const Trace &trace, OpGrouping grouping = OpGrouping::Name,
                                const SpanTree *tree = nullptr, const TimeWindow &window = {});
    /// By name, over the ops that overlap \a window (every op for an empty window).
    static OpStatistics compute(const Trace &trace, const TimeWindow &window)
    {
        return compute(trace, OpGrouping::Name, nullptr, window);
    }
    /// By name, every op, with \a ids (the trace's span id index) resolving each op's span:
    /// the loader's first op table, made before the span tree, which then takes the index over.
    static OpStatistics compute(const Trace &trace, const SpanIdIndex &ids);
    /// Whether op run [timestamp, timestamp + duration) overlaps \a window.
    static bool overlaps(std::uint64_t timestampNs, std::uint64_t durationNs, const TimeWindow &window);

    OpGrouping grouping() const { return m_grouping; }

    const std::vector<OpNameStatistics> &rows() const { return m_rows; }
    std::size_t opCount() const { return m_opCount; }
    /// Sum of all op durations (saturating); the reference of fractionOfTotal().
    std::uint64_t totalNs() const { return m_totalNs; }
    /// rows()[row].totalNs / totalNs(), or nullopt when totalNs() is 0.
    std::optional<double> fractionOfTotal(std::size_t row) const;

private:
    static OpStatistics compute(const Trace &trace, OpGrouping grouping, const SpanTree *tree, const SpanIdIndex *ids,
                                const TimeWindow &window);

    std::vector<OpNameStatistics> m_rows;
    OpGrouping m_grouping = OpGrouping::Name;
    std::size_t m_opCount = 0;
    std::uint64_t m_totalNs = 0;
};

} // namespace TraceInspector
