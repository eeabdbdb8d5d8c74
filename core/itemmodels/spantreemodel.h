// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>

#include <QAbstractItemModel>

#include "core/display/format.h"
#include "core/itemmodels/comparisoncolumnsmodel.h"
#include "core/loading/tracecomparison.h"

namespace TraceInspector {

struct Trace;
class SpanTree;
class DeviceTime;

/// The span hierarchy of one trace as a tree model over SpanTree's flat arrays.
///
/// `internalId()` of every index is the span's index into `Trace::spans`; parent() returns
/// the parent's true row. Rows are in SpanTree order (start_ns, then id); sorting is the
/// proxy's job (SpanFilterProxyModel). Open spans, dangling parents and broken cycles are
/// shown like any other span and flagged through IsOpenRole / IsDanglingRole / IsCycleRole;
/// the model carries no colours or fonts.
///
/// DisplayRole is formatted text, SortRole the raw value (invalid for unknown values, e.g.
/// the duration of an open span). The BarColumn has no text: BarValueRole (duration) and
/// TotalRole (the measured total, or the longest span when nothing is measured) feed a bar
/// delegate.
///
/// DeviceBusyColumn shows the busiest device lane's busy union of the span's subtree (device,
/// stream and clock in DeviceLanesColumn and the tool tip; DeviceExceedsHostRole flags a
/// busy time longer than the host duration). Both are empty until device time is set.
///
/// With a comparison whose candidate is the shown trace (issue #15 item 3), six columns are
/// inserted after the others: the baseline's total and self time of each span's partner, Δ
/// (candidate − baseline, DeltaRole for colour) and Δ% ("—" for a span without a partner or
/// an open side). Clearing the comparison removes them.
class SpanTreeModel : public ComparisonColumnsModel<QAbstractItemModel>
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        KindColumn,
        StepColumn,
        StartColumn,
        DurationColumn,
        SelfColumn,
        MeasuredPercentColumn,
        BarColumn,
        DeviceBusyColumn,
        DeviceLanesColumn,
        ColumnCount,
        // Shown only while a comparison is set (setComparison()), appended after the others.
        BaselineTotalColumn = ColumnCount,
        DeltaTotalColumn,
        DeltaTotalPercentColumn,
        BaselineSelfColumn,
        DeltaSelfColumn,
        DeltaSelfPercentColumn,
        ComparisonColumnCount
    };
    Q_ENUM(Column)

    explicit SpanTreeModel(QObject *parent = nullptr);
    ~SpanTreeModel() override;

    /// Shows \a trace with its \a tree (built from the same trace); resets the model.
    /// Either null clears the model. \a deviceTime (from the same trace and tree) fills the
    /// device columns.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                  std::shared_ptr<const DeviceTime> deviceTime = {});
    const Trace *trace() const { return m_trace.get(); }
    const SpanTree *tree() const { return m_tree.get(); }
    /// Device busy unions, or null when the trace has none.
    const DeviceTime *deviceTime() const { return m_device.get(); }
    /// The shared snapshots themselves, for work on another thread.
    std::shared_ptr<const Trace> traceRef() const { return m_trace; }
    std::shared_ptr<const SpanTree> treeRef() const { return m_tree; }
    std::shared_ptr<const DeviceTime> deviceTimeRef() const { return m_device; }
    /// Adds the comparison columns for \a comparison when its candidate is the shown trace
    /// (same snapshot); null, or another trace, removes them. setTrace() removes them too.
    void setComparison(TraceComparisonPtr comparison);
    /// Lines "device · stream · clock: busy (n intervals)" for span \a spanIndex, for a
    /// details view; empty when it has no device work.
    QStringList deviceLines(std::int64_t spanIndex) const;

    /// Column-0 index of span \a spanIndex (index into Trace::spans), invalid if out of range.
    QModelIndex indexForSpan(std::int64_t spanIndex, int column = NameColumn) const;
    /// Span index of \a index, or -1 for an invalid index.
    std::int64_t spanIndex(const QModelIndex &index) const;
    /// Span index at \a row under \a parent without creating an index; -1 if out of range.
    std::int64_t spanAt(int row, const QModelIndex &parent) const;
    /// Reference for BarValueRole, as returned by TotalRole.
    std::uint64_t barTotalNs() const;

    /// Unit of the Start, Duration and Self columns; a fixed unit moves to the headers.
    /// Emits headerDataChanged() and dataChanged() (DisplayRole) for the top-level rows.
    TimeUnit timeUnit() const { return m_unit; }
    void setTimeUnit(TimeUnit unit);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    /// Selectable and enabled; a span without children is also Qt::ItemNeverHasChildren (in
    /// every column), so a view skips it when it looks for open rows on every relayout.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    /// flags() of any row of span \a span, without an index (the filter proxy asks this for
    /// each row QTreeView lays out).
    Qt::ItemFlags spanFlags(std::size_t span) const;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    QVariant displayData(std::size_t span, int column) const;
    QVariant sortData(std::size_t span, int column) const;
    QString toolTip(std::size_t span) const;
    QString lanesText(std::size_t span) const;
    QVariant comparisonData(std::size_t span, int column, int role) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::shared_ptr<const DeviceTime> m_device;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
