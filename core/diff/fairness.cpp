// SPDX-License-Identifier: MIT
#include "core/diff/fairness.h"

#include <string_view>

#include "core/analysis/metavalidation.h"
#include "core/model/enums.h"
#include "core/model/gradientcontractequality.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

namespace {

std::string text(std::string_view v)
{
    return std::string(v);
}

std::string text(const std::string &v)
{
    return v;
}

std::string text(bool v)
{
    return v ? "true" : "false";
}

std::string text(std::uint64_t v)
{
    return std::to_string(v);
}

std::string text(const std::vector<std::string> &labels)
{
    std::string out = "[";
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += labels[i];
    }
    return out + "]";
}

class Collector
{
public:
    explicit Collector(std::vector<FairnessDifference> &out)
        : m_out(out)
    {
    }

    template<typename T>
    void field(FairnessField field, const char *member, const T &baseline, const T &candidate)
    {
        if (!(baseline == candidate))
            m_out.push_back({field, member, text(baseline), text(candidate)});
    }

private:
    std::vector<FairnessDifference> &m_out;
};

std::string gradientContractText(const std::optional<GradientContract> &c)
{
    // The manifest digest names the whole expected set; families are summarised by count.
    if (!c)
        return "(none)";
    return c->manifestSha256 + " (" + std::to_string(c->expected.size()) + " expected, "
           + std::to_string(c->families.size()) + " families)";
}

void compareContracts(Collector &c, const CaptureContract &a, const CaptureContract &b,
                      std::vector<FairnessDifference> &out)
{
    constexpr FairnessField f = FairnessField::CaptureContract;
    c.field(f, "measurement_scope", measurementScopeName(a.measurementScope), measurementScopeName(b.measurementScope));
    c.field(f, "operations", coverageLevelName(a.operations), coverageLevelName(b.operations));
    c.field(f, "tensors", coverageLevelName(a.tensors), coverageLevelName(b.tensors));
    c.field(f, "gradients", coverageLevelName(a.gradients), coverageLevelName(b.gradients));
    if (!sameGradientContract(a.gradientContract, b.gradientContract))
        out.push_back({f, "gradient_contract", gradientContractText(a.gradientContract),
                       gradientContractText(b.gradientContract)});
    c.field(f, "logical_memory", coverageLevelName(a.logicalMemory), coverageLevelName(b.logicalMemory));
    c.field(f, "physical_memory", coverageLevelName(a.physicalMemory), coverageLevelName(b.physicalMemory));
    c.field(f, "device_timing", coverageLevelName(a.deviceTiming), coverageLevelName(b.deviceTiming));
    c.field(f, "required_semantic_labels", a.requiredSemanticLabels, b.requiredSemanticLabels);
    c.field(f, "gpu_expected_semantic_labels", a.gpuExpectedSemanticLabels, b.gpuExpectedSemanticLabels);
    c.field(f, "cpu_only_semantic_labels", a.cpuOnlySemanticLabels, b.cpuOnlySemanticLabels);
}

/// The members upstream's same_conditions() compares (implementation_id and pair_id are
/// not conditions: they name the implementation under test and the pairing).
void compareIdentities(Collector &c, const ComparisonIdentity &a, const ComparisonIdentity &b)
{
    constexpr FairnessField f = FairnessField::ComparisonIdentity;
    c.field(f, "workload_id", a.workloadId, b.workloadId);
    c.field(f, "model_id", a.modelId, b.modelId);
    c.field(f, "config_id", a.configId, b.configId);
    c.field(f, "data_id", a.dataId, b.dataId);
    c.field(f, "seed_policy", a.seedPolicy, b.seedPolicy);
    c.field(f, "physical_batch", a.physicalBatch, b.physicalBatch);
    c.field(f, "accumulation_steps", a.accumulationSteps, b.accumulationSteps);
    c.field(f, "precision", a.precision, b.precision);
    c.field(f, "device_state", a.deviceState, b.deviceState);
}

} // namespace

std::string fairnessFieldName(FairnessField field)
{
    switch (field) {
    case FairnessField::Entrypoint: return "entrypoint";
    case FairnessField::Phase: return "phase";
    case FairnessField::Device: return "device";
    case FairnessField::TimingMode: return "timing_mode";
    case FairnessField::Synchronization: return "measured_region_device_synchronized";
    case FairnessField::WarmupSteps: return "warmup_steps";
    case FairnessField::CaptureStep: return "capture_step";
    case FairnessField::CaptureContract: return "capture_contract";
    case FairnessField::ComparisonIdentity: return "comparison_identity";
    case FairnessField::Meta: return "meta";
    }
    return {};
}

FairnessCheck FairnessCheck::compare(const TraceMeta *baseline, const TraceMeta *candidate)
{
    FairnessCheck check;
    if (!baseline || !candidate) {
        check.differences.push_back(
            {FairnessField::Meta, {}, baseline ? "present" : "(none)", candidate ? "present" : "(none)"});
        check.reasons.emplace_back(kCaptureSemanticsReason);
        check.reasons.emplace_back(kIdentityMissingReason);
        return check;
    }
    const TraceMeta &a = *baseline, &b = *candidate;
    Collector c(check.differences);
    c.field(FairnessField::Entrypoint, "", a.entrypoint, b.entrypoint);
    c.field(FairnessField::Phase, "", phaseName(a.phase), phaseName(b.phase));
    c.field(FairnessField::Device, "", a.device, b.device);
    c.field(FairnessField::TimingMode, "", timingModeName(a.timingMode), timingModeName(b.timingMode));
    c.field(FairnessField::Synchronization, "", a.measuredRegionDeviceSynchronized, b.measuredRegionDeviceSynchronized);
    c.field(FairnessField::WarmupSteps, "", a.warmupSteps, b.warmupSteps);
    c.field(FairnessField::CaptureStep, "", a.captureStep, b.captureStep);
    compareContracts(c, a.captureContract, b.captureContract, check.differences);
    if (!check.differences.empty())
        check.reasons.emplace_back(kCaptureSemanticsReason);

    // Upstream looks at the first run's identity first: a missing one there is "missing",
    // one missing elsewhere is "missing from one or more runs".
    const auto &ia = a.comparisonIdentity, &ib = b.comparisonIdentity;
    if (!ia || !ib) {
        if (ia.has_value() != ib.has_value())
            check.differences.push_back(
                {FairnessField::ComparisonIdentity, "", ia ? "present" : "(none)", ib ? "present" : "(none)"});
        check.reasons.emplace_back(!ia ? kIdentityMissingReason : kIdentityMissingFromSomeReason);
        return check;
    }
    // Upstream validates only the first run's identity (the baseline's) and then stops: a
    // candidate whose identity is invalid differs from a valid baseline in some member anyway.
    // The differing members are still listed, as they say what the banner cannot.
    const std::size_t before = check.differences.size();
    compareIdentities(c, *ia, *ib);
    if (const auto error = validateComparisonIdentity(*ia))
        check.reasons.push_back(kIdentityInvalidReasonPrefix + *error);
    else if (check.differences.size() != before)
        check.reasons.emplace_back(kIdentityConditionsReason);
    return check;
}

} // namespace TraceInspector
