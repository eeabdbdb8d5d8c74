// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace TraceInspector {

struct Trace;
struct Problem;

/// Where in the trace a problem points: the span and/or op a view should select.
struct ProblemLocation {
    std::int64_t spanIndex = -1; ///< index into Trace::spans, or -1
    std::int64_t opIndex = -1;   ///< index into Trace::ops, or -1
    bool isValid() const { return spanIndex >= 0 || opIndex >= 0; }
};

/// Resolves \a problem against \a trace: by its related record first (relatedKind with
/// relatedIndex or relatedId), then by its line, so that a reader problem on, say, a
/// rejected span_end line still leads to its span. Records that belong to a span (tensors,
/// memory events, device intervals, ops) also yield that span.
ProblemLocation locateProblem(const Trace &trace, const Problem &problem);

} // namespace TraceInspector
