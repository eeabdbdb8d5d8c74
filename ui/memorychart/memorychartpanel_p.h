// SPDX-License-Identifier: MIT
#pragma once

// The memory chart panel's internals, shared by its source files (not installed, not
// included elsewhere).

#include <QMargins>
#include <QSet>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

#include "core/analysis/memoryseries.h"
#include "ui/memorychart/chartbucketer.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/memorychart/memorychartseries.h"
#include "ui/memorychart/memoryplot.h"

class QComboBox;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QKeyEvent;
class QLabel;
class QMenu;
class QPainter;
class QPushButton;
class QScatterSeries;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace TraceInspector {

class AllocationsPane;

struct MemoryChartPanel::Private {
    explicit Private(MemoryChartPanel *panel);

    MemoryChartPanel *q = nullptr;

    // Data.
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const MemoryProfile> profile;
    std::shared_ptr<const MemorySeries> series;
    TimeWindow window;      // requested
    TimeWindow drawnWindow; // what the series show
    int device = MemorySeries::kAllDevices;
    LogicalChartData logical;
    PhysicalChartData physical;
    std::uint64_t physicalShownMax = 0;
    ChartUnit xUnit;
    TimeUnit timeUnit = TimeUnit::Auto;
    int buckets = 0;
    std::optional<std::uint64_t> instant; // clicked
    TimeWindow highlight;                 // the selection's time span, shaded
    TimeWindow range;                     // the window's time range, shaded
    std::optional<std::uint64_t> hoverTime;
    quint64 traceGeneration = 0;   // a chartReady() posted for an older trace is dropped
    bool readyWhenDrawn = false;   // chartReady() waits for the first buckets from the worker
    bool widthRetried = false;     // buckets asked again once for the plot width after a layout
    bool rebucketDeferred = false; // rebucket() found this window's buckets on a worker and waited for them
    QSet<QString> hidden;          // legend names switched off
    bool aligning = false;
    bool timeTitleShown = true; // the lower plot is tall enough for the time axis' title
    bool alignQueued = false;   // an alignPlots() is posted already
    // The plot area's x range: as Qt Charts lays it out (view coordinates of the lower plot),
    // and the one asked for by setPlotSpan() (global coordinates; empty when none).
    double naturalLeft = 0, naturalRight = 0;
    int spanLeft = 0, spanRight = 0;

    // Widgets.
    QLabel *title = nullptr;
    QComboBox *deviceBox = nullptr;
    QPushButton *resetButton = nullptr;
    QToolButton *seriesButton = nullptr;
    QToolButton *exportButton = nullptr;
    QMenu *seriesMenu = nullptr;
    QLabel *peakLabel = nullptr;
    QStackedWidget *chartStack = nullptr;
    QWidget *plots = nullptr;
    QLabel *placeholder = nullptr;
    MemoryPlot logicalPlot;
    MemoryPlot physicalPlot;
    QScatterSeries *peakMarker = nullptr;
    QGraphicsRectItem *peakBox = nullptr;
    QGraphicsSimpleTextItem *peakText = nullptr;
    QLabel *readout = nullptr;
    MemoryChartSeries chartSeries;
    AllocationsPane *allocations = nullptr;
    QTimer *rebucketTimer = nullptr;
    ChartBucketer bucketer;

    // memorychartbuild.cpp
    void build();
    void connectPlot(MemoryPlot &plot);
    void applyTheme();
    // memorychartdata.cpp
    void showSeries();
    void rebuildSeries();
    void rebucket();
    void onBucketed(BucketedSeries result);
    void applyBuckets();
    void refreshTable();
    // memorychartlayout.cpp
    void updateAxes();
    void alignPlots();
    // The plots' heights shared by what each needs whole; titles that do not fit hidden.
    void fitPlotHeights();
    // alignPlots() once the event loop gets to it, however often asked before then.
    void scheduleAlign();
    // The margins a plot starts from: the chart's, and room for its legend at the right.
    QMargins baseMargins(const MemoryPlot &plot) const;
    // Lays each legend out for its plot's height; true when one needs another width.
    bool layoutLegends(const std::vector<MemoryPlot *> &shown);
    void placeLegends();
    void placePeakText();
    void updateNotes();
    void updatePeakTexts();
    void renderTo(QPainter &painter, const QRectF &target);
    // memorychartinteraction.cpp
    void scheduleRebucket();
    int plotWidth() const;
    const MemoryPlot &bottomPlot() const;
    std::uint64_t timeAtX(double x) const;
    void zoomAt(double x, double factor);
    void zoomAroundInstant(double factor);
    bool handleKey(QKeyEvent *e);
    void setHover(std::optional<std::uint64_t> t);
    void placeCursorLines();
    void updateLegend();
    void toggleSeries(const QString &legendName, bool visible);
    void hideCapacities();
    void applyVisibility();
    QString deviceName() const;
    TimeWindow fullRange() const;
    std::optional<std::uint64_t> selectionPeakTime() const;
};

} // namespace TraceInspector
