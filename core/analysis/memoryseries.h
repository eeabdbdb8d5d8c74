// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/logicalmemorykeys.h"
#include "core/analysis/timecoordinates.h"
#include "core/model/blockpackedu64.h"
#include "core/model/enums.h"
#include "core/model/narrowu32array.h"

namespace TraceInspector {

struct Trace;
struct MemoryProfile;
struct RecordExtents;

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

/// The smallest and largest value of every stack level over one bucket (pixel column).
struct StackedEnvelope {
    std::uint64_t timeNs = 0; // the bucket's start
    std::uint64_t endNs = 0;  // the next bucket's start
    std::array<std::uint64_t, kMemoryCategoryCount> min{};
    std::array<std::uint64_t, kMemoryCategoryCount> max{};
};

struct LogicalChartData {
    /// False when there is nothing to draw for the selection: the trace has no memory records
    /// (or none on the selected device). Unknown is not zero.
    bool known = false;
    /// True when the window held more changes than buckets and the columns are min/max pairs
    /// per bucket (two columns per bucket); false when every change is drawn as a step.
    bool downsampled = false;
    std::vector<StackedColumn> columns; // time order; polyline per stack level
    /// When downsampled: the same buckets as min/max per stack level, for drawing a pixel
    /// column at a time (a zig-zag polygon costs a scanline renderer one edge per column).
    std::vector<StackedEnvelope> envelope;
    std::array<bool, kMemoryCategoryCount> categoryPresent{}; // by kChartCategoryOrder, over the whole trace
    std::uint64_t maxBytes = 0;                               // largest total in the window
    /// The §8.1 peak of the selection (global peak, or the device's peak), anywhere in time.
    std::optional<std::uint64_t> peakTimeNs;
    std::optional<std::uint64_t> peakBytes;
};

struct ChartPoint {
    std::uint64_t timeNs = 0;
    std::uint64_t bytes = 0;
    friend bool operator==(const ChartPoint &, const ChartPoint &) = default;
};

/// The smallest and largest sample of one bucket (pixel column), at the bucket's start.
struct EnvelopeColumn {
    std::uint64_t timeNs = 0;
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    friend bool operator==(const EnvelopeColumn &, const EnvelopeColumn &) = default;
};

/// The values a device_memory sample may carry that the chart draws (§4.8).
enum class PhysicalMetric : std::uint8_t { Used, Reserved, Capacity };
inline constexpr int kPhysicalMetricCount = 3;

/// One metric of one device in a window. `points` are the samples in time order when the
/// window holds at most ~2 per bucket, else each bucket's minimum and maximum (in time
/// order); both include the nearest sample on each side of the window so lines run to the
/// edges. When downsampled, `envelope` has the same extremes per bucket for a band.
struct PhysicalMetricSeries {
    bool present = false; // any sample of the device carries the value (whole trace)
    bool downsampled = false;
    std::vector<ChartPoint> points;
    std::vector<EnvelopeColumn> envelope;
};

/// The used/reserved/capacity samples of one device in a window.
struct PhysicalDeviceSeries {
    int device = -1;                                                // index into MemorySeries::devices()
    std::array<PhysicalMetricSeries, kPhysicalMetricCount> metrics; // by PhysicalMetric

    const PhysicalMetricSeries &metric(PhysicalMetric m) const { return metrics[std::size_t(m)]; }
};

struct PhysicalChartData {
    bool known = false; // false: no device_memory samples for the selection
    std::vector<PhysicalDeviceSeries> devices;
    std::uint64_t maxBytes = 0; // largest value of the points returned (neighbours included)
};

/// The latest sample at or before a time, per metric of one device.
struct PhysicalReading {
    int device = -1;
    std::array<std::optional<ChartPoint>, kPhysicalMetricCount> values; // by PhysicalMetric
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
    /// \a extents, when the caller has them, spare a walk over every span and op for the
    /// run's end.
    MemorySeries(const Trace &trace, const MemoryProfile &profile, const RecordExtents *extents = nullptr);

    /// Every device of either plane, byte-wise ascending.
    const std::vector<std::string> &devices() const { return m_deviceNames; }
    bool hasLogical(int device = kAllDevices) const;
    bool hasPhysical(int device = kAllDevices) const;
    /// Smallest window holding every memory record and device sample (end exclusive);
    /// empty when there are neither.
    TimeWindow fullRange() const { return m_range; }
    /// The run: from its start (time 0) to the latest of the terminal record and all host
    /// evidence (§6.3: span ends, op ends, memory and device_memory times), end exclusive,
    /// so that a memory chart spans the whole run and never only its memory records.
    TimeWindow runRange() const { return m_runRange; }

    /// Logical live bytes of \a device (or all) in \a window, for \a buckets ≈ pixel columns.
    /// Once \a cancel is set the walk stops and the (then meaningless) result is empty: a
    /// request superseded by the next width or zoom gives its core up at once.
    LogicalChartData logical(int device, const TimeWindow &window, int buckets,
                             const std::atomic<bool> *cancel = nullptr) const;
    PhysicalChartData physical(int device, const TimeWindow &window, int buckets) const;

    /// Exact logical live bytes of \a device (or all) after every change at or before \a t,
    /// by kChartCategoryOrder as in StackedColumn; none when the selection has no logical
    /// memory or nothing of it happened yet at \a t.
    std::optional<StackedColumn> logicalAt(int device, std::uint64_t t) const;
    /// The latest sample at or before \a t of every metric of every device of the selection
    /// that has physical samples.
    std::vector<PhysicalReading> physicalAt(int device, std::uint64_t t) const;

    /// Indices of the logical lifetimes (§8.1, profile order) live at \a t — allocated at or
    /// before \a t and not freed by then, as the timeline point at \a t sees them — on the
    /// device named \a device, or on every device when \a device is empty.
    static std::vector<std::uint32_t> liveLifetimesAt(const Trace &trace, const MemoryProfile &profile, std::uint64_t t,
                                                      std::string_view device = {});

    std::size_t memoryUsage() const;
    /// Number of logical changes: what a logical() query over the whole run walks.
    std::size_t changeCount() const { return m_times.size(); }

private:
    struct Sample {
        std::uint64_t timeNs;
        std::array<std::uint64_t, kPhysicalMetricCount> values; // by PhysicalMetric
        std::uint8_t has;                                       // bit (1 << PhysicalMetric)
    };
    struct DeviceInfo {
        int logicalSlot = -1;
        std::array<bool, kMemoryCategoryCount> categories{};
        std::optional<std::uint64_t> peakTimeNs, peakBytes;
        std::vector<Sample> samples; // time order
        std::uint8_t has = 0;        // metrics any sample carries, bit (1 << PhysicalMetric)
    };

    void sumsBefore(std::size_t index, int slot, std::array<WideSum, kMemoryCategoryCount> &sums) const;
    PhysicalDeviceSeries physicalFor(int device, const TimeWindow &window, int buckets) const;

    std::vector<std::string> m_deviceNames;
    std::vector<DeviceInfo> m_info;
    TimeWindow m_range;
    TimeWindow m_runRange;
    bool m_hasLogical = false;
    std::array<bool, kMemoryCategoryCount> m_allCategories{};
    std::optional<std::uint64_t> m_peakTimeNs, m_peakBytes;

    // Logical deltas, time order. meta = slot << 4 | stack position << 1 | (1 = free).
    // Times and sizes block-packed: 1.26 M changes on the 1 GB trace, ~10 MB less.
    BlockPackedU64 m_times;
    BlockPackedU64 m_bytes;
    NarrowU32Array m_meta; // 2 bytes while there are at most 4096 device slots
    std::size_t m_logicalSlots = 0;
    std::vector<std::size_t> m_firstEvent; // per slot: index of its first delta
    std::size_t m_checkpointInterval = 4096;
    std::vector<WideSum> m_checkpoints; // per checkpoint: slots × categories sums *before* event k*interval
};

} // namespace TraceInspector
