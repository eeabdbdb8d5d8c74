// SPDX-License-Identifier: MIT
#include "core/diff/spanmatcher.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/analysis/spantree.h"
#include "core/model/stringtable.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

struct SiblingKey {
    std::string_view name;
    std::uint32_t occurrence;
    bool operator==(const SiblingKey &) const = default;
};

struct SiblingKeyHash {
    std::size_t operator()(const SiblingKey &k) const
    {
        return std::hash<std::string_view>()(k.name) ^ (std::size_t(k.occurrence) * 0x9E3779B97F4A7C15ull);
    }
};

/// (name, occurrence) of each span in \a siblings, which are in start order.
std::vector<SiblingKey> siblingKeys(const Trace &trace, std::span<const std::uint32_t> siblings)
{
    std::vector<SiblingKey> keys;
    keys.reserve(siblings.size());
    std::unordered_map<std::string_view, std::uint32_t> seen;
    for (const std::uint32_t s : siblings) {
        const std::string_view name = trace.str(trace.spans[s].name);
        keys.push_back({name, seen[name]++});
    }
    return keys;
}

/// The only span named \a label in \a trace, or kNone when there is none or more than one.
std::uint32_t uniqueSpanNamed(const Trace &trace, std::string_view label)
{
    // The interned string id avoids comparing text per span.
    const std::uint32_t id = trace.strings.find(label);
    std::uint32_t found = SpanMatch::kNone;
    if (id == kNoString)
        return found;
    for (std::uint32_t s = 0; s < trace.spans.size(); ++s) {
        if (trace.spans[s].name != id)
            continue;
        if (found != SpanMatch::kNone)
            return SpanMatch::kNone;
        found = s;
    }
    return found;
}

/// The labels either run declares, candidate's first, each once, in declared order.
std::vector<std::string_view> declaredLabels(const Trace &baseline, const Trace &candidate)
{
    std::vector<std::string_view> labels;
    for (const Trace *t : {&candidate, &baseline}) {
        if (!t->meta)
            continue;
        for (const std::string &label : t->meta->captureContract.requiredSemanticLabels) {
            if (std::find(labels.begin(), labels.end(), std::string_view(label)) == labels.end())
                labels.emplace_back(label);
        }
    }
    return labels;
}

} // namespace

SpanMatch SpanMatch::compute(const Trace &baseline, const SpanTree &baselineTree, const Trace &candidate,
                             const SpanTree &candidateTree)
{
    SpanMatch m;
    m.candidateOf.assign(baselineTree.spanCount(), kNone);
    m.baselineOf.assign(candidateTree.spanCount(), kNone);

    // Pairs of sibling lists to match: (baseline parent, candidate parent); kNone = roots.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> work{{kNone, kNone}};
    std::unordered_map<SiblingKey, std::uint32_t, SiblingKeyHash> candidateByKey;
    auto pair = [&](std::uint32_t b, std::uint32_t c) {
        m.candidateOf[b] = c;
        m.baselineOf[c] = b;
        ++m.matched;
        work.emplace_back(b, c);
    };
    auto walk = [&] {
        while (!work.empty()) {
            const std::uint32_t bp = work.back().first;
            const std::uint32_t cp = work.back().second;
            work.pop_back();
            const std::span<const std::uint32_t> bs = bp == kNone ? baselineTree.roots() : baselineTree.children(bp);
            const std::span<const std::uint32_t> cs = cp == kNone ? candidateTree.roots() : candidateTree.children(cp);
            const std::vector<SiblingKey> bk = siblingKeys(baseline, bs);
            const std::vector<SiblingKey> ck = siblingKeys(candidate, cs);
            candidateByKey.clear();
            for (std::size_t i = 0; i < cs.size(); ++i)
                candidateByKey.emplace(ck[i], cs[i]);
            for (std::size_t i = 0; i < bs.size(); ++i) {
                const auto it = candidateByKey.find(bk[i]);
                // A label match made earlier may already own the candidate span.
                if (it != candidateByKey.end() && m.baselineOf[it->second] == kNone)
                    pair(bs[i], it->second);
            }
        }
    };
    walk();

    for (const std::string_view label : declaredLabels(baseline, candidate)) {
        const std::uint32_t b = uniqueSpanNamed(baseline, label);
        const std::uint32_t c = uniqueSpanNamed(candidate, label);
        if (b == kNone || c == kNone || b >= m.candidateOf.size() || c >= m.baselineOf.size())
            continue;
        if (m.candidateOf[b] != kNone || m.baselineOf[c] != kNone)
            continue;
        pair(b, c);
        ++m.matchedByLabel;
        walk();
    }

    // Every span without a partner is "only in" its run, whether or not its parent matched.
    m.baselineOnly = std::uint64_t(std::count(m.candidateOf.begin(), m.candidateOf.end(), kNone));
    m.candidateOnly = std::uint64_t(std::count(m.baselineOf.begin(), m.baselineOf.end(), kNone));
    return m;
}

std::string spanPath(const Trace &trace, const SpanTree &tree, std::uint32_t index)
{
    std::vector<std::string> steps;
    for (std::uint32_t s = index; s != SpanTree::kNoParent; s = tree.parent(s)) {
        const std::uint32_t parent = tree.parent(s);
        const std::span<const std::uint32_t> siblings =
            parent == SpanTree::kNoParent ? tree.roots() : tree.children(parent);
        const std::string_view name = trace.str(trace.spans[s].name);
        std::uint32_t occurrence = 0;
        for (const std::uint32_t sib : siblings) {
            if (sib == s)
                break;
            if (trace.str(trace.spans[sib].name) == name)
                ++occurrence;
        }
        std::string step(name);
        if (occurrence > 0)
            step += '[' + std::to_string(occurrence) + ']';
        steps.push_back(std::move(step));
    }
    std::string path;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
        if (!path.empty())
            path += '/';
        path += *it;
    }
    return path;
}

} // namespace TraceInspector
