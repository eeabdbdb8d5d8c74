// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/enums.h"

namespace TraceInspector {

struct Trace;
struct HealthReport;

/// An evidence plane: one kind of record a capture may or may not contain.
enum class EvidencePlane : std::uint8_t {
    Spans,
    Operations,
    Tensors,
    TensorStats,
    Gradients,
    LogicalMemory,
    PhysicalMemory,
    DeviceTiming,
    CallEdges,
    DataEdges,
};
inline constexpr std::size_t kEvidencePlaneCount = 10;

/// What the matrix says about a plane.
enum class CapabilityLevel : std::uint8_t {
    Complete, ///< records present and the contract declares complete coverage
    Partial,  ///< records present, declared partial (or present although declared none)
    Absent,   ///< no records of the plane
    Unknown,  ///< records present, but nothing declares how complete they are
};

std::string_view evidencePlaneName(EvidencePlane plane);     ///< e.g. "logical_memory"
std::string_view capabilityLevelName(CapabilityLevel level); ///< "complete", "partial", ...

/// One row of the capability matrix.
struct PlaneCapability {
    EvidencePlane plane = EvidencePlane::Spans;
    /// The capture contract's level for the plane; none when the contract has no member
    /// for it (spans, tensor stats, edges) or the trace has no meta record.
    std::optional<CoverageLevel> declared;
    std::uint64_t records = 0;
    CapabilityLevel level = CapabilityLevel::Absent;
    /// The contract promises more than was captured (declared partial or complete, no
    /// records), or records exist that the contract declared none of.
    bool contractMismatch = false;
};

/// A gap in the evidence: a health warning (§10 "gaps") or a contract mismatch.
struct EvidenceGap {
    std::optional<EvidencePlane> plane; ///< the plane it is about, when it is about one
    std::string code;                   ///< the health code, or `declared_not_captured` / `captured_not_declared`
    std::string message;                ///< the health message, or a sentence naming the plane and levels
    std::uint32_t finding = UINT32_MAX; ///< index into HealthReport::findings, when from health
};

/// The run's capture contract against what the trace holds (TRACE_FORMAT.md §4.1, §10.3).
struct CapabilityMatrix {
    std::vector<PlaneCapability> planes; ///< one per EvidencePlane, in enum order
    bool hasMeta = false;
    MeasurementScope measurementScope = MeasurementScope::Unknown;
    std::vector<EvidenceGap> gaps;

    const PlaneCapability &plane(EvidencePlane p) const { return planes[std::size_t(p)]; }
};

/// Counts the records of every plane and compares them with the contract. \a health (null
/// before the health stage) contributes its warnings as gaps.
CapabilityMatrix analyzeCapabilities(const Trace &trace, const HealthReport *health);

} // namespace TraceInspector
