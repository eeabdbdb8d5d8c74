// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/stringidranks.h"
#include "core/model/blockpackedu32.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;

/// The span of each span id: interned StringId -> index into `Trace::spans`, O(1).
///
/// Ids are interned, so equal text means equal StringId: a bit per string and a rank beat
/// hashing or a binary search over the id-sorted spans, and hold half the memory of a table
/// of one slot per string (on the 1 GB trace, 2.2 M strings and 0.97 M spans: 4.1 MiB
/// against 8.6 MiB). Built once per trace: the loader builds it for the first op table and
/// hands it to the span tree, which keeps it for every analysis that resolves a span_id.
class SpanIdIndex
{
public:
    static constexpr std::uint32_t kNoSpan = UINT32_MAX;

    SpanIdIndex() = default;
    /// The index of \a trace's spans. Span ids are unique in a loaded trace; were one
    /// repeated, its first span would win. kNoString is never a span's id here.
    static SpanIdIndex build(const Trace &trace);

    /// Whether this index was built for \a trace: the same object, still with the span and
    /// string counts it had then (a default index covers no trace).
    bool covers(const Trace &trace) const;

    /// Index of the span whose id is \a id, or kNoSpan when no span has that id (kNoString
    /// and strings that are no span's id included).
    std::uint32_t spanOf(StringId id) const { return m_ids.contains(id) ? m_spanOfRank[m_ids.rankOf(id)] : kNoSpan; }

    std::size_t memoryUsage() const;

private:
    const Trace *m_trace = nullptr; // only compared, never read through
    std::size_t m_spanCount = 0;
    std::size_t m_stringCount = 0;
    StringIdRanks m_ids; // the spans' ids
    // The span of each set bit, by rank; block-packed: ranks follow first appearance (time),
    // and spans close in time have ids close in byte-wise order.
    BlockPackedU32 m_spanOfRank;
};

} // namespace TraceInspector
