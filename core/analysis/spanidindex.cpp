// SPDX-License-Identifier: MIT
#include "core/analysis/spanidindex.h"

#include "core/model/trace.h"

namespace TraceInspector {

SpanIdIndex SpanIdIndex::build(const Trace &trace)
{
    SpanIdIndex index;
    const std::vector<Span> &spans = trace.spans;
    const std::size_t n = spans.size();
    const std::size_t stringCount = trace.strings.size();
    index.m_trace = &trace;
    index.m_spanCount = n;
    index.m_stringCount = stringCount;
    index.m_ids = StringIdRanks(stringCount);
    for (std::size_t i = 0; i < n; ++i) {
        const StringId id = spans[i].id;
        if (id != kNoString && id < stringCount)
            index.m_ids.insert(id);
    }
    index.m_ids.finish();
    std::vector<std::uint32_t> spanOfRank(index.m_ids.size(), kNoSpan);
    for (std::size_t i = n; i-- > 0;) { // backwards: the first span of an id is written last
        const StringId id = spans[i].id;
        if (id != kNoString && id < stringCount)
            spanOfRank[index.m_ids.rankOf(id)] = static_cast<std::uint32_t>(i);
    }
    index.m_spanOfRank = BlockPackedU32(spanOfRank);
    return index;
}

bool SpanIdIndex::covers(const Trace &trace) const
{
    return m_trace == &trace && m_spanCount == trace.spans.size() && m_stringCount == trace.strings.size();
}

std::size_t SpanIdIndex::memoryUsage() const
{
    return m_ids.memoryUsage() + m_spanOfRank.memoryUsage();
}

} // namespace TraceInspector
