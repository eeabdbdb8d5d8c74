// SPDX-License-Identifier: MIT
#include "core/analysis/summary.h"

#include <algorithm>

#include "core/analysis/densebytes.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/spanidindex.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kOnPath = UINT32_MAX; // reach[] of a span on the walk in progress

/// Calls \a visit(span, depth) for every span with its §7.3 depth, in linear time. With
/// \a spanIds (the trace's SpanIdIndex) the parents are found through it, else through a
/// table of its own.
///
/// Memory is 8 bytes per span (a StringId -> span table, none with \a spanIds, and one 32-bit
/// reach per span) and no per-span result: on a file of ten million root spans (a hostile
/// input) the summary's working set used to be half the file size on top of the trace.
/// Depths and cycle lengths are bounded by the span count, which fits 32 bits (spans are
/// indexed by uint32).
template<typename Visit>
void visitSpanDepths(const Trace &trace, const SpanIdIndex *spanIds, Visit &&visit)
{
    const std::size_t n = trace.spans.size();
    // Span ids are unique interned strings: a flat StringId -> span index + 1 table finds
    // parents in O(1) (0 = no span of that id).
    if (spanIds && !spanIds->covers(trace))
        spanIds = nullptr;
    std::vector<std::uint32_t> spanOfId;
    if (!spanIds) {
        spanOfId.assign(trace.strings.size(), 0);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint32_t &slot = spanOfId[trace.spans[i].id];
            if (slot == 0)
                slot = static_cast<std::uint32_t>(i + 1);
        }
    }
    constexpr std::uint32_t kRoot = UINT32_MAX;        // no parent_id
    constexpr std::uint32_t kMissing = UINT32_MAX - 1; // parent_id naming no span
    static_assert(SpanIdIndex::kNoSpan == kRoot);
    const auto next = [&](std::size_t i) -> std::uint32_t {
        const StringId parent = trace.spans[i].parentId;
        if (parent == kNoString)
            return kRoot;
        if (spanIds) {
            const std::uint32_t p = spanIds->spanOf(parent);
            return p == SpanIdIndex::kNoSpan ? kMissing : p;
        }
        const std::uint32_t p = parent < spanOfId.size() ? spanOfId[parent] : 0;
        return p == 0 ? kMissing : p - 1;
    };

    // reach[x] = number of distinct ids a §7.3 walk visits when it arrives at span x:
    // 1 + reach[parent] off a cycle, the cycle length on one (so never 0: 0 = not yet
    // walked). depth(s) = reach of its parent (1 for a missing parent, 0 for a root).
    std::vector<std::uint32_t> reach(n, 0);
    std::vector<std::uint32_t> path;
    const auto after = [&](std::uint32_t x) -> std::uint64_t {
        if (x == kRoot)
            return 0;
        if (x == kMissing)
            return 1;
        return reach[x];
    };
    for (std::size_t start = 0; start < n; ++start) {
        if (reach[start] != 0)
            continue;
        path.clear();
        std::uint32_t x = static_cast<std::uint32_t>(start);
        while (x < n && reach[x] == 0) {
            reach[x] = kOnPath;
            path.push_back(x);
            x = next(x);
        }
        std::size_t tailEnd = path.size();
        if (x < n && reach[x] == kOnPath) {
            // The walk closed a cycle at x: it starts where x is on the path (found from the
            // end, at the cost of the cycle's length, which is assigned next anyway).
            tailEnd = path.size() - 1;
            while (path[tailEnd] != x)
                --tailEnd;
            const auto cycle = static_cast<std::uint32_t>(path.size() - tailEnd);
            for (std::size_t k = tailEnd; k < path.size(); ++k)
                reach[path[k]] = cycle;
        }
        for (std::size_t k = tailEnd; k-- > 0;) {
            const std::uint32_t v = path[k];
            reach[v] = static_cast<std::uint32_t>(1 + after(next(v)));
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        visit(i, after(next(i)));
}

} // namespace

std::vector<std::uint64_t> spanDepths(const Trace &trace)
{
    std::vector<std::uint64_t> depth(trace.spans.size());
    visitSpanDepths(trace, nullptr, [&depth](std::size_t i, std::uint64_t d) { depth[i] = d; });
    return depth;
}

TraceSummary computeSummary(const Trace &trace, const MemoryProfile &memory)
{
    return computeSummary(trace, memory.logicalPeakBytes());
}

TraceSummary computeSummary(const Trace &trace, std::optional<std::uint64_t> logicalPeakBytes,
                            const SpanIdIndex *spanIds)
{
    TraceSummary s;
    s.opCount = trace.ops.size();
    s.spanCount = trace.spans.size();
    for (const Span &span : trace.spans) {
        // §7.3: a plain u64 sum in upstream's release build, so it wraps modulo 2^64 (the
        // only wrapping sum; unsigned arithmetic wraps by definition).
        if (span.measured && span.closed)
            s.totalNs += span.durationNs;
        if (span.parentId == kNoString)
            ++s.rootSpanCount;
    }
    visitSpanDepths(trace, spanIds, [&s](std::size_t, std::uint64_t d) { s.maxDepth = std::max(s.maxDepth, d); });
    for (const MemoryEvent &e : trace.memory) {
        if (e.action == MemoryAction::Alloc)
            ++s.allocCount;
        else
            ++s.freeCount;
    }
    s.logicalPeakBytes = logicalPeakBytes;
    return s;
}

} // namespace TraceInspector
