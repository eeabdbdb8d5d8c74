// SPDX-License-Identifier: MIT
#include "core/itemmodels/viewcoverage.h"

#include "core/display/format.h"

namespace TraceInspector {

QString ViewCoverageText::viewName(InspectorView view)
{
    switch (view) {
    case InspectorView::SpanTree: return tr("Span tree");
    case InspectorView::OpTable: return tr("Op table");
    case InspectorView::MemoryChart: return tr("Memory chart");
    case InspectorView::Tensors: return tr("Tensors");
    case InspectorView::TensorStats: return tr("Tensor statistics");
    case InspectorView::Gradients: return tr("Gradients");
    case InspectorView::DeviceTime: return tr("Device time");
    case InspectorView::Graph: return tr("Graph");
    }
    return {};
}

std::vector<EvidencePlane> ViewCoverageText::planes(InspectorView view)
{
    switch (view) {
    case InspectorView::SpanTree: return {EvidencePlane::Spans};
    case InspectorView::OpTable: return {EvidencePlane::Operations};
    case InspectorView::MemoryChart: return {EvidencePlane::LogicalMemory, EvidencePlane::PhysicalMemory};
    case InspectorView::Tensors: return {EvidencePlane::Tensors, EvidencePlane::LogicalMemory};
    case InspectorView::TensorStats: return {EvidencePlane::TensorStats};
    case InspectorView::Gradients: return {EvidencePlane::Gradients};
    case InspectorView::DeviceTime: return {EvidencePlane::DeviceTiming};
    case InspectorView::Graph: return {EvidencePlane::CallEdges, EvidencePlane::DataEdges};
    }
    return {};
}

QString ViewCoverageText::planeTitle(EvidencePlane plane)
{
    switch (plane) {
    case EvidencePlane::Spans: return tr("Spans");
    case EvidencePlane::Operations: return tr("Operations");
    case EvidencePlane::Tensors: return tr("Tensors");
    case EvidencePlane::TensorStats: return tr("Tensor statistics");
    case EvidencePlane::Gradients: return tr("Gradients");
    case EvidencePlane::LogicalMemory: return tr("Logical memory");
    case EvidencePlane::PhysicalMemory: return tr("Physical memory");
    case EvidencePlane::DeviceTiming: return tr("Device timing");
    case EvidencePlane::CallEdges: return tr("Call edges");
    case EvidencePlane::DataEdges: return tr("Data edges");
    }
    return {};
}

QString ViewCoverageText::levelText(CapabilityLevel level)
{
    switch (level) {
    case CapabilityLevel::Complete: return tr("complete");
    case CapabilityLevel::Partial: return tr("partial");
    case CapabilityLevel::Absent: return tr("not captured");
    case CapabilityLevel::Unknown: return tr("unknown");
    }
    return {};
}

ViewCoverage ViewCoverageText::coverage(const CapabilityMatrix &matrix, InspectorView view)
{
    ViewCoverage c;
    const std::vector<EvidencePlane> used = planes(view);
    if (matrix.planes.size() != kEvidencePlaneCount || used.empty())
        return c;
    // The view's level is that of its first plane with records: a memory chart with only
    // physical samples still shows something.
    QStringList parts;
    bool first = true;
    for (const EvidencePlane p : used) {
        const PlaneCapability &cap = matrix.plane(p);
        if (cap.records > 0 && !c.captured)
            c.level = cap.level; // the first plane with records speaks for the view
        c.captured = c.captured || cap.records > 0;
        QString part = cap.records == 0   ? tr("%1: none captured").arg(planeTitle(p))
                       : cap.records == 1 ? tr("%1: 1 record").arg(planeTitle(p))
                                          : tr("%1: %2 record(s)", nullptr, numerusCount(cap.records))
                                                .arg(planeTitle(p), formatCount(cap.records));
        if (cap.declared)
            part += tr(" (declared %1)").arg(QString::fromLatin1(coverageLevelName(*cap.declared).data()));
        else if (first && matrix.hasMeta)
            part += tr(" (the capture contract has no level for it)");
        parts << part;
        first = false;
    }
    if (!c.captured)
        c.level = CapabilityLevel::Absent;
    c.text = !c.captured ? tr("Not captured") : tr("Captured: %1").arg(levelText(c.level));
    c.detail = parts.join(QStringLiteral("; "));
    return c;
}

} // namespace TraceInspector
