// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace TraceInspector {

struct TraceMeta;

/// The run facts that make two captures comparable (issue #15 item 4), in the order upstream's
/// replicated comparison checks them (candle-graph src/comparison.rs, commit 78b848e).
enum class FairnessField {
    Entrypoint,
    Phase,
    Device,
    TimingMode,
    Synchronization, ///< measured_region_device_synchronized
    WarmupSteps,
    CaptureStep,
    CaptureContract,    ///< one entry per differing member, named in `member`
    ComparisonIdentity, ///< one entry per differing member, or "present" when one run has none
    Meta,               ///< one run has no meta record at all
};

/// The meta field name as TRACE_FORMAT.md §4.1 spells it ("timing_mode").
std::string fairnessFieldName(FairnessField field);

/// One way the two runs differ: the field (and member for the structured ones) with both
/// values as the trace writes them ("(none)" for an absent optional value).
struct FairnessDifference {
    FairnessField field = FairnessField::Entrypoint;
    std::string member; ///< e.g. "measurement_scope" inside capture_contract; empty otherwise
    std::string baseline;
    std::string candidate;
};

/// What makes an A/B comparison of one baseline and one candidate run unfair. `reasons` are
/// upstream's reason texts that these two runs would get from its replicated comparison for
/// the facts checked here (capture semantics and the comparison identity); the differences
/// say exactly which field differs and how.
struct FairnessCheck {
    std::vector<FairnessDifference> differences;
    std::vector<std::string> reasons;

    bool isFair() const { return differences.empty() && reasons.empty(); }

    /// Compares the meta records; a missing meta (null) is a difference in itself.
    static FairnessCheck compare(const TraceMeta *baseline, const TraceMeta *candidate);
};

/// Upstream's reason when the capture semantics of the runs differ.
inline constexpr const char *kCaptureSemanticsReason =
    "entrypoint, phase, device, timing mode, synchronization, warmup, capture step, and capture contract must match";
/// Upstream's reasons about the comparison identity.
inline constexpr const char *kIdentityMissingReason = "comparison identity is missing";
inline constexpr const char *kIdentityMissingFromSomeReason = "comparison identity is missing from one or more runs";
/// Followed by ComparisonIdentity::validate's message for the baseline's identity.
inline constexpr const char *kIdentityInvalidReasonPrefix = "comparison identity is invalid: ";
inline constexpr const char *kIdentityConditionsReason =
    "workload, model, configuration, data, seed, batch, precision, or device state differs";
/// Upstream's minimum of independent runs per side for an eligible comparison.
inline constexpr int kMinimumRunsPerSide = 5;
inline constexpr const char *kMinimumRunsReason = "at least 5 independent baseline and candidate runs are required";

} // namespace TraceInspector
