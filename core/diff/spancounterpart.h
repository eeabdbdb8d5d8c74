// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>

namespace TraceInspector {

class SpanTree;
struct SpanMatch;

/// The baseline side of each candidate span (issue #15 item 3: baseline, Δ and Δ% in the
/// span tree). Holds references only: the match and both trees must outlive it (a
/// TraceComparison keeps them together). Every value is nullopt when the span has no
/// partner or either side is open (unknown, not 0).
class SpanCounterpart
{
public:
    SpanCounterpart(const SpanMatch &match, const SpanTree &baselineTree, const SpanTree &candidateTree);

    /// The baseline partner of candidate span \a c, or nullopt.
    std::optional<std::uint32_t> baselineOf(std::uint32_t c) const;
    std::optional<std::uint64_t> baselineTotalNs(std::uint32_t c) const;
    std::optional<std::uint64_t> baselineSelfNs(std::uint32_t c) const;
    /// candidate - baseline.
    std::optional<std::int64_t> totalDeltaNs(std::uint32_t c) const;
    std::optional<std::int64_t> selfDeltaNs(std::uint32_t c) const;
    /// Δ as a percentage of the baseline; nullopt also when the baseline is 0.
    std::optional<double> totalDeltaPercent(std::uint32_t c) const;
    std::optional<double> selfDeltaPercent(std::uint32_t c) const;

private:
    const SpanMatch &m_match;
    const SpanTree &m_baseline;
    const SpanTree &m_candidate;
};

} // namespace TraceInspector
