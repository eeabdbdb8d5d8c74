// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/enums.h"

namespace TraceInspector {

// The run header (TRACE_FORMAT.md §4.1). It occurs once, so plain std::string is fine.

struct ExpectedGradient {
    std::string root;
    std::string key;
    std::string family;
};

struct GradientFamilyContract {
    std::string family;
    GradientFamilyExpectation expectation = GradientFamilyExpectation::Active;
    std::uint64_t minPresent = 0;
};

struct GradientContract {
    std::string manifestSha256;
    std::vector<ExpectedGradient> expected;
    std::vector<GradientFamilyContract> families;
};

struct CaptureContract {
    MeasurementScope measurementScope = MeasurementScope::Unknown;
    CoverageLevel operations = CoverageLevel::None;
    CoverageLevel tensors = CoverageLevel::None;
    CoverageLevel gradients = CoverageLevel::None;
    std::optional<GradientContract> gradientContract;
    CoverageLevel logicalMemory = CoverageLevel::None;
    CoverageLevel physicalMemory = CoverageLevel::None;
    CoverageLevel deviceTiming = CoverageLevel::None;
    std::vector<std::string> requiredSemanticLabels;
    std::vector<std::string> gpuExpectedSemanticLabels;
    std::vector<std::string> cpuOnlySemanticLabels;
};

struct ComparisonIdentity {
    std::optional<std::string> implementationId;
    std::string workloadId;
    std::string modelId;
    std::string configId;
    std::string dataId;
    std::string seedPolicy;
    std::uint64_t physicalBatch = 0;
    std::uint64_t accumulationSteps = 0;
    std::string precision;
    std::string deviceState;
    std::optional<std::string> pairId;
};

/// TraceRunMeta plus the `schema` string of the meta record.
struct TraceMeta {
    std::string schema;
    /// Bytes at the end of `schema` that it does not hold (0: it is whole). An unsupported
    /// schema too long for a listed problem's message is quoted whole by the strict error
    /// (E-SCHEMA-UNSUPPORTED, ReadResult::strictError), which takes it over: `schema` keeps
    /// its first bytes, so that a 200 MB schema is held once, not twice. A trace with such a
    /// schema is rejected, so nothing that needs the whole header (normalized output) sees one.
    std::uint64_t schemaBytesNotKept = 0;
    std::string runId;
    std::string correlationId;
    std::string entrypoint;
    ExecutionPhase phase = ExecutionPhase::Infer;
    std::string timestamp;
    std::uint64_t captureStep = 0;
    std::uint64_t warmupSteps = 0;
    std::string device;
    bool measuredRegionDeviceSynchronized = false;
    TimingMode timingMode = TimingMode::Host;
    CaptureContract captureContract;
    std::optional<ComparisonIdentity> comparisonIdentity;
    std::map<std::string, std::string> tags; // byte-wise key order, as upstream's BTreeMap
    std::optional<std::string> candleVersion;
};

struct Terminal {
    RunOutcome outcome = RunOutcome::Complete;
    std::uint64_t timestampNs = 0;
    std::optional<std::string> reason;
    std::uint32_t line = 0;
};

inline constexpr std::string_view kSchemaTrace10 = "candle-graph/trace/10";
inline constexpr std::string_view kSchemaTrace9 = "candle-graph/trace/9";

} // namespace TraceInspector
