// SPDX-License-Identifier: MIT
#include "core/analysis/evidenceanalysis.h"

#include "core/analysis/memoryprofile.h"

namespace TraceInspector {

std::size_t EvidenceAnalysis::memoryUsage() const
{
    return tensors.memoryUsage() + tensorStats.capacity() * sizeof(TensorStatsVerdict)
           + gradients.keys.capacity() * sizeof(GradientKeyEvidence);
}

EvidenceAnalysis analyzeEvidenceBeforeMemory(const Trace &trace, const HealthReport *health)
{
    EvidenceAnalysis result;
    result.tensors = analyzeTensorEvidence(trace);
    result.tensorStats = evaluateTensorStats(trace);
    result.gradients = analyzeGradientEvidence(trace, health);
    result.capabilities = analyzeCapabilities(trace, health);
    return result;
}

void attachMemoryEvidence(const Trace &trace, const MemoryProfile &memory, EvidenceAnalysis &evidence)
{
    if (memory.logical)
        attachTensorStorage(trace, *memory.logical, evidence.tensors);
}

EvidenceAnalysis analyzeEvidence(const Trace &trace, const HealthReport *health, const MemoryProfile *memory)
{
    EvidenceAnalysis result = analyzeEvidenceBeforeMemory(trace, health);
    if (memory)
        attachMemoryEvidence(trace, *memory, result);
    return result;
}

} // namespace TraceInspector
