// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <QList>
#include <QStringList>
#include <QWidget>

#include "core/analysis/timecoordinates.h"

namespace TraceInspector {

struct Trace;
struct MemoryProfile;

/// Memory over time (TRACE_FORMAT.md §8): logical live bytes stacked by category, the
/// physical used/reserved samples of the devices as dashed lines on a second Y axis, the
/// logical peak marked, and below it the allocations live at the peak.
///
/// Zoom with the mouse wheel or by dragging a band, right-click to zoom out, "Reset zoom"
/// to see everything; each change re-buckets the data (min/max per pixel column, computed
/// in core) so no peak disappears at any zoom level. A plane without records is shown as
/// "unknown", never as a zero line.
///
/// This is the only file pair that uses Qt Charts; the header exposes none of its types.
class MemoryChartPanel : public QWidget
{
    Q_OBJECT
public:
    /// What the chart draws right now, in plain types (tests, accessibility, status text).
    struct DrawnState {
        bool ready = false;          // the chart data of the current trace is prepared
        bool logicalKnown = false;   // false: the "unknown" note is shown instead
        bool physicalKnown = false;
        QString logicalNote;         // shown when logical memory is unknown, else empty
        QString physicalNote;
        QStringList layers;          // category names of the stacked areas, bottom first
        QList<int> layerPointCounts; // points of each area's upper line
        QStringList physicalLines;   // e.g. "used cuda:0", "reserved cuda:0"
        QList<int> physicalPointCounts;
        bool downsampled = false;    // the logical areas are min/max buckets
        std::optional<std::uint64_t> peakTimeNs; // the peak marker, when drawn
        std::optional<std::uint64_t> peakBytes;
        TimeWindow window; // the window the series were computed for
        int buckets = 0;
    };

    explicit MemoryChartPanel(QWidget *parent = nullptr);
    ~MemoryChartPanel() override;

    /// Shows the memory of \a trace (\a profile computed from it). The chart data is
    /// prepared in the background; chartReady() follows.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile);
    void clear();

    /// Device names in the selector after "All devices".
    QStringList deviceNames() const;
    /// -1 = all devices, else an index into deviceNames().
    int selectedDevice() const;
    void setSelectedDevice(int device);

    TimeWindow window() const;
    /// Zooms to \a window (clamped to the data's time range).
    void setWindow(const TimeWindow &window);
    void resetZoom();

    DrawnState drawnState() const;

signals:
    /// A row of the peak table was activated: the span that allocated the storage.
    void spanActivated(QString spanId);
    /// The chart data for the trace given to setTrace() is ready and drawn.
    void chartReady();

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace TraceInspector
