// SPDX-License-Identifier: MIT
#include "ui/timeline/timelinerows.h"

#include <algorithm>

namespace TraceInspector {

TimelineRows::TimelineRows(const TimelineLayout &layout, int rowHeight, int headerHeight, int titleHeight)
{
    int y = 0;
    const auto &levels = layout.hostLevels();
    auto title = [&](TimelineRow::TitleKind kind, std::uint32_t group, std::uint32_t domain) {
        TimelineRow row{TimelineRow::Type::Title, kind, group, 0, domain, y, titleHeight, true};
        m_rows.push_back(row);
        y += titleHeight;
    };
    if (!levels.empty())
        title(TimelineRow::TitleKind::Host, 0, 0);
    for (std::uint32_t l = 0; l < levels.size(); ++l) {
        if (levels[l].orphanOps)
            title(TimelineRow::TitleKind::Orphans, l, 0);
        m_firstHostRow.push_back(m_rows.size());
        for (std::uint32_t t = 0; t < levels[l].tracks.size(); ++t) {
            m_rows.push_back(
                {TimelineRow::Type::HostTrack, TimelineRow::TitleKind::Host, l, t, 0, y, rowHeight, t == 0});
            y += rowHeight;
        }
    }
    m_hostHeight = y;
    const auto &lanes = layout.deviceLanes();
    m_firstDeviceRow.assign(lanes.size(), 0);
    const auto &domains = layout.clockDomains();
    for (std::uint32_t d = 0; d < domains.size(); ++d) {
        m_header.push_back(m_rows.size());
        m_rows.push_back(
            {TimelineRow::Type::ClockHeader, TimelineRow::TitleKind::Host, 0, 0, d, y, headerHeight, true});
        y += headerHeight;
        for (std::uint32_t lane : domains[d].lanes) {
            title(TimelineRow::TitleKind::Lane, lane, d);
            m_firstDeviceRow[lane] = m_rows.size();
            for (std::uint32_t t = 0; t < lanes[lane].tracks.size(); ++t) {
                m_rows.push_back(
                    {TimelineRow::Type::DeviceTrack, TimelineRow::TitleKind::Lane, lane, t, d, y, rowHeight, t == 0});
                y += rowHeight;
            }
        }
    }
    m_height = y;
}

std::optional<std::size_t> TimelineRows::rowAt(int y) const
{
    if (y < 0 || y >= m_height || m_rows.empty())
        return std::nullopt;
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](int v, const TimelineRow &r) { return v < r.y; });
    return std::size_t(it - m_rows.begin()) - 1;
}

std::optional<std::size_t> TimelineRows::rowOf(bool device, std::uint32_t group, std::uint32_t track) const
{
    const auto &first = device ? m_firstDeviceRow : m_firstHostRow;
    if (group >= first.size())
        return std::nullopt;
    const std::size_t row = first[group] + track;
    const auto type = device ? TimelineRow::Type::DeviceTrack : TimelineRow::Type::HostTrack;
    if (row >= m_rows.size() || m_rows[row].type != type || m_rows[row].group != group || m_rows[row].track != track)
        return std::nullopt;
    return row;
}

std::optional<std::size_t> TimelineRows::headerOf(std::uint32_t domain) const
{
    if (domain >= m_header.size())
        return std::nullopt;
    return m_header[domain];
}

} // namespace TraceInspector
