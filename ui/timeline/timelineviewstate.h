// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>

#include <optional>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/timeline/timelineitem.h"
#include "core/timeline/timelinelayout.h"

namespace TraceInspector {

/// Everything a TimelinePainter needs to draw one frame besides the data: the visible
/// windows of each axis, the vertical scroll, the selection and the time range.
struct TimelineViewState {
    QSize size;                      ///< viewport in pixels (ruler included)
    TimeWindow host;                 ///< visible window of the host axis
    std::vector<TimeWindow> domains; ///< visible window of each device clock domain
    int scrollY = 0;                 ///< content y shown just below the host ruler

    std::optional<TimelineLayout::Location> selected;
    std::vector<TimelineLayout::Location> related; ///< drawn with a secondary outline
    TimeWindow range;                              ///< host time range; empty = none
    bool rangeInProgress = false;                  ///< the range is being dragged

    std::optional<std::size_t> hoverRow;
    std::optional<TimelineMark> hoverMark;
};

} // namespace TraceInspector
