// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace TraceInspector {

/// What a timeline slice stands for: an index into Trace::spans, Trace::ops or
/// Trace::deviceIntervals.
enum class TimelineItemKind : std::uint8_t { Span, Op, DeviceInterval };

struct TimelineItem {
    TimelineItemKind kind = TimelineItemKind::Span;
    std::uint32_t index = 0;
    friend bool operator==(const TimelineItem &, const TimelineItem &) = default;
};

/// One drawable mark of a track in a viewport, in pixels from the view's left edge.
///
/// `count == 1`: the slice at track position `first`. `count > 1`: `count` slices, each
/// narrower than the merge width, merged into one mark (the sub-pixel slices among track
/// positions [first, last)).
struct TimelineMark {
    double x0 = 0;
    double x1 = 0;
    std::uint32_t first = 0;
    std::uint32_t last = 0; // exclusive
    std::uint32_t count = 0;
    bool isMerged() const { return count > 1; }
};

} // namespace TraceInspector
