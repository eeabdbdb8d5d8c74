// SPDX-License-Identifier: MIT
#include "core/analysis/summary.h"

#include <algorithm>

#include "core/analysis/densebytes.h"
#include "core/analysis/logicalmemorykeys.h"
#include "core/analysis/memoryprofile.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kRoot = UINT32_MAX;        // no parent_id
constexpr std::uint32_t kMissing = UINT32_MAX - 1; // parent_id naming no span

} // namespace

std::vector<std::uint64_t> spanDepths(const Trace &trace)
{
    const std::size_t n = trace.spans.size();
    // Span ids are unique interned strings, so a hash of their StringIds finds parents in
    // O(1) instead of a binary search with string comparisons per span.
    DenseKeyIndex byId(n);
    for (const Span &s : trace.spans)
        byId.insert(s.id);
    std::vector<std::uint32_t> next(n);
    for (std::size_t i = 0; i < n; ++i) {
        const StringId parent = trace.spans[i].parentId;
        if (parent == kNoString) {
            next[i] = kRoot;
        } else {
            const std::uint32_t p = byId.find(parent);
            next[i] = p == UINT32_MAX ? kMissing : p;
        }
    }

    // reach[x] = number of distinct ids a §7.3 walk visits when it arrives at span x:
    // 1 + reach[parent] off a cycle, the cycle length on one. depth(s) = reach of its
    // parent (1 for a missing parent, 0 for a root).
    std::vector<std::uint64_t> reach(n, 0);
    std::vector<std::uint8_t> state(n, 0); // 0 new, 1 on the current path, 2 done
    std::vector<std::uint32_t> pathPos(n, 0);
    std::vector<std::uint32_t> path;
    const auto after = [&](std::uint32_t x) -> std::uint64_t {
        if (x == kRoot)
            return 0;
        if (x == kMissing)
            return 1;
        return reach[x];
    };
    for (std::uint32_t start = 0; start < n; ++start) {
        if (state[start] != 0)
            continue;
        path.clear();
        std::uint32_t x = start;
        while (x < n && state[x] == 0) {
            state[x] = 1;
            pathPos[x] = static_cast<std::uint32_t>(path.size());
            path.push_back(x);
            x = next[x];
        }
        std::size_t tailEnd = path.size();
        if (x < n && state[x] == 1) {
            tailEnd = pathPos[x];
            const std::uint64_t cycle = path.size() - tailEnd;
            for (std::size_t k = tailEnd; k < path.size(); ++k) {
                reach[path[k]] = cycle;
                state[path[k]] = 2;
            }
        }
        for (std::size_t k = tailEnd; k-- > 0;) {
            const std::uint32_t v = path[k];
            reach[v] = 1 + after(next[v]);
            state[v] = 2;
        }
    }

    std::vector<std::uint64_t> depth(n);
    for (std::size_t i = 0; i < n; ++i)
        depth[i] = after(next[i]);
    return depth;
}

TraceSummary computeSummary(const Trace &trace, const MemoryProfile &memory)
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
    for (const std::uint64_t d : spanDepths(trace))
        s.maxDepth = std::max(s.maxDepth, d);
    for (const MemoryEvent &e : trace.memory) {
        if (e.action == MemoryAction::Alloc)
            ++s.allocCount;
        else
            ++s.freeCount;
    }
    if (memory.logical && memory.logical->peak())
        s.logicalPeakBytes = memory.logical->peak()->liveBytes;
    return s;
}

} // namespace TraceInspector
