// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/analysis/spanidindex.h"
#include "core/model/blockpackedu32.h"
#include "core/model/blockpackedu64.h"
#include "core/model/narrowu32array.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;

/// The nesting of a trace's spans, built once per trace from `Trace::spans`.
///
/// All per-span arrays are indexed by the span's index into `Trace::spans` (the id-sorted
/// §7.2 records). Children live in one flat array: the children of span i are
/// `children(i)`, ordered by start_ns and then by id; the roots are `roots()`, same order.
///
/// Nothing is ever hidden: every span appears exactly once in the tree.
/// - A span whose `parent_id` names no span ("dangling parent") is placed at the root level
///   and flagged isDangling().
/// - Parent links that form a cycle (including a span naming itself) never reach a root. Each
///   cycle is broken at its member with the lowest index: that span becomes a root flagged
///   isCycleBreak(); every member of the cycle is flagged isInCycle(). The rest of the cycle
///   and everything hanging off it then nests under the break span.
///
/// Build cost is linear in spans + ops (radix sort on start_ns, counting sort by parent).
/// Preconditions: fewer than 2^32 - 1 spans and ops. The tree refers to the trace only while
/// building; it holds no pointer into it.
class SpanTree
{
public:
    static constexpr std::uint32_t kNoParent = SpanIdIndex::kNoSpan;

    SpanTree() = default;
    /// \a spansByStart, when given, receives the span indices ordered by (start_ns, index),
    /// which the tree sorts for itself: the timeline's layout needs the same order
    /// (TimelineLayout::build()). \a ids, the trace's span id index when it was built already
    /// (the loader's first op table), is taken over; otherwise the tree builds its own.
    static SpanTree build(const Trace &trace, std::vector<std::uint32_t> *spansByStart = nullptr, SpanIdIndex ids = {});

    std::size_t spanCount() const { return m_parent.size(); }

    /// Tree parent of span \a i (after dangling/cycle resolution), or kNoParent for a root.
    std::uint32_t parent(std::size_t i) const { return m_parent[i]; }
    /// The children of span \a i, ordered by (start_ns, id).
    std::span<const std::uint32_t> children(std::size_t i) const { return range(i); }
    std::span<const std::uint32_t> roots() const { return range(spanCount()); }
    /// Position of span \a i inside its parent's children() (or inside roots()).
    std::uint32_t row(std::size_t i) const { return m_row[i]; }
    /// Tree depth: 0 for roots (including dangling and cycle-break roots).
    std::uint32_t depth(std::size_t i) const { return m_depth[i]; }
    std::uint32_t maxDepth() const { return m_maxDepth; }

    bool isOpen(std::size_t i) const { return (m_flags[i] & Open) != 0; }
    bool isMeasured(std::size_t i) const { return (m_flags[i] & Measured) != 0; }
    bool isDangling(std::size_t i) const { return (m_flags[i] & Dangling) != 0; }
    bool isInCycle(std::size_t i) const { return (m_flags[i] & InCycle) != 0; }
    bool isCycleBreak(std::size_t i) const { return (m_flags[i] & CycleBreak) != 0; }

    /// Duration of span i, or nullopt while it is open (unknown, not 0).
    std::optional<std::uint64_t> durationNs(std::size_t i) const;
    /// Duration minus the summed durations of its closed tree children, clamped at 0;
    /// nullopt for an open span.
    std::optional<std::uint64_t> selfNs(std::size_t i) const;
    /// durationNs(i) / measuredTotalNs(), or nullopt when the span is open or the total is 0.
    std::optional<double> fractionOfMeasured(std::size_t i) const;

    /// Summary `total_ns` (§7.3): sum of the durations of measured spans, saturating.
    std::uint64_t measuredTotalNs() const { return m_measuredTotalNs; }
    /// Longest closed-span duration; a bar reference when there is no measured total.
    std::uint64_t maxDurationNs() const { return m_maxDurationNs; }

    std::size_t danglingCount() const { return m_danglingCount; }
    std::size_t cycleCount() const { return m_cycleCount; }
    std::size_t openCount() const { return m_openCount; }

    /// Index of the span whose id is the interned string \a id, or kNoParent when no span has
    /// that id (kNoString and strings that are no span's id included). O(1), through the
    /// tree's SpanIdIndex (given to build() or built there), shared by every analysis that
    /// resolves a span_id (device time, the timeline's layout, the call graph) instead of each
    /// building its own table.
    std::uint32_t spanOfId(StringId id) const { return m_ids.spanOf(id); }
    const SpanIdIndex &spanIds() const { return m_ids; }

    /// Index of the span owning op \a opIndex (by `span_id`), or kNoParent if none.
    std::uint32_t spanOfOp(std::size_t opIndex) const { return m_opSpan[opIndex]; }
    /// Indices into `Trace::ops` of the ops whose `span_id` names span \a i, stream order.
    std::span<const std::uint32_t> opsOfSpan(std::size_t i) const
    {
        return {m_spanOps.data() + m_spanOpOffset[i], m_spanOpOffset[i + 1] - m_spanOpOffset[i]};
    }
    std::size_t opCount() const { return m_opSpan.size(); }

    std::size_t memoryUsage() const;

private:
    enum Flag : std::uint8_t { Open = 1, Measured = 2, Dangling = 4, InCycle = 8, CycleBreak = 16 };

    std::span<const std::uint32_t> range(std::size_t slot) const
    {
        return {m_children.data() + m_childOffset[slot], m_childOffset[slot + 1] - m_childOffset[slot]};
    }

    SpanIdIndex m_ids; // spanOfId()
    BlockPackedU32 m_parent;
    NarrowU32Array m_row;   // 2 bytes while no span has more than 65536 children
    NarrowU32Array m_depth; // and none is deeper than 65535
    std::vector<std::uint8_t> m_flags;
    // Block-packed: most spans of a block of 1024 last less than 4 s more than its shortest.
    BlockPackedU64 m_duration;
    BlockPackedU64 m_self;
    std::vector<std::uint32_t> m_children; // grouped by parent; roots last
    // spanCount() + 2 entries; slot spanCount() = roots. Block-packed, as the ops' offsets.
    BlockPackedU32 m_childOffset{std::array<std::uint32_t, 2>{}};
    BlockPackedU32 m_opSpan;
    std::vector<std::uint32_t> m_spanOps;
    BlockPackedU32 m_spanOpOffset{std::array<std::uint32_t, 1>{}}; // spanCount() + 1 entries
    std::uint64_t m_measuredTotalNs = 0;
    std::uint64_t m_maxDurationNs = 0;
    std::uint32_t m_maxDepth = 0;
    std::size_t m_danglingCount = 0;
    std::size_t m_cycleCount = 0;
    std::size_t m_openCount = 0;
};

} // namespace TraceInspector
