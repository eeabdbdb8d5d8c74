// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include <QList>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include "core/display/format.h"
#include "core/analysis/timecoordinates.h"

class QTableView;

namespace TraceInspector {

struct Trace;
struct MemoryProfile;
class MemorySeries;
class LiveAllocationsModel;
class TableActions;

/// Memory over time (TRACE_FORMAT.md §8) as two time-aligned plots on one time axis, each
/// with its own honest byte axis: on top the logical live bytes stacked by category, below
/// the physical used / reserved / capacity samples of each device. Under them the
/// allocations live at one instant: the logical peak of the device shown, or the instant
/// clicked on the chart.
///
/// Wheel or drag a band to zoom, right-click to zoom out, "Reset zoom" to see the whole run;
/// each change re-buckets the data (min/max per pixel column, computed in core) so no peak
/// disappears at any zoom level, and both byte axes rescale to the window. Hovering shows
/// every series' value at the cursor; the legend (or the Series menu) hides and shows
/// series. The keyboard does the same: arrows move the instant, +/- zoom, 0 resets, P goes
/// to the peak. A plane without records is shown once as "unknown", never as a zero line.
///
/// Only ui/memorychart/ uses Qt Charts; this header exposes none of its types.
class MemoryChartPanel : public QWidget
{
    Q_OBJECT
public:
    /// One entry of a plot's legend as drawn: its series' name, where (view coordinates) and
    /// whether the series is shown (a hidden one keeps a dimmed entry).
    struct LegendEntry {
        QString name;
        QRectF rect;
        bool shown = true;
    };

    /// What the chart draws right now, in plain types (tests, accessibility, status text).
    struct DrawnState {
        bool ready = false;        // the chart data of the current trace is prepared
        bool logicalKnown = false; // false: the "unknown" note is shown instead
        bool physicalKnown = false;
        QString logicalNote; // shown when logical memory is unknown, else empty
        QString physicalNote;
        QStringList layers;                      // category names of the stacked areas, bottom first
        QList<int> layerPointCounts;             // points of each area's upper line
        QStringList physicalLines;               // e.g. "used cuda:0", "reserved cuda:0", "capacity cuda:0"
        QList<int> physicalPointCounts;          // points drawn: line points, or band columns
        QList<bool> physicalBands;               // drawn as a min/max band (downsampled)
        int markersShown = 0;                    // series drawing a marker per sample
        bool downsampled = false;                // the logical areas are min/max buckets
        std::optional<std::uint64_t> peakTimeNs; // the peak marker, when drawn
        std::optional<std::uint64_t> peakBytes;
        QRectF peakLabelRect;       // in chart coordinates, when drawn
        bool peakLabelClear = true; // no drawn line passes through the label
        TimeWindow window;          // the window the series were computed for
        int buckets = 0;
        double logicalAxisMax = 0; // top of the logical byte axis, in its unit
        QString logicalAxisTitle;
        double physicalAxisMax = 0;
        QString physicalAxisTitle;
        double timeAxisMin = 0, timeAxisMax = 0; // in the time axis' unit
        QString timeAxisTitle;
        QRectF logicalPlot, physicalPlot; // plot areas in view coordinates
        QStringList legend;               // every legend entry shown, both plots
        QStringList hiddenSeries;         // legend entries switched off
        // Each plot's legend entries, the area they are drawn in unclipped and the view's
        // rectangle, in view coordinates.
        QList<LegendEntry> logicalLegend, physicalLegend;
        QRectF logicalLegendArea, physicalLegendArea;
        QRectF logicalViewRect, physicalViewRect;
    };

    explicit MemoryChartPanel(QWidget *parent = nullptr);
    ~MemoryChartPanel() override;

    /// Shows the memory of \a trace (\a profile computed from it) with the chart series the
    /// loader prepared from them (its MemoryChart stage): only Qt Charts series are made
    /// here. chartReady() follows once drawn (after this call returns).
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                  std::shared_ptr<const MemorySeries> series);
    /// Empty, saying that the trace's memory is being analysed (from the read until the
    /// loader's Memory stage: the other panels fill meanwhile, and "No trace loaded" would be
    /// wrong).
    void showAnalysing();
    /// Empty, saying that the series are on their way (the loader's MemoryChart stage).
    void showPreparing();
    /// Empty, saying that the chart was not prepared because the load was cancelled before
    /// the loader's MemoryChart stage (the trace itself is shown).
    void showLoadCancelled();
    /// Empty, saying that the chart was not prepared because the load failed after the read
    /// (the trace itself is shown).
    void showLoadFailed();
    /// What the panel says instead of a chart (no trace, analysing, preparing, cancelled, failed,
    /// not captured); empty while a chart is drawn.
    QString placeholderText() const;
    void clear();
    /// Back to the whole run, all devices and the peak (a different file was opened).
    void resetView();

    /// Device names in the selector after "All devices".
    QStringList deviceNames() const;
    /// -1 = all devices, else an index into deviceNames().
    int selectedDevice() const;
    void setSelectedDevice(int device);

    TimeWindow window() const;
    /// Zooms to \a window (clamped to the run).
    void setWindow(const TimeWindow &window);
    void resetZoom();
    /// Shades \a span (the selection's time extent) on both plots; an empty window clears it.
    void setHighlightWindow(const TimeWindow &span);
    TimeWindow highlightWindow() const;
    /// Shades the window's time range; an empty window clears it.
    void setTimeRange(const TimeWindow &range);
    /// Makes the first allocation row made in span \a spanIndex current (no signal); false
    /// (and no row selected) when the table lists none.
    bool selectAllocationsOfSpan(qint64 spanIndex);
    /// The run's time range: what "Reset zoom" shows.
    TimeWindow runWindow() const;

    /// Lists the allocations live at \a timeNs (on the device shown); allocationsShown() follows.
    void selectInstant(std::uint64_t timeNs);
    /// Lists the allocations live at the logical peak of the device shown again.
    void showPeak();
    /// The clicked instant, or none while the table shows the peak.
    std::optional<std::uint64_t> selectedInstant() const;
    /// The instant the table lists (the peak's or the clicked one), if any.
    std::optional<std::uint64_t> tableInstant() const;
    QString tableTitle() const;
    LiveAllocationsModel *allocationsModel() const;
    QTableView *allocationsView() const;
    TableActions *allocationsActions() const;

    /// The hover readout for \a timeNs: every series' value at that time.
    QString readoutAt(std::uint64_t timeNs) const;
    /// Shows or hides the series named like its legend entry ("activation", "cuda:0 used").
    bool setSeriesVisible(const QString &legendName, bool visible);

    void setTimeUnit(TimeUnit unit);

    enum class ImageFormat { Png, Svg };
    /// Writes both plots, as shown, to \a path. Returns an empty string or the reason it failed.
    QString exportImage(const QString &path, ImageFormat format);
    /// Asks where, then exportImage(); a failure is shown above the chart.
    void exportWithDialog(ImageFormat format);

    DrawnState drawnState() const;

    /// Lines the plot area up with a view above (the timeline's time area): it spans screen
    /// x \a globalLeft to \a globalRight where the labels and legend leave room for that
    /// (see naturalPlotSpan()); 0, 0 lets Qt Charts place it.
    void setPlotSpan(int globalLeft, int globalRight);
    /// The screen x range of the plot area as Qt Charts lays it out with the labels and legend
    /// shown now; none while no plot is shown.
    std::optional<std::pair<int, int>> naturalPlotSpan() const;
    /// The screen x of \a timeNs on the plots as drawn now.
    int timeToGlobalX(std::uint64_t timeNs) const;

Q_SIGNALS:
    /// A row of the allocations table was activated: the span that allocated the storage.
    void spanActivated(qint64 spanIndex);
    /// The chart data for the trace given to setTrace() is ready and drawn.
    void chartReady();
    /// The allocations table lists a new instant (after selectInstant(), showPeak() or a
    /// device change).
    void allocationsShown();
    /// The time window shown changed (zoom, pan, reset): for time-aligned views.
    void windowChanged(const TraceInspector::TimeWindow &window);
    /// The user clicked an instant on a plot (selectInstant() has listed it).
    void instantClicked(quint64 timeNs);
    /// The user Shift+dragged over a plot: a time range to select (the view does not zoom).
    void timeRangeSelected(const TraceInspector::TimeWindow &range);
    /// A single click on an allocation row made in a known span.
    void allocationSpanSelected(qint64 spanIndex);
    /// naturalPlotSpan() changed (labels, legend, fonts, size): for views lined up with it.
    void plotSpanChanged();

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace TraceInspector
