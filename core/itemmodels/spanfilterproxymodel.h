// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include <QAbstractProxyModel>
#include <QPointer>

#include "core/display/format.h"
#include "core/analysis/timecoordinates.h"

namespace TraceInspector {

class SpanTreeModel;
class SpanTree;
class DeviceTime;
struct Trace;
class BackgroundSort;
class SpanCounterpart;
struct TraceComparison;

/// Filters and sorts a SpanTreeModel (the only source it accepts).
///
/// The filter is a case-insensitive substring over span name and id. A span is kept when
/// it or any descendant matches, so the ancestors of every match stay visible; children of
/// a match that do not match themselves are hidden (Qt's recursive-filtering semantics).
/// Sorting orders the children of every parent by the column's raw value (what SortRole
/// returns) without building QVariants; unknown values (open durations, n/a percentages)
/// come after all known ones in ascending order; ties keep tree order (start, then id).
///
/// Why not QSortFilterProxyModel: it allocates a mapping per visited parent and slows down
/// superlinearly; opening every node of a 1 M-span tree took 30 s (16 ms on the source).
/// This proxy keeps the visible children of all parents in one flat array, like SpanTree,
/// and rebuilds it in O(spans) per filter (plus the per-parent sorts). internalId() is the
/// span index, as in the source; filter and sort changes are one layout change, which keeps
/// persistent indexes (selection, expanded nodes) of spans that stay visible.
class SpanFilterProxyModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit SpanFilterProxyModel(QObject *parent = nullptr);
    ~SpanFilterProxyModel() override;

    /// \a sourceModel must be a SpanTreeModel; any other model shows as empty.
    void setSourceModel(QAbstractItemModel *sourceModel) override;

    QString filterText() const { return m_filter.text(); }
    /// Applies \a text (trimmed; empty shows everything).
    void setFilterText(const QString &text);
    /// Keeps only spans that overlap \a range (host time; an open span runs on to the end),
    /// with their ancestors; combines with the text. An empty window keeps every span.
    void setTimeRange(const TimeWindow &range);
    TimeWindow timeRange() const { return m_range; }
    /// Number of spans that match the filter themselves (all spans when no filter is set).
    std::size_t matchCount() const { return m_matchCount; }
    /// Whether span \a spanIndex matches the filter itself (every span when none is set).
    bool isMatch(std::int64_t spanIndex) const;
    /// Whether span \a spanIndex is shown (a match or an ancestor of one).
    bool isVisible(std::int64_t spanIndex) const;
    /// Spans matching the filter itself, in index order (empty when no filter is set).
    std::vector<std::uint32_t> matches() const;

    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &idx) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    /// A span without children in the tree is flagged Qt::ItemNeverHasChildren (whatever the
    /// filter): a view then skips it when it looks for open rows on every relayout.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// \a column -1 restores tree order. Sorting a tree of BackgroundSort::backgroundRows()
    /// spans or more runs on a worker thread and is applied (one layout change) when ready;
    /// sortColumn() says what was asked at once, isSorting() whether it is still pending.
    /// While such a tree is sorted, a new filter text or time range is laid out (filtered and
    /// re-sorted) on the worker too: filterText() and timeRange() say what was asked, the rows,
    /// matchCount(), isMatch() and isVisible() what is shown, until the layout lands. A new
    /// tree (the source reset) shows filtered in tree order until its order lands.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool isSorting() const;
    /// Whether sort() may run on a worker thread (off by default: the model then sorts at
    /// once, as callers without an event loop expect). Views of a big trace turn it on.
    void setBackgroundSorting(bool on) { m_backgroundSorting = on; }

Q_SIGNALS:
    void filterTextChanged(const QString &text);
    /// A background sort started (true) or its order was applied or dropped (false).
    void sortingChanged(bool sorting);

private:
    enum Keep : std::uint8_t { Hidden = 0, Ancestor = 1, Match = 2 };
    static constexpr std::uint32_t kHidden = UINT32_MAX;

    // The visible children per parent, grouped like SpanTree (slot spanCount() = roots).
    struct Rows {
        std::vector<std::uint32_t> children;
        std::vector<std::uint32_t> childOffset;
        std::vector<std::uint32_t> row; // per span; kHidden when filtered out
    };

    // What a filter, range and order show; computed on the GUI thread or a worker.
    struct KeepSet {
        std::vector<std::uint8_t> keep; // per span; empty = no filter
        std::size_t matchCount = 0;
        bool byText = false; // the keep set came from a text filter
    };
    struct Layout {
        KeepSet keep;
        Rows rows;
        bool identity = true;
    };

    static KeepSet keepSet(const Trace &trace, const SpanTree &tree, const TextFilter &filter, const TimeWindow &range);
    static Layout computeLayout(const Trace &trace, const SpanTree &tree, const DeviceTime *device,
                                const TraceComparison *comparison, const TextFilter &filter, const TimeWindow &range,
                                int column, Qt::SortOrder order);
    // The layout of the current filter and range in \a column's order, on this thread.
    Layout computeNow(int column) const;
    // Whether the tree is big enough, and the worker allowed, for layouts off this thread.
    bool bigForTheWorker() const;
    // Whether a new layout in the current order is computed on the worker.
    bool sortsInBackground() const;
    // Whether the current filter or range of an unsorted tree is laid out on the worker.
    bool filtersInBackground() const;
    void install(Layout layout);
    void relayout();
    // One layout change to \a layout that keeps the persistent indexes of spans still shown.
    void applyLayout(Layout layout);
    // Static: a worker thread runs it on the shared, immutable snapshots.
    static Rows buildRows(const Trace &trace, const SpanTree &tree, const DeviceTime *device,
                          const SpanCounterpart *counterpart, const std::vector<std::uint8_t> &keep, int column,
                          Qt::SortOrder order);
    static bool lessThan(const Trace &trace, const SpanTree &tree, const DeviceTime *device,
                         const SpanCounterpart *counterpart, int column, std::uint32_t a, std::uint32_t b);
    std::size_t spanCount() const;
    bool identity() const { return m_identity; }
    std::size_t childCount(std::size_t slot) const;
    std::uint32_t childAt(std::size_t slot, std::size_t row) const;
    std::uint32_t rowOf(std::uint32_t span) const;

    QPointer<SpanTreeModel> m_spanModel;
    TextFilter m_filter;
    TimeWindow m_range;
    std::vector<std::uint8_t> m_keep; // per span; empty = no filter
    std::size_t m_matchCount = 0;
    bool m_keepByText = false; // m_keep is a text filter's (filterText() may be newer)
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    // Without filter and sort the source's own arrays are used (m_identity); otherwise m_rows.
    bool m_identity = true;
    Rows m_rows;
    BackgroundSort *m_sorter;
    bool m_backgroundSorting = false;
    bool m_sortedByRemovedColumn = false;
};

} // namespace TraceInspector
