// SPDX-License-Identifier: MIT
// The memory chart panel's gestures: zoom, keys, hover, cursor lines, series shown.
#include "ui/memorychart/memorychartpanel_p.h"

#include <QAction>
#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QTimer>
#include <QToolButton>

#include "ui/memorychart/chartview.h"

namespace TraceInspector {

void MemoryChartPanel::Private::scheduleRebucket()
{
    rebucketTimer->start();
}

TimeWindow MemoryChartPanel::Private::fullRange() const
{
    if (!series)
        return {};
    TimeWindow r = series->runRange();
    if (r.length() < 2)
        r.end = r.begin + 2;
    return r;
}

QString MemoryChartPanel::Private::deviceName() const
{
    if (!series || device == MemorySeries::kAllDevices)
        return {};
    return QString::fromStdString(series->devices()[std::size_t(device)]);
}

std::optional<std::uint64_t> MemoryChartPanel::Private::selectionPeakTime() const
{
    if (!series)
        return std::nullopt;
    return series->logical(device, {}, 0).peakTimeNs;
}

int MemoryChartPanel::Private::plotWidth() const
{
    const double w = bottomPlot().view->plot().width();
    // Before the first layout the plot area is empty; a typical width keeps the data useful.
    return w >= 16 ? int(w) : 1000;
}

const MemoryPlot &MemoryChartPanel::Private::bottomPlot() const
{
    if (series && !series->hasPhysical(device) && series->hasLogical(device))
        return logicalPlot;
    return physicalPlot;
}

std::uint64_t MemoryChartPanel::Private::timeAtX(double x) const
{
    return xToTime(window, double(plotWidth()), x);
}

void MemoryChartPanel::Private::zoomAt(double x, double factor)
{
    if (!series)
        return;
    const std::uint64_t anchor = timeAtX(x);
    q->setWindow(zoomWindow(window, anchor, factor, fullRange(), 100));
}

void MemoryChartPanel::Private::zoomAroundInstant(double factor)
{
    if (!series)
        return;
    const std::uint64_t anchor = instant && window.contains(*instant) ? *instant : window.begin + window.length() / 2;
    q->setWindow(zoomWindow(window, anchor, factor, fullRange(), 100));
}

bool MemoryChartPanel::Private::handleKey(QKeyEvent *e)
{
    if (!series || window.isEmpty())
        return false;
    const int w = plotWidth();
    const std::uint64_t pixel = std::max<std::uint64_t>(window.length() / std::uint64_t(std::max(w, 1)), 1);
    const std::uint64_t step = e->modifiers() & Qt::ShiftModifier ? pixel * 10 : pixel;
    const std::uint64_t current = instant.value_or(window.begin + window.length() / 2);
    const TimeWindow run = fullRange();
    switch (e->key()) {
    case Qt::Key_Left: q->selectInstant(current > run.begin + step ? current - step : run.begin); return true;
    case Qt::Key_Right: q->selectInstant(std::min(current + step, run.end - 1)); return true;
    case Qt::Key_Home: q->selectInstant(window.begin); return true;
    case Qt::Key_End: q->selectInstant(window.end - 1); return true;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAroundInstant(0.5); return true;
    case Qt::Key_Minus: zoomAroundInstant(2.0); return true;
    case Qt::Key_0: q->resetZoom(); return true;
    case Qt::Key_P: q->showPeak(); return true;
    default: return false;
    }
}

void MemoryChartPanel::Private::setHover(std::optional<std::uint64_t> t)
{
    hoverTime = t;
    placeCursorLines();
    if (t)
        readout->setText(q->readoutAt(*t));
    else if (instant)
        readout->setText(q->readoutAt(*instant));
}

void MemoryChartPanel::Private::placeCursorLines()
{
    for (const MemoryPlot *p : {&logicalPlot, &physicalPlot}) {
        p->placeLine(p->hoverLine, drawnWindow, hoverTime);
        p->placeLine(p->instantLine, drawnWindow, instant);
        p->placeSpan(p->highlightRect, drawnWindow, highlight);
        p->placeSpan(p->rangeRect, drawnWindow, range);
    }
}

void MemoryChartPanel::Private::updateLegend()
{
    seriesMenu->clear();
    const auto addEntry = [this](const QString &name) {
        QAction *a = seriesMenu->addAction(name);
        a->setCheckable(true);
        a->setChecked(!hidden.contains(name));
        QObject::connect(a, &QAction::toggled, q, [this, name](bool on) { toggleSeries(name, on); });
    };
    for (const MemoryChartSeries::Layer &l : chartSeries.layers())
        addEntry(l.area->name());
    if (!chartSeries.layers().empty() && !chartSeries.physical().empty())
        seriesMenu->addSeparator();
    for (const MemoryChartSeries::Physical &s : chartSeries.physical())
        addEntry(s.legendName);
    seriesButton->setEnabled(!seriesMenu->isEmpty());
    // Clicking a legend entry toggles its series (connectPlot()); a hidden one stays listed, dimmed.
    chartSeries.fillLegends(logicalPlot, physicalPlot);
    applyVisibility();
    // Other entries take another width: lay the plots out again.
    scheduleAlign();
}

void MemoryChartPanel::Private::hideCapacities()
{
    // A device's capacity is usually tens of times what it uses; drawn by default it would
    // flatten used and reserved onto the floor. It is one click away, and in the readout.
    for (const MemoryChartSeries::Physical &s : chartSeries.physical())
        if (s.metric == PhysicalMetric::Capacity)
            hidden.insert(s.legendName);
    updateLegend();
}

void MemoryChartPanel::Private::toggleSeries(const QString &legendName, bool visible)
{
    if (visible)
        hidden.remove(legendName);
    else
        hidden.insert(legendName);
    const QSignalBlocker block(seriesMenu);
    for (QAction *a : seriesMenu->actions())
        if (a->text() == legendName) {
            const QSignalBlocker blockAction(a);
            a->setChecked(visible);
        }
    applyVisibility();
    rebucket(); // the byte axes follow what is shown
}

void MemoryChartPanel::Private::applyVisibility()
{
    chartSeries.applyVisibility(hidden, logicalPlot, physicalPlot);
}

} // namespace TraceInspector
