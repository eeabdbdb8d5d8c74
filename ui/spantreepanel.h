// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <QModelIndex>
#include <QWidget>

#include "core/display/format.h"
#include "core/analysis/timecoordinates.h"

class QLabel;
class QTimer;
class QToolButton;
class QTreeView;

namespace TraceInspector {

struct Trace;
struct RecordExtents;
class SpanTree;
class DeviceTime;
class SpanTreeModel;
class SpanFilterProxyModel;
class SpanItemDelegate;
class FilterLineEdit;
class TableActions;
class TreeView;

/// The span tree of a trace: a sortable QTreeView over SpanTreeModel with a debounced
/// filter that keeps the ancestors of matches. Open spans are italic and say "open";
/// dangling-parent and cycle spans carry a warning icon and explain themselves in the
/// tooltip. Span indices are indices into Trace::spans.
///
/// A filter shows how many spans match and opens the way to them progressively, in the
/// order shown (a first batch at once, more in slices that never hold the window up);
/// Next/Previous match (F3, Shift+F3) walk the matches in that order and open what is needed.
class SpanTreePanel : public QWidget
{
    Q_OBJECT
public:
    explicit SpanTreePanel(QWidget *parent = nullptr);
    ~SpanTreePanel() override;

    /// Shows \a trace with its \a tree (built from the same trace); null clears the panel.
    /// \a deviceTime adds the device busy columns (hidden for a trace without device work).
    /// \a extents (of the same trace) are computed here when null.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                  std::shared_ptr<const DeviceTime> deviceTime = {}, const RecordExtents *extents = nullptr);
    void clear();

    /// Index of the current span, or -1.
    qint64 selectedSpan() const;
    QString filterText() const;
    /// Matches opened so far by the progressive expansion; all of them once done.
    std::size_t expandedMatchCount() const { return m_expandedMatches; }
    bool isExpanding() const;
    /// Whether Expand All (or Expand All Below) is still opening rows.
    bool isExpandingAll() const;
    /// Rows shown under the nodes the last Expand All visited (its top level included).
    std::size_t expandAllRowCount() const { return m_expandAllRows; }
    /// Whether the last Expand All stopped at kExpandAllRowLimit rows.
    bool expandAllTruncated() const { return m_expandAllTruncated; }
    /// Expand All never shows more rows than this (see expandAll()).
    static constexpr std::size_t kExpandAllRowLimit = 20000;

    void setTimeUnit(TimeUnit unit);
    /// Shows only spans overlapping \a range (host time) and their ancestors; empty = all.
    void setTimeRange(const TimeWindow &range);
    TimeWindow timeRange() const;
    /// Back to a fresh view: no filter, no selection, tree order (a different file was opened).
    void resetView();

    QTreeView *view() const;
    TableActions *tableActions() const { return m_actions; }
    FilterLineEdit *filterEdit() const { return m_filter; }
    SpanTreeModel *model() const { return m_model; }
    SpanFilterProxyModel *proxyModel() const { return m_proxy; }

public Q_SLOTS:
    /// Makes span \a spanIndex current: clears a filter that hides it, expands its
    /// ancestors and scrolls to it. Emits spanSelected() when the current span changes.
    void selectSpan(qint64 spanIndex);
    /// Like selectSpan() but leaves the user's filter alone: when it (or the time range) hides
    /// the span, nothing is current and false is returned.
    bool showSpan(qint64 spanIndex);
    /// Applies \a text at once (no debounce).
    void setFilterText(const QString &text);
    /// Makes the next (previous) match after the current span, in the order shown, current.
    void nextMatch();
    void previousMatch();
    /// Opens the tree level by level, in slices that never hold the window up, until every
    /// node is open or kExpandAllRowLimit rows are shown. A million-span tree opened fully
    /// is a million rows nobody reads, and every later sort or filter would lay them all out
    /// again; level order shows the structure first (steps, micro-batches, layers), and
    /// Expand All Below on a row (or '*') goes deeper where the user looks.
    void expandAll();
    /// The same below span \a spanIndex only.
    void expandAllBelow(qint64 spanIndex);
    /// Stops a running Expand All; what it opened stays open.
    void stopExpandAll();
    void collapseAll();

Q_SIGNALS:
    /// The current span changed (by the user or by selectSpan()); -1 when none.
    void spanSelected(qint64 spanIndex);
    /// The user activated a span (double click or Return).
    void spanActivated(qint64 spanIndex);
    /// The progressive expansion after a filter change opened everything it will open.
    void expansionFinished();
    /// Expand All (or Expand All Below) finished or was stopped.
    void expandAllFinished();

private:
    void applyFilter(const QString &text);
    void startExpansion();
    void expandSlice();
    void expandTo(qint64 spanIndex);
    void expandAllSlice();
    void finishExpandAll();
    QModelIndex proxyIndexOf(std::uint32_t span) const;
    void stepMatch(bool forward);
    void updateStatus();
    qint64 spanOf(const QModelIndex &proxyIndex) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    SpanTreeModel *m_model;
    SpanFilterProxyModel *m_proxy;
    SpanItemDelegate *m_itemDelegate;
    FilterLineEdit *m_filter;
    QLabel *m_status;
    QToolButton *m_previous;
    QToolButton *m_next;
    TreeView *m_view;
    TableActions *m_actions;
    QTimer *m_expandTimer;
    QTimer *m_expandAllTimer;
    QToolButton *m_stopExpandAll;
    bool m_sorting = false;
    qint64 m_selectWhenLaidOut = -1; // a span to select once the pending layout lands
    // The order by a comparison column while its columns are gone (a new comparison loads).
    int m_comparisonSortColumn = -1;
    Qt::SortOrder m_comparisonSortOrder = Qt::AscendingOrder;
    // Expand All: breadth-first queue of spans whose children are shown.
    std::vector<std::uint32_t> m_expandAllQueue;
    std::size_t m_expandAllNext = 0;
    std::size_t m_expandAllRows = 0;
    bool m_expandAllTruncated = false;
    // Depth-first walk over the shown rows, opening parents of matches in display order.
    std::vector<std::pair<QPersistentModelIndex, int>> m_walk;
    std::size_t m_expandedMatches = 0;
    int m_matchPosition = 0; // 1-based position of m_lastMatchSpan among the matches, 0 = unknown
    qint64 m_lastMatchSpan = -1;
    MeasuredSpanCount m_measured;
    std::uint64_t m_latestStart = 0; // widest start time to fit the Start column to
};

} // namespace TraceInspector
