// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/analysis/capabilitymatrix.h"
#include "core/analysis/gradientevidence.h"
#include "core/analysis/tensorevidence.h"
#include "core/analysis/tensorstatsoutliers.h"

namespace TraceInspector {

struct Trace;
struct HealthReport;
struct MemoryProfile;

/// Everything the evidence views (tensors, tensor statistics, gradients, capabilities) need
/// beyond the trace itself, computed once per trace off the GUI thread.
struct EvidenceAnalysis {
    TensorEvidence tensors;
    std::vector<TensorStatsVerdict> tensorStats; ///< same order as Trace::tensorStats
    GradientEvidence gradients;
    CapabilityMatrix capabilities;

    std::size_t memoryUsage() const;
};

/// \a health and \a memory may be null (not computed): then no findings are attached and
/// tensors get no storage.
EvidenceAnalysis analyzeEvidence(const Trace &trace, const HealthReport *health, const MemoryProfile *memory);
/// analyzeEvidence() in two steps, so that the first, most of the work, can run while memory
/// is analysed: everything but the tensors' storage, then that storage from \a memory.
EvidenceAnalysis analyzeEvidenceBeforeMemory(const Trace &trace, const HealthReport *health);
void attachMemoryEvidence(const Trace &trace, const MemoryProfile &memory, EvidenceAnalysis &evidence);

} // namespace TraceInspector
