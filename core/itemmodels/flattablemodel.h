// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <QAbstractTableModel>

#include "core/display/format.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;
class BackgroundSort;

/// Base of the evidence tables: one row per record of a flat array, with its own row
/// permutation for sorting and filtering (as OpTableModel/OpFilterProxyModel do), because a
/// QSortFilterProxyModel over a million rows costs seconds per sort.
///
/// A subclass says how many records there are, gives each record a 64-bit sort key per
/// column (keys compare as unsigned; absent values are marked separately and sort last
/// ascending, first descending) and decides whether a record matches a filter. The sort is a
/// stable radix sort over the keys; a filter is one pass over the records with each interned
/// string tested at most once (stringMatches()). Both keep the persistent indexes of rows
/// that stay shown.
class FlatTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit FlatTableModel(QObject *parent = nullptr);
    ~FlatTableModel() override;

    /// Record shown at \a row, or -1.
    std::int64_t recordAt(int row) const;
    /// Row of record \a record, or -1 when it is filtered out or out of range.
    int rowOfRecord(std::int64_t record) const;
    /// Number of records, shown or not.
    std::size_t totalRecords() const { return m_recordCount; }

    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    QString filterText() const { return m_filter.text(); }
    /// Shows only the records matching \a text (trimmed, case-insensitive); empty shows all.
    void setFilterText(const QString &text);

    int rowCount(const QModelIndex &parent = {}) const override;
    /// \a column -1 restores record order. With BackgroundSort::backgroundRows() records or
    /// more, the keys are taken here and sorted on a worker thread; the order is applied
    /// (one layout change) when ready. sortColumn() says what was asked at once.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    bool isSorting() const;
    /// Whether sort() may run on a worker thread (off by default: the model then sorts at
    /// once, as callers without an event loop expect). Views of a big trace turn it on.
    void setBackgroundSorting(bool on) { m_backgroundSorting = on; }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// A background sort started (true) or its order was applied or dropped (false).
    void sortingChanged(bool sorting);

protected:
    /// Call between beginResetModel() and endResetModel() when the records change: drops the
    /// order; keeps the filter text and re-applies it, and the sort column.
    void resetRecords(std::size_t count);
    /// Like resetRecords(), with \a sorted the order of the records by \a column and \a order,
    /// computed off the GUI thread with orderFromKeys() (a million rows sort in more than
    /// 100 ms).
    void resetRecordsSorted(std::size_t count, int column, Qt::SortOrder order, std::vector<std::uint32_t> sorted);
    /// The order sort() gives for these keys (as filled by sortKeys()); thread-safe.
    static std::vector<std::uint32_t> orderFromKeys(std::vector<std::uint64_t> keys,
                                                    const std::vector<std::uint8_t> &absent, Qt::SortOrder order);
    /// The trace whose strings stringMatches() tests; may be null.
    virtual const Trace *filterTrace() const = 0;
    /// Sort key of every record for \a column into \a keys (sized to the record count);
    /// set \a absent[i] = 1 for records without a value (absent is pre-sized and zeroed).
    virtual void sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const = 0;
    /// Computes the keys of sortKeys() for \a column on any thread; what it reads it owns.
    using KeyFunction = std::function<void(std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent)>;
    /// A KeyFunction for \a column, for a model whose records are immutable shared data: the
    /// keys of a million records then come off the GUI thread too. None by default (the keys
    /// are taken on the calling thread with sortKeys()).
    virtual KeyFunction backgroundKeys(int column) const
    {
        Q_UNUSED(column);
        return {};
    }
    /// Whether record \a record matches the (non-empty) filter.
    virtual bool recordMatches(std::size_t record, const TextFilter &filter) const = 0;
    virtual QVariant recordData(std::size_t record, int column, int role) const = 0;

    /// Filter verdict for an interned string of filterTrace(), cached per filter text.
    bool stringMatches(StringId id) const;
    /// Keys that order \a ids (one per record) by their text, byte-wise; kNoString is absent.
    static void stringKeys(const Trace &trace, const std::vector<StringId> &ids, std::vector<std::uint64_t> &keys,
                           std::vector<std::uint8_t> &absent);
    /// Order-preserving key of a double (negative values before positive ones).
    static std::uint64_t doubleKey(double value);

private:
    void rebuildRows();
    std::vector<std::uint32_t> computeOrder(int column, Qt::SortOrder order) const;
    void relayout(std::vector<std::uint32_t> order, const std::vector<std::uint8_t> &accepted);

    std::size_t m_recordCount = 0;
    std::vector<std::uint32_t> m_order;   // sorted records; empty = record order
    std::vector<std::uint8_t> m_accepted; // per record; empty = all
    std::vector<std::uint32_t> m_rows;    // shown records, unless identity()
    std::vector<std::int32_t> m_rowOf;    // per record: row or -1, unless identity()
    TextFilter m_filter;
    mutable std::vector<std::uint8_t> m_verdict; // per StringId: 0 untested, 1 no, 2 yes
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    BackgroundSort *m_sorter;
    bool m_backgroundSorting = false;

    bool identity() const { return m_order.empty() && m_accepted.empty(); }
};

} // namespace TraceInspector
