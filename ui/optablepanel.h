// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>

#include <QWidget>

#include "core/analysis/opstatistics.h"
#include "core/analysis/timecoordinates.h"
#include "core/display/format.h"

class QComboBox;
class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
template<typename T>
class QFutureWatcher;

namespace TraceInspector {

struct Trace;
struct RecordExtents;
class SpanTree;
class OpStatistics;
class OpTableModel;
class OpFilterProxyModel;
class OpAggregateModel;
class FilterLineEdit;
class TableActions;

/// Every op of a trace ("All ops", sortable, filterable, built for millions of rows) and the
/// same ops aggregated ("Aggregate": by op name, or by op + shape + dtype + device). One
/// debounced filter applies to both tabs.
/// Op indices are indices into Trace::ops, span indices into Trace::spans.
class OpTablePanel : public QWidget
{
    Q_OBJECT
public:
    enum Tab { AllOpsTab, ByNameTab };

    explicit OpTablePanel(QWidget *parent = nullptr);
    ~OpTablePanel() override;

    /// Shows the ops of \a trace. \a tree (same trace) links ops to spans; it may follow
    /// later through setSpanTree(). \a statistics and \a extents are computed here when null.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree = {},
                  std::shared_ptr<const OpStatistics> statistics = {},
                  std::shared_ptr<const RecordExtents> extents = {});
    /// Adds the span tree of the trace shown; keeps sort order, filter and the current op.
    void setSpanTree(std::shared_ptr<const SpanTree> tree);
    /// The aggregate by op + shape + dtype + device, computed by the loader with the tree.
    void setShapeStatistics(std::shared_ptr<const OpStatistics> statistics);
    void clear();

    /// Index of the current op in "All ops", or -1.
    qint64 selectedOp() const;
    QString filterText() const;

    void setTimeUnit(TimeUnit unit);
    /// Shows only the ops that run in \a range (host time), in both tabs: "All ops" at once,
    /// "By op name" re-aggregated off the GUI thread (timeRangeApplied() follows). An empty
    /// window shows the whole run again.
    void setTimeRange(const TimeWindow &range);
    TimeWindow timeRange() const { return m_range; }
    /// True while the aggregate of a new time range is computed.
    bool isAggregating() const { return m_aggregating; }
    /// Back to a fresh view: no filter, stream order, no selection, "All ops" (a different
    /// file was opened).
    void resetView();

    QTabWidget *tabs() const { return m_tabs; }
    TableActions *opActions() const { return m_opActions; }
    TableActions *aggregateActions() const { return m_aggregateActions; }
    QTableView *opView() const { return m_opView; }
    QTableView *aggregateView() const { return m_aggregateView; }
    FilterLineEdit *filterEdit() const { return m_filter; }
    OpTableModel *opModel() const { return m_opModel; }
    OpFilterProxyModel *opProxyModel() const { return m_opProxy; }
    OpAggregateModel *aggregateModel() const { return m_aggregateModel; }
    QSortFilterProxyModel *aggregateProxyModel() const { return m_aggregateProxy; }
    QComboBox *groupingBox() const { return m_grouping; }
    /// Groups the aggregate by op name or by op + shape + dtype + device.
    void setGrouping(OpGrouping grouping);

public Q_SLOTS:
    /// Shows "All ops" with op \a opIndex current, clearing a filter that hides it.
    void selectOp(qint64 opIndex);
    /// Like selectOp() but leaves the user's filter and time range alone: when they hide the
    /// op, nothing is selected and false is returned.
    bool showOp(qint64 opIndex);
    /// Selects the ops of span \a spanIndex in "All ops" (needs the span tree); the current
    /// op is left alone, so opSelected() is not emitted. Selects nothing when the span has
    /// no ops.
    void selectOpsOfSpan(qint64 spanIndex);
    void setFilterText(const QString &text);

Q_SIGNALS:
    /// The current op changed in "All ops"; -1 when none.
    void opSelected(qint64 opIndex);
    /// The user activated an op (double click or Return) whose span exists.
    void spanActivated(qint64 spanIndex);
    /// The user activated an op (double click or Return).
    void opActivated(qint64 opIndex);
    /// Both tabs show the time range given to setTimeRange(), or the whole run once its
    /// aggregate, computed in the background when setTrace() was given none, is there.
    void timeRangeApplied();

private:
    void applyFilter(const QString &text);
    void aggregateInBackground(const TimeWindow &window);
    void showOpsNamed(const QModelIndex &aggregateIndex);
    void updateStatus();
    qint64 opOf(const QModelIndex &proxyIndex) const;
    QString longestSpanId() const;
    QString widestStart() const;
    static void setupTable(QTableView *view);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::shared_ptr<const RecordExtents> m_extents;        // of m_trace
    std::shared_ptr<const OpStatistics> m_statistics;      // of the whole run, by name
    std::shared_ptr<const OpStatistics> m_shapeStatistics; // of the whole run, by shape
    struct RangeStatistics {
        std::shared_ptr<const OpStatistics> byName;
        std::shared_ptr<const OpStatistics> byShape; // null until the span tree is there
    };
    TimeWindow m_range;
    bool m_aggregating = false;
    quint64 m_rangeGeneration = 0;
    QFutureWatcher<RangeStatistics> *m_rangeWatcher;
    OpTableModel *m_opModel;
    OpFilterProxyModel *m_opProxy;
    OpAggregateModel *m_aggregateModel;
    QSortFilterProxyModel *m_aggregateProxy;
    FilterLineEdit *m_filter;
    QLabel *m_status;
    QTabWidget *m_tabs;
    QTableView *m_opView;
    QTableView *m_aggregateView;
    TableActions *m_opActions;
    TableActions *m_aggregateActions;
    QComboBox *m_grouping = nullptr;
};

} // namespace TraceInspector
