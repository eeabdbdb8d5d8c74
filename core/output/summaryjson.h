// SPDX-License-Identifier: MIT
#pragma once

namespace TraceInspector {

class JsonWriter;
struct TraceSummary;

/// Writes \a summary as one JSON object (TRACE_FORMAT.md §12): `op_count`, `total_ns`,
/// `span_count`, `root_span_count`, `max_depth`, `alloc_count`, `free_count`,
/// `logical_peak_bytes` (null when none).
void writeSummaryJson(JsonWriter &out, const TraceSummary &summary);

} // namespace TraceInspector
