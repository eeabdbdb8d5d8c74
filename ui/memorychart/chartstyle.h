// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QMargins>
#include <QPalette>
#include <QString>

#include <string_view>

#include "core/analysis/memoryseries.h"
#include "core/model/enums.h"

namespace TraceInspector {

/// Colours, margins and names the memory chart draws with.
namespace ChartStyle {

/// Category hues: long-lived memory in cool tones at the bottom of the stack.
QColor categoryColor(MemoryCategory c);
/// Device hues share none with the categories, so a device line never reads as a category.
QColor deviceColor(int device);
bool isDark(const QPalette &palette);
QColor peakColor(const QPalette &palette);
/// "used", "reserved", "capacity": the word of a legend entry ("cuda:0 used").
const char *metricName(PhysicalMetric metric);
/// The legend entry of one device's metric.
QString physicalLegendName(const QString &device, PhysicalMetric metric);
QString text(std::string_view s);

/// The margins of both plots before they are aligned (to each other and to the timeline).
inline const QMargins kChartMargins(4, 2, 8, 2);

} // namespace ChartStyle

} // namespace TraceInspector
