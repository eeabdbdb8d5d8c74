// SPDX-License-Identifier: MIT
#include "core/diff/tracediff.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/analysis/spantree.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

std::optional<std::int64_t> difference(const std::optional<std::uint64_t> &a, const std::optional<std::uint64_t> &b)
{
    if (!a || !b)
        return std::nullopt;
    // Durations fit in 63 bits in any real run; saturate rather than wrap if one does not.
    constexpr std::uint64_t kMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    return std::int64_t(std::min(*b, kMax)) - std::int64_t(std::min(*a, kMax));
}

std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b)
{
    const std::uint64_t s = a + b;
    return s < a ? std::numeric_limits<std::uint64_t>::max() : s;
}

using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;

void addOps(std::map<GroupKey, OpGroupDelta> &groups, const Trace &trace, bool baseline)
{
    // Group by interned ids first (cheap), then fold into text keys once per distinct group.
    struct IdKey {
        std::uint32_t name, shape, dtype, device;
        bool operator==(const IdKey &) const = default;
    };
    struct IdKeyHash {
        std::size_t operator()(const IdKey &k) const
        {
            return (std::size_t(k.name) * 0x9E3779B97F4A7C15ull) ^ (std::size_t(k.shape) * 0xC2B2AE3D27D4EB4Full)
                   ^ (std::size_t(k.dtype) << 21) ^ std::size_t(k.device);
        }
    };
    struct Sums {
        std::uint64_t count = 0, ns = 0, bytes = 0;
    };
    std::unordered_map<IdKey, Sums, IdKeyHash> byId;
    for (const Op &op : trace.ops) {
        Sums &s = byId[IdKey{op.opName, op.shape, op.dtype, op.device}];
        ++s.count;
        s.ns = saturatingSum(s.ns, op.durationNs);
        if (op.hasOutputDenseBytes)
            s.bytes = saturatingSum(s.bytes, op.outputDenseBytes);
    }
    for (const auto &[k, v] : byId) {
        GroupKey key{std::string(trace.str(k.name)), shapeText(trace, k.shape), std::string(trace.str(k.dtype)),
                     std::string(trace.str(k.device))};
        OpGroupDelta &g = groups[key];
        if (g.name.empty() && g.baselineCount == 0 && g.candidateCount == 0)
            std::tie(g.name, g.shape, g.dtype, g.device) = key;
        if (baseline) {
            g.baselineCount += v.count;
            g.baselineNs = saturatingSum(g.baselineNs, v.ns);
            g.baselineBytes = saturatingSum(g.baselineBytes, v.bytes);
        } else {
            g.candidateCount += v.count;
            g.candidateNs = saturatingSum(g.candidateNs, v.ns);
            g.candidateBytes = saturatingSum(g.candidateBytes, v.bytes);
        }
    }
}

std::vector<UnmatchedSpan> unmatchedTops(const SpanTree &tree, const std::vector<std::uint32_t> &partnerOf)
{
    std::vector<UnmatchedSpan> tops;
    for (std::uint32_t s = 0; s < tree.spanCount(); ++s) {
        if (partnerOf[s] != SpanMatch::kNone)
            continue;
        const std::uint32_t p = tree.parent(s);
        if (p != SpanTree::kNoParent && partnerOf[p] == SpanMatch::kNone)
            continue; // inside an unmatched subtree whose top is listed
        UnmatchedSpan u;
        u.index = s;
        u.totalNs = tree.durationNs(s);
        // A descendant matched by its semantic label is not "only in" this run: stop there.
        std::vector<std::uint32_t> stack{s};
        while (!stack.empty()) {
            const std::uint32_t x = stack.back();
            stack.pop_back();
            ++u.spans;
            for (const std::uint32_t c : tree.children(x)) {
                if (partnerOf[c] == SpanMatch::kNone)
                    stack.push_back(c);
            }
        }
        tops.push_back(u);
    }
    std::stable_sort(tops.begin(), tops.end(), [](const UnmatchedSpan &a, const UnmatchedSpan &b) {
        return a.totalNs.value_or(0) > b.totalNs.value_or(0);
    });
    return tops;
}

/// Ops of two matched spans paired by (op name, ordinal among that name) in stream order.
std::uint64_t matchOps(const Trace &bt, const SpanTree &btree, std::uint32_t b, const Trace &ct, const SpanTree &ctree,
                       std::uint32_t c)
{
    std::unordered_map<std::string_view, std::uint64_t> available;
    for (const std::uint32_t op : ctree.opsOfSpan(c))
        ++available[ct.str(ct.ops[op].opName)];
    std::uint64_t matched = 0;
    for (const std::uint32_t op : btree.opsOfSpan(b)) {
        const auto it = available.find(bt.str(bt.ops[op].opName));
        if (it != available.end() && it->second > 0) {
            --it->second;
            ++matched;
        }
    }
    return matched;
}

} // namespace

std::optional<std::int64_t> SpanDelta::selfDeltaNs() const
{
    return difference(baselineSelfNs, candidateSelfNs);
}

std::optional<std::int64_t> SpanDelta::totalDeltaNs() const
{
    return difference(baselineTotalNs, candidateTotalNs);
}

std::int64_t OpGroupDelta::deltaNs() const
{
    return *difference(baselineNs, candidateNs);
}

std::int64_t OpGroupDelta::deltaBytes() const
{
    return *difference(baselineBytes, candidateBytes);
}

std::string shapeText(const Trace &trace, std::uint32_t shapeId)
{
    std::string text = "[";
    if (shapeId < trace.shapes.size()) {
        bool first = true;
        for (const std::uint64_t d : trace.shapes.view(shapeId)) {
            if (!first)
                text += ", ";
            text += std::to_string(d);
            first = false;
        }
    }
    return text + "]";
}

TraceDiff TraceDiff::compute(const Trace &baseline, const SpanTree &baselineTree, const Trace &candidate,
                             const SpanTree &candidateTree)
{
    TraceDiff d;
    d.spans = SpanMatch::compute(baseline, baselineTree, candidate, candidateTree);
    d.baselineOps = baseline.ops.size();
    d.candidateOps = candidate.ops.size();
    d.baselineMeasuredNs = baselineTree.measuredTotalNs();
    d.candidateMeasuredNs = candidateTree.measuredTotalNs();
    d.matched.reserve(d.spans.matched);
    for (std::uint32_t b = 0; b < baselineTree.spanCount(); ++b) {
        const std::uint32_t c = d.spans.candidateOf[b];
        if (c == SpanMatch::kNone)
            continue;
        SpanDelta row;
        row.baseline = b;
        row.candidate = c;
        row.baselineTotalNs = baselineTree.durationNs(b);
        row.candidateTotalNs = candidateTree.durationNs(c);
        row.baselineSelfNs = baselineTree.selfNs(b);
        row.candidateSelfNs = candidateTree.selfNs(c);
        d.matched.push_back(row);
        d.matchedOps += matchOps(baseline, baselineTree, b, candidate, candidateTree, c);
    }
    std::map<GroupKey, OpGroupDelta> groups;
    addOps(groups, baseline, true);
    addOps(groups, candidate, false);
    d.opGroups.reserve(groups.size());
    for (auto &[key, g] : groups)
        d.opGroups.push_back(std::move(g));
    d.onlyInBaseline = unmatchedTops(baselineTree, d.spans.candidateOf);
    d.onlyInCandidate = unmatchedTops(candidateTree, d.spans.baselineOf);
    return d;
}

} // namespace TraceInspector
