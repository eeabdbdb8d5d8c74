// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diff/spanmatcher.h"

namespace TraceInspector {

/// One matched span: its cost in both runs (nullopt while a span is open: unknown, not 0).
struct SpanDelta {
    std::uint32_t baseline = 0;  ///< span index in the baseline
    std::uint32_t candidate = 0; ///< span index in the candidate
    std::optional<std::uint64_t> baselineTotalNs, candidateTotalNs;
    std::optional<std::uint64_t> baselineSelfNs, candidateSelfNs;
    /// candidate self - baseline self, when both are known.
    std::optional<std::int64_t> selfDeltaNs() const;
    std::optional<std::int64_t> totalDeltaNs() const;
};

/// The ops of one (op name, shape, dtype, device) group in both runs.
struct OpGroupDelta {
    std::string name, shape, dtype, device;
    std::uint64_t baselineCount = 0, candidateCount = 0;
    std::uint64_t baselineNs = 0, candidateNs = 0; ///< summed durations (saturating)
    /// Summed output dense bytes (§7.1; ops without a resolved size add nothing).
    std::uint64_t baselineBytes = 0, candidateBytes = 0;
    std::int64_t deltaNs() const;
    std::int64_t deltaBytes() const;
};

/// A span subtree present in one run only, by its top span.
struct UnmatchedSpan {
    std::uint32_t index = 0;
    std::uint64_t spans = 0; ///< unmatched spans in the subtree (a label-matched descendant and its subtree excluded)
    std::optional<std::uint64_t> totalNs;
};

/// An A/B comparison of two traces (issue #15): spans matched by path (semantic labels as a
/// fallback, see SpanMatch), ops matched within matched spans by (op name, ordinal), op
/// groups by (name, shape, dtype, device).
struct TraceDiff {
    SpanMatch spans;
    std::uint64_t baselineOps = 0, candidateOps = 0, matchedOps = 0;
    std::uint64_t baselineMeasuredNs = 0, candidateMeasuredNs = 0;
    std::vector<SpanDelta> matched;             ///< one per matched pair, baseline span order
    std::vector<OpGroupDelta> opGroups;         ///< every group of either run, by name then shape text
    std::vector<UnmatchedSpan> onlyInBaseline;  ///< tops of unmatched subtrees, longest first
    std::vector<UnmatchedSpan> onlyInCandidate; ///< likewise

    static TraceDiff compute(const Trace &baseline, const SpanTree &baselineTree, const Trace &candidate,
                             const SpanTree &candidateTree);
};

/// "[2, 3]" for a shape, as the views show it.
std::string shapeText(const Trace &trace, std::uint32_t shapeId);

} // namespace TraceInspector
