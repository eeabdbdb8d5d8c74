// SPDX-License-Identifier: MIT
#include "core/diff/spancounterpart.h"

#include <algorithm>
#include <limits>

#include "core/analysis/spantree.h"
#include "core/diff/spanmatcher.h"

namespace TraceInspector {

namespace {

std::optional<std::int64_t> difference(const std::optional<std::uint64_t> &baseline,
                                       const std::optional<std::uint64_t> &candidate)
{
    if (!baseline || !candidate)
        return std::nullopt;
    // Saturate a duration past 63 bits rather than wrap (TraceDiff does the same).
    constexpr std::uint64_t kMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    return std::int64_t(std::min(*candidate, kMax)) - std::int64_t(std::min(*baseline, kMax));
}

std::optional<double> percent(const std::optional<std::uint64_t> &baseline, const std::optional<std::int64_t> &delta)
{
    if (!baseline || !delta || *baseline == 0)
        return std::nullopt;
    return double(*delta) / double(*baseline) * 100.0;
}

} // namespace

SpanCounterpart::SpanCounterpart(const SpanMatch &match, const SpanTree &baselineTree, const SpanTree &candidateTree)
    : m_match(match)
    , m_baseline(baselineTree)
    , m_candidate(candidateTree)
{
}

std::optional<std::uint32_t> SpanCounterpart::baselineOf(std::uint32_t c) const
{
    if (c >= m_match.baselineOf.size() || m_match.baselineOf[c] == SpanMatch::kNone)
        return std::nullopt;
    return m_match.baselineOf[c];
}

std::optional<std::uint64_t> SpanCounterpart::baselineTotalNs(std::uint32_t c) const
{
    const auto b = baselineOf(c);
    return b ? m_baseline.durationNs(*b) : std::nullopt;
}

std::optional<std::uint64_t> SpanCounterpart::baselineSelfNs(std::uint32_t c) const
{
    const auto b = baselineOf(c);
    return b ? m_baseline.selfNs(*b) : std::nullopt;
}

std::optional<std::int64_t> SpanCounterpart::totalDeltaNs(std::uint32_t c) const
{
    return difference(baselineTotalNs(c), c < m_candidate.spanCount() ? m_candidate.durationNs(c) : std::nullopt);
}

std::optional<std::int64_t> SpanCounterpart::selfDeltaNs(std::uint32_t c) const
{
    return difference(baselineSelfNs(c), c < m_candidate.spanCount() ? m_candidate.selfNs(c) : std::nullopt);
}

std::optional<double> SpanCounterpart::totalDeltaPercent(std::uint32_t c) const
{
    return percent(baselineTotalNs(c), totalDeltaNs(c));
}

std::optional<double> SpanCounterpart::selfDeltaPercent(std::uint32_t c) const
{
    return percent(baselineSelfNs(c), selfDeltaNs(c));
}

} // namespace TraceInspector
