// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace TraceInspector {

struct Trace;
struct MemoryProfile;
class SpanIdIndex;

/// TRACE_FORMAT.md §7.3.
struct TraceSummary {
    std::uint64_t opCount = 0;
    /// Σ duration_ns of measured spans (open ones add 0), wrapping modulo 2^64 as upstream's
    /// release build does (§7.3, §14 Q5).
    std::uint64_t totalNs = 0;
    std::uint64_t spanCount = 0;
    std::uint64_t rootSpanCount = 0;
    /// Longest chain of parent links followed from any span, each span id visited at most
    /// once per chain (cycles stop), a missing parent ending the chain after counting it.
    std::uint64_t maxDepth = 0;
    std::uint64_t allocCount = 0;                  // raw `memory` alloc records
    std::uint64_t freeCount = 0;                   // raw `memory` free records
    std::optional<std::uint64_t> logicalPeakBytes; // none without memory records

    friend bool operator==(const TraceSummary &, const TraceSummary &) = default;
};

TraceSummary computeSummary(const Trace &trace, const MemoryProfile &memory);
/// computeSummary() with the logical peak given (LogicalMemoryProfile::peakLiveBytes()):
/// what needs no other memory figure need not build the profile. \a spanIds, when the caller
/// has the trace's index (the window's loader, in its span tree), finds the spans' parents
/// instead of a table of a slot per interned string (9 MB on the 1 GB trace, made while the
/// memory analysis is at its peak beside it).
TraceSummary computeSummary(const Trace &trace, std::optional<std::uint64_t> logicalPeakBytes,
                            const SpanIdIndex *spanIds = nullptr);

/// The §7.3 depth of every span (index-aligned with Trace::spans), in linear time.
std::vector<std::uint64_t> spanDepths(const Trace &trace);

} // namespace TraceInspector
