// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/logicalmemorykeys.h"
#include "core/analysis/timecoordinates.h"
#include "core/model/enums.h"

namespace TraceInspector {

struct Trace;
struct MemoryProfile;

/// Stacking order of the logical chart, bottom first: long-lived memory at the bottom.
inline constexpr std::array<MemoryCategory, kMemoryCategoryCount> kChartCategoryOrder = {
    MemoryCategory::Parameter, MemoryCategory::Optimizer, MemoryCategory::Gradient, MemoryCategory::Activation,
    MemoryCategory::Other};

/// One x position of the stacked logical chart: `stack[k]` is the live bytes of the first
/// k + 1 categories of kChartCategoryOrder (so stack.back() is the total), saturated.
struct StackedColumn {
    std::uint64_t timeNs = 0;
    std::array<std::uint64_t, kMemoryCategoryCount> stack{};
};

struct LogicalChartData {
    /// False when there is nothing to draw for the selection: the trace has no memory records
    /// (or none on the selected device). Unknown is not zero.
    bool known = false;
    /// True when the window held more changes than buckets and the columns are min/max pairs
    /// per bucket (two columns per bucket); false when every change is drawn as a step.
    bool downsampled = false;
    std::vector<StackedColumn> columns; // time order; polyline per stack level
    std::array<bool, kMemoryCategoryCount> categoryPresent{}; // by kChartCategoryOrder, over the whole trace
    std::uint64_t maxBytes = 0;          // largest total in the window
    /// The §8.1 peak of the selection (global peak, or the device's peak), anywhere in time.
    std::optional<std::uint64_t> peakTimeNs;
    std::optional<std::uint64_t> peakBytes;
};

struct ChartPoint {
    std::uint64_t timeNs = 0;
    std::uint64_t bytes = 0;
    friend bool operator==(const ChartPoint &, const ChartPoint &) = default;
};

/// The used/reserved samples of one device in a window, at most ~2 points per bucket (the
/// bucket's minimum and maximum, in time order), plus the nearest sample on each side of
/// the window so lines run to the edges.
struct PhysicalDeviceSeries {
    int device = -1; // index into MemorySeries::devices()
    bool hasUsed = false;     // any sample of the device carries used_bytes (whole trace)
    bool hasReserved = false; // likewise reserved_bytes
    std::vector<ChartPoint> used;
    std::vector<ChartPoint> reserved;
};

struct PhysicalChartData {
    bool known = false; // false: no device_memory samples for the selection
    std::vector<PhysicalDeviceSeries> devices;
    std::uint64_t maxBytes = 0; // largest value of the points returned (neighbours included)
};

/// Chart data prepared once per trace (TRACE_FORMAT.md §8 planes as time series) and
/// re-bucketed cheaply on every zoom or resize: a time-ordered array of signed per-storage
/// deltas (device, category) with periodic checkpoints of the running sums, so a query
/// costs one pass over the changes inside the window. Holds no reference to the trace.
class MemorySeries
{
public:
    static constexpr int kAllDevices = -1;

    MemorySeries() = default;
    MemorySeries(const Trace &trace, const MemoryProfile &profile);

    /// Every device of either plane, byte-wise ascending.
    const std::vector<std::string> &devices() const { return m_deviceNames; }
    bool hasLogical(int device = kAllDevices) const;
    bool hasPhysical(int device = kAllDevices) const;
    /// Smallest window holding every memory record and device sample (end exclusive);
    /// empty when there are neither.
    TimeWindow fullRange() const { return m_range; }

    /// Logical live bytes of \a device (or all) in \a window, for \a buckets ≈ pixel columns.
    LogicalChartData logical(int device, const TimeWindow &window, int buckets) const;
    PhysicalChartData physical(int device, const TimeWindow &window, int buckets) const;

    std::size_t memoryUsage() const;

private:
    struct Sample {
        std::uint64_t timeNs;
        std::uint64_t used;
        std::uint64_t reserved;
        std::uint8_t has; // 1 used, 2 reserved
    };
    struct DeviceInfo {
        int logicalSlot = -1;
        std::array<bool, kMemoryCategoryCount> categories{};
        std::optional<std::uint64_t> peakTimeNs, peakBytes;
        std::vector<Sample> samples; // time order
        bool hasUsed = false, hasReserved = false;
    };

    void sumsBefore(std::size_t index, int slot, std::array<WideSum, kMemoryCategoryCount> &sums) const;
    PhysicalDeviceSeries physicalFor(int device, const TimeWindow &window, int buckets) const;

    std::vector<std::string> m_deviceNames;
    std::vector<DeviceInfo> m_info;
    TimeWindow m_range;
    bool m_hasLogical = false;
    std::array<bool, kMemoryCategoryCount> m_allCategories{};
    std::optional<std::uint64_t> m_peakTimeNs, m_peakBytes;

    // Logical deltas, time order. meta = slot << 4 | stack position << 1 | (1 = free).
    std::vector<std::uint64_t> m_times;
    std::vector<std::uint64_t> m_bytes;
    std::vector<std::uint32_t> m_meta;
    std::size_t m_logicalSlots = 0;
    std::vector<std::size_t> m_firstEvent; // per slot: index of its first delta
    std::size_t m_checkpointInterval = 4096;
    std::vector<WideSum> m_checkpoints; // per checkpoint: slots × categories sums *before* event k*interval
};

} // namespace TraceInspector
