// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstdint>

#include "core/timeline/timelineitem.h"

namespace TraceInspector {

struct Trace;
class SpanTree;
class TimelineLayout;

/// Rich-text tooltips of the timeline: name, kind, start, duration, self time and bytes of
/// a slice; the count and time span of a merged mark.
namespace TimelineToolTip {

/// A time with every nanosecond: `12.345 678 912 s`, `51.200 µs`, `750 ns`.
QString exactTime(std::uint64_t ns);
/// `1.27 ms (1,265,000 ns)`; plain `750 ns` below a microsecond.
QString durationText(std::uint64_t ns);

QString forItem(const Trace &trace, const SpanTree &tree, const TimelineLayout &layout, TimelineItem item);
QString forMerged(std::uint32_t count, std::uint64_t firstStart, std::uint64_t lastEnd, bool deviceClock);

} // namespace TimelineToolTip
} // namespace TraceInspector
