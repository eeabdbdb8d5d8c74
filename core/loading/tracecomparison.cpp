// SPDX-License-Identifier: MIT
#include "core/loading/tracecomparison.h"

#include <QElapsedTimer>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/spantree.h"

namespace TraceInspector {

std::shared_ptr<const TraceComparison> TraceComparison::compute(LoadedTracePtr baseline, LoadedTracePtr candidate)
{
    QElapsedTimer clock;
    clock.start();
    auto c = std::make_shared<TraceComparison>();
    c->baseline = std::move(baseline);
    c->candidate = std::move(candidate);
    const LoadedTrace &b = *c->baseline, &k = *c->candidate;
    c->diff = TraceDiff::compute(*b.trace, *b.spanTree, *k.trace, *k.spanTree);
    c->fairness =
        FairnessCheck::compare(b.trace->meta ? &*b.trace->meta : nullptr, k.trace->meta ? &*k.trace->meta : nullptr);
    c->memory = MemoryDiff::compute(*b.trace, b.memory.get(), *k.trace, k.memory.get());
    c->computeMs = clock.elapsed();
    return c;
}

} // namespace TraceInspector
