// SPDX-License-Identifier: MIT
#include "ui/memorychart/memorychartseries.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

#include "ui/memorychart/chartlegend.h"
#include "ui/memorychart/chartstyle.h"
#include "ui/memorychart/envelopeitem.h"
#include "ui/memorychart/memoryplot.h"

namespace TraceInspector {

void MemoryChartSeries::clear(MemoryPlot &logical, MemoryPlot &physical)
{
    for (Layer &l : m_layers) {
        logical.chart->removeSeries(l.area);
        delete l.area; // owns its line series
    }
    m_layers.clear();
    for (Physical &s : m_physical) {
        physical.chart->removeSeries(s.line);
        delete s.line;
    }
    m_physical.clear();
    logical.envelope->setData({}, {}, {});
    physical.envelope->setData({}, {}, {});
}

void MemoryChartSeries::addLayers(const MemorySeries &series, int device, MemoryPlot &logical)
{
    const LogicalChartData probe = series.logical(device, {}, 0);
    for (int k = 0; k < kMemoryCategoryCount; ++k) {
        if (!probe.categoryPresent[std::size_t(k)])
            continue;
        const MemoryCategory cat = kChartCategoryOrder[std::size_t(k)];
        auto *upper = new QLineSeries;
        auto *lower = m_layers.empty() ? nullptr : new QLineSeries;
        auto *area = new QAreaSeries(upper, lower);
        // Whether or not QAreaSeries deletes its lines itself, parenting makes it certain.
        upper->setParent(area);
        if (lower)
            lower->setParent(area);
        area->setName(ChartStyle::text(memoryCategoryName(cat)));
        QColor fill = ChartStyle::categoryColor(cat);
        fill.setAlpha(210);
        area->setBrush(fill);
        QPen border(ChartStyle::categoryColor(cat).darker(130));
        border.setWidthF(1.0);
        area->setPen(border);
        logical.chart->addSeries(area);
        area->attachAxis(logical.x);
        area->attachAxis(logical.y);
        m_layers.push_back({cat, k, upper, lower, area});
    }
}

void MemoryChartSeries::addPhysical(const MemorySeries &series, int device, MemoryPlot &physical, const QColor &base)
{
    const PhysicalChartData probe = series.physical(device, {}, 0);
    for (const PhysicalDeviceSeries &dev : probe.devices) {
        const QString name = QString::fromStdString(series.devices()[std::size_t(dev.device)]);
        const QColor color = ChartStyle::deviceColor(dev.device);
        for (int m = 0; m < kPhysicalMetricCount; ++m) {
            const auto metric = PhysicalMetric(m);
            if (!dev.metric(metric).present)
                continue;
            // One hue per device; the metric is told by the line: used solid and strong,
            // reserved dashed, capacity a thin dotted ceiling.
            QPen pen(color);
            pen.setCosmetic(true);
            switch (metric) {
            case PhysicalMetric::Used: pen.setWidthF(2.0); break;
            case PhysicalMetric::Reserved:
                pen.setWidthF(1.6);
                pen.setStyle(Qt::DashLine);
                pen.setColor(QColor::fromRgbF(float(color.redF() * 0.7 + base.redF() * 0.3),
                                              float(color.greenF() * 0.7 + base.greenF() * 0.3),
                                              float(color.blueF() * 0.7 + base.blueF() * 0.3)));
                break;
            case PhysicalMetric::Capacity:
                pen.setWidthF(1.3);
                pen.setStyle(Qt::DotLine);
                break;
            }
            const QString legendName = ChartStyle::physicalLegendName(name, metric);
            auto *line = new QLineSeries;
            line->setName(legendName);
            line->setPen(pen);
            line->setPointsVisible(false);
            physical.chart->addSeries(line);
            line->attachAxis(physical.x);
            line->attachAxis(physical.y);
            QColor band = pen.color();
            band.setAlpha(metric == PhysicalMetric::Used ? 200 : 130);
            m_physical.push_back({dev.device, metric, legendName, line, band, false, 0});
        }
    }
}

std::uint64_t MemoryChartSeries::physicalShownMax(const MemorySeries &series, const PhysicalChartData &data,
                                                  const QSet<QString> &hidden) const
{
    // The physical axis spans the series shown (neighbours outside the window included, as
    // the lines run to them); hiding capacity lets used and reserved fill the plot.
    std::uint64_t max = 0;
    for (const PhysicalDeviceSeries &dev : data.devices) {
        const QString name = QString::fromStdString(series.devices()[std::size_t(dev.device)]);
        for (int m = 0; m < kPhysicalMetricCount; ++m) {
            if (hidden.contains(ChartStyle::physicalLegendName(name, PhysicalMetric(m))))
                continue;
            for (const ChartPoint &p : dev.metrics[std::size_t(m)].points)
                max = std::max(max, p.bytes);
        }
    }
    return max == 0 ? data.maxBytes : max;
}

void MemoryChartSeries::fill(const LogicalChartData &logical, const PhysicalChartData &physical,
                             const TimeWindow &window, int buckets, double xf, MemoryPlot &logicalPlot,
                             MemoryPlot &physicalPlot)
{
    const double ly = logicalPlot.unit.factor;
    const double py = physicalPlot.unit.factor;
    // Few changes: the stacked areas as steps. Many: a pixel column at a time (EnvelopeItem).
    std::vector<EnvelopeItem::Rect> logicalRects;
    std::vector<QColor> layerColors;
    for (std::size_t li = 0; li < m_layers.size(); ++li) {
        const Layer &l = m_layers[li];
        QColor fillColor = ChartStyle::categoryColor(l.category);
        fillColor.setAlpha(210);
        layerColors.push_back(fillColor);
        QList<QPointF> up, low;
        if (!logical.downsampled) {
            up.reserve(qsizetype(logical.columns.size()));
            if (l.lower)
                low.reserve(qsizetype(logical.columns.size()));
            // The layer below is the stack level under this category (absent categories are 0).
            for (const StackedColumn &c : logical.columns) {
                const double x = double(c.timeNs) / xf;
                up.append(QPointF(x, double(c.stack[std::size_t(l.stackIndex)]) / ly));
                if (l.lower)
                    low.append(
                        QPointF(x, l.stackIndex > 0 ? double(c.stack[std::size_t(l.stackIndex - 1)]) / ly : 0.0));
            }
        } else {
            // Solid where the category certainly is during the column (above the highest
            // level under it, below its own lowest), light over the range its top moves in.
            const std::size_t k = std::size_t(l.stackIndex);
            for (const StackedEnvelope &e : logical.envelope) {
                const double x0 = double(e.timeNs) / xf;
                const double x1 = double(e.endNs) / xf;
                const double lowBottom = k > 0 ? double(e.min[k - 1]) / ly : 0.0;
                const double highBottom = k > 0 ? double(e.max[k - 1]) / ly : 0.0;
                const double lowTop = double(e.min[k]) / ly;
                const double highTop = double(e.max[k]) / ly;
                if (lowTop > highBottom)
                    logicalRects.push_back({x0, x1, highBottom, lowTop, int(li), false});
                const double lightFrom = std::max(lowTop, lowBottom);
                if (highTop > lightFrom)
                    logicalRects.push_back({x0, x1, lightFrom, highTop, int(li), true});
            }
        }
        l.upper->replace(up);
        if (l.lower)
            l.lower->replace(low);
        QPen border(ChartStyle::categoryColor(l.category).darker(130));
        border.setWidthF(1.0);
        border.setCosmetic(true);
        l.area->setPen(border);
    }
    logicalPlot.envelope->setData(std::move(logicalRects), std::move(layerColors), {});

    std::vector<EnvelopeItem::Rect> physicalRects;
    std::vector<QColor> physicalColors;
    for (std::size_t si = 0; si < m_physical.size(); ++si) {
        Physical &ps = m_physical[si];
        physicalColors.push_back(ps.color);
        const auto it = std::find_if(physical.devices.begin(), physical.devices.end(),
                                     [&ps](const PhysicalDeviceSeries &d) { return d.device == ps.device; });
        if (it == physical.devices.end())
            continue;
        const PhysicalMetricSeries &m = it->metric(ps.metric);
        ps.bandMode = m.downsampled;
        ps.bandColumns = 0;
        QList<QPointF> pts;
        if (m.downsampled) {
            // Each column from the smallest to the largest sample in it; neighbours joined.
            const double pixel = double(window.length()) / xf / std::max(buckets, 1);
            for (std::size_t i = 0; i < m.envelope.size(); ++i) {
                const EnvelopeColumn &c = m.envelope[i];
                const double x0 = double(c.timeNs) / xf;
                double lo = double(c.min) / py;
                double hi = double(c.max) / py;
                if (i + 1 < m.envelope.size()) { // bridge to the next column, as a line would
                    lo = std::min(lo, double(m.envelope[i + 1].min) / py);
                    hi = std::max(hi, double(m.envelope[i + 1].min) / py);
                }
                physicalRects.push_back({x0, x0 + pixel, lo, hi, int(si), false});
                ++ps.bandColumns;
            }
        } else {
            pts.reserve(qsizetype(m.points.size()));
            for (const ChartPoint &p : m.points)
                pts.append(QPointF(double(p.timeNs) / xf, double(p.bytes) / py));
        }
        ps.line->replace(pts);
        // A lone sample makes no line: only then is it drawn as a dot.
        ps.line->setPointsVisible(pts.size() == 1);
    }
    physicalPlot.envelope->setData(std::move(physicalRects), std::move(physicalColors), {});
}

void MemoryChartSeries::applyVisibility(const QSet<QString> &hidden, MemoryPlot &logicalPlot,
                                        MemoryPlot &physicalPlot) const
{
    std::vector<bool> layersShown;
    for (const Layer &l : m_layers) {
        const bool on = !hidden.contains(l.area->name());
        layersShown.push_back(on);
        l.area->setVisible(on);
    }
    std::vector<bool> physicalShown;
    for (const Physical &s : m_physical) {
        const bool on = !hidden.contains(s.legendName);
        physicalShown.push_back(on);
        s.line->setVisible(on);
    }
    physicalPlot.envelope->setShown(std::move(physicalShown));
    logicalPlot.envelope->setShown(std::move(layersShown));
    // A hidden series keeps its legend entry, dimmed (to switch it back on).
    logicalPlot.legend->setHidden(hidden);
    physicalPlot.legend->setHidden(hidden);
}

void MemoryChartSeries::fillLegends(MemoryPlot &logicalPlot, MemoryPlot &physicalPlot) const
{
    std::vector<ChartLegend::Entry> logical;
    for (const Layer &l : m_layers)
        logical.push_back({l.area->name(), l.area->brush(), l.area->pen(), true});
    logicalPlot.legend->setEntries(std::move(logical));
    std::vector<ChartLegend::Entry> physical;
    for (const Physical &s : m_physical)
        physical.push_back({s.legendName, Qt::NoBrush, s.line->pen(), true});
    physicalPlot.legend->setEntries(std::move(physical));
}

QStringList MemoryChartSeries::legendNames() const
{
    QStringList names;
    for (const Layer &l : m_layers)
        names << l.area->name();
    for (const Physical &s : m_physical)
        names << s.legendName;
    return names;
}

} // namespace TraceInspector
