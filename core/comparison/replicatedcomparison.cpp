// SPDX-License-Identifier: MIT
#include "core/comparison/replicatedcomparison.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "core/analysis/metavalidation.h"
#include "core/comparison/tensorstatscomparison.h"
#include "core/compat/rustformat.h"
#include "core/model/gradientcontractequality.h"

namespace TraceInspector {

namespace {

using Reasons = std::vector<std::string>;

/// Every run of both cohorts in order: baseline first, as upstream chains them.
std::vector<const RunFacts *> allRuns(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate)
{
    std::vector<const RunFacts *> runs;
    runs.reserve(baseline.size() + candidate.size());
    for (const RunFacts &r : baseline)
        runs.push_back(&r);
    for (const RunFacts &r : candidate)
        runs.push_back(&r);
    return runs;
}

bool isHex64(const std::string &s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
           });
}

void validateVerifiedCohort(const std::vector<VerifiedBundleInput> &inputs, const std::vector<RunFacts> &runs,
                            const char *cohort, Reasons &reasons)
{
    if (inputs.size() != runs.size()) {
        reasons.push_back(std::string(cohort) + " bundle receipts must correspond one-to-one with trace documents");
        return;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string n = std::to_string(i + 1);
        if (inputs[i].runId != runs[i].meta.runId)
            reasons.push_back(std::string(cohort) + " bundle " + n + " receipt run ID does not match its trace");
        if (!isHex64(inputs[i].manifestSha256))
            reasons.push_back(std::string(cohort) + " bundle " + n + " receipt has an invalid manifest SHA-256");
    }
}

void validateInputProvenance(const ComparisonInputs &inputs, const std::vector<RunFacts> &baseline,
                             const std::vector<RunFacts> &candidate, Reasons &reasons)
{
    if (inputs.verification == InputVerification::UnverifiedTraces) {
        reasons.emplace_back(
            "unverified raw trace inputs are diagnostic only; finalized verified bundles are required for "
            "an eligible comparison");
        return;
    }
    validateVerifiedCohort(inputs.baseline, baseline, "baseline", reasons);
    validateVerifiedCohort(inputs.candidate, candidate, "candidate", reasons);
}

std::vector<std::uint64_t> measuredSamples(const std::vector<RunFacts> &runs, const char *cohort, Reasons &reasons)
{
    std::vector<std::uint64_t> samples;
    samples.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunFacts &run = runs[i];
        const std::string prefix = std::string(cohort) + " run " + std::to_string(i + 1);
        if (!run.structurallyValid || !run.captureComplete)
            reasons.push_back(prefix + " is not a complete, structurally valid capture");
        if (run.meta.captureContract.measurementScope != MeasurementScope::ProductionEquivalent)
            reasons.push_back(prefix + " is not declared production-equivalent");
        if (!run.meta.device.starts_with("cpu") && !run.meta.measuredRegionDeviceSynchronized)
            reasons.push_back(prefix + " does not synchronize its measured device region");
        if (run.measuredClosedNs.size() != 1)
            reasons.push_back(prefix + " does not contain exactly one closed measured region");
        samples.push_back(run.measuredClosedNs.empty() ? 0 : run.measuredClosedNs.front());
    }
    return samples;
}

void requireIndependentRunIds(const std::vector<const RunFacts *> &runs, Reasons &reasons)
{
    std::set<std::string_view> ids;
    for (const RunFacts *r : runs)
        ids.insert(r->meta.runId);
    if (ids.size() != runs.size())
        reasons.emplace_back("run IDs must be unique across all replicates");
}

/// The derived PartialEq of upstream's CaptureContract: every member.
bool sameCaptureContract(const CaptureContract &a, const CaptureContract &b)
{
    return a.measurementScope == b.measurementScope && a.operations == b.operations && a.tensors == b.tensors
           && a.gradients == b.gradients && sameGradientContract(a.gradientContract, b.gradientContract)
           && a.logicalMemory == b.logicalMemory && a.physicalMemory == b.physicalMemory
           && a.deviceTiming == b.deviceTiming && a.requiredSemanticLabels == b.requiredSemanticLabels
           && a.gpuExpectedSemanticLabels == b.gpuExpectedSemanticLabels
           && a.cpuOnlySemanticLabels == b.cpuOnlySemanticLabels;
}

void requireConsistentCaptureSemantics(const std::vector<const RunFacts *> &runs, Reasons &reasons)
{
    if (runs.empty()) {
        reasons.emplace_back("comparison contains no runs");
        return;
    }
    const TraceMeta &first = runs.front()->meta;
    const bool differs = std::any_of(runs.begin(), runs.end(), [&](const RunFacts *r) {
        const TraceMeta &m = r->meta;
        return m.entrypoint != first.entrypoint || m.phase != first.phase || m.device != first.device
               || m.timingMode != first.timingMode || m.warmupSteps != first.warmupSteps
               || m.captureStep != first.captureStep || !sameCaptureContract(m.captureContract, first.captureContract)
               || m.measuredRegionDeviceSynchronized != first.measuredRegionDeviceSynchronized;
    });
    if (differs)
        reasons.emplace_back(
            "entrypoint, phase, device, timing mode, synchronization, warmup, capture step, and capture "
            "contract must match");
}

bool sameConditions(const ComparisonIdentity &l, const ComparisonIdentity &r)
{
    return l.workloadId == r.workloadId && l.modelId == r.modelId && l.configId == r.configId && l.dataId == r.dataId
           && l.seedPolicy == r.seedPolicy && l.physicalBatch == r.physicalBatch
           && l.accumulationSteps == r.accumulationSteps && l.precision == r.precision
           && l.deviceState == r.deviceState;
}

std::optional<ComparisonIdentity> commonIdentity(const std::vector<const RunFacts *> &runs, Reasons &reasons)
{
    if (runs.empty() || !runs.front()->meta.comparisonIdentity) {
        reasons.emplace_back("comparison identity is missing");
        return std::nullopt;
    }
    const ComparisonIdentity &first = *runs.front()->meta.comparisonIdentity;
    if (std::any_of(runs.begin(), runs.end(), [](const RunFacts *r) { return !r->meta.comparisonIdentity; })) {
        reasons.emplace_back("comparison identity is missing from one or more runs");
        return std::nullopt;
    }
    if (const auto error = validateComparisonIdentity(first)) {
        reasons.push_back("comparison identity is invalid: " + *error);
        return std::nullopt;
    }
    if (std::any_of(runs.begin(), runs.end(),
                    [&](const RunFacts *r) { return !sameConditions(first, *r->meta.comparisonIdentity); })) {
        reasons.emplace_back("workload, model, configuration, data, seed, batch, precision, or device state differs");
        return std::nullopt;
    }
    ComparisonIdentity result = first;
    result.implementationId.reset();
    result.pairId.reset();
    return result;
}

std::optional<std::string> cohortImplementationId(const std::vector<RunFacts> &runs, const char *cohort,
                                                  Reasons &reasons)
{
    auto idOf = [](const RunFacts &r) -> const std::optional<std::string> * {
        if (!r.meta.comparisonIdentity || !r.meta.comparisonIdentity->implementationId)
            return nullptr;
        return &r.meta.comparisonIdentity->implementationId;
    };
    if (runs.empty() || !idOf(runs.front())) {
        reasons.push_back(std::string(cohort) + " implementation ID is missing");
        return std::nullopt;
    }
    if (std::any_of(runs.begin(), runs.end(), [&](const RunFacts &r) { return !idOf(r); })) {
        reasons.push_back(std::string(cohort) + " implementation ID is missing from one or more runs");
        return std::nullopt;
    }
    if (std::any_of(runs.begin(), runs.end(), [&](const RunFacts &r) { return rustTrim(**idOf(r)).empty(); })) {
        reasons.push_back(std::string(cohort) + " implementation ID must not be empty");
        return std::nullopt;
    }
    const std::string &first = **idOf(runs.front());
    if (std::any_of(runs.begin(), runs.end(), [&](const RunFacts &r) { return **idOf(r) != first; })) {
        reasons.push_back(std::string(cohort) + " implementation ID differs within the cohort");
        return std::nullopt;
    }
    return first;
}

const std::optional<std::string> &pairIdOf(const RunFacts &r)
{
    static const std::optional<std::string> none;
    return r.meta.comparisonIdentity ? r.meta.comparisonIdentity->pairId : none;
}

/// Pair id -> first measured closed duration; or the reason the cohort cannot be paired.
const char *collectPairs(const std::vector<RunFacts> &runs, std::map<std::string, std::uint64_t> &values)
{
    for (const RunFacts &r : runs) {
        const auto &pair = pairIdOf(r);
        if (!pair)
            return "pair IDs must be present on every run when pairing is requested";
        if (r.measuredClosedNs.empty())
            return "paired runs require one closed measured region";
        if (!values.emplace(*pair, r.measuredClosedNs.front()).second)
            return "pair IDs must be unique within each cohort";
    }
    return nullptr;
}

std::optional<std::vector<SamplePair>> pairSamples(const std::vector<RunFacts> &baseline,
                                                   const std::vector<RunFacts> &candidate, Reasons &reasons)
{
    const bool anyPairId =
        std::any_of(baseline.begin(), baseline.end(), [](const RunFacts &r) { return bool(pairIdOf(r)); })
        || std::any_of(candidate.begin(), candidate.end(), [](const RunFacts &r) { return bool(pairIdOf(r)); });
    if (!anyPairId)
        return std::nullopt;
    std::map<std::string, std::uint64_t> left, right;
    if (const char *reason = collectPairs(baseline, left)) {
        reasons.emplace_back(reason);
        return std::nullopt;
    }
    if (const char *reason = collectPairs(candidate, right)) {
        reasons.emplace_back(reason);
        return std::nullopt;
    }
    const bool sameKeys = left.size() == right.size()
                          && std::equal(left.begin(), left.end(), right.begin(),
                                        [](const auto &a, const auto &b) { return a.first == b.first; });
    if (!sameKeys) {
        reasons.emplace_back("baseline and candidate pair-ID sets must match exactly");
        return std::nullopt;
    }
    std::vector<SamplePair> pairs;
    pairs.reserve(left.size());
    for (const auto &[key, value] : left)
        pairs.emplace_back(value, right.at(key));
    return pairs;
}

} // namespace

std::string_view comparisonVerdictName(ComparisonVerdict v)
{
    switch (v) {
    case ComparisonVerdict::Ineligible: return "ineligible";
    case ComparisonVerdict::Inconclusive: return "inconclusive";
    case ComparisonVerdict::CandidateFaster: return "candidate_faster";
    case ComparisonVerdict::CandidateSlower: return "candidate_slower";
    }
    return "ineligible";
}

std::string_view inputVerificationName(InputVerification v)
{
    return v == InputVerification::VerifiedBundles ? "verified_bundles" : "unverified_traces";
}

ReplicatedComparison compareRuns(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate,
                                 ComparisonInputs inputs)
{
    ReplicatedComparison c;
    Reasons &reasons = c.reasons;
    validateInputProvenance(inputs, baseline, candidate, reasons);
    std::vector<std::uint64_t> baselineSamples = measuredSamples(baseline, "baseline", reasons);
    std::vector<std::uint64_t> candidateSamples = measuredSamples(candidate, "candidate", reasons);
    if (baseline.size() < kMinimumRuns || candidate.size() < kMinimumRuns)
        reasons.push_back("at least " + std::to_string(kMinimumRuns)
                          + " independent baseline and candidate runs are required");
    const std::vector<const RunFacts *> runs = allRuns(baseline, candidate);
    requireIndependentRunIds(runs, reasons);
    requireConsistentCaptureSemantics(runs, reasons);
    c.identity = commonIdentity(runs, reasons);
    c.baselineImplementationId = cohortImplementationId(baseline, "baseline", reasons);
    c.candidateImplementationId = cohortImplementationId(candidate, "candidate", reasons);
    const std::optional<std::vector<SamplePair>> pairs = pairSamples(baseline, candidate, reasons);
    c.paired = pairs.has_value();
    c.comparable = reasons.empty();
    c.baseline = ComparisonStatistics::statistics(std::move(baselineSamples));
    c.candidate = ComparisonStatistics::statistics(std::move(candidateSamples));
    c.medianDeltaNs =
        pairs ? ComparisonStatistics::pairedMedianDelta(*pairs) : c.candidate.medianNs - c.baseline.medianNs;
    if (c.baseline.medianNs != 0.0)
        c.medianDeltaPercent = c.medianDeltaNs / c.baseline.medianNs * 100.0;
    if (c.comparable) {
        const auto [lower, upper] = ComparisonStatistics::bootstrapDeltaInterval(
            c.baseline.samplesNs, c.candidate.samplesNs, pairs ? &*pairs : nullptr);
        c.confidenceInterval = ConfidenceInterval{0.95, lower, upper};
    }
    if (!c.confidenceInterval)
        c.verdict = ComparisonVerdict::Ineligible;
    else if (c.confidenceInterval->upperDeltaNs < 0.0)
        c.verdict = ComparisonVerdict::CandidateFaster;
    else if (c.confidenceInterval->lowerDeltaNs > 0.0)
        c.verdict = ComparisonVerdict::CandidateSlower;
    else
        c.verdict = ComparisonVerdict::Inconclusive;
    c.tensorStats = compareTensorStats(baseline, candidate);
    c.inputs = std::move(inputs);
    return c;
}

} // namespace TraceInspector
