// SPDX-License-Identifier: MIT
#include "core/analysis/capabilitymatrix.h"

#include <array>

#include "core/analysis/health.h"
#include "core/model/trace.h"

namespace TraceInspector {

std::string_view evidencePlaneName(EvidencePlane plane)
{
    switch (plane) {
    case EvidencePlane::Spans: return "spans";
    case EvidencePlane::Operations: return "operations";
    case EvidencePlane::Tensors: return "tensors";
    case EvidencePlane::TensorStats: return "tensor_stats";
    case EvidencePlane::Gradients: return "gradients";
    case EvidencePlane::LogicalMemory: return "logical_memory";
    case EvidencePlane::PhysicalMemory: return "physical_memory";
    case EvidencePlane::DeviceTiming: return "device_timing";
    case EvidencePlane::CallEdges: return "call_edges";
    case EvidencePlane::DataEdges: return "data_edges";
    }
    return {};
}

std::string_view capabilityLevelName(CapabilityLevel level)
{
    switch (level) {
    case CapabilityLevel::Complete: return "complete";
    case CapabilityLevel::Partial: return "partial";
    case CapabilityLevel::Absent: return "absent";
    case CapabilityLevel::Unknown: return "unknown";
    }
    return {};
}

namespace {

std::optional<EvidencePlane> planeOfCode(std::string_view code)
{
    if (code == "operations_absent")
        return EvidencePlane::Operations;
    if (code == "tensors_absent")
        return EvidencePlane::Tensors;
    if (code == "logical_memory_absent")
        return EvidencePlane::LogicalMemory;
    if (code == "physical_memory_absent")
        return EvidencePlane::PhysicalMemory;
    if (code == "device_timing_absent")
        return EvidencePlane::DeviceTiming;
    if (code == "gradients_absent" || code.starts_with("gradient_"))
        return EvidencePlane::Gradients;
    if (code == "forward_absent" || code == "backward_absent" || code == "optimizer_absent" || code == "open_span")
        return EvidencePlane::Spans;
    if (code == "retained_allocations")
        return EvidencePlane::LogicalMemory;
    return std::nullopt;
}

} // namespace

CapabilityMatrix analyzeCapabilities(const Trace &trace, const HealthReport *health)
{
    CapabilityMatrix m;
    m.hasMeta = trace.meta.has_value();
    std::uint64_t callEdges = 0;
    for (const Edge &e : trace.edges)
        callEdges += e.kind == EdgeKind::Call;
    const std::array<std::uint64_t, kEvidencePlaneCount> records = {
        trace.spans.size(),
        trace.ops.size(),
        trace.tensors.size(),
        trace.tensorStats.size(),
        trace.gradients.size(),
        trace.memory.size(),
        trace.deviceMemory.size(),
        trace.deviceIntervals.size(),
        callEdges,
        trace.edges.size() - callEdges,
    };
    const CaptureContract *contract = m.hasMeta ? &trace.meta->captureContract : nullptr;
    if (contract)
        m.measurementScope = contract->measurementScope;
    for (std::size_t i = 0; i < kEvidencePlaneCount; ++i) {
        PlaneCapability p;
        p.plane = EvidencePlane(i);
        p.records = records[i];
        if (contract) {
            switch (p.plane) {
            case EvidencePlane::Operations: p.declared = contract->operations; break;
            case EvidencePlane::Tensors: p.declared = contract->tensors; break;
            case EvidencePlane::Gradients: p.declared = contract->gradients; break;
            case EvidencePlane::LogicalMemory: p.declared = contract->logicalMemory; break;
            case EvidencePlane::PhysicalMemory: p.declared = contract->physicalMemory; break;
            case EvidencePlane::DeviceTiming: p.declared = contract->deviceTiming; break;
            default: break;
            }
        }
        if (p.records == 0) {
            p.level = CapabilityLevel::Absent;
            p.contractMismatch = p.declared && *p.declared != CoverageLevel::None;
        } else if (!p.declared) {
            p.level = CapabilityLevel::Unknown;
        } else if (*p.declared == CoverageLevel::Complete) {
            p.level = CapabilityLevel::Complete;
        } else {
            p.level = CapabilityLevel::Partial;
            p.contractMismatch = *p.declared == CoverageLevel::None;
        }
        m.planes.push_back(p);
    }

    if (health) {
        for (std::size_t i = 0; i < health->findings.size(); ++i) {
            const Problem &f = health->findings[i];
            if (f.severity != Severity::Warning)
                continue;
            m.gaps.push_back({planeOfCode(f.code), f.code, f.message, std::uint32_t(i)});
        }
    }
    for (const PlaneCapability &p : m.planes) {
        if (!p.contractMismatch)
            continue;
        const std::string name(evidencePlaneName(p.plane));
        const std::string level(coverageLevelName(*p.declared));
        if (p.records == 0)
            m.gaps.push_back(
                {p.plane, "declared_not_captured",
                 "the capture contract declares " + level + " " + name + " coverage but no records were captured"});
        else
            m.gaps.push_back({p.plane, "captured_not_declared",
                              std::to_string(p.records) + " " + name
                                  + " records were captured although the capture contract declares none"});
    }
    return m;
}

} // namespace TraceInspector
