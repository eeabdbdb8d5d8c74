// SPDX-License-Identifier: MIT
#include "core/analysis/nodememorymetrics.h"

#include <algorithm>
#include <charconv>

#include "core/analysis/densebytes.h"
#include "core/analysis/memoryprofile.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

std::uint64_t pairKey(StringId a, std::uint64_t b)
{
    return (std::uint64_t(a) << 32) | b;
}

struct Change {
    std::uint64_t time;
    std::uint8_t alloc; // frees (0) sort before allocations (1) at the same time
    std::uint64_t bytes;
};

struct SubtreeResult {
    std::uint64_t peak = 0;
    std::uint64_t residual = 0;
};

struct LifetimeSpan {
    std::uint64_t start;
    std::uint64_t end; // UINT64_MAX when open
    std::uint64_t bytes;
};

SubtreeResult subtreeOverInterval(std::uint64_t is, std::uint64_t ie, std::span<const std::uint32_t> members,
                                  const std::vector<LifetimeSpan> &lifetimes, std::vector<Change> &changes)
{
    SubtreeResult r;
    if (is >= ie)
        return r;
    changes.clear();
    std::uint64_t live = 0;
    for (const std::uint32_t l : members) {
        const LifetimeSpan &lt = lifetimes[l];
        if (!(lt.start < ie && lt.end > is))
            continue;
        if (lt.start <= is)
            live = saturatingAdd(live, lt.bytes);
        else
            changes.push_back({lt.start, 1, lt.bytes});
        // Every overlapping lifetime is either freed inside the interval or still live at
        // its end (residual), so the walk ends at the residual.
        if (lt.end < ie)
            changes.push_back({lt.end, 0, lt.bytes});
        else
            r.residual = saturatingAdd(r.residual, lt.bytes);
    }
    std::sort(changes.begin(), changes.end(),
              [](const Change &a, const Change &b) { return a.time != b.time ? a.time < b.time : a.alloc < b.alloc; });
    r.peak = live;
    for (std::size_t i = 0; i < changes.size();) {
        const std::uint64_t t = changes[i].time;
        for (; i < changes.size() && changes[i].time == t; ++i) {
            if (changes[i].alloc)
                live = saturatingAdd(live, changes[i].bytes);
            else
                live = live >= changes[i].bytes ? live - changes[i].bytes : 0;
        }
        r.peak = std::max(r.peak, live);
    }
    return r;
}

/// Parses the `{n}` of a default op node id: canonical decimal only.
std::optional<std::uint32_t> parseOpNumber(std::string_view s)
{
    if (s.empty() || (s.size() > 1 && s[0] == '0'))
        return std::nullopt;
    std::uint32_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

} // namespace

NodeMemoryMetricsTable nodeMemoryMetrics(const Trace &trace, const MemoryProfile &memory, const OpNodeIdMap &mapping)
{
    NodeMemoryMetricsTable t;
    const std::size_t opCount = trace.ops.size();

    // Step 1 bookkeeping: number the ops of each span.
    t.m_opIndexInSpan.resize(opCount);
    t.m_opBySpanAndIndex = DenseKeyIndex(opCount);
    {
        DenseKeyIndex spanSlots(1024);
        std::vector<std::uint32_t> counters;
        for (std::size_t i = 0; i < opCount; ++i) {
            const std::uint32_t slot = spanSlots.insert(trace.ops[i].spanId);
            if (slot >= counters.size())
                counters.push_back(0);
            const std::uint32_t n = counters[slot]++;
            t.m_opIndexInSpan[i] = n;
            t.m_opBySpanAndIndex.insert(pairKey(trace.ops[i].spanId, n));
        }
    }
    if (!mapping.empty()) {
        t.m_opMapped.assign(opCount, NodeMemoryMetricsTable::kUnmapped);
        for (std::size_t i = 0; i < opCount; ++i) {
            const Op &op = trace.ops[i];
            const auto it = mapping.find({std::string(trace.str(op.spanId)), t.m_opIndexInSpan[i]});
            if (it == mapping.end())
                continue;
            t.m_opMapped[i] = static_cast<std::uint32_t>(t.m_mappedIds.size());
            t.m_mappedIds.push_back(it->second);
            if (op.hasOutputDenseBytes)
                t.m_lastMappedResolvingOp[it->second] = static_cast<std::uint32_t>(i);
        }
    }

    const std::size_t spanCount = trace.spans.size();
    t.m_spanById = DenseKeyIndex(spanCount);
    for (const Span &s : trace.spans)
        t.m_spanById.insert(s.id);
    t.m_spans.assign(spanCount, {});

    // Step 2.
    if (!memory.logical)
        return t;
    const LogicalMemoryProfile &logical = *memory.logical;
    // Step 3.
    const bool complete = trace.meta && trace.meta->captureContract.logicalMemory == CoverageLevel::Complete;
    const std::size_t lifetimeCount = logical.lifetimeCount();

    // Step 4: only mapped ops take part.
    if (!t.m_mappedIds.empty()) {
        DenseKeyIndex groups(t.m_mappedIds.size());
        std::vector<std::uint32_t> groupSize;
        std::vector<std::uint32_t> groupFirst;
        for (std::size_t i = 0; i < opCount; ++i) {
            if (t.m_opMapped[i] == NodeMemoryMetricsTable::kUnmapped)
                continue;
            const std::uint32_t g = groups.insert(pairKey(trace.ops[i].spanId, trace.ops[i].opName));
            if (g >= groupSize.size()) {
                groupSize.push_back(0);
                groupFirst.push_back(t.m_opMapped[i]);
            }
            ++groupSize[g];
        }
        for (std::size_t l = 0; l < lifetimeCount; ++l) {
            const MemoryEvent &a = trace.memory[logical.lifetimeAllocRecord(l)];
            if (a.opName == kNoString)
                continue;
            const std::uint32_t g = groups.find(pairKey(a.spanId, a.opName));
            if (g == kNone || groupSize[g] != 1)
                continue;
            std::uint64_t &sum = t.m_opDirect[t.m_mappedIds[groupFirst[g]]];
            sum = saturatingAdd(sum, a.bytes);
        }
    }

    // Step 5.
    std::vector<LifetimeSpan> lifetimes(lifetimeCount);
    std::vector<std::uint32_t> lifetimeSpan(lifetimeCount, kNone);
    std::vector<std::uint8_t> hasDirect(spanCount, 0);
    for (std::size_t l = 0; l < lifetimeCount; ++l) {
        const std::span<const std::uint32_t> recs = logical.lifetimeRecords(l);
        const MemoryEvent &a = trace.memory[recs.front()];
        const MemoryEvent &last = trace.memory[recs.back()];
        lifetimes[l] = {a.timestampNs, last.action == MemoryAction::Free ? last.timestampNs.value() : UINT64_MAX,
                        a.bytes};
        const std::uint32_t s = t.m_spanById.find(a.spanId);
        lifetimeSpan[l] = s;
        if (s != kNone) {
            t.m_spans[s].direct = saturatingAdd(t.m_spans[s].direct, a.bytes);
            hasDirect[s] = 1;
        }
    }
    std::vector<std::uint32_t> parent(spanCount, kNone);
    for (std::size_t s = 0; s < spanCount; ++s) {
        if (complete || hasDirect[s])
            t.m_spans[s].flags |= 1;
        if (trace.spans[s].parentId != kNoString)
            parent[s] = t.m_spanById.find(trace.spans[s].parentId);
    }

    // Subtree membership: each lifetime belongs to its allocation span and every span met
    // walking up the parent links, each at most once (the stamp is the cycle guard).
    std::vector<std::size_t> offsets(spanCount + 1, 0);
    std::vector<std::uint32_t> stamp(spanCount, 0);
    const auto walkUp = [&](auto &&visit) {
        std::fill(stamp.begin(), stamp.end(), 0);
        for (std::uint32_t l = 0; l < lifetimeCount; ++l) {
            for (std::uint32_t x = lifetimeSpan[l]; x != kNone && stamp[x] != l + 1; x = parent[x]) {
                stamp[x] = l + 1;
                visit(x, l);
            }
        }
    };
    walkUp([&](std::uint32_t x, std::uint32_t) { ++offsets[x + 1]; });
    for (std::size_t s = 0; s < spanCount; ++s)
        offsets[s + 1] += offsets[s];
    std::vector<std::uint32_t> members(offsets[spanCount]);
    {
        std::vector<std::size_t> fill(offsets.begin(), offsets.end() - 1);
        walkUp([&](std::uint32_t x, std::uint32_t l) { members[fill[x]++] = l; });
    }

    std::vector<Change> changes;
    for (std::size_t s = 0; s < spanCount; ++s) {
        const Span &span = trace.spans[s];
        const std::size_t count = offsets[s + 1] - offsets[s];
        if (!span.closed || !(complete || count > 0))
            continue;
        const std::span<const std::uint32_t> mine(members.data() + offsets[s], count);
        const SubtreeResult r =
            subtreeOverInterval(span.startNs, saturatingAdd(span.startNs, span.durationNs), mine, lifetimes, changes);
        t.m_spans[s].peak = r.peak;
        t.m_spans[s].residual = r.residual;
        t.m_spans[s].flags |= 2;
    }
    return t;
}

std::optional<std::uint64_t> NodeMemoryMetricsTable::lastOutputDense(const Trace &trace, std::string_view nodeId) const
{
    std::uint32_t best = kNone;
    if (!m_lastMappedResolvingOp.empty()) {
        const auto it = m_lastMappedResolvingOp.find(std::string(nodeId));
        if (it != m_lastMappedResolvingOp.end())
            best = it->second;
    }
    // A default id is `{span_id}/op/{n}`; span ids may themselves contain "/op/".
    for (std::size_t pos = nodeId.find("/op/"); pos != std::string_view::npos; pos = nodeId.find("/op/", pos + 1)) {
        const std::optional<std::uint32_t> n = parseOpNumber(nodeId.substr(pos + 4));
        if (!n)
            continue;
        const StringId span = trace.strings.find(nodeId.substr(0, pos));
        if (span == kNoString)
            continue;
        const std::uint32_t op = m_opBySpanAndIndex.find(pairKey(span, *n));
        if (op == kNone || (!m_opMapped.empty() && m_opMapped[op] != kUnmapped) || !trace.ops[op].hasOutputDenseBytes)
            continue;
        if (best == kNone || op > best)
            best = op;
    }
    if (best == kNone)
        return std::nullopt;
    return trace.ops[best].outputDenseBytes;
}

std::optional<NodeMemoryMetrics> NodeMemoryMetricsTable::find(const Trace &trace, std::string_view nodeId) const
{
    NodeMemoryMetrics m;
    m.outputDenseBytes = lastOutputDense(trace, nodeId);
    if (const auto it = m_opDirect.find(nodeId); it != m_opDirect.end())
        m.directAllocatedBytes = it->second;
    if (const StringId id = trace.strings.find(nodeId); id != kNoString) {
        const std::uint32_t s = m_spanById.find(id);
        if (s != kNone) {
            const SpanValues &v = m_spans[s];
            if (v.flags & 1)
                m.directAllocatedBytes = v.direct;
            if (v.flags & 2) {
                m.subtreePeakLiveBytes = v.peak;
                m.subtreeResidualBytes = v.residual;
            }
        }
    }
    if (m.empty())
        return std::nullopt;
    return m;
}

NodeMemoryMetrics NodeMemoryMetricsTable::forSpan(const Trace &trace, std::size_t spanIndex) const
{
    return find(trace, trace.str(trace.spans[spanIndex].id)).value_or(NodeMemoryMetrics{});
}

NodeMemoryMetrics NodeMemoryMetricsTable::forOp(const Trace &trace, std::size_t opIndex) const
{
    return find(trace, opNodeId(trace, opIndex)).value_or(NodeMemoryMetrics{});
}

std::string NodeMemoryMetricsTable::opNodeId(const Trace &trace, std::size_t opIndex) const
{
    if (!m_opMapped.empty() && m_opMapped[opIndex] != kUnmapped)
        return m_mappedIds[m_opMapped[opIndex]];
    std::string id(trace.str(trace.ops[opIndex].spanId));
    id += "/op/";
    id += std::to_string(m_opIndexInSpan[opIndex]);
    return id;
}

std::map<std::string, NodeMemoryMetrics> NodeMemoryMetricsTable::toMap(const Trace &trace) const
{
    // The §8.3 steps replayed literally over the stored results.
    std::map<std::string, NodeMemoryMetrics> out;
    for (std::size_t i = 0; i < trace.ops.size(); ++i)
        if (trace.ops[i].hasOutputDenseBytes)
            out[opNodeId(trace, i)].outputDenseBytes = trace.ops[i].outputDenseBytes;
    for (const auto &[id, bytes] : m_opDirect)
        out[id].directAllocatedBytes = bytes;
    for (std::size_t s = 0; s < m_spans.size(); ++s) {
        const SpanValues &v = m_spans[s];
        if (v.flags == 0)
            continue;
        NodeMemoryMetrics &m = out[std::string(trace.str(trace.spans[s].id))];
        if (v.flags & 1)
            m.directAllocatedBytes = v.direct;
        if (v.flags & 2) {
            m.subtreePeakLiveBytes = v.peak;
            m.subtreeResidualBytes = v.residual;
        }
    }
    return out;
}

} // namespace TraceInspector
