// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

namespace TraceInspector {

struct Trace;

/// Whole-trace facts that views would otherwise each find by walking every span or op on
/// the GUI thread: the scale of the op table's duration bars, the widths of its span and
/// start columns, the run's time span for "% of run", the wording of the measured time.
/// On the 1 GB trace those walks were ~18 ms of the window's thread after the read (perf);
/// the loader computes them once, in ~5-9 ms on its pool, beside the first op table.
struct RecordExtents {
    static constexpr std::uint32_t kNoSpan = UINT32_MAX;

    std::uint64_t opMaxDurationNs = 0;
    std::uint64_t opLatestStartNs = 0;   ///< the latest op timestamp (0 without ops)
    std::uint64_t spanLatestStartNs = 0; ///< the latest span start (0 without spans)
    /// The run: from the earliest span start or op timestamp to the latest end (an open span
    /// ends at its start; an end past 2^64 - 1 ns saturates). Both 0 without spans and ops.
    std::uint64_t runBeginNs = 0;
    std::uint64_t runEndNs = 0;
    /// The latest memory or device_memory timestamp (0 without either).
    std::uint64_t latestMemoryNs = 0;
    std::size_t measuredSpans = 0;
    std::size_t closedMeasuredSpans = 0;
    /// The first span with the longest id (in bytes), kNoSpan without spans.
    std::uint32_t longestIdSpan = kNoSpan;

    /// The latest host evidence (§6.3): span and op ends, memory and device_memory times.
    /// With the terminal, the latest host time the trace shows (the timeline's run end).
    std::uint64_t latestHostEvidenceNs() const { return runEndNs > latestMemoryNs ? runEndNs : latestMemoryNs; }

    static RecordExtents compute(const Trace &trace);
};

} // namespace TraceInspector
