// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/healthcontext.h"
#include "core/analysis/metavalidation.h"
#include "core/compat/rustformat.h"

namespace TraceInspector::HealthDetail {

namespace {

std::uint64_t pairKey(StringId root, StringId key)
{
    return (std::uint64_t(root) << 32) | key;
}

/// §9.5.
bool normConsistent(const Gradient &g)
{
    switch (g.state) {
    case GradientState::Present: return g.hasNorm && std::isfinite(g.norm) && g.norm > 0;
    case GradientState::Zero: return g.hasNorm && g.norm == 0 && !std::signbit(g.norm);
    case GradientState::Missing:
    case GradientState::NonFinite: return !g.hasNorm;
    }
    return false;
}

std::string quotedPair(std::string_view root, std::string_view key)
{
    std::string out = "(";
    appendRustDebugString(out, root);
    out += ", ";
    appendRustDebugString(out, key);
    out += ')';
    return out;
}

struct Observation {
    std::uint64_t count = 0;
    std::uint32_t first = 0; // index into Trace::gradients
};

} // namespace

void gradientFindings(HealthContext &ctx)
{
    const Trace &trace = ctx.trace;
    std::unordered_map<std::uint64_t, Observation> observed;
    observed.reserve(trace.gradients.size());

    for (std::size_t i = 0; i < trace.gradients.size(); ++i) {
        const Gradient &g = trace.gradients[i];
        const std::string_view eventId = trace.str(g.eventId);
        const std::string_view root = trace.str(g.root);
        const std::string_view key = trace.str(g.key);
        const auto emitGradient = [&](std::string_view ruleId, std::string_view code, FindingText message) {
            ctx.emit(Severity::Error, ruleId, code, std::move(message), g.line, RelatedKind::Gradient, eventId, i);
        };
        if (isRustBlank(eventId))
            emitGradient("H-GRAD-EVENT-ID-EMPTY", "empty_gradient_event_id", "gradient event IDs must not be empty");
        if (isRustBlank(root) || isRustBlank(key))
            emitGradient("H-GRAD-KEY-EMPTY", "empty_gradient_parameter_key",
                         "gradient roots and parameter keys must not be empty");
        std::uint8_t &seen = ctx.scratch[g.eventId];
        if (seen & GradientEventSeen)
            emitGradient("H-GRAD-EVENT-ID-DUP", "duplicate_gradient_event_id",
                         concat({"gradient event ID ", rustDebugString(eventId), " occurs more than once"}));
        seen |= GradientEventSeen;
        auto [it, inserted] = observed.try_emplace(pairKey(g.root, g.key));
        if (inserted)
            it->second.first = static_cast<std::uint32_t>(i);
        ++it->second.count;
        if (!normConsistent(g))
            emitGradient("H-GRAD-NORM", "gradient_state_norm_inconsistent",
                         concat({"gradient ", quotedPair(root, key), " state `", gradientStateName(g.state),
                                 "` is inconsistent with norm ", rustDebugOptionalFloat(g.hasNorm, g.norm)}));
    }

    if (!trace.meta)
        return;
    const CaptureContract &capture = trace.meta->captureContract;
    const bool complete = capture.gradients == CoverageLevel::Complete;
    if (complete && !capture.gradientContract) {
        ctx.emitMeta(Severity::Error, "H-GRAD-CONTRACT-MISSING", "gradient_contract_missing",
                     "complete gradient coverage requires an exact gradient contract");
        return;
    }
    if (!capture.gradientContract)
        return;
    if (!complete) {
        ctx.emitMeta(Severity::Error, "H-GRAD-CONTRACT-UNEXPECTED", "gradient_contract_without_complete_coverage",
                     "an exact gradient contract requires complete declared gradient coverage");
        return;
    }
    const GradientContract &contract = *capture.gradientContract;
    if (auto message = validateGradientContract(contract)) {
        ctx.emitMeta(Severity::Error, "H-GRAD-CONTRACT-INVALID", "gradient_contract_invalid", std::move(*message));
        return;
    }

    // Manifest pairs as interned ids; a pair whose strings were never interned cannot have
    // been observed.
    std::vector<std::uint64_t> manifestKeys(contract.expected.size(), 0);
    std::unordered_set<std::uint64_t> manifest;
    manifest.reserve(contract.expected.size());
    for (std::size_t i = 0; i < contract.expected.size(); ++i) {
        const StringId root = trace.strings.find(contract.expected[i].root);
        const StringId key = trace.strings.find(contract.expected[i].key);
        if (root != kNoString && key != kNoString) {
            manifestKeys[i] = pairKey(root, key);
            manifest.insert(manifestKeys[i]);
        }
    }
    const auto observation = [&](std::size_t manifestIndex) -> const Observation * {
        if (manifestKeys[manifestIndex] == 0)
            return nullptr;
        auto it = observed.find(manifestKeys[manifestIndex]);
        return it == observed.end() ? nullptr : &it->second;
    };

    std::vector<std::pair<std::uint64_t, Observation>> pairs(observed.begin(), observed.end());
    std::sort(pairs.begin(), pairs.end(), [&](const auto &a, const auto &b) {
        const Gradient &ga = trace.gradients[a.second.first];
        const Gradient &gb = trace.gradients[b.second.first];
        const std::string_view ra = trace.str(ga.root), rb = trace.str(gb.root);
        if (ra != rb)
            return ra < rb;
        return trace.str(ga.key) < trace.str(gb.key);
    });
    // Plain references, not a structured binding: emitPair captures them, and capturing a
    // structured binding (C++20, P1091/P1381) is rejected by clang before 16.
    for (const auto &entry : pairs) {
        const std::uint64_t k = entry.first;
        const Observation &obs = entry.second;
        const Gradient &g = trace.gradients[obs.first];
        const std::string pair = quotedPair(trace.str(g.root), trace.str(g.key));
        const auto emitPair = [&](std::string_view ruleId, std::string_view code, FindingText message) {
            ctx.emit(Severity::Error, ruleId, code, std::move(message), g.line, RelatedKind::Gradient,
                     trace.str(g.eventId), obs.first);
        };
        if (obs.count != 1)
            emitPair(
                "H-GRAD-MANIFEST-DUP-KEY", "gradient_manifest_duplicate_key",
                concat({"gradient ", pair, " occurs ", std::to_string(obs.count), " times; expected exactly once"}));
        if (!manifest.count(k))
            emitPair("H-GRAD-MANIFEST-UNDECLARED", "gradient_manifest_undeclared_key",
                     concat({"gradient ", pair, " is absent from the manifest"}));
    }
    for (std::size_t i = 0; i < contract.expected.size(); ++i) {
        if (!observation(i)) {
            const ExpectedGradient &e = contract.expected[i];
            ctx.emitMeta(ctx.structural(), "HW-GRAD-MANIFEST-MISSING", "gradient_manifest_missing_key",
                         concat({"manifest gradient ", quotedPair(e.root, e.key), " was not captured"}), e.key);
        }
    }

    std::unordered_map<std::string_view, std::vector<std::size_t>> byFamily;
    for (std::size_t i = 0; i < contract.expected.size(); ++i)
        byFamily[contract.expected[i].family].push_back(i);
    for (const GradientFamilyContract &family : contract.families) {
        const auto group = byFamily.find(family.family);
        std::uint64_t memberCount = 0, present = 0, attached = 0, nonFinite = 0;
        std::uint64_t expectedCount = 0;
        if (group != byFamily.end()) {
            expectedCount = group->second.size();
            for (std::size_t i : group->second) {
                const Observation *obs = observation(i);
                if (!obs)
                    continue;
                ++memberCount;
                const GradientState state = trace.gradients[obs->first].state;
                present += state == GradientState::Present;
                attached += state != GradientState::Missing;
                nonFinite += state == GradientState::NonFinite;
            }
        }
        const bool familyComplete = memberCount == expectedCount;
        const bool judged = !ctx.failed || familyComplete;
        const std::string name = rustDebugString(family.family);
        const std::string min = std::to_string(family.minPresent);
        const auto emitFamily = [&](std::string_view ruleId, std::string_view code, FindingText message) {
            ctx.emitMeta(Severity::Error, ruleId, code, std::move(message), family.family);
        };
        if (nonFinite > 0)
            emitFamily(
                "H-GRAD-FAMILY-NONFINITE", "gradient_family_non_finite",
                concat({"gradient family ", name, " contains ", std::to_string(nonFinite), " non-finite gradients"}));
        switch (family.expectation) {
        case GradientFamilyExpectation::Active:
            if (judged && present < family.minPresent)
                emitFamily("H-GRAD-ACTIVE-BELOW-MIN", "gradient_active_family_below_minimum",
                           concat({"active gradient family ", name, " has ", std::to_string(present),
                                   " present gradients; requires at least ", min}));
            break;
        case GradientFamilyExpectation::Inactive:
            if (attached > 0)
                emitFamily("H-GRAD-INACTIVE-LEAK", "gradient_inactive_family_leakage",
                           concat({"inactive gradient family ", name, " has ", std::to_string(attached),
                                   " attached gradients"}));
            break;
        case GradientFamilyExpectation::DataConditional:
            // trace/10 rule: the minimum applies once a member is present (trace/9 used attached).
            if (judged && present > 0 && present < family.minPresent)
                emitFamily("H-GRAD-CONDITIONAL-BELOW-MIN", "gradient_conditional_family_below_minimum",
                           concat({"data-conditional gradient family ", name, " was attached but has ",
                                   std::to_string(present), " present gradients; requires at least ", min}));
            break;
        }
    }
}

} // namespace TraceInspector::HealthDetail
