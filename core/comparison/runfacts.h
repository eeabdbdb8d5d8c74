// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/trace.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

/// One tensor_stats event as the comparison uses it.
struct TensorStatsFact {
    std::string label;
    double rms = 0;
    double absMax = 0;
    std::uint64_t nonFinite = 0;
};

/// What the replicated comparison needs from one run (docs/COMPARISON.md §3): its metadata,
/// its health verdict and its measured region(s). Small, so a cohort of huge traces need not
/// stay in memory.
struct RunFacts {
    TraceMeta meta;
    bool structurallyValid = false; ///< health: no error finding
    bool captureComplete = false;   ///< health: terminal outcome `complete`
    /// duration_ns of every span that is measured and closed, in span-id order (the
    /// document's order); the first is the run's sample.
    std::vector<std::uint64_t> measuredClosedNs;
    std::vector<TensorStatsFact> tensorStats; ///< in stream order

    /// Collects the facts of an accepted trace (its meta must be present) and runs health.
    static RunFacts fromTrace(const Trace &trace);
};

} // namespace TraceInspector
