// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;

/// Per-op-name aggregate of a trace's `op` records.
struct OpNameStatistics {
    StringId name = kNoString;
    std::uint64_t count = 0;
    std::uint64_t totalNs = 0; // saturating
    std::uint64_t minNs = 0;
    std::uint64_t maxNs = 0;
    double meanNs = 0;
};

/// Op durations aggregated by `op_name` in one O(n) pass.
///
/// Rows are ordered by total time, longest first, ties by name (byte-wise).
class OpStatistics
{
public:
    OpStatistics() = default;
    static OpStatistics compute(const Trace &trace);
    /// The same over the ops whose run overlaps \a window (a zero-length op counts where it
    /// starts); an empty window takes every op.
    static OpStatistics compute(const Trace &trace, const TimeWindow &window);
    /// Whether op run [timestamp, timestamp + duration) overlaps \a window.
    static bool overlaps(std::uint64_t timestampNs, std::uint64_t durationNs, const TimeWindow &window);

    const std::vector<OpNameStatistics> &rows() const { return m_rows; }
    std::size_t opCount() const { return m_opCount; }
    /// Sum of all op durations (saturating); the reference of fractionOfTotal().
    std::uint64_t totalNs() const { return m_totalNs; }
    /// rows()[row].totalNs / totalNs(), or nullopt when totalNs() is 0.
    std::optional<double> fractionOfTotal(std::size_t row) const;

private:
    std::vector<OpNameStatistics> m_rows;
    std::size_t m_opCount = 0;
    std::uint64_t m_totalNs = 0;
};

} // namespace TraceInspector
