// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QSet>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

#include "core/analysis/memoryseries.h"

class QAreaSeries;
class QLineSeries;

namespace TraceInspector {

struct MemoryPlot;

/// The Qt Charts series of the selection shown: one stacked area per memory category on the
/// logical plot, one line (or min/max band) per metric and device on the physical plot. The
/// series are made when the trace or the device changes; a zoom only refills them from the
/// buckets.
class MemoryChartSeries
{
public:
    struct Layer {
        MemoryCategory category;
        int stackIndex;
        QLineSeries *upper;
        QLineSeries *lower;
        QAreaSeries *area;
    };
    /// One physical metric of one device: a line when every sample is drawn, a min/max band
    /// when the window holds more samples than pixels.
    struct Physical {
        int device;
        PhysicalMetric metric;
        QString legendName; // "cuda:0 used"
        QLineSeries *line;  // the samples; empty while drawn as a band (it keeps the legend entry)
        QColor color;
        bool bandMode = false;
        int bandColumns = 0;
    };

    /// Removes every series from the plots.
    void clear(MemoryPlot &logical, MemoryPlot &physical);
    /// The areas of the categories \a device has (call clear() first).
    void addLayers(const MemorySeries &series, int device, MemoryPlot &logical);
    /// The lines of the metrics \a device samples; \a base is the background they are drawn on.
    void addPhysical(const MemorySeries &series, int device, MemoryPlot &physical, const QColor &base);

    /// The largest physical value shown (hidden series left out), for the byte axis.
    std::uint64_t physicalShownMax(const MemorySeries &series, const PhysicalChartData &data,
                                   const QSet<QString> &hidden) const;
    /// Refills the series from one window's buckets, in the plots' units.
    void fill(const LogicalChartData &logical, const PhysicalChartData &physical, const TimeWindow &window, int buckets,
              double timeFactor, MemoryPlot &logicalPlot, MemoryPlot &physicalPlot);
    /// Shows the series not in \a hidden; hidden ones keep a dimmed legend entry.
    void applyVisibility(const QSet<QString> &hidden, MemoryPlot &logicalPlot, MemoryPlot &physicalPlot) const;
    /// The legend entries of each plot: a swatch per area, a line per physical series.
    void fillLegends(MemoryPlot &logicalPlot, MemoryPlot &physicalPlot) const;

    QStringList legendNames() const;
    const std::vector<Layer> &layers() const { return m_layers; }
    const std::vector<Physical> &physical() const { return m_physical; }

private:
    std::vector<Layer> m_layers;
    std::vector<Physical> m_physical;
};

} // namespace TraceInspector
