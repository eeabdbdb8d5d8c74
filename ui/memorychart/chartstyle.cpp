// SPDX-License-Identifier: MIT
#include "ui/memorychart/chartstyle.h"

#include <iterator>

namespace TraceInspector::ChartStyle {

QColor categoryColor(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Parameter: return QColor(0x4c, 0x72, 0xb0);  // blue
    case MemoryCategory::Optimizer: return QColor(0x81, 0x72, 0xb3);  // violet
    case MemoryCategory::Gradient: return QColor(0xdd, 0x84, 0x52);   // orange
    case MemoryCategory::Activation: return QColor(0x55, 0xa8, 0x68); // green
    case MemoryCategory::Other: return QColor(0x93, 0x93, 0x93);      // grey
    }
    return Qt::gray;
}

QColor deviceColor(int device)
{
    // No blue, violet, orange, green or grey; each device's metrics differ by line style.
    static const QColor colors[] = {QColor(0x00, 0x97, 0xa7), QColor(0xc2, 0x18, 0x5b), QColor(0x9e, 0x8a, 0x00),
                                    QColor(0x8d, 0x55, 0x3c), QColor(0x00, 0x79, 0x6b), QColor(0xd8, 0x43, 0x15)};
    return colors[std::size_t(device) % std::size(colors)];
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor peakColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x6e, 0x5e) : QColor(0xc0, 0x39, 0x2b);
}

const char *metricName(PhysicalMetric metric)
{
    switch (metric) {
    case PhysicalMetric::Used: return "used";
    case PhysicalMetric::Reserved: return "reserved";
    case PhysicalMetric::Capacity: return "capacity";
    }
    return "";
}

QString physicalLegendName(const QString &device, PhysicalMetric metric)
{
    return device + u' ' + QLatin1StringView(metricName(metric));
}

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace TraceInspector::ChartStyle
