// SPDX-License-Identifier: MIT
#include "core/analysis/evidenceanalysis.h"

#include "core/analysis/memoryprofile.h"

namespace TraceInspector {

std::size_t EvidenceAnalysis::memoryUsage() const
{
    return tensors.memoryUsage() + tensorStats.capacity() * sizeof(TensorStatsVerdict)
           + gradients.keys.capacity() * sizeof(GradientKeyEvidence);
}

EvidenceAnalysis analyzeEvidence(const Trace &trace, const HealthReport *health, const MemoryProfile *memory)
{
    EvidenceAnalysis result;
    result.tensors = analyzeTensorEvidence(trace, memory && memory->logical ? &*memory->logical : nullptr);
    result.tensorStats = evaluateTensorStats(trace);
    result.gradients = analyzeGradientEvidence(trace, health);
    result.capabilities = analyzeCapabilities(trace, health);
    return result;
}

} // namespace TraceInspector
