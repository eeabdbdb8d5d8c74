// SPDX-License-Identifier: MIT
// The memory chart panel's widgets and theme.
#include "ui/memorychart/memorychartpanel_p.h"

#include <QChart>
#include <QComboBox>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/memorychart/allocationspane.h"
#include "ui/memorychart/chartlegend.h"
#include "ui/memorychart/chartstyle.h"
#include "ui/memorychart/chartview.h"

namespace TraceInspector {

MemoryChartPanel::Private::Private(MemoryChartPanel *panel)
    : q(panel)
    , bucketer(panel, [this](BucketedSeries result) { onBucketed(std::move(result)); })
{
}

void MemoryChartPanel::Private::connectPlot(MemoryPlot &plot)
{
    plot.view->onWheelZoom = [this](double x, double factor) { zoomAt(x, factor); };
    plot.view->onZoomOut = [this](double x) { zoomAt(x, 2.0); };
    plot.view->onBandZoom = [this](double x0, double x1) {
        q->setWindow(windowBetween(window, double(plotWidth()), x0, x1));
    };
    plot.view->onBandSelect = [this](double x0, double x1) {
        Q_EMIT q->timeRangeSelected(windowBetween(window, double(plotWidth()), x0, x1));
    };
    plot.view->onClick = [this](double x) {
        const std::uint64_t t = timeAtX(x);
        q->selectInstant(t);
        Q_EMIT q->instantClicked(t);
    };
    plot.view->onHover = [this](double x) { setHover(timeAtX(x)); };
    plot.view->onLeave = [this] { setHover(std::nullopt); };
    plot.view->onKey = [this](QKeyEvent *e) { return handleKey(e); };
    plot.view->onResized = [this] { scheduleRebucket(); };
    plot.legend->onClicked = [this](const QString &name) { toggleSeries(name, hidden.contains(name)); };
    QObject::connect(plot.chart, &QChart::plotAreaChanged, q, [this] {
        if (!aligning)
            scheduleAlign();
    });
}

void MemoryChartPanel::Private::build()
{
    title = new QLabel(tr("<b>Memory over time</b>"), q);
    deviceBox = new QComboBox(q);
    deviceBox->setObjectName(QStringLiteral("memoryDeviceSelector"));
    deviceBox->setToolTip(tr("Show the memory of one device or of all devices"));
    deviceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *deviceLabel = new QLabel(tr("&Device:"), q);
    deviceLabel->setBuddy(deviceBox);
    resetButton = new QPushButton(tr("Reset &zoom"), q);
    resetButton->setObjectName(QStringLiteral("memoryResetZoom"));
    resetButton->setToolTip(tr("Show the whole run (wheel or drag to zoom, right-click to zoom out; keys + − 0)"));
    seriesMenu = new QMenu(q);
    seriesButton = new QToolButton(q);
    seriesButton->setText(tr("&Series"));
    seriesButton->setToolTip(tr("Show or hide series (or click their legend entries)"));
    seriesButton->setPopupMode(QToolButton::InstantPopup);
    seriesButton->setMenu(seriesMenu);
    auto *exportMenu = new QMenu(q);
    exportMenu->addAction(tr("Export Chart as &PNG…"), q, [this] { q->exportWithDialog(ImageFormat::Png); });
    exportMenu->addAction(tr("Export Chart as &SVG…"), q, [this] { q->exportWithDialog(ImageFormat::Svg); });
    exportButton = new QToolButton(q);
    exportButton->setObjectName(QStringLiteral("memoryExport"));
    exportButton->setText(tr("E&xport"));
    exportButton->setToolTip(tr("Save both plots as a PNG or SVG image"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setMenu(exportMenu);
    peakLabel = new QLabel(q);
    peakLabel->setObjectName(QStringLiteral("memoryPeakLabel"));
    peakLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long peak text must not widen the panel (and squeeze its neighbours): it gets the room
    // left, and says everything in its tooltip.
    peakLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    peakLabel->setMinimumWidth(0);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(title);
    top->addSpacing(12);
    top->addWidget(deviceLabel);
    top->addWidget(deviceBox);
    top->addSpacing(12);
    top->addWidget(peakLabel, 1);
    top->addWidget(seriesButton);
    top->addWidget(exportButton);
    top->addWidget(resetButton);

    logicalPlot.build(q, QStringLiteral("logicalChartView"));
    physicalPlot.build(q, QStringLiteral("physicalChartView"));
    connectPlot(logicalPlot);
    connectPlot(physicalPlot);
    logicalPlot.note->setObjectName(QStringLiteral("logicalMemoryNote"));
    physicalPlot.note->setObjectName(QStringLiteral("physicalMemoryNote"));

    peakMarker = new QScatterSeries(logicalPlot.chart);
    peakMarker->setName(tr("logical peak"));
    peakMarker->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    peakMarker->setMarkerSize(9);
    // A label of our own, on a box, always above every line: the byte axis leaves room for it.
    peakBox = new QGraphicsRectItem(logicalPlot.chart);
    peakBox->setZValue(20);
    peakBox->hide();
    peakText = new QGraphicsSimpleTextItem(logicalPlot.chart);
    QFont labelFont = peakText->font();
    labelFont.setBold(true);
    peakText->setFont(labelFont);
    peakText->setZValue(21);
    peakText->hide();

    readout = new QLabel(q);
    readout->setObjectName(QStringLiteral("memoryReadout"));
    readout->setWordWrap(true);
    readout->setTextFormat(Qt::PlainText);
    readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    readout->setText(tr("Hover over the chart to read every series; click to list the allocations live at that time."));
    // Two lines always: a readout growing on hover would make the plots jump.
    readout->setFixedHeight(readout->fontMetrics().lineSpacing() * 2 + 6);
    readout->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    plots = new QWidget(q);
    auto *plotLayout = new QVBoxLayout(plots);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(0);
    plotLayout->addWidget(logicalPlot.slot, 3);
    plotLayout->addWidget(physicalPlot.slot, 2);
    plotLayout->addWidget(readout);

    placeholder = new QLabel(q);
    placeholder->setObjectName(QStringLiteral("memoryPlaceholder"));
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    chartStack = new QStackedWidget(q);
    chartStack->addWidget(placeholder);
    chartStack->addWidget(plots);

    allocations = new AllocationsPane(q);
    QObject::connect(allocations, &AllocationsPane::spanActivated, q, &MemoryChartPanel::spanActivated);
    QObject::connect(allocations, &AllocationsPane::allocationSpanSelected, q,
                     &MemoryChartPanel::allocationSpanSelected);
    QObject::connect(allocations, &AllocationsPane::allocationsShown, q, &MemoryChartPanel::allocationsShown);
    QObject::connect(allocations, &AllocationsPane::peakRequested, q, [this] { q->showPeak(); });

    auto *splitter = new QSplitter(Qt::Vertical, q);
    splitter->addWidget(chartStack);
    splitter->addWidget(allocations);
    splitter->setStretchFactor(0, 4); // the plots first, with room for their axes: the table scrolls
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(q);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    rebucketTimer = new QTimer(q);
    rebucketTimer->setSingleShot(true);
    rebucketTimer->setInterval(0);
    QObject::connect(rebucketTimer, &QTimer::timeout, q, [this] { rebucket(); });
    QObject::connect(resetButton, &QPushButton::clicked, q, [this] { q->resetZoom(); });
    QObject::connect(deviceBox, &QComboBox::currentIndexChanged, q, [this](int index) {
        const int wanted = index <= 0 ? MemorySeries::kAllDevices : index - 1;
        if (wanted == device)
            return;
        device = wanted;
        rebuildSeries();
        rebucket();
        refreshTable();
    });
    applyTheme();
}

void MemoryChartPanel::Private::applyTheme()
{
    const QPalette pal = q->palette();
    for (MemoryPlot *p : {&logicalPlot, &physicalPlot})
        p->applyTheme(pal);
    placeholder->setStyleSheet(
        QStringLiteral("QLabel { color: %1; font-size: 11pt; }").arg(pal.color(QPalette::PlaceholderText).name()));
    const QColor base = pal.color(QPalette::Base);
    peakMarker->setColor(ChartStyle::peakColor(pal));
    peakMarker->setBorderColor(base);
    peakText->setBrush(ChartStyle::peakColor(pal));
    QColor box = base;
    box.setAlpha(225);
    peakBox->setBrush(box);
    peakBox->setPen(QPen(ChartStyle::peakColor(pal), 1));
}

} // namespace TraceInspector
