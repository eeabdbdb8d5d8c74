// SPDX-License-Identifier: MIT
#include "core/analysis/recordextents.h"

#include <algorithm>
#include <limits>

#include "core/analysis/densebytes.h"
#include "core/model/trace.h"

namespace TraceInspector {

RecordExtents RecordExtents::compute(const Trace &trace)
{
    RecordExtents e;
    std::uint64_t begin = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t end = 0;
    std::size_t longest = 0;
    const std::vector<Span> &spans = trace.spans;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Span &s = spans[i];
        begin = std::min(begin, s.startNs);
        e.spanLatestStartNs = std::max(e.spanLatestStartNs, s.startNs);
        end = std::max(end, s.closed ? saturatingAdd(s.startNs, s.durationNs) : s.startNs);
        if (s.measured) {
            ++e.measuredSpans;
            e.closedMeasuredSpans += s.closed ? 1 : 0;
        }
        const std::size_t idBytes = trace.str(s.id).size();
        if (e.longestIdSpan == kNoSpan || idBytes > longest) {
            longest = idBytes;
            e.longestIdSpan = static_cast<std::uint32_t>(i);
        }
    }
    for (const Op &op : trace.ops) {
        begin = std::min(begin, op.timestampNs);
        end = std::max(end, saturatingAdd(op.timestampNs, op.durationNs));
        e.opMaxDurationNs = std::max(e.opMaxDurationNs, op.durationNs);
        e.opLatestStartNs = std::max(e.opLatestStartNs, op.timestampNs);
    }
    for (const MemoryEvent &m : trace.memory)
        e.latestMemoryNs = std::max(e.latestMemoryNs, m.timestampNs.value());
    for (const DeviceMemorySample &m : trace.deviceMemory)
        e.latestMemoryNs = std::max(e.latestMemoryNs, m.timestampNs);
    if (begin <= end) {
        e.runBeginNs = begin;
        e.runEndNs = end;
    }
    return e;
}

} // namespace TraceInspector
