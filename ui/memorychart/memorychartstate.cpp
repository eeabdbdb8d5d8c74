// SPDX-License-Identifier: MIT
// What the memory chart draws, in plain types (tests, accessibility, status text).
#include "ui/memorychart/memorychartpanel_p.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include "ui/memorychart/chartlegend.h"
#include "ui/memorychart/chartstyle.h"
#include "ui/memorychart/chartview.h"

namespace TraceInspector {

MemoryChartPanel::DrawnState MemoryChartPanel::drawnState() const
{
    DrawnState s;
    s.ready = d->series != nullptr;
    s.logicalKnown = d->logical.known;
    s.physicalKnown = d->physical.known;
    s.logicalNote = d->logicalPlot.note->text();
    s.physicalNote = d->physicalPlot.note->text();
    for (const MemoryChartSeries::Layer &l : d->chartSeries.layers()) {
        s.layers << ChartStyle::text(memoryCategoryName(l.category));
        // Drawn as steps, or as one column per bucket.
        s.layerPointCounts << (d->logical.downsampled ? int(d->logical.envelope.size()) : int(l.upper->count()));
    }
    for (const MemoryChartSeries::Physical &p : d->chartSeries.physical()) {
        const QString name = QString::fromStdString(d->series->devices()[std::size_t(p.device)]);
        s.physicalLines << QLatin1StringView(ChartStyle::metricName(p.metric)) + u' ' + name;
        s.physicalPointCounts << (p.bandMode ? p.bandColumns : int(p.line->count()));
        s.physicalBands << p.bandMode;
        s.markersShown += p.line->pointsVisible() && p.line->count() > 1 ? 1 : 0;
    }
    s.downsampled = d->logical.downsampled;
    if (d->peakMarker->count() > 0) {
        s.peakTimeNs = d->logical.peakTimeNs;
        s.peakBytes = d->logical.peakBytes;
    }
    if (d->peakText->isVisible()) {
        s.peakLabelRect = d->peakBox->rect();
        // The label sits above the peak, which no logical line exceeds.
        const QPointF peakAt = d->logicalPlot.chart->mapToPosition(d->peakMarker->at(0), d->peakMarker);
        s.peakLabelClear = s.peakLabelRect.bottom() <= peakAt.y();
    }
    s.window = d->drawnWindow;
    s.buckets = d->buckets;
    s.logicalAxisMax = d->logicalPlot.y->max();
    s.logicalAxisTitle = d->logicalPlot.y->titleText();
    s.physicalAxisMax = d->physicalPlot.y->max();
    s.physicalAxisTitle = d->physicalPlot.y->titleText();
    s.timeAxisMin = d->bottomPlot().x->min();
    s.timeAxisMax = d->bottomPlot().x->max();
    s.timeAxisTitle = d->bottomPlot().x->titleText();
    s.logicalPlot = d->logicalPlot.chart->plotArea();
    s.physicalPlot = d->physicalPlot.chart->plotArea();
    for (const MemoryPlot *p : {&d->logicalPlot, &d->physicalPlot})
        for (const ChartLegend::Entry &e : p->legend->entries())
            s.legend << e.name;
    // The chart fills its view: chart coordinates are view coordinates. The legend clips
    // nothing: its area is every entry's.
    const auto legendOf = [](const MemoryPlot &p, QList<LegendEntry> &entries, QRectF &area) {
        const ChartLegend &legend = *p.legend;
        if (!legend.isVisible())
            return;
        area = legend.mapRectToParent(legend.boundingRect());
        for (std::size_t i = 0; i < legend.entryRects().size(); ++i) {
            const ChartLegend::Entry &e = legend.entries()[i];
            entries << LegendEntry{e.name, legend.mapRectToParent(legend.entryRects()[i]), e.shown};
        }
    };
    legendOf(d->logicalPlot, s.logicalLegend, s.logicalLegendArea);
    legendOf(d->physicalPlot, s.physicalLegend, s.physicalLegendArea);
    s.logicalViewRect = QRectF(d->logicalPlot.view->viewport()->rect());
    s.physicalViewRect = QRectF(d->physicalPlot.view->viewport()->rect());
    for (const QString &h : std::as_const(d->hidden))
        s.hiddenSeries << h;
    s.hiddenSeries.sort();
    return s;
}

} // namespace TraceInspector
