// SPDX-License-Identifier: MIT
#include "core/analysis/spantree.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "core/analysis/densebytes.h"
#include "core/analysis/groupbyindex.h"
#include "core/analysis/radixorder.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

// Span indices ordered by (start_ns, index). Spans are id-sorted, so index order is id order.
std::vector<std::uint32_t> orderByStart(const std::vector<Span> &spans)
{
    std::vector<std::uint64_t> keys(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i)
        keys[i] = spans[i].startNs;
    return radixOrder(std::move(keys));
}

} // namespace

SpanTree SpanTree::build(const Trace &trace, std::vector<std::uint32_t> *spansByStart, SpanIdIndex ids)
{
    SpanTree tree;
    const std::vector<Span> &spans = trace.spans;
    const std::size_t n = spans.size();

    tree.m_ids = ids.covers(trace) ? std::move(ids) : SpanIdIndex::build(trace);
    const auto lookup = [&tree](StringId id) { return tree.spanOfId(id); };

    // Built whole here, kept block-packed (a span's parent lies near it in id order).
    std::vector<std::uint32_t> parents(n);
    tree.m_flags.assign(n, 0);
    tree.m_duration.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Span &s = spans[i];
        std::uint8_t flags = 0;
        if (!s.closed) {
            flags |= Open;
            ++tree.m_openCount;
        }
        if (s.measured) {
            flags |= Measured;
            if (s.closed)
                tree.m_measuredTotalNs = saturatingAdd(tree.m_measuredTotalNs, s.durationNs);
        }
        std::uint32_t parent = kNoParent;
        if (s.parentId != kNoString) {
            parent = lookup(s.parentId);
            if (parent == kNoParent) {
                flags |= Dangling;
                ++tree.m_danglingCount;
            }
        }
        parents[i] = parent;
        tree.m_flags[i] = flags;
        tree.m_duration.push_back(s.closed ? s.durationNs : 0);
        if (s.closed)
            tree.m_maxDurationNs = std::max(tree.m_maxDurationNs, s.durationNs);
    }
    tree.m_duration.finish();

    // Break parent cycles. Each span is walked once: a walk stops at a root, at a span
    // finished by an earlier walk, or at a span of the current walk (a new cycle).
    {
        enum : std::uint8_t { Unvisited, OnPath, Done };
        std::vector<std::uint8_t> state(n, Unvisited);
        std::vector<std::uint32_t> path;
        for (std::size_t start = 0; start < n; ++start) {
            if (state[start] != Unvisited)
                continue;
            path.clear();
            std::uint32_t j = static_cast<std::uint32_t>(start);
            while (j != kNoParent && state[j] == Unvisited) {
                state[j] = OnPath;
                path.push_back(j);
                j = parents[j];
            }
            if (j != kNoParent && state[j] == OnPath) {
                const auto first = std::find(path.rbegin(), path.rend(), j).base() - 1;
                std::uint32_t breakAt = j;
                for (auto it = first; it != path.end(); ++it) {
                    tree.m_flags[*it] |= InCycle;
                    breakAt = std::min(breakAt, *it);
                }
                parents[breakAt] = kNoParent;
                tree.m_flags[breakAt] |= CycleBreak;
                ++tree.m_cycleCount;
            }
            for (std::uint32_t p : path)
                state[p] = Done;
        }
    }

    tree.m_parent = BlockPackedU32(parents);

    // Group children by parent (counting sort over the start-ordered span list). The parents
    // are read from the plain array, not the packed copy: in start order each read is a
    // random one, and a packed one takes two.
    const auto slotOf = [&parents, n](std::uint32_t i) {
        return parents[i] == kNoParent ? n : std::size_t(parents[i]);
    };
    // Rows, depths and offsets are built in 32 bits and kept narrower; the parents' array
    // and two more serve each in turn, as fresh memory costs a page fault per 4 KiB.
    std::vector<std::uint32_t> offset(n + 2, 0);
    std::vector<std::uint32_t> cursor;
    for (std::size_t i = 0; i < n; ++i)
        ++offset[slotOf(static_cast<std::uint32_t>(i)) + 1];
    std::partial_sum(offset.begin(), offset.end(), offset.begin());
    cursor.assign(offset.begin(), offset.end() - 1);
    tree.m_children.resize(n);
    std::vector<std::uint32_t> byStart = orderByStart(spans);
    // A span's row takes its parent's place: each span is visited once, its parent read
    // before its row is written.
    std::vector<std::uint32_t> &row = parents;
    for (std::uint32_t i : byStart) {
        const std::size_t slot = slotOf(i);
        const std::uint32_t pos = cursor[slot]++;
        tree.m_children[pos] = i;
        row[i] = pos - offset[slot];
    }
    std::vector<std::uint32_t> &scratch = row;
    if (spansByStart)
        *spansByStart = std::move(byStart);
    else
        std::vector<std::uint32_t>().swap(byStart);
    tree.m_row = NarrowU32Array(row);
    tree.m_childOffset = BlockPackedU32(offset);

    // Depths, breadth first without recursion (deep chains are legal input).
    {
        std::vector<std::uint32_t> &depth = scratch;
        depth.assign(n, 0);
        std::vector<std::uint32_t> &queue = cursor;
        const auto rootList = tree.roots();
        queue.assign(rootList.begin(), rootList.end());
        for (std::size_t q = 0; q < queue.size(); ++q) {
            const std::uint32_t u = queue[q];
            for (std::uint32_t c : tree.children(u)) {
                depth[c] = depth[u] + 1;
                queue.push_back(c);
            }
            tree.m_maxDepth = std::max(tree.m_maxDepth, depth[u]);
        }
        tree.m_depth = NarrowU32Array(depth);
    }

    tree.m_self.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (tree.isOpen(i)) {
            tree.m_self.push_back(0);
            continue;
        }
        std::uint64_t childTotal = 0;
        for (std::uint32_t c : tree.children(i)) {
            if (!tree.isOpen(c))
                childTotal = saturatingAdd(childTotal, tree.m_duration[c]);
        }
        const std::uint64_t duration = tree.m_duration[i];
        tree.m_self.push_back(duration - std::min(childTotal, duration));
    }
    tree.m_self.finish();

    const std::vector<Op> &ops = trace.ops;
    // Built whole here, kept block-packed (an op's span lies near the span of the op before).
    std::vector<std::uint32_t> &opSpan = scratch;
    opSpan.resize(ops.size());
    for (std::size_t k = 0; k < ops.size(); ++k)
        opSpan[k] = lookup(ops[k].spanId);
    static_assert(kNoParent == kNoBucket);
    std::vector<std::uint32_t> &opOffset = offset;
    groupByIndex(
        ops.size(), n, [&opSpan](std::size_t k) { return opSpan[k]; }, opOffset, tree.m_spanOps);
    tree.m_spanOpOffset = BlockPackedU32(opOffset);
    tree.m_opSpan = BlockPackedU32(opSpan);
    return tree;
}

std::optional<std::uint64_t> SpanTree::durationNs(std::size_t i) const
{
    if (isOpen(i))
        return std::nullopt;
    return m_duration[i];
}

std::optional<std::uint64_t> SpanTree::selfNs(std::size_t i) const
{
    if (isOpen(i))
        return std::nullopt;
    return m_self[i];
}

std::optional<double> SpanTree::fractionOfMeasured(std::size_t i) const
{
    if (isOpen(i) || m_measuredTotalNs == 0)
        return std::nullopt;
    return static_cast<double>(m_duration[i]) / static_cast<double>(m_measuredTotalNs);
}

std::size_t SpanTree::memoryUsage() const
{
    const auto bytes = [](const auto &v) { return v.capacity() * sizeof(v[0]); };
    return m_ids.memoryUsage() + m_parent.memoryUsage() + m_row.memoryUsage() + m_depth.memoryUsage() + bytes(m_flags)
           + m_duration.memoryUsage() + m_self.memoryUsage() + bytes(m_children) + m_childOffset.memoryUsage()
           + m_opSpan.memoryUsage() + bytes(m_spanOps) + m_spanOpOffset.memoryUsage();
}

} // namespace TraceInspector
