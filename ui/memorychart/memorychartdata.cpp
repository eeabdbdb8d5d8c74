// SPDX-License-Identifier: MIT
// The memory chart panel's data: the series of the selection, their buckets, the table.
#include "ui/memorychart/memorychartpanel_p.h"

#include <QChart>
#include <QComboBox>
#include <QFontMetrics>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPushButton>
#include <QScatterSeries>
#include <QValueAxis>

#include "ui/memorychart/allocationspane.h"
#include "ui/memorychart/chartlegend.h"
#include "ui/memorychart/chartview.h"

namespace TraceInspector {

void MemoryChartPanel::Private::showSeries()
{
    {
        const QSignalBlocker block(deviceBox);
        deviceBox->clear();
        deviceBox->addItem(tr("All devices"));
        for (const std::string &name : series->devices())
            deviceBox->addItem(QString::fromStdString(name));
        deviceBox->setCurrentIndex(0);
        deviceBox->setEnabled(series->devices().size() > 1);
    }
    device = MemorySeries::kAllDevices;
    window = fullRange();
    instant.reset();
    hidden.clear();
    allocations->setTrace(trace, profile, series->runRange().end);
    rebuildSeries();
    hideCapacities();
    rebucket();
    refreshTable();
    // Ready means drawn: with the buckets still on a worker, the first applyBuckets() says so.
    // Else after this call returns, as when the chart prepared its series itself: callers
    // connect to chartReady() after setTrace().
    if (bucketer.isInFlight()) {
        readyWhenDrawn = true;
        return;
    }
    QMetaObject::invokeMethod(
        q,
        [this, generation = traceGeneration] {
            if (generation == traceGeneration && series)
                Q_EMIT q->chartReady();
        },
        Qt::QueuedConnection);
}

void MemoryChartPanel::Private::rebuildSeries()
{
    // Series are recreated only when the selection changes; zooming just replaces points.
    // Attaching a series resets the axis range; with dynamic ticks still set for an
    // earlier, much shorter window, Qt Charts would lay out millions of ticks.
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot}) {
        p->x->setTickType(QValueAxis::TicksFixed);
        p->y->setTickType(QValueAxis::TicksFixed);
    }
    chartSeries.clear(logicalPlot, physicalPlot);
    if (logicalPlot.chart->series().contains(peakMarker)) {
        logicalPlot.chart->removeSeries(peakMarker);
        // removeSeries() hands the series back parentless; the chart stays its owner while
        // it is detached, or a panel closed in that state would leak it.
        peakMarker->setParent(logicalPlot.chart);
    }
    peakText->hide();
    peakBox->hide();
    if (!series) {
        updateLegend();
        return;
    }

    if (series->hasLogical(device)) {
        chartSeries.addLayers(*series, device, logicalPlot);
        logicalPlot.chart->addSeries(peakMarker);
        peakMarker->attachAxis(logicalPlot.x);
        peakMarker->attachAxis(logicalPlot.y);
    }
    if (series->hasPhysical(device))
        chartSeries.addPhysical(*series, device, physicalPlot, q->palette().color(QPalette::Base));
    updateLegend();
    updateNotes();
}

void MemoryChartPanel::Private::rebucket()
{
    if (!series)
        return;
    if (window.isEmpty())
        window = fullRange();
    // Only the width changed while this window's buckets are on a worker: they land and are
    // drawn, and applyBuckets() then asks for the width laid out by then. Dropped and asked
    // again for each width, the first chart of a big trace waited for three walks of its
    // series in a row (~20 ms each, 1 GB trace): the plot's width changes twice while the
    // chart page is first shown and its axes get their labels.
    if (bucketer.isInFlightFor(window, device)) {
        rebucketDeferred = true;
        return;
    }
    // On the GUI thread for few changes (onBucketed() runs before this returns), else on a
    // worker; an older request still running is dropped.
    bucketer.request(series, window, device, plotWidth());
}

void MemoryChartPanel::Private::onBucketed(BucketedSeries result)
{
    if (result.window != window || result.device != device || !series)
        return;
    buckets = result.buckets;
    drawnWindow = result.window;
    logical = std::move(result.logical);
    physical = std::move(result.physical);
    applyBuckets();
}

void MemoryChartPanel::Private::applyBuckets()
{
    xUnit = ChartUnit::time(window, timeUnit);
    const double xf = xUnit.factor;
    physicalShownMax = chartSeries.physicalShownMax(*series, physical, hidden);
    logicalPlot.unit = ChartUnit::bytes(std::max<std::uint64_t>(logical.maxBytes, 1));
    physicalPlot.unit = ChartUnit::bytes(std::max<std::uint64_t>(physicalShownMax, 1));
    chartSeries.fill(logical, physical, window, buckets, xf, logicalPlot, physicalPlot);
    applyVisibility();

    QList<QPointF> marker;
    if (logical.known && logical.peakTimeNs && window.contains(*logical.peakTimeNs)) {
        marker.append(QPointF(double(*logical.peakTimeNs) / xf, double(*logical.peakBytes) / logicalPlot.unit.factor));
        peakText->setText(tr("peak %1").arg(formatBytes(*logical.peakBytes)));
    }
    peakMarker->replace(marker);
    updateAxes();
    resetButton->setEnabled(window != fullRange());
    updatePeakTexts();
    alignPlots();
    placePeakText();
    placeCursorLines();
    // New data can change the axes' labels and with them the plot's width (no resize event):
    // one bucket per pixel column needs the buckets once more for the width laid out now. A
    // width change that waited for these buckets (rebucket()) is caught up here too, also
    // after such a retry.
    if ((!widthRetried || rebucketDeferred) && std::abs(plotWidth() - buckets) > 1) {
        widthRetried = true;
        scheduleRebucket();
    } else {
        widthRetried = false;
    }
    rebucketDeferred = false;
    if (readyWhenDrawn) {
        readyWhenDrawn = false;
        Q_EMIT q->chartReady();
    }
}

void MemoryChartPanel::Private::refreshTable()
{
    const bool known = series && series->hasLogical(device);
    allocations->show(known, deviceName(), instant, known ? selectionPeakTime() : std::nullopt);
}

} // namespace TraceInspector
