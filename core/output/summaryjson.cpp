// SPDX-License-Identifier: MIT
#include "core/output/summaryjson.h"

#include "core/analysis/summary.h"
#include "core/output/jsonwriter.h"

namespace TraceInspector {

void writeSummaryJson(JsonWriter &out, const TraceSummary &summary)
{
    out.beginObject();
    out.key("op_count").u64(summary.opCount);
    out.key("total_ns").u64(summary.totalNs);
    out.key("span_count").u64(summary.spanCount);
    out.key("root_span_count").u64(summary.rootSpanCount);
    out.key("max_depth").u64(summary.maxDepth);
    out.key("alloc_count").u64(summary.allocCount);
    out.key("free_count").u64(summary.freeCount);
    out.key("logical_peak_bytes");
    if (summary.logicalPeakBytes)
        out.u64(*summary.logicalPeakBytes);
    else
        out.null();
    out.endObject();
}

} // namespace TraceInspector
