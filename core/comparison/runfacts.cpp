// SPDX-License-Identifier: MIT
#include "core/comparison/runfacts.h"

#include "core/analysis/health.h"

namespace TraceInspector {

RunFacts RunFacts::fromTrace(const Trace &trace)
{
    RunFacts facts;
    if (trace.meta)
        facts.meta = *trace.meta;
    const HealthReport health = analyzeHealth(trace);
    facts.structurallyValid = health.structurallyValid;
    facts.captureComplete = health.captureComplete;
    for (const Span &span : trace.spans) {
        if (span.measured && span.closed)
            facts.measuredClosedNs.push_back(span.durationNs);
    }
    facts.tensorStats.reserve(trace.tensorStats.size());
    for (const TensorStats &ts : trace.tensorStats)
        facts.tensorStats.push_back({std::string(trace.str(ts.label)), ts.rms, ts.absMax, ts.nonFinite});
    return facts;
}

} // namespace TraceInspector
