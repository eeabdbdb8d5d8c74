// SPDX-License-Identifier: MIT
#include "ui/selection/viewlinker.h"

#include <algorithm>

#include <QElapsedTimer>
#include <QLoggingCategory>

#include "core/analysis/spantree.h"
#include "core/model/trace.h"
#include "core/timeline/timelinelayout.h"
#include "ui/details/detailspane.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/optablepanel.h"
#include "ui/search/searchbar.h"
#include "ui/selection/selectionmodel.h"
#include "ui/spantreepanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/validationpanel.h"

namespace TraceInspector {

namespace {

Q_LOGGING_CATEGORY(lcSelection, "traceinspector.selection", QtWarningMsg)

/// Sets a flag for the lifetime of the guard and restores it after.
class FlagGuard
{
public:
    explicit FlagGuard(bool &flag)
        : m_flag(flag)
        , m_old(flag)
    {
        m_flag = true;
    }
    ~FlagGuard() { m_flag = m_old; }
    FlagGuard(const FlagGuard &) = delete;
    FlagGuard &operator=(const FlagGuard &) = delete;

private:
    bool &m_flag;
    bool m_old;
};

} // namespace

ViewLinker::ViewLinker(SelectionModel *selection, const Views &views, QObject *parent)
    : QObject(parent)
    , m_selection(selection)
    , m_views(views)
{
    qRegisterMetaType<TraceInspector::Selection>();
    qRegisterMetaType<TraceInspector::TimeWindow>();
    connectViews();
}

ViewLinker::~ViewLinker() = default;

void ViewLinker::connectViews()
{
    const Views &v = m_views;
    connect(m_selection, &SelectionModel::selectionChanged, this, [this](const Selection &current) { apply(current); });
    connect(m_selection, &SelectionModel::activated, this, &ViewLinker::applyActivation);
    connect(m_selection, &SelectionModel::timeRangeChanged, this, &ViewLinker::applyTimeRange);

    connect(v.timeline, &TimelineView::selected, this, &ViewLinker::fromView);
    connect(v.timeline, &TimelineView::activated, this, &ViewLinker::activateFromView);
    connect(v.timeline, &TimelineView::timeRangeSelected, m_selection, &SelectionModel::setTimeRange);
    connect(v.details, &DetailsPane::selectRequested, this, &ViewLinker::fromView);
    connect(v.details, &DetailsPane::activateRequested, this, &ViewLinker::activateFromView);
    connect(v.search, &SearchBar::matchSelected, this, &ViewLinker::fromView);

    connect(v.spanTree, &SpanTreePanel::spanSelected, this, [this](qint64 span) {
        if (span >= 0)
            fromView(Selection::span(span));
    });
    connect(v.spanTree, &SpanTreePanel::spanActivated, this,
            [this](qint64 span) { activateFromView(Selection::span(span)); });
    connect(v.opTable, &OpTablePanel::opSelected, this, [this](qint64 op) {
        if (op >= 0)
            fromView(Selection::op(op));
    });
    connect(v.opTable, &OpTablePanel::opActivated, this, [this](qint64 op) { activateFromView(Selection::op(op)); });

    connect(v.memoryChart, &MemoryChartPanel::instantClicked, this, [this](quint64 t) {
        if (const qint64 span = spanAt(t); span >= 0)
            fromView(Selection::span(span));
    });
    connect(v.memoryChart, &MemoryChartPanel::allocationSpanSelected, this,
            [this](qint64 span) { fromView(Selection::span(span)); });
    connect(v.memoryChart, &MemoryChartPanel::spanActivated, this,
            [this](qint64 span) { activateFromView(Selection::span(span)); });
    connect(v.memoryChart, &MemoryChartPanel::timeRangeSelected, m_selection, &SelectionModel::setTimeRange);

    connect(v.validation, &ValidationPanel::findingSelected, this, [this](int row) { fromFinding(row, false); });
    // Activation (double click, Return) names a span and/or an op; the op is the finer one.
    connect(v.validation, &ValidationPanel::findingActivated, this, [this](int row) { fromFinding(row, true); });

    // One time window for the timeline and the memory chart.
    connect(v.timeline, &TimelineView::visibleWindowChanged, this, [this](const TimeWindow &w) {
        if (m_syncingWindow || w.isEmpty())
            return;
        const FlagGuard guard(m_syncingWindow);
        m_views.memoryChart->setWindow(w);
    });
    connect(v.memoryChart, &MemoryChartPanel::chartReady, this, [this] {
        if (!m_views.timeline->isLayoutReady())
            return;
        const FlagGuard guard(m_syncingWindow);
        m_views.memoryChart->setWindow(m_views.timeline->visibleWindow());
    });
    connect(v.timeline, &TimelineView::layoutReady, this, [this] {
        const FlagGuard guard(m_syncingWindow);
        m_views.memoryChart->setWindow(m_views.timeline->visibleWindow());
    });
    connect(v.memoryChart, &MemoryChartPanel::windowChanged, this, [this](const TimeWindow &w) {
        if (m_syncingWindow || w.isEmpty())
            return;
        const FlagGuard guard(m_syncingWindow);
        m_views.timeline->setVisibleWindow(w);
    });
}

void ViewLinker::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree)
{
    m_trace = std::move(trace);
    m_tree = std::move(tree);
}

void ViewLinker::setFindings(std::shared_ptr<const std::vector<Problem>> readerProblems,
                             std::shared_ptr<const std::vector<Problem>> healthFindings)
{
    if (readerProblems == m_readerProblems && healthFindings == m_healthFindings && m_findings)
        return;
    m_readerProblems = std::move(readerProblems);
    m_healthFindings = std::move(healthFindings);
    auto all = std::make_shared<std::vector<Problem>>();
    all->reserve((m_readerProblems ? m_readerProblems->size() : 0) + (m_healthFindings ? m_healthFindings->size() : 0));
    if (m_readerProblems)
        all->insert(all->end(), m_readerProblems->begin(), m_readerProblems->end());
    if (m_healthFindings)
        all->insert(all->end(), m_healthFindings->begin(), m_healthFindings->end());
    m_findings = all;
    m_views.details->setFindings(m_findings);
}

void ViewLinker::fromView(const Selection &selection)
{
    if (m_applying)
        return;
    m_selection->select(selection);
}

void ViewLinker::activateFromView(const Selection &selection)
{
    if (m_applying || !selection.isValid())
        return;
    m_selection->activate(selection);
}

void ViewLinker::fromFinding(int row, bool activate)
{
    if (m_applying || !m_trace || !m_findings || row < 0 || std::size_t(row) >= m_findings->size())
        return;
    const Selection s = Selection::fromProblem((*m_findings)[std::size_t(row)], row, *m_trace);
    if (activate)
        m_selection->activate(s);
    else
        m_selection->select(s);
}

qint64 ViewLinker::spanAt(std::uint64_t timeNs) const
{
    const std::shared_ptr<const TimelineLayout> layout = m_views.timeline->layoutData();
    if (!layout || !m_trace)
        return -1;
    // The deepest level with a span running then; ops are not spans, the orphan level has none.
    const auto &levels = layout->hostLevels();
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
        if (level->orphanOps)
            continue;
        for (const TimelineTrack &track : level->tracks) {
            const auto [first, last] = track.visibleRange({timeNs, timeNs + 1});
            for (std::size_t i = first; i < last; ++i) {
                const TimelineItem item = TimelineLayout::hostItem(track.payload(i));
                if (item.kind == TimelineItemKind::Span && track.start(i) <= timeNs && track.end(i) > timeNs)
                    return qint64(item.index);
            }
        }
    }
    return -1;
}

TimeWindow ViewLinker::spanExtent(const Selection &selection) const
{
    if (!m_trace || !m_tree || !selection.isRecord())
        return {};
    const std::shared_ptr<const TimelineLayout> layout = m_views.timeline->layoutData();
    TimelineItem item;
    if (selection.kind == Selection::Kind::Op && std::size_t(selection.index) < m_trace->ops.size()) {
        item = {TimelineItemKind::Op, std::uint32_t(selection.index)};
    } else {
        // A device interval's own times are on its device clock: its span's are host times.
        const qint64 span = selection.spanIndex(*m_trace, *m_tree);
        if (span < 0)
            return {};
        item = {TimelineItemKind::Span, std::uint32_t(span)};
    }
    if (layout) {
        const auto [begin, end] = layout->extentOf(*m_trace, item);
        return {begin, std::max(end, begin + 1)};
    }
    if (item.kind == TimelineItemKind::Op) {
        const Op &op = m_trace->ops[item.index];
        return {op.timestampNs, std::max(op.timestampNs + op.durationNs, op.timestampNs + 1)};
    }
    const Span &s = m_trace->spans[item.index];
    return s.closed ? TimeWindow{s.startNs, std::max(s.startNs + s.durationNs, s.startNs + 1)} : TimeWindow{};
}

void ViewLinker::apply(const Selection &current)
{
    const FlagGuard guard(m_applying);
    const Views &v = m_views;
    // What each view costs when it follows the selection (QT_LOGGING_RULES=
    // "traceinspector.selection.debug=true"): a click must stay well under 100 ms in all.
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    const auto lap = [&](const char *view) {
        const qint64 now = clock.nsecsElapsed();
        qCDebug(lcSelection, "%s %.1f ms", view, double(now - last) / 1e6);
        last = now;
    };
    v.timeline->setSelection(current);
    lap("timeline");
    v.details->setSelection(current);
    lap("details");
    const qint64 span = m_trace && m_tree ? current.spanIndex(*m_trace, *m_tree) : -1;
    // A single click elsewhere never undoes the user's filters here: a hidden row is just
    // not selected (activation reveals it, see applyActivation()).
    v.spanTree->showSpan(span);
    lap("span tree");
    if (current.kind == Selection::Kind::Op && current.isRecord())
        v.opTable->showOp(current.index);
    else if (span >= 0)
        v.opTable->selectOpsOfSpan(span);
    lap("op table");
    v.memoryChart->setHighlightWindow(spanExtent(current));
    lap("memory chart");
    v.memoryChart->selectAllocationsOfSpan(span);
    lap("allocations");
    showFindingOf(current, span);
    lap("findings");
}

void ViewLinker::showFindingOf(const Selection &current, qint64 span)
{
    ValidationPanel *validation = m_views.validation;
    if (current.finding >= 0) {
        validation->showFinding(int(current.finding));
        return;
    }
    // A record outside every span (a device interval whose span_id names no span) still
    // has the findings that name it.
    if (!m_trace || !m_findings || (span < 0 && !current.isRecord())) {
        validation->showFinding(-1);
        return;
    }
    // The first finding that names the selected record or span, if any.
    int row = -1;
    for (std::size_t i = 0; i < m_findings->size() && row < 0; ++i) {
        const Problem &p = (*m_findings)[i];
        if (p.relatedKind == RelatedKind::None)
            continue;
        const Selection named = Selection::fromProblem(p, qint64(i), *m_trace);
        if ((named.kind == current.kind && named.index == current.index)
            || (m_tree && named.spanIndex(*m_trace, *m_tree) == span && current.kind == Selection::Kind::Span))
            row = int(i);
    }
    validation->showFinding(row);
}

void ViewLinker::applyActivation(const Selection &selection)
{
    const FlagGuard guard(m_applying);
    m_views.timeline->zoomToSelection();
    // Focusing a record shows it even where a filter hid it.
    const qint64 span = m_trace && m_tree ? selection.spanIndex(*m_trace, *m_tree) : -1;
    if (span >= 0)
        m_views.spanTree->selectSpan(span);
    if (selection.kind == Selection::Kind::Op && selection.isRecord())
        m_views.opTable->selectOp(selection.index);
}

void ViewLinker::applyTimeRange(const TimeWindow &range)
{
    const FlagGuard guard(m_applying);
    const Views &v = m_views;
    v.timeline->setTimeRange(range);
    v.opTable->setTimeRange(range);
    v.spanTree->setTimeRange(range);
    v.memoryChart->setTimeRange(range);
}

} // namespace TraceInspector
