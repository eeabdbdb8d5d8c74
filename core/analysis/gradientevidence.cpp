// SPDX-License-Identifier: MIT
#include "core/analysis/gradientevidence.h"

#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/analysis/gradientmanifest.h"
#include "core/analysis/health.h"
#include "core/model/trace.h"

namespace TraceInspector {

std::size_t GradientEvidence::countInState(GradientState state) const
{
    std::size_t n = 0;
    for (const GradientKeyEvidence &k : keys)
        n += k.state == state;
    return n;
}

std::size_t GradientEvidence::notCapturedCount() const
{
    std::size_t n = 0;
    for (const GradientKeyEvidence &k : keys)
        n += !k.state.has_value();
    return n;
}

namespace {

bool isGradientRule(std::string_view ruleId)
{
    return ruleId.starts_with("H-GRAD-") || ruleId.starts_with("HW-GRAD-");
}

} // namespace

GradientEvidence analyzeGradientEvidence(const Trace &trace, const HealthReport *health)
{
    GradientEvidence result;
    const GradientContract *contract = nullptr;
    if (trace.meta) {
        result.declared = trace.meta->captureContract.gradients;
        if (trace.meta->captureContract.gradientContract) {
            contract = &*trace.meta->captureContract.gradientContract;
            result.hasContract = true;
            result.digest = ManifestDigestCheck{contract->manifestSha256, gradientManifestDigest(contract->expected)};
        }
    }

    using Pair = std::pair<std::string_view, std::string_view>;
    std::map<Pair, std::size_t> indexOf;
    std::vector<std::uint32_t> keyOfRecord(trace.gradients.size(), UINT32_MAX);
    for (std::size_t i = 0; i < trace.gradients.size(); ++i) {
        const Gradient &g = trace.gradients[i];
        const Pair pair{trace.str(g.root), trace.str(g.key)};
        auto [it, inserted] = indexOf.try_emplace(pair, result.keys.size());
        if (inserted) {
            GradientKeyEvidence k;
            k.root = std::string(pair.first);
            k.key = std::string(pair.second);
            k.state = g.state;
            if (g.hasNorm)
                k.norm = g.norm;
            k.firstRecord = std::uint32_t(i);
            k.line = g.line;
            result.keys.push_back(std::move(k));
        }
        ++result.keys[it->second].recordCount;
        keyOfRecord[i] = std::uint32_t(it->second);
    }

    std::unordered_map<std::string_view, std::vector<std::size_t>> keysOfFamily;
    if (contract) {
        for (const ExpectedGradient &e : contract->expected) {
            std::size_t index = 0;
            if (const auto it = indexOf.find(Pair{e.root, e.key}); it != indexOf.end()) {
                index = it->second;
            } else {
                index = result.keys.size();
                indexOf.emplace(Pair{e.root, e.key}, index);
                GradientKeyEvidence k;
                k.root = e.root;
                k.key = e.key;
                result.keys.push_back(std::move(k));
            }
            GradientKeyEvidence &k = result.keys[index];
            if (k.inManifest)
                continue; // a repeated manifest entry; the contract finding says so
            k.inManifest = true;
            k.family = e.family;
            keysOfFamily[e.family].push_back(index);
        }
        for (const GradientFamilyContract &f : contract->families) {
            GradientFamilyEvidence fam;
            fam.family = f.family;
            fam.expectation = f.expectation;
            fam.minPresent = f.minPresent;
            if (const auto it = keysOfFamily.find(f.family); it != keysOfFamily.end()) {
                for (const std::size_t index : it->second) {
                    GradientKeyEvidence &k = result.keys[index];
                    k.expectation = f.expectation;
                    ++fam.members;
                    fam.observed += k.state.has_value();
                    fam.present += k.state == GradientState::Present;
                }
            }
            result.families.push_back(std::move(fam));
        }
    }

    if (!health)
        return result;
    std::unordered_map<std::string_view, std::size_t> familyIndex;
    for (std::size_t f = 0; f < result.families.size(); ++f)
        familyIndex.emplace(result.families[f].family, f);
    std::unordered_map<std::string_view, std::pair<std::vector<std::size_t>, std::size_t>> uncapturedByKey;
    for (std::size_t k = 0; k < result.keys.size(); ++k) {
        if (!result.keys[k].state && result.keys[k].inManifest)
            uncapturedByKey[result.keys[k].key].first.push_back(k);
    }
    for (std::size_t i = 0; i < health->findings.size(); ++i) {
        const Problem &p = health->findings[i];
        if (!isGradientRule(p.ruleId))
            continue;
        const auto index = std::uint32_t(i);
        if (p.relatedKind == RelatedKind::Gradient && p.relatedIndex < keyOfRecord.size()
            && keyOfRecord[p.relatedIndex] != UINT32_MAX) {
            result.keys[keyOfRecord[p.relatedIndex]].findings.push_back(index);
            continue;
        }
        if (p.ruleId == "HW-GRAD-MANIFEST-MISSING") {
            // The finding names the key only: the uncaptured manifest pairs with that key take
            // its findings in manifest order, as health emits them.
            auto &queue = uncapturedByKey[p.relatedId];
            if (queue.second < queue.first.size())
                result.keys[queue.first[queue.second++]].findings.push_back(index);
            else
                result.contractFindings.push_back(index);
            continue;
        }
        if (const auto it = familyIndex.find(p.relatedId);
            p.relatedKind == RelatedKind::Meta && it != familyIndex.end() && p.ruleId.starts_with("H-GRAD-")
            && p.ruleId != "H-GRAD-CONTRACT-MISSING" && p.ruleId != "H-GRAD-CONTRACT-UNEXPECTED"
            && p.ruleId != "H-GRAD-CONTRACT-INVALID") {
            result.families[it->second].findings.push_back(index);
            for (GradientKeyEvidence &k : result.keys) {
                if (k.inManifest && k.family == p.relatedId)
                    k.findings.push_back(index);
            }
            continue;
        }
        result.contractFindings.push_back(index);
    }
    return result;
}

} // namespace TraceInspector
