// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/timeline/timelinelayout.h"

namespace TraceInspector {

/// The vertical arrangement of a TimelineLayout: a title row for the host section, one row
/// per host track (the level of ops of unknown spans under a title of its own), then for each
/// device clock domain a header row (its own ruler) and, per device lane, a title row and
/// one row per track. y is in content coordinates (0 = first row, below the host ruler).
struct TimelineRow {
    enum class Type : std::uint8_t { HostTrack, ClockHeader, DeviceTrack, Title };
    enum class TitleKind : std::uint8_t { Host, Orphans, Lane };
    Type type = Type::HostTrack;
    TitleKind title = TitleKind::Host; ///< for Title rows
    std::uint32_t group = 0;           ///< host level or device lane index (not for headers)
    std::uint32_t track = 0;
    std::uint32_t domain = 0; ///< clock domain of a header or device track
    int y = 0;
    int height = 0;
    bool firstOfGroup = false;
};

class TimelineRows
{
public:
    TimelineRows() = default;
    TimelineRows(const TimelineLayout &layout, int rowHeight, int headerHeight, int titleHeight);

    const std::vector<TimelineRow> &rows() const { return m_rows; }
    int totalHeight() const { return m_height; }
    /// Height of the host section (its title and all host rows).
    int hostHeight() const { return m_hostHeight; }
    /// Index of the row at content y, or nullopt.
    std::optional<std::size_t> rowAt(int y) const;
    /// The row of a track.
    std::optional<std::size_t> rowOf(bool device, std::uint32_t group, std::uint32_t track) const;
    std::optional<std::size_t> headerOf(std::uint32_t domain) const;

private:
    std::vector<TimelineRow> m_rows;
    std::vector<std::size_t> m_firstHostRow;   // per host level
    std::vector<std::size_t> m_firstDeviceRow; // per device lane
    std::vector<std::size_t> m_header;         // per clock domain
    int m_height = 0;
    int m_hostHeight = 0;
};

} // namespace TraceInspector
