// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

#include "core/analysis/timecoordinates.h"
#include "ui/memorychart/chartunits.h"

class QChart;
class QGraphicsLineItem;
class QGraphicsRectItem;
class QLabel;
class QPalette;
class QStackedWidget;
class QValueAxis;
class QWidget;

namespace TraceInspector {

class ChartLegend;
class ChartView;
class EnvelopeItem;

/// One plot of the memory chart: a chart, its view, a time and a byte axis, the cursor
/// lines and shaded spans, and the note shown instead when its plane is unknown.
struct MemoryPlot {
    /// The least height of a plot's view.
    static constexpr int kLeastViewHeight = 60;

    QChart *chart = nullptr;
    ChartView *view = nullptr;
    QValueAxis *x = nullptr;
    QValueAxis *y = nullptr;
    QGraphicsLineItem *hoverLine = nullptr;
    QGraphicsLineItem *instantLine = nullptr;
    QGraphicsRectItem *highlightRect = nullptr; // the selection's time span
    QGraphicsRectItem *rangeRect = nullptr;     // the window's time range
    EnvelopeItem *envelope = nullptr;           // dense data, a pixel column at a time
    ChartLegend *legend = nullptr;              // in the right margin, instead of Qt Charts' own
    QStackedWidget *slot = nullptr;             // the view, or the note saying the plane is unknown
    QLabel *note = nullptr;
    ChartUnit unit;

    /// Makes the widgets, children of \a parent; the view is named \a objectName.
    void build(QWidget *parent, const QString &objectName);
    void applyTheme(const QPalette &palette);
    /// True while the plot (not its note) is shown.
    bool showsView() const;
    /// Puts \a line at time \a t of \a drawn (hidden when outside or unset).
    void placeLine(QGraphicsLineItem *line, const TimeWindow &drawn, std::optional<std::uint64_t> t) const;
    /// Shades \a span of \a drawn with \a rect (hidden when empty or outside).
    void placeSpan(QGraphicsRectItem *rect, const TimeWindow &drawn, const TimeWindow &span) const;
};

} // namespace TraceInspector
