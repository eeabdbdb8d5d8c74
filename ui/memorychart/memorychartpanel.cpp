// SPDX-License-Identifier: MIT
#include "ui/memorychart/memorychartpanel.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QPushButton>
#include <QScatterSeries>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QValueAxis>

#include "core/analysis/memoryprofile.h"
#include "core/model/trace.h"
#include "ui/memorychart/allocationspane.h"
#include "ui/memorychart/chartstyle.h"
#include "ui/memorychart/chartview.h"
#include "ui/memorychart/memorychartpanel_p.h"

namespace TraceInspector {

MemoryChartPanel::MemoryChartPanel(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Private>(this))
{
    d->build();
    clear();
}

// Workers still running own what they read; their watchers are children of this panel and
// go with it, so their results are dropped. Nothing here waits for them.
MemoryChartPanel::~MemoryChartPanel() = default;

void MemoryChartPanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                                std::shared_ptr<const MemorySeries> series)
{
    clear();
    if (!trace || !profile || !series)
        return;
    d->trace = std::move(trace);
    d->profile = std::move(profile);
    d->series = std::move(series);
    d->showSeries();
}

void MemoryChartPanel::showAnalysing()
{
    clear();
    d->placeholder->setText(tr("Analysing memory…"));
}

void MemoryChartPanel::showPreparing()
{
    clear();
    d->placeholder->setText(tr("Preparing the memory chart…"));
}

void MemoryChartPanel::showLoadCancelled()
{
    clear();
    d->placeholder->setText(tr("The memory chart was not prepared: loading was cancelled before its series were "
                               "computed. Open the file again to see it."));
}

void MemoryChartPanel::showLoadFailed()
{
    clear();
    d->placeholder->setText(tr("The memory chart was not prepared: loading failed before its series were computed."));
}

QString MemoryChartPanel::placeholderText() const
{
    return d->chartStack->currentWidget() == d->placeholder ? d->placeholder->text() : QString();
}

void MemoryChartPanel::clear()
{
    d->bucketer.cancel();
    ++d->traceGeneration;
    d->trace.reset();
    d->profile.reset();
    d->series.reset();
    d->logical = {};
    d->physical = {};
    d->window = {};
    d->drawnWindow = {};
    d->buckets = 0;
    d->device = MemorySeries::kAllDevices;
    d->instant.reset();
    d->hoverTime.reset();
    d->highlight = {};
    d->range = {};
    d->readyWhenDrawn = false;
    d->rebucketDeferred = false;
    d->rebuildSeries();
    {
        const QSignalBlocker block(d->deviceBox);
        d->deviceBox->clear();
        d->deviceBox->addItem(tr("All devices"));
        d->deviceBox->setEnabled(false);
    }
    d->allocations->clear();
    d->peakLabel->clear();
    d->allocations->setVisible(true);
    d->resetButton->setEnabled(false);
    d->placeholder->setText(tr("No trace loaded"));
    d->chartStack->setCurrentWidget(d->placeholder);
    d->readout->setText(
        tr("Hover over the chart to read every series; click to list the allocations live at that time."));
}

void MemoryChartPanel::resetView()
{
    d->hidden.clear();
    d->instant.reset();
    setSelectedDevice(-1);
    if (d->series) {
        d->window = d->fullRange();
        d->hideCapacities();
        d->rebucket();
        d->refreshTable();
    }
}

QStringList MemoryChartPanel::deviceNames() const
{
    QStringList out;
    if (d->series)
        for (const std::string &name : d->series->devices())
            out << QString::fromStdString(name);
    return out;
}

int MemoryChartPanel::selectedDevice() const
{
    return d->device;
}

void MemoryChartPanel::setSelectedDevice(int device)
{
    const int count = d->series ? int(d->series->devices().size()) : 0;
    d->deviceBox->setCurrentIndex(device >= 0 && device < count ? device + 1 : 0);
}

TimeWindow MemoryChartPanel::window() const
{
    return d->window;
}

TimeWindow MemoryChartPanel::runWindow() const
{
    return d->fullRange();
}

void MemoryChartPanel::setWindow(const TimeWindow &window)
{
    const TimeWindow full = d->fullRange();
    if (full.isEmpty())
        return;
    TimeWindow w = window;
    w.begin = std::clamp(w.begin, full.begin, full.end - 1);
    w.end = std::clamp(w.end, w.begin + 1, full.end);
    if (w == d->window)
        return;
    d->window = w;
    d->scheduleRebucket();
    Q_EMIT windowChanged(w);
}

void MemoryChartPanel::setHighlightWindow(const TimeWindow &span)
{
    if (span == d->highlight)
        return;
    d->highlight = span;
    d->placeCursorLines();
}

TimeWindow MemoryChartPanel::highlightWindow() const
{
    return d->highlight;
}

void MemoryChartPanel::setTimeRange(const TimeWindow &range)
{
    if (range == d->range)
        return;
    d->range = range;
    d->placeCursorLines();
    d->allocations->setTimeRange(range);
}

bool MemoryChartPanel::selectAllocationsOfSpan(qint64 spanIndex)
{
    return d->allocations->selectAllocationsOfSpan(spanIndex);
}

void MemoryChartPanel::resetZoom()
{
    setWindow(d->fullRange());
}

void MemoryChartPanel::selectInstant(std::uint64_t timeNs)
{
    if (!d->series)
        return;
    const TimeWindow run = d->fullRange();
    timeNs = std::clamp(timeNs, run.begin, run.end - 1);
    d->instant = timeNs;
    if (!d->window.contains(timeNs)) {
        // Keep the instant in view: move the window, keeping its length.
        const std::uint64_t half = d->window.length() / 2;
        const std::uint64_t begin = timeNs > run.begin + half ? timeNs - half : run.begin;
        setWindow({begin, begin + d->window.length()});
    }
    d->placeCursorLines();
    if (!d->hoverTime)
        d->readout->setText(readoutAt(timeNs));
    d->refreshTable();
}

void MemoryChartPanel::showPeak()
{
    d->instant.reset();
    d->placeCursorLines();
    if (const auto peak = d->selectionPeakTime(); peak && !d->window.contains(*peak))
        resetZoom();
    d->refreshTable();
}

std::optional<std::uint64_t> MemoryChartPanel::selectedInstant() const
{
    return d->instant;
}

std::optional<std::uint64_t> MemoryChartPanel::tableInstant() const
{
    return d->allocations->tableInstant();
}

QString MemoryChartPanel::tableTitle() const
{
    return d->allocations->title();
}

LiveAllocationsModel *MemoryChartPanel::allocationsModel() const
{
    return d->allocations->model();
}

QTableView *MemoryChartPanel::allocationsView() const
{
    return d->allocations->view();
}

TableActions *MemoryChartPanel::allocationsActions() const
{
    return d->allocations->actions();
}

QString MemoryChartPanel::readoutAt(std::uint64_t timeNs) const
{
    if (!d->series)
        return {};
    QStringList parts;
    parts << tr("At %1:").arg(formatTimePoint(timeNs, d->timeUnit));
    if (d->series->hasLogical(d->device)) {
        const std::optional<StackedColumn> c = d->series->logicalAt(d->device, timeNs);
        if (!c) {
            parts << tr("logical: nothing allocated yet");
        } else {
            QStringList categories;
            for (const MemoryChartSeries::Layer &l : d->chartSeries.layers()) {
                const std::uint64_t below = l.stackIndex > 0 ? c->stack[std::size_t(l.stackIndex - 1)] : 0;
                categories << tr("%1 %2").arg(ChartStyle::text(memoryCategoryName(l.category)),
                                              formatBytes(c->stack[std::size_t(l.stackIndex)] - below));
            }
            parts << tr("logical %1 (%2)").arg(formatBytes(c->stack.back()), categories.join(QStringLiteral(", ")));
        }
    }
    for (const PhysicalReading &r : d->series->physicalAt(d->device, timeNs)) {
        const QString name = QString::fromStdString(d->series->devices()[std::size_t(r.device)]);
        QStringList values;
        for (int m = 0; m < kPhysicalMetricCount; ++m) {
            if (const auto &v = r.values[std::size_t(m)])
                values << tr("%1 %2").arg(QLatin1StringView(ChartStyle::metricName(PhysicalMetric(m))),
                                          formatBytes(v->bytes));
        }
        if (values.isEmpty())
            continue;
        parts << tr("%1 %2").arg(name, values.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral("  \u00B7  "));
}

bool MemoryChartPanel::setSeriesVisible(const QString &legendName, bool visible)
{
    const bool known = d->chartSeries.legendNames().contains(legendName);
    if (known)
        d->toggleSeries(legendName, visible);
    return known;
}

void MemoryChartPanel::setTimeUnit(TimeUnit unit)
{
    if (unit == d->timeUnit)
        return;
    d->timeUnit = unit;
    d->allocations->setTimeUnit(unit);
    d->rebucket();
    if (d->instant && !d->hoverTime)
        d->readout->setText(readoutAt(*d->instant));
}

QString MemoryChartPanel::exportImage(const QString &path, ImageFormat format)
{
    if (!d->series || d->chartStack->currentWidget() != d->plots)
        return tr("There is no chart to export.");
    const QSize size(d->plots->width(), d->logicalPlot.slot->height() + d->physicalPlot.slot->height());
    const QRectF target(QPointF(0, 0), QSizeF(size));
    if (format == ImageFormat::Svg) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(target);
        svg.setTitle(tr("Memory over time"));
        svg.setDescription(d->peakLabel->text());
        QPainter painter;
        if (!painter.begin(&svg))
            return tr("Cannot write %1").arg(path);
        d->renderTo(painter, target);
        painter.end();
        return {};
    }
    const qreal scale = devicePixelRatioF();
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        d->renderTo(painter, target);
    }
    if (!image.save(path, "PNG"))
        return tr("Cannot write %1").arg(path);
    return {};
}

void MemoryChartPanel::exportWithDialog(ImageFormat format)
{
    const bool svg = format == ImageFormat::Svg;
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export Chart as SVG") : tr("Export Chart as PNG"),
                                                      svg ? QStringLiteral("memory.svg") : QStringLiteral("memory.png"),
                                                      svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const QString error = exportImage(path, format);
    d->peakLabel->setText(error.isEmpty() ? tr("Chart written to %1").arg(QDir::toNativeSeparators(path)) : error);
}

void MemoryChartPanel::setPlotSpan(int globalLeft, int globalRight)
{
    if (globalLeft == d->spanLeft && globalRight == d->spanRight)
        return;
    d->spanLeft = globalLeft;
    d->spanRight = globalRight;
    d->alignPlots();
    // One bucket per pixel column: a plot area of another width needs its own buckets.
    if (d->series && std::abs(d->plotWidth() - d->buckets) > 1)
        d->scheduleRebucket();
}

std::optional<std::pair<int, int>> MemoryChartPanel::naturalPlotSpan() const
{
    const MemoryPlot &plot = d->bottomPlot();
    if (!d->series || d->chartStack->currentWidget() != d->plots || !plot.view->isVisible()
        || d->naturalRight <= d->naturalLeft)
        return std::nullopt;
    const int x = plot.view->mapToGlobal(QPoint(0, 0)).x();
    return std::pair<int, int>(x + int(std::ceil(d->naturalLeft)), x + int(std::floor(d->naturalRight)));
}

int MemoryChartPanel::timeToGlobalX(std::uint64_t timeNs) const
{
    const MemoryPlot &plot = d->bottomPlot();
    const QRectF area = plot.chart->plotArea();
    const double x = area.left() + timeToX(d->drawnWindow, area.width(), timeNs);
    return plot.view->mapToGlobal(QPoint(0, 0)).x() + int(std::lround(x));
}

void MemoryChartPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    d->scheduleRebucket();
}

void MemoryChartPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        d->applyTheme();
        d->applyVisibility();
    }
}

} // namespace TraceInspector
