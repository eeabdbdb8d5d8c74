// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;

/// §8.2 PhysicalDeviceMemoryStats. Nothing is derived from other values.
struct PhysicalDeviceMemoryStats {
    StringId device = kNoString;
    std::uint64_t sampleCount = 0;
    std::uint64_t usedSampleCount = 0;
    std::uint64_t freeSampleCount = 0;
    std::uint64_t reservedSampleCount = 0;
    std::uint64_t capacitySampleCount = 0;
    std::optional<std::uint64_t> peakUsedBytes;
    std::optional<std::uint64_t> peakUsedTimestampNs;
    std::optional<std::uint64_t> peakReservedBytes;
    std::optional<std::uint64_t> peakReservedTimestampNs;
    std::optional<std::uint64_t> minimumFreeBytes;
    std::optional<std::uint64_t> minimumFreeTimestampNs;
    std::optional<std::uint64_t> maximumObservedCapacityBytes;
};

/// The physical memory plane (TRACE_FORMAT.md §8.2), built from `device_memory` records.
class PhysicalMemoryProfile
{
public:
    /// The §8.2 timeline as indices into Trace::deviceMemory, stable-sorted by
    /// (timestamp, device byte-wise); each point is that sample as recorded.
    std::span<const std::uint32_t> timeline() const { return m_timeline; }
    /// Sorted by device, byte-wise.
    std::span<const PhysicalDeviceMemoryStats> byDevice() const { return m_byDevice; }
    std::size_t memoryUsage() const;

    /// §8.2; none when the trace has no device_memory records.
    static std::optional<PhysicalMemoryProfile> analyze(const Trace &trace);

private:
    std::vector<std::uint32_t> m_timeline;
    std::vector<PhysicalDeviceMemoryStats> m_byDevice;
};

} // namespace TraceInspector
