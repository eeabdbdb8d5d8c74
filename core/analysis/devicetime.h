// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/devicebusycolumns.h"
#include "core/model/blockpackedu32.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;
class SpanTree;

/// One device timeline: a (device, stream_id, clock_id) triple of `device_interval` records.
/// Intervals on different clocks are never merged, even on the same device and stream: their
/// start times are not comparable (TRACE_FORMAT.md §4.9).
struct DeviceLane {
    StringId device = kNoString;
    StringId stream = kNoString;
    StringId clock = kNoString;
    StringId backend = kNoString; // of the first interval seen on the lane
};

/// Device busy time per span from the trace's `device_interval` records (§4.9).
///
/// A span's busy time covers its whole subtree (like its host duration covers its children),
/// one DeviceBusy per lane, ordered by lane. Intervals whose span_id names no span are device
/// work outside every span: outside() gives their unions per lane.
///
/// A span "exceeds its host window" when one lane's busy time is longer than the span's host
/// duration: the device kept working after the host span ended (an unsynchronised capture)
/// or the attribution is wrong. Open spans have no host window and are never flagged.
///
/// Cost: for trees up to kShallowDepth levels, sorted segment runs merged up the tree in
/// post-order on one stack (O(n · depth · log n), memory of one segment per interval at
/// most, no allocation per span); deeper trees (a hostile chain of a million
/// nested spans) use small-to-large merging of per-lane interval sets, O(n log² n).
class DeviceTime
{
public:
    /// A span keeps at most this many lanes (the busiest first when there are more); the rest
    /// are counted in lanesOmitted().
    static constexpr std::size_t kMaxLanesPerSpan = 64;
    /// Deepest tree merged with segment vectors; deeper ones use interval sets.
    static constexpr std::uint32_t kShallowDepth = 64;

    DeviceTime() = default;
    static DeviceTime compute(const Trace &trace, const SpanTree &tree);

    bool isEmpty() const { return m_intervalCount == 0; }
    std::uint64_t intervalCount() const { return m_intervalCount; }
    const std::vector<DeviceLane> &lanes() const { return m_lanes; }

    std::size_t spanCount() const { return m_flags.size(); }
    /// Per-lane busy time of span \a i and its descendants, ordered by lane. A view into this
    /// object.
    DeviceBusyColumns::Row busyOfSpan(std::size_t i) const
    {
        const std::uint32_t first = m_offset[i];
        return m_busy.row(first, m_offset[i + 1] - first);
    }
    /// Busy time of the span's busiest lane (0 when it has none).
    std::uint64_t maxBusyNs(std::size_t i) const;
    /// Lanes of the subtree beyond kMaxLanesPerSpan, not listed in busyOfSpan().
    std::uint32_t lanesOmitted(std::size_t i) const;
    bool exceedsHostWindow(std::size_t i) const { return (m_flags[i] & Exceeds) != 0; }
    std::size_t exceedingSpanCount() const { return m_exceedingCount; }

    /// Unions of the intervals whose span_id names no span, per lane.
    const std::vector<DeviceBusy> &outside() const { return m_outside; }
    std::uint64_t outsideIntervalCount() const { return m_outsideCount; }
    /// The intervals counted in outside()[\a entry], as indices into Trace::deviceIntervals,
    /// by start time (then index): so every one of them can be listed and selected.
    std::span<const std::uint32_t> outsideIntervals(std::size_t entry) const
    {
        return {m_outsideIntervals.data() + m_outsideOffset[entry],
                m_outsideOffset[entry + 1] - m_outsideOffset[entry]};
    }

    std::size_t memoryUsage() const;

private:
    enum Flag : std::uint8_t { Exceeds = 1 };

    std::vector<DeviceLane> m_lanes;
    DeviceBusyColumns m_busy;
    BlockPackedU32 m_offset{std::array<std::uint32_t, 1>{}}; // spanCount() + 1 entries
    std::vector<std::uint8_t> m_flags;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_omitted; // (span, lanes), by span
    std::vector<DeviceBusy> m_outside;
    std::vector<std::uint32_t> m_outsideIntervals; // by outside() entry, then start
    std::vector<std::uint32_t> m_outsideOffset{0}; // outside().size() + 1 entries
    std::uint64_t m_intervalCount = 0;
    std::uint64_t m_outsideCount = 0;
    std::size_t m_exceedingCount = 0;
};

} // namespace TraceInspector
