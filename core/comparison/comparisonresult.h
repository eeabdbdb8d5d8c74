// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/comparison/samplestatistics.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

// upstream's `candle-graph/comparison/5` report (docs/COMPARISON.md §6), member for member.

inline constexpr std::string_view kComparisonSchema = "candle-graph/comparison/5";
inline constexpr std::size_t kMinimumRuns = 5;

enum class ComparisonVerdict : std::uint8_t { Ineligible, Inconclusive, CandidateFaster, CandidateSlower };
std::string_view comparisonVerdictName(ComparisonVerdict v);

enum class InputVerification : std::uint8_t { VerifiedBundles, UnverifiedTraces };
std::string_view inputVerificationName(InputVerification v);

/// A bundle's receipt as the report records it.
struct VerifiedBundleInput {
    std::string runId;
    std::string manifestSha256;
};

struct ComparisonInputs {
    InputVerification verification = InputVerification::UnverifiedTraces;
    std::vector<VerifiedBundleInput> baseline;
    std::vector<VerifiedBundleInput> candidate;
};

struct ConfidenceInterval {
    double level = 0.95;
    double lowerDeltaNs = 0;
    double upperDeltaNs = 0;
};

struct TensorStatsComparisonRow {
    std::string label;
    double rmsA = 0;
    double rmsB = 0;
    std::optional<double> rmsRatio;
    std::optional<double> absMaxRatio;
    std::uint64_t nonFiniteA = 0;
    std::uint64_t nonFiniteB = 0;
    std::uint64_t samplesA = 0; ///< events averaged, duplicates included
    std::uint64_t samplesB = 0;
    std::uint64_t runsA = 0; ///< cohort runs that hold the label
    std::uint64_t runsB = 0;
};

struct TensorStatsComparison {
    std::uint64_t baselineRuns = 0;
    std::uint64_t candidateRuns = 0;
    std::vector<TensorStatsComparisonRow> matched; ///< largest |ln rms ratio| first, then label
    std::vector<std::string> unmatchedA;           ///< labels only the baseline has, sorted
    std::vector<std::string> unmatchedB;
};

struct ReplicatedComparison {
    std::string schema{kComparisonSchema};
    std::string metric{"outer_wall_time_ns"};
    ComparisonInputs inputs;
    bool comparable = false;
    bool paired = false;
    ComparisonVerdict verdict = ComparisonVerdict::Ineligible;
    std::vector<std::string> reasons; ///< upstream's texts, in upstream's order
    std::optional<std::string> baselineImplementationId;
    std::optional<std::string> candidateImplementationId;
    /// The common identity, without implementation_id and pair_id.
    std::optional<ComparisonIdentity> identity;
    SampleStatistics baseline;
    SampleStatistics candidate;
    double medianDeltaNs = 0;
    std::optional<double> medianDeltaPercent;
    std::optional<ConfidenceInterval> confidenceInterval;
    TensorStatsComparison tensorStats;
};

} // namespace TraceInspector
