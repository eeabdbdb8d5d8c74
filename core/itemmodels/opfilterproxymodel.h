// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <QAbstractProxyModel>
#include <QPointer>

#include "core/display/format.h"
#include "core/analysis/timecoordinates.h"

namespace TraceInspector {

class OpTableModel;

/// Text filter over an OpTableModel: case-insensitive substring over op name, span id,
/// span name, device and dtype.
///
/// The verdict for every op is computed once per filter text in one pass in stream order
/// (each distinct interned string is tested at most once). sort() is forwarded to the
/// OpTableModel, which sorts its own row permutation (see OpTableModel); this proxy keeps
/// the source's order.
///
/// Why not QSortFilterProxyModel: its row mapping costs O(rows) on every reset, ~100 ms of
/// the GUI thread for a 1 GB trace's 768 k ops, even with no filter. Without a filter this
/// proxy is the identity (no mapping at all); with one it holds the shown source rows in
/// one array. A filter change is one layout change, which keeps the persistent indexes of
/// rows that stay shown.
///
/// Over any other flat model it filters by DisplayRole text in any column and sorts by
/// SortRole itself (stable; unknown values last ascending).
class OpFilterProxyModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit OpFilterProxyModel(QObject *parent = nullptr);
    ~OpFilterProxyModel() override;

    void setSourceModel(QAbstractItemModel *sourceModel) override;

    QString filterText() const { return m_filter.text(); }
    /// Applies \a text (trimmed; empty shows every op).
    void setFilterText(const QString &text);
    /// Shows only ops whose run [timestamp, timestamp + duration) overlaps \a range (a
    /// zero-length op counts where it starts); an empty window shows every op. Combines with
    /// the filter text. OpTableModel sources only.
    void setTimeRange(const TimeWindow &range);
    TimeWindow timeRange() const { return m_range; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &idx) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

Q_SIGNALS:
    void filterTextChanged(const QString &text);

private:
    bool identity() const { return !isFiltering() && m_genericSortColumn < 0; }
    bool isFiltering() const { return !m_filter.isEmpty() || (m_opModel && !m_range.isEmpty()); }
    bool stringMatches(std::uint32_t id) const;
    void computeAccepted();
    bool accepts(int sourceRow) const;
    void rebuildRows();
    void relayout(const std::function<void()> &change);

    QPointer<OpTableModel> m_opModel;
    TextFilter m_filter;
    TimeWindow m_range;
    mutable std::vector<std::uint8_t> m_verdict; // per StringId: 0 untested, 1 no, 2 yes
    std::vector<std::uint8_t> m_accepted;        // per op (OpTableModel source)
    std::vector<int> m_rows;                     // shown source rows in order, unless identity()
    std::vector<int> m_proxyRowOf;               // per source row: proxy row or -1, unless identity()
    int m_genericSortColumn = -1;                // other sources: sorted here
    Qt::SortOrder m_genericSortOrder = Qt::AscendingOrder;
    QList<QPersistentModelIndex> m_layoutSource; // source of each persistent index across a source layout change
    QModelIndexList m_layoutProxy;
};

} // namespace TraceInspector
