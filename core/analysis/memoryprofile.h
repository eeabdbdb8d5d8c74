// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include "core/analysis/logicalmemory.h"
#include "core/analysis/physicalmemory.h"

namespace TraceInspector {

struct Trace;

/// TRACE_FORMAT.md §8: two independent planes, each absent (none) when the trace has no
/// input for it — never zero-filled. Refers to the Trace it was computed from.
struct MemoryProfile {
    std::optional<LogicalMemoryProfile> logical;   // §8.1, from `memory` records
    std::optional<PhysicalMemoryProfile> physical; // §8.2, from `device_memory` records

    /// The logical plane's peak live bytes (TraceSummary::logicalPeakBytes); none without it.
    std::optional<std::uint64_t> logicalPeakBytes() const
    {
        if (logical && logical->peak())
            return logical->peak()->liveBytes;
        return std::nullopt;
    }

    std::size_t memoryUsage() const
    {
        return (logical ? logical->memoryUsage() : 0) + (physical ? physical->memoryUsage() : 0);
    }
};

/// Never fails; linear in the memory records apart from sorting out-of-order timestamps.
MemoryProfile analyzeMemory(const Trace &trace);

} // namespace TraceInspector
