// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/problem.h"
#include "core/model/problemlimiter.h"
#include "core/model/trace.h"

namespace TraceInspector {

struct RecordExtents;

/// Evidence counts of TRACE_FORMAT.md §10.3.
struct CoverageCounts {
    std::uint64_t spans = 0;
    std::uint64_t closedSpans = 0;
    std::uint64_t rootSpans = 0;
    std::uint64_t measuredSpans = 0;
    std::uint64_t operations = 0;
    std::uint64_t tensors = 0;
    std::uint64_t memoryEvents = 0;
    std::uint64_t deviceMemorySamples = 0;
    std::uint64_t deviceIntervals = 0;
    std::uint64_t gradients = 0;
    std::uint64_t callEdges = 0;
    std::uint64_t dataEdges = 0;
    std::uint64_t forwardSpans = 0;
    std::uint64_t backwardSpans = 0;
    std::uint64_t optimizerSpans = 0;
};

/// Result of the health analysis (§10).
struct HealthReport {
    /// In exactly the §10 order. Each carries the spec rule id (`ruleId`), the upstream `code`,
    /// the exact upstream `message`, and `line` = the line of the record it is about (0 for
    /// findings about the whole trace).
    std::vector<Problem> findings;
    /// Findings counted but not stored: each rule keeps its first ProblemLimiter::kMaxPerRule.
    std::vector<OmittedProblems> omittedFindings;
    bool structurallyValid = false; // no finding of severity error
    bool captureComplete = false;   // terminal outcome is `complete`
    CoverageCounts coverage{};
};

/// Runs upstream's `analyze_health` (the trace/10 code, also for trace/9 documents) over an
/// assembled trace. Never fails. A trace from a tolerant load may lack `meta` or `terminal`:
/// the findings that need them are skipped and a missing terminal counts as neither failed
/// nor complete. Linear in the trace size apart from one stable sort of the memory events
/// (skipped when they are already in timestamp order). \a extents, when the caller has them,
/// spare the walks that find the latest host evidence for the terminal's rule.
HealthReport analyzeHealth(const Trace &trace, const RecordExtents *extents = nullptr);

} // namespace TraceInspector
