// SPDX-License-Identifier: MIT
#include "core/analysis/metavalidation.h"

#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "core/compat/rustformat.h"

namespace TraceInspector {

namespace {

std::string backticked(std::string_view prefix, std::string_view label, std::string_view suffix)
{
    std::string out;
    out.reserve(prefix.size() + label.size() + suffix.size() + 2);
    out += prefix;
    out += '`';
    out += label;
    out += '`';
    out += suffix;
    return out;
}

} // namespace

std::optional<std::string> validateRunMeta(const TraceMeta &meta)
{
    const std::pair<std::string_view, const std::string *> required[] = {
        {"run_id", &meta.runId},          {"correlation_id", &meta.correlationId},
        {"entrypoint", &meta.entrypoint}, {"timestamp", &meta.timestamp},
        {"device", &meta.device},
    };
    for (const auto &[label, value] : required) {
        if (isRustBlank(*value))
            return "run provenance " + std::string(label) + " must not be empty";
    }
    if (meta.captureStep == 0)
        return std::string("capture_step must be one-based and greater than zero");
    if (meta.warmupSteps >= meta.captureStep)
        return "warmup_steps (" + std::to_string(meta.warmupSteps) + ") must be fewer than the one-based capture_step ("
               + std::to_string(meta.captureStep) + ")";
    if (meta.comparisonIdentity)
        return validateComparisonIdentity(*meta.comparisonIdentity);
    return std::nullopt;
}

std::optional<std::string> validateComparisonIdentity(const ComparisonIdentity &identity)
{
    const std::pair<std::string_view, const std::string *> required[] = {
        {"workload_id", &identity.workloadId},   {"model_id", &identity.modelId},
        {"config_id", &identity.configId},       {"data_id", &identity.dataId},
        {"seed_policy", &identity.seedPolicy},   {"precision", &identity.precision},
        {"device_state", &identity.deviceState},
    };
    for (const auto &[label, value] : required) {
        if (isRustBlank(*value))
            return "comparison identity " + std::string(label) + " must not be empty";
    }
    const std::pair<std::string_view, const std::optional<std::string> *> declared[] = {
        {"implementation_id", &identity.implementationId},
        {"pair_id", &identity.pairId},
    };
    for (const auto &[label, value] : declared) {
        if (*value && isRustBlank(**value))
            return "comparison identity " + std::string(label) + " must not be empty when declared";
    }
    if (identity.physicalBatch == 0)
        return std::string("comparison identity physical_batch must be greater than zero");
    if (identity.accumulationSteps == 0)
        return std::string("comparison identity accumulation_steps must be greater than zero");
    return std::nullopt;
}

std::optional<std::string> validateCaptureContract(const CaptureContract &contract)
{
    std::set<std::string_view> required;
    for (const std::string &label : contract.requiredSemanticLabels) {
        if (isRustBlank(label))
            return std::string("required semantic labels must not be empty");
        if (!required.insert(label).second)
            return backticked("required semantic label ", label, " is declared more than once");
    }

    if (!contract.gpuExpectedSemanticLabels.empty() || !contract.cpuOnlySemanticLabels.empty()) {
        std::set<std::string_view> classified;
        const std::pair<std::string_view, const std::vector<std::string> *> classes[] = {
            {"GPU-expected", &contract.gpuExpectedSemanticLabels},
            {"CPU-only", &contract.cpuOnlySemanticLabels},
        };
        for (const auto &[className, labels] : classes) {
            std::set<std::string_view> seen;
            const std::string cls(className);
            for (const std::string &label : *labels) {
                if (isRustBlank(label))
                    return cls + " semantic labels must not be empty";
                if (!seen.insert(label).second)
                    return backticked(cls + " semantic label ", label, " is declared more than once");
                if (!required.count(label))
                    return backticked(cls + " semantic label ", label, " is not a required application label");
                if (!classified.insert(label).second)
                    return backticked("semantic label ", label, " is classified as both GPU-expected and CPU-only");
            }
        }
        if (classified != required)
            return std::string(
                "GPU-expected and CPU-only semantic labels must partition all required application labels");
    }

    const bool complete = contract.gradients == CoverageLevel::Complete;
    if (complete && contract.gradientContract)
        return validateGradientContract(*contract.gradientContract);
    if (complete)
        return std::string("complete gradient coverage requires an exact gradient contract");
    if (contract.gradientContract)
        return std::string("an exact gradient contract requires complete declared gradient coverage");
    return std::nullopt;
}

std::optional<std::string> validateGradientContract(const GradientContract &contract)
{
    if (contract.expected.empty())
        return std::string("gradient manifest must not be empty");
    if (contract.families.empty())
        return std::string("gradient families must not be empty");
    if (contract.manifestSha256 != gradientManifestDigest(contract.expected))
        return std::string("gradient manifest SHA-256 does not match its ordered parameter manifest");

    std::set<std::pair<std::string_view, std::string_view>> keys;
    std::map<std::string_view, std::uint64_t> members; // byte-wise order, like a BTreeMap<&str, _>
    for (const ExpectedGradient &entry : contract.expected) {
        if (isRustBlank(entry.root) || isRustBlank(entry.key) || isRustBlank(entry.family))
            return std::string("gradient manifest root, key, and family must not be empty");
        if (!keys.emplace(entry.root, entry.key).second)
            return "gradient manifest declares (" + rustDebugString(entry.root) + ", " + rustDebugString(entry.key)
                   + ") more than once";
        ++members[entry.family];
    }

    std::set<std::string_view> familyNames;
    for (const GradientFamilyContract &family : contract.families) {
        if (isRustBlank(family.family))
            return std::string("gradient family name must not be empty");
        const std::string quoted = rustDebugString(family.family);
        if (!familyNames.insert(family.family).second)
            return "gradient family " + quoted + " is declared more than once";
        const auto it = members.find(family.family);
        const std::uint64_t memberCount = it == members.end() ? 0 : it->second;
        if (memberCount == 0)
            return "gradient family " + quoted + " has no manifest members";
        if (family.expectation == GradientFamilyExpectation::Inactive) {
            if (family.minPresent != 0)
                return "inactive gradient family " + quoted + " must have min_present=0";
        } else if (family.minPresent == 0 || family.minPresent > memberCount) {
            return "active or data-conditional gradient family " + quoted
                   + " needs min_present in 1..=" + std::to_string(memberCount);
        }
    }
    for (const auto &[family, count] : members) {
        (void)count;
        if (!familyNames.count(family))
            return "gradient manifest family " + rustDebugString(family) + " has no family contract";
    }
    return std::nullopt;
}

} // namespace TraceInspector
