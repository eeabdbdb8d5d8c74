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
    index.m_idBits.assign((stringCount + 63) / 64, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const StringId id = spans[i].id;
        if (id != kNoString && id < stringCount)
            index.m_idBits[id / 64] |= std::uint64_t(1) << (id % 64);
    }
    index.m_idRank.resize(index.m_idBits.size());
    std::uint32_t ranked = 0;
    for (std::size_t w = 0; w < index.m_idBits.size(); ++w) {
        index.m_idRank[w] = ranked;
        ranked += std::uint32_t(bitCount(index.m_idBits[w]));
    }
    std::vector<std::uint32_t> spanOfRank(ranked, kNoSpan);
    for (std::size_t i = n; i-- > 0;) { // backwards: the first span of an id is written last
        const StringId id = spans[i].id;
        if (id == kNoString || id >= stringCount)
            continue;
        const std::uint64_t bit = std::uint64_t(1) << (id % 64);
        const std::uint64_t bits = index.m_idBits[id / 64];
        spanOfRank[index.m_idRank[id / 64] + std::uint32_t(bitCount(bits & (bit - 1)))] = static_cast<std::uint32_t>(i);
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
    return m_idBits.capacity() * sizeof(std::uint64_t) + m_idRank.capacity() * sizeof(std::uint32_t)
           + m_spanOfRank.memoryUsage();
}

} // namespace TraceInspector
