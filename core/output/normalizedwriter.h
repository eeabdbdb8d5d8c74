// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace TraceInspector {

struct Trace;
class JsonWriter;

/// Writes \a trace as a normalized JSONL document (TRACE_FORMAT.md §11): meta; every span
/// in id order as span_start plus span_end when closed; ops, tensors, tensor_stats,
/// memory, device_memory, device_interval, gradient and edge records in stream order;
/// terminal. Member order, omission of absent optionals and the text form follow §11.2–
/// §11.4 exactly, so the output of an upstream-accepted trace is byte-identical to
/// upstream's re-emission.
///
/// Precondition: \a trace was accepted (the caller refuses rejected documents). A missing
/// meta or terminal is skipped rather than invented.
///
/// Output streams through \a out (flushed at the end). Returns out.ok().
bool writeNormalized(const Trace &trace, JsonWriter &out);

/// The normalized text of \a trace in one string (tests, small traces).
std::string normalizedText(const Trace &trace);

} // namespace TraceInspector
