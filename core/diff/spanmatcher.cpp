// SPDX-License-Identifier: MIT
#include "core/diff/spanmatcher.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/analysis/spantree.h"
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

std::uint64_t subtreeSize(const SpanTree &tree, std::uint32_t root)
{
    std::uint64_t n = 0;
    std::vector<std::uint32_t> stack{root};
    while (!stack.empty()) {
        const std::uint32_t s = stack.back();
        stack.pop_back();
        ++n;
        for (const std::uint32_t c : tree.children(s))
            stack.push_back(c);
    }
    return n;
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
    while (!work.empty()) {
        const auto [bp, cp] = work.back();
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
            if (it == candidateByKey.end())
                continue;
            m.candidateOf[bs[i]] = it->second;
            m.baselineOf[it->second] = bs[i];
            ++m.matched;
            work.emplace_back(bs[i], it->second);
        }
        for (const std::uint32_t b : bs) {
            if (m.candidateOf[b] == kNone)
                m.baselineOnly += subtreeSize(baselineTree, b);
        }
        for (const std::uint32_t c : cs) {
            if (m.baselineOf[c] == kNone)
                m.candidateOnly += subtreeSize(candidateTree, c);
        }
    }
    return m;
}

std::string spanPath(const Trace &trace, const SpanTree &tree, std::uint32_t index)
{
    std::vector<std::string> steps;
    for (std::uint32_t s = index; s != SpanTree::kNoParent; s = tree.parent(s)) {
        const std::uint32_t parent = tree.parent(s);
        const std::span<const std::uint32_t> siblings = parent == SpanTree::kNoParent ? tree.roots()
                                                                                        : tree.children(parent);
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
