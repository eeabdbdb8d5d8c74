// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPalette>
#include <QString>

#include <vector>

#include "core/timeline/timelineitem.h"
#include "core/timeline/timelinelayout.h"
#include "ui/timeline/timelinecolors.h"
#include "ui/timeline/timelinerows.h"
#include "ui/timeline/timelineviewstate.h"

class QPainter;

namespace TraceInspector {

struct Trace;
class SpanTree;

/// Paints a TimelineLayout with QPainter: the fixed host ruler, host tracks, and for each
/// device clock domain its own ruler and lanes. Separate from the widget so that the
/// benchmark paints the same frames off-screen. The data pointers must outlive the painter
/// or be replaced with setData().
class TimelinePainter
{
public:
    TimelinePainter();

    void setData(const Trace *trace, const SpanTree *tree, const TimelineLayout *layout, const TimelineRows *rows);
    void setStyle(const QFont &font, const QPalette &palette);

    int rulerHeight() const { return m_rulerHeight; }
    int rowHeight() const { return m_rowHeight; }
    int headerHeight() const { return m_headerHeight; }
    int titleHeight() const { return m_titleHeight; }
    const TimelineColors &colors() const { return m_colors; }

    void paint(QPainter &painter, const TimelineViewState &state);

    /// Screen y of content y (below the ruler, after scrolling).
    int screenY(int contentY, const TimelineViewState &state) const { return contentY - state.scrollY + m_rulerHeight; }
    /// The visible window of the axis a row is on.
    static const TimeWindow &windowOf(const TimelineRow &row, const TimelineViewState &state);
    /// The name a slice shows (span name, op name, an interval's span name).
    const QString &nameOf(TimelineItem item) const;
    TimelineColors::Family familyOf(TimelineItem item) const;
    /// The string (id) a slice's colour is derived from: its name, an interval's span name.
    std::uint32_t colorKey(TimelineItem item) const;
    /// The fill of a slice (cached per name and kind).
    QColor colorOf(TimelineItem item) const;
    /// Title of a device lane: `cuda:0 · stream 7 · cuda · 1,234 intervals`.
    QString laneLabel(std::uint32_t lane) const;
    /// Text of a title row.
    QString titleText(const TimelineRow &row) const;
    /// Title of a clock domain header.
    QString clockTitle(std::uint32_t domain) const;

private:
    void paintRuler(QPainter &p, const QRect &rect, const TimeWindow &window, std::uint64_t origin) const;
    void paintTrack(QPainter &p, const TimelineRow &row, int y, const TimeWindow &window, int width);
    void paintHeader(QPainter &p, const TimelineRow &row, int y, const TimelineViewState &state) const;
    void paintTitle(QPainter &p, const TimelineRow &row, int y, int width) const;
    void paintOutline(QPainter &p, const TimelineLayout::Location &loc, const TimelineViewState &state,
                      const QColor &color, bool dashed) const;
    void paintRange(QPainter &p, const TimelineViewState &state) const;
    const QString &cachedString(std::uint32_t stringId) const;

    const Trace *m_trace = nullptr;
    const SpanTree *m_tree = nullptr;
    const TimelineLayout *m_layout = nullptr;
    const TimelineRows *m_rows = nullptr;
    QFont m_font;
    QFont m_smallFont;
    QFontMetricsF m_metrics;
    QFontMetricsF m_smallMetrics;
    TimelineColors m_colors;
    int m_rulerHeight = 24;
    int m_rowHeight = 20;
    int m_headerHeight = 40;
    int m_titleHeight = 16;
    double m_charWidth = 7;
    QString m_openSuffix;
    std::vector<TimelineMark> m_marks; // reused between rows and frames
    mutable QHash<std::uint32_t, QString> m_strings;
    mutable QHash<quint64, QRgb> m_colorCache;
};

} // namespace TraceInspector
