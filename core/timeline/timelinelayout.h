// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/model/blockpackedu32.h"
#include "core/model/narrowu32array.h"
#include "core/model/stringtable.h"
#include "core/timeline/timelineitem.h"
#include "core/timeline/timelinetrack.h"

namespace TraceInspector {

struct Trace;
struct RecordExtents;
class SpanTree;

/// Where the slices of a trace go on the timeline, computed once per trace (off the GUI
/// thread: build() is a pure function of the trace and its span tree).
///
/// **Host section** (one time axis: ns since the run started, TRACE_FORMAT.md §4.2). One
/// level per span depth; level d holds the spans of depth d and the ops of spans of depth
/// d - 1, so ops are the innermost slices, drawn inside (below) their span. Ops whose
/// `span_id` names no span get a level of their own at the bottom. An open span is drawn up
/// to the run's end (runEndNs()) and stays flagged open by the span tree. Slices of a level
/// that overlap in time (concurrent siblings, an open span running past later siblings) are
/// packed into extra tracks of that level, at most kMaxTracksPerLevel; beyond that a track
/// holds overlapping slices, which it handles (more slowly) too. Nothing is ever left out.
///
/// **Device section**: one lane per (device, stream_id, clock_id) from the device_interval
/// records. Their start_ns are on the device clock named by clock_id, which the format says
/// is never compared with host time (§4.9). So no device lane shares the host axis: lanes are
/// grouped by clock into clock domains, and each domain is one axis of its own whose extent
/// and origin (its first interval) come from its own intervals.
class TimelineLayout
{
public:
    static constexpr std::size_t kMaxTracksPerLevel = 16;
    static constexpr std::uint32_t kOpBit = 0x8000'0000u; ///< host payloads: set for ops
    static constexpr std::uint32_t kNoSpan = UINT32_MAX;

    struct HostLevel {
        std::uint32_t depth = 0; ///< span depth of the spans in it (ops: their span's depth + 1)
        bool orphanOps = false;  ///< the level of ops whose span is unknown
        std::vector<TimelineTrack> tracks;
    };
    struct DeviceLane {
        StringId device = kNoString;
        StringId stream = kNoString;
        StringId clock = kNoString;
        StringId backend = kNoString; ///< of its first interval
        std::uint32_t clockDomain = 0;
        std::size_t intervalCount = 0;
        std::vector<TimelineTrack> tracks;
    };
    struct ClockDomain {
        StringId clock = kNoString;
        TimeWindow extent; ///< [first start, last end] on this clock
        std::vector<std::uint32_t> lanes;
    };
    /// Where an item is drawn: a host level or device lane, its track, and the position in it.
    struct Location {
        bool device = false;
        std::uint32_t group = 0; ///< host level index or device lane index
        std::uint32_t track = 0;
        std::size_t position = 0;
        friend bool operator==(const Location &, const Location &) = default;
    };

    TimelineLayout() = default;
    /// Lays out \a trace with its span \a tree. Linear in the records apart from radix sorts.
    /// \a cancel is polled now and then; a cancelled build returns a layout with
    /// isCancelled() set. Precondition: fewer than 2^31 spans, ops and intervals.
    /// \a spansByStart, when it holds every span, is their order by (start_ns, index) as
    /// SpanTree::build() hands it out: the layout then reads the starts in that order instead
    /// of sorting them again (~23 ms of ~210 on the 1 GB trace), and frees it when done.
    /// \a extents, when the caller has them, spare a walk over every span, op and memory
    /// record for the host extent and the run's end.
    static TimelineLayout build(const Trace &trace, const SpanTree &tree, const std::atomic<bool> *cancel = nullptr,
                                std::vector<std::uint32_t> spansByStart = {}, const RecordExtents *extents = nullptr);

    bool isCancelled() const { return m_cancelled; }
    /// Earliest host start to the run's end; {0, 1} for a trace with no host slices.
    TimeWindow hostExtent() const { return m_hostExtent; }
    /// The latest host time the trace shows (span ends, op ends, memory and device-memory
    /// samples, the terminal): where open spans end.
    std::uint64_t runEndNs() const { return m_runEnd; }

    const std::vector<HostLevel> &hostLevels() const { return m_levels; }
    const std::vector<DeviceLane> &deviceLanes() const { return m_lanes; }
    const std::vector<ClockDomain> &clockDomains() const { return m_domains; }

    static TimelineItem hostItem(std::uint32_t payload)
    {
        return (payload & kOpBit) != 0 ? TimelineItem{TimelineItemKind::Op, payload & ~kOpBit}
                                       : TimelineItem{TimelineItemKind::Span, payload};
    }
    /// Span named by device interval \a i's span_id, or kNoSpan.
    std::uint32_t spanOfInterval(std::size_t i) const { return m_intervalSpan[i]; }

    /// The drawn extent of \a item: an open span reaches runEndNs(). Times of a device
    /// interval are on its own clock.
    std::pair<std::uint64_t, std::uint64_t> extentOf(const Trace &trace, TimelineItem item) const;
    /// Where \a item is drawn; nullopt for an index out of range.
    std::optional<Location> locate(const Trace &trace, const SpanTree &tree, TimelineItem item) const;
    /// The item at \a track position \a position of a host level or device lane.
    TimelineItem itemAt(bool device, std::uint32_t group, std::uint32_t track, std::size_t position) const;

    std::size_t memoryUsage() const;

private:
    bool m_cancelled = false;
    TimeWindow m_hostExtent{0, 1};
    std::uint64_t m_runEnd = 0;
    std::vector<HostLevel> m_levels;
    std::vector<std::uint32_t> m_levelOfDepth; // span depth -> level index; UINT32_MAX = none
    std::uint32_t m_orphanLevel = UINT32_MAX;
    std::vector<DeviceLane> m_lanes;
    std::vector<ClockDomain> m_domains;
    BlockPackedU32 m_intervalSpan;
    NarrowU32Array m_intervalLane;
};

} // namespace TraceInspector
