// SPDX-License-Identifier: MIT
#pragma once

namespace TraceInspector {

class JsonWriter;
struct Trace;
struct MemoryProfile;

/// Writes \a profile as one JSON object with the TRACE_FORMAT.md §8 member names and order:
/// `logical` and `physical`, each omitted when the plane is absent. Streams: the writer is
/// offered a flush after every timeline point and lifetime, so a profile of millions of
/// entries never sits in memory as text. \a trace is the document the profile was made from.
void writeMemoryProfileJson(JsonWriter &out, const Trace &trace, const MemoryProfile &profile);

} // namespace TraceInspector
