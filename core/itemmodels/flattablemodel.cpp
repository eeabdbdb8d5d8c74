// SPDX-License-Identifier: MIT
#include "core/itemmodels/flattablemodel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <numeric>

#include "core/analysis/radixorder.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/model/trace.h"

namespace TraceInspector {

FlatTableModel::FlatTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_sorter(new BackgroundSort(this))
{
    connect(m_sorter, &BackgroundSort::runningChanged, this, &FlatTableModel::sortingChanged);
}

bool FlatTableModel::isSorting() const
{
    return m_sorter->isRunning();
}

FlatTableModel::~FlatTableModel() = default;

std::uint64_t FlatTableModel::doubleKey(double value)
{
    if (std::isnan(value))
        value = 0; // never produced by the loader (JSON has no NaN); keeps the sort total
    const auto bits = std::bit_cast<std::uint64_t>(value);
    return (bits & 0x8000000000000000ULL) ? ~bits : bits | 0x8000000000000000ULL;
}

void FlatTableModel::stringKeys(const Trace &trace, const std::vector<StringId> &ids, std::vector<std::uint64_t> &keys,
                                std::vector<std::uint8_t> &absent)
{
    // Sorting the distinct strings once and comparing ranks is far cheaper than comparing
    // text for every pair of rows.
    std::vector<std::uint32_t> rank(trace.strings.size(), 0);
    std::vector<StringId> distinct;
    for (const StringId id : ids) {
        if (id != kNoString && id < rank.size() && rank[id] == 0) {
            rank[id] = 1;
            distinct.push_back(id);
        }
    }
    std::sort(distinct.begin(), distinct.end(), [&trace](StringId a, StringId b) { return trace.strings.less(a, b); });
    for (std::size_t i = 0; i < distinct.size(); ++i)
        rank[distinct[i]] = std::uint32_t(i);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] != kNoString && ids[i] < rank.size())
            keys[i] = rank[ids[i]];
        else
            absent[i] = 1;
    }
}

std::int64_t FlatTableModel::recordAt(int row) const
{
    if (row < 0)
        return -1;
    if (identity())
        return std::size_t(row) < m_recordCount ? row : -1;
    return std::size_t(row) < m_rows.size() ? std::int64_t(m_rows[std::size_t(row)]) : -1;
}

int FlatTableModel::rowOfRecord(std::int64_t record) const
{
    if (record < 0 || std::uint64_t(record) >= m_recordCount)
        return -1;
    if (identity())
        return int(record);
    return m_rowOf[std::size_t(record)];
}

int FlatTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return int(identity() ? m_recordCount : m_rows.size());
}

QVariant FlatTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this)
        return {};
    const std::int64_t record = recordAt(index.row());
    if (record < 0 || index.column() < 0 || index.column() >= columnCount())
        return {};
    return recordData(std::size_t(record), index.column(), role);
}

bool FlatTableModel::stringMatches(StringId id) const
{
    const Trace *trace = filterTrace();
    if (!trace || id == kNoString || id >= trace->strings.size())
        return false;
    if (m_verdict.size() != trace->strings.size())
        m_verdict.assign(trace->strings.size(), 0);
    std::uint8_t &verdict = m_verdict[id];
    if (verdict == 0)
        verdict = m_filter.matches(trace->str(id)) ? 2 : 1;
    return verdict == 2;
}

void FlatTableModel::resetRecords(std::size_t count)
{
    m_sorter->cancel(); // an order for the previous records
    m_recordCount = count;
    m_verdict.clear();
    m_order = m_sortColumn >= 0 && count > 0 ? computeOrder(m_sortColumn, m_sortOrder) : std::vector<std::uint32_t>{};
    m_accepted.clear();
    if (!m_filter.isEmpty()) {
        m_accepted.resize(count);
        for (std::size_t i = 0; i < count; ++i)
            m_accepted[i] = recordMatches(i, m_filter) ? 1 : 0;
        m_verdict = {};
    }
    rebuildRows();
}

void FlatTableModel::rebuildRows()
{
    m_rows.clear();
    m_rowOf.clear();
    if (identity())
        return;
    m_rowOf.assign(m_recordCount, -1);
    const auto add = [&](std::uint32_t record) {
        if (m_accepted.empty() || m_accepted[record]) {
            m_rowOf[record] = std::int32_t(m_rows.size());
            m_rows.push_back(record);
        }
    };
    if (m_order.empty()) {
        for (std::size_t i = 0; i < m_recordCount; ++i)
            add(std::uint32_t(i));
    } else {
        for (const std::uint32_t record : m_order)
            add(record);
    }
}

void FlatTableModel::resetRecordsSorted(std::size_t count, int column, Qt::SortOrder order,
                                        std::vector<std::uint32_t> sorted)
{
    if (sorted.size() != count || column < 0) {
        resetRecords(count);
        return;
    }
    m_sortColumn = column;
    m_sortOrder = order;
    m_recordCount = count;
    m_verdict.clear();
    m_order = std::move(sorted);
    m_accepted.clear();
    if (!m_filter.isEmpty()) {
        m_accepted.resize(count);
        for (std::size_t i = 0; i < count; ++i)
            m_accepted[i] = recordMatches(i, m_filter) ? 1 : 0;
        m_verdict = {};
    }
    rebuildRows();
}

std::vector<std::uint32_t> FlatTableModel::computeOrder(int column, Qt::SortOrder order) const
{
    std::vector<std::uint64_t> keys(m_recordCount, 0);
    std::vector<std::uint8_t> absent(m_recordCount, 0);
    sortKeys(column, keys, absent);
    return orderFromKeys(std::move(keys), absent, order);
}

std::vector<std::uint32_t> FlatTableModel::orderFromKeys(std::vector<std::uint64_t> keys,
                                                         const std::vector<std::uint8_t> &absent, Qt::SortOrder order)
{
    if (order == Qt::DescendingOrder) {
        // Inverted keys keep the radix sort stable: ties stay in record order.
        for (std::uint64_t &key : keys)
            key = ~key;
    }
    std::vector<std::uint32_t> result = radixOrder(std::move(keys));
    const bool absentFirst = order == Qt::DescendingOrder;
    if (std::find(absent.begin(), absent.end(), std::uint8_t(1)) != absent.end())
        std::stable_partition(result.begin(), result.end(),
                              [&](std::uint32_t r) { return (absent[r] != 0) == absentFirst; });
    return result;
}

void FlatTableModel::relayout(std::vector<std::uint32_t> order, const std::vector<std::uint8_t> &accepted)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::int64_t> records;
    records.reserve(std::size_t(before.size()));
    for (const QModelIndex &index : before)
        records.push_back(recordAt(index.row()));

    m_order = std::move(order);
    m_accepted = accepted;
    rebuildRows();

    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const int row = rowOfRecord(records[std::size_t(i)]);
        after.append(row >= 0 ? index(row, before[i].column()) : QModelIndex());
    }
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void FlatTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= columnCount())
        column = -1;
    if (column == m_sortColumn && (column < 0 || order == m_sortOrder))
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    if (column < 0 || !m_backgroundSorting || m_recordCount < BackgroundSort::backgroundRows()) {
        m_sorter->cancel();
        relayout(column >= 0 && m_recordCount > 0 ? computeOrder(column, order) : std::vector<std::uint32_t>{},
                 m_accepted);
        return;
    }
    if (KeyFunction keysOf = backgroundKeys(column)) {
        m_sorter->start([this, count = m_recordCount, keysOf = std::move(keysOf), order]() -> BackgroundSort::Apply {
            std::vector<std::uint64_t> keys(count, 0);
            std::vector<std::uint8_t> absent(count, 0);
            keysOf(keys, absent);
            auto sorted = std::make_shared<std::vector<std::uint32_t>>(orderFromKeys(std::move(keys), absent, order));
            return [this, sorted] { relayout(std::move(*sorted), m_accepted); };
        });
        return;
    }
    // The keys are a linear pass over the records (the subclass reads its own members,
    // which only this thread may touch); the sort itself, the bulk of the time, is not.
    std::vector<std::uint64_t> keys(m_recordCount, 0);
    std::vector<std::uint8_t> absent(m_recordCount, 0);
    sortKeys(column, keys, absent);
    auto input = std::make_shared<std::pair<std::vector<std::uint64_t>, std::vector<std::uint8_t>>>(std::move(keys),
                                                                                                    std::move(absent));
    m_sorter->start([this, input, order]() -> BackgroundSort::Apply {
        auto sorted =
            std::make_shared<std::vector<std::uint32_t>>(orderFromKeys(std::move(input->first), input->second, order));
        return [this, sorted] { relayout(std::move(*sorted), m_accepted); };
    });
}

void FlatTableModel::setFilterText(const QString &text)
{
    const TextFilter filter(text);
    if (filter.text() == m_filter.text())
        return;
    m_filter = filter;
    m_verdict.clear();
    std::vector<std::uint8_t> accepted;
    if (!m_filter.isEmpty()) {
        accepted.resize(m_recordCount);
        for (std::size_t i = 0; i < m_recordCount; ++i)
            accepted[i] = recordMatches(i, m_filter) ? 1 : 0;
        m_verdict = {};
    }
    std::vector<std::uint32_t> order = m_order;
    relayout(std::move(order), accepted);
}

} // namespace TraceInspector
