// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

#include <vector>

#include "core/analysis/capabilitymatrix.h"

namespace TraceInspector {

/// The inspector's views, for their coverage badges.
enum class InspectorView : std::uint8_t {
    SpanTree,
    OpTable,
    MemoryChart,
    Tensors,
    TensorStats,
    Gradients,
    DeviceTime,
    Graph,
};
inline constexpr int kInspectorViewCount = 8;

/// How well the data behind a view was captured, in words: a view whose data was not
/// captured must say so, never show an empty table that reads as "zero".
struct ViewCoverage {
    CapabilityLevel level = CapabilityLevel::Absent;
    bool captured = false; ///< any record of the view's planes
    QString text;          ///< short badge text, e.g. "Not captured"
    QString detail;        ///< one sentence: records, declared level
};

class ViewCoverageText
{
    Q_DECLARE_TR_FUNCTIONS(TraceInspector::ViewCoverageText)
public:
    static QString viewName(InspectorView view);
    /// The planes a view shows, the first being the one its badge is about.
    static std::vector<EvidencePlane> planes(InspectorView view);
    static QString planeTitle(EvidencePlane plane);
    static QString levelText(CapabilityLevel level);
    static ViewCoverage coverage(const CapabilityMatrix &matrix, InspectorView view);
};

} // namespace TraceInspector
