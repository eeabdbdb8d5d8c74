// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/model/problem.h"
#include "ui/selection/selection.h"

namespace TraceInspector {

struct Trace;
class SpanTree;
class SelectionModel;
class TimelineView;
class DetailsPane;
class SearchBar;
class SpanTreePanel;
class OpTablePanel;
class MemoryChartPanel;
class ValidationPanel;

/// Binds every view of a window to its one SelectionModel: what a view selects (a single
/// click) goes to the model, what it activates (a double click) is activated; the model's
/// selection, activation and time range go back to every view, each showing and scrolling
/// to it in its own terms (the span tree its span, the op table the op or the span's ops,
/// the memory chart the span's time extent and its allocations, the validation panel a
/// finding that names the span). A view never hears its own change back: while the model's
/// change is applied, what the views emit is ignored.
///
/// Also keeps the timeline and the memory chart on one time window: zooming or panning
/// either moves the other.
class ViewLinker : public QObject
{
    Q_OBJECT
public:
    struct Views {
        TimelineView *timeline = nullptr;
        DetailsPane *details = nullptr;
        SearchBar *search = nullptr;
        SpanTreePanel *spanTree = nullptr;
        OpTablePanel *opTable = nullptr;
        MemoryChartPanel *memoryChart = nullptr;
        ValidationPanel *validation = nullptr;
    };

    ViewLinker(SelectionModel *selection, const Views &views, QObject *parent = nullptr);
    ~ViewLinker() override;

    /// The trace the views show (null: none) and its span tree once built.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree);
    /// The window's findings in the validation panel's order (reader problems, then health
    /// findings): Selection::finding indexes them.
    void setFindings(std::shared_ptr<const std::vector<Problem>> readerProblems,
                     std::shared_ptr<const std::vector<Problem>> healthFindings);

    /// The innermost span running at host time \a timeNs, or -1 (needs the timeline's layout).
    qint64 spanAt(std::uint64_t timeNs) const;
    /// Host time extent of the span \a selection belongs to, as the timeline draws it (open
    /// spans run to the end); empty when unknown.
    TimeWindow spanExtent(const Selection &selection) const;

private:
    void connectViews();
    void fromView(const Selection &selection);
    void activateFromView(const Selection &selection);
    void fromFinding(int row, bool activate);
    void apply(const Selection &current);
    void applyActivation(const Selection &selection);
    void applyTimeRange(const TimeWindow &range);
    void showFindingOf(const Selection &current, qint64 span);

    SelectionModel *m_selection;
    Views m_views;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::shared_ptr<std::vector<Problem>> m_findings;
    std::shared_ptr<const std::vector<Problem>> m_readerProblems;
    std::shared_ptr<const std::vector<Problem>> m_healthFindings;
    bool m_applying = false;      // the model's change is being shown: views' echoes are ignored
    bool m_syncingWindow = false; // one time-aligned view is following the other
};

} // namespace TraceInspector
