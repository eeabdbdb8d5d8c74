// SPDX-License-Identifier: MIT
#include "core/itemmodels/opfilterproxymodel.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>

#include "core/analysis/opstatistics.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/optablemodel.h"
#include "core/model/trace.h"

namespace TraceInspector {

OpFilterProxyModel::OpFilterProxyModel(QObject *parent)
    : QAbstractProxyModel(parent)
{
}

OpFilterProxyModel::~OpFilterProxyModel() = default;

void OpFilterProxyModel::setSourceModel(QAbstractItemModel *sourceModel)
{
    beginResetModel();
    if (QAbstractItemModel *old = this->sourceModel())
        disconnect(old, nullptr, this, nullptr);
    QAbstractProxyModel::setSourceModel(sourceModel);
    m_opModel = qobject_cast<OpTableModel *>(sourceModel);
    m_genericSortColumn = -1;
    if (sourceModel) {
        connect(sourceModel, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
        connect(sourceModel, &QAbstractItemModel::modelReset, this, [this] {
            computeAccepted();
            rebuildRows();
            endResetModel();
        });
        // Rows appear or go only by resets in OpTableModel; for other sources, regroup.
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(sourceModel, signal, this, [this] {
                beginResetModel();
                computeAccepted();
                rebuildRows();
                endResetModel();
            });
        connect(sourceModel, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] {
            Q_EMIT layoutAboutToBeChanged();
            m_layoutProxy = persistentIndexList();
            m_layoutSource.clear();
            for (const QModelIndex &i : std::as_const(m_layoutProxy))
                m_layoutSource.append(QPersistentModelIndex(mapToSource(i)));
        });
        connect(sourceModel, &QAbstractItemModel::layoutChanged, this, [this] {
            rebuildRows();
            QModelIndexList after;
            after.reserve(m_layoutSource.size());
            for (const QPersistentModelIndex &s : std::as_const(m_layoutSource))
                after.append(mapFromSource(s));
            changePersistentIndexList(m_layoutProxy, after);
            m_layoutProxy.clear();
            m_layoutSource.clear();
            Q_EMIT layoutChanged();
        });
        connect(sourceModel, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                    // Op verdicts come from the trace, not from cell data: the rows stay.
                    if (rowCount() > 0)
                        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), roles);
                });
        connect(sourceModel, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    }
    computeAccepted();
    rebuildRows();
    endResetModel();
}

void OpFilterProxyModel::setFilterText(const QString &text)
{
    TextFilter filter(text);
    if (filter.text() == m_filter.text())
        return;
    relayout([this, &filter] {
        m_filter = std::move(filter);
        computeAccepted();
    });
    Q_EMIT filterTextChanged(m_filter.text());
}

void OpFilterProxyModel::setTimeRange(const TimeWindow &range)
{
    const TimeWindow next = range.isEmpty() ? TimeWindow{} : range;
    if (next == m_range)
        return;
    relayout([this, next] {
        m_range = next;
        computeAccepted();
    });
}

void OpFilterProxyModel::relayout(const std::function<void()> &change)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    const QModelIndexList before = persistentIndexList();
    QList<QPersistentModelIndex> sources;
    sources.reserve(before.size());
    for (const QModelIndex &i : before)
        sources.append(QPersistentModelIndex(mapToSource(i)));
    change();
    rebuildRows();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QPersistentModelIndex &s : std::as_const(sources))
        after.append(mapFromSource(s));
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::NoLayoutChangeHint);
}

void OpFilterProxyModel::sort(int column, Qt::SortOrder order)
{
    if (m_opModel) {
        m_opModel->sort(column, order); // its layout change reaches us
        return;
    }
    if (!sourceModel())
        return;
    if (column < 0 || column >= sourceModel()->columnCount())
        column = -1;
    relayout([this, column, order] {
        m_genericSortColumn = column;
        m_genericSortOrder = order;
    });
}

bool OpFilterProxyModel::stringMatches(std::uint32_t id) const
{
    if (id == kNoString || id >= m_verdict.size())
        return false;
    std::uint8_t &verdict = m_verdict[id];
    if (verdict == 0)
        verdict = m_filter.matches(m_opModel->trace()->str(id)) ? 2 : 1;
    return verdict == 2;
}

void OpFilterProxyModel::computeAccepted()
{
    m_accepted.clear();
    const Trace *trace = m_opModel ? m_opModel->trace() : nullptr;
    if (!trace || !isFiltering())
        return;
    m_verdict.assign(trace->strings.size(), 0);
    m_accepted.resize(trace->ops.size());
    const bool byText = !m_filter.isEmpty();
    const bool byTime = !m_range.isEmpty();
    for (std::size_t i = 0; i < trace->ops.size(); ++i) {
        const Op &o = trace->ops[i];
        if (byTime) {
            if (!OpStatistics::overlaps(o.timestampNs, o.durationNs, m_range)) {
                m_accepted[i] = 0;
                continue;
            }
        }
        if (!byText) {
            m_accepted[i] = 1;
            continue;
        }
        bool match =
            stringMatches(o.opName) || stringMatches(o.spanId) || stringMatches(o.device) || stringMatches(o.dtype);
        if (!match) {
            const std::int64_t span = m_opModel->spanOfOp(std::int64_t(i));
            match = span >= 0 && stringMatches(trace->spans[std::size_t(span)].name);
        }
        m_accepted[i] = match ? 1 : 0;
    }
    m_verdict = {};
}

bool OpFilterProxyModel::accepts(int sourceRow) const
{
    if (!isFiltering())
        return true;
    if (m_opModel) {
        const std::int64_t op = m_opModel->opAt(sourceRow);
        return op >= 0 && std::uint64_t(op) < m_accepted.size() && m_accepted[std::size_t(op)] != 0;
    }
    const QAbstractItemModel *source = sourceModel();
    for (int c = 0; c < source->columnCount(); ++c)
        if (source->index(sourceRow, c).data(Qt::DisplayRole).toString().contains(m_filter.text(), Qt::CaseInsensitive))
            return true;
    return false;
}

void OpFilterProxyModel::rebuildRows()
{
    m_rows.clear();
    m_proxyRowOf.clear();
    const QAbstractItemModel *source = sourceModel();
    if (!source || identity())
        return;
    const int count = source->rowCount();
    m_rows.reserve(std::size_t(count));
    for (int r = 0; r < count; ++r)
        if (accepts(r))
            m_rows.push_back(r);
    if (!m_opModel && m_genericSortColumn >= 0) {
        // Unknown values after known ones ascending; ties keep the source order.
        std::vector<QVariant> keys(static_cast<std::size_t>(count));
        for (const int r : m_rows)
            keys[std::size_t(r)] = source->index(r, m_genericSortColumn).data(SortRole);
        const bool descending = m_genericSortOrder == Qt::DescendingOrder;
        std::stable_sort(m_rows.begin(), m_rows.end(), [&keys, descending](int a, int b) {
            const QVariant &ka = keys[std::size_t(a)];
            const QVariant &kb = keys[std::size_t(b)];
            if (ka.isValid() != kb.isValid())
                return descending ? !ka.isValid() : ka.isValid();
            if (!ka.isValid())
                return false;
            const QPartialOrdering o = QVariant::compare(ka, kb);
            return descending ? o == QPartialOrdering::Greater : o == QPartialOrdering::Less;
        });
    }
    m_proxyRowOf.assign(std::size_t(count), -1);
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_proxyRowOf[std::size_t(m_rows[i])] = int(i);
}

QModelIndex OpFilterProxyModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex OpFilterProxyModel::parent(const QModelIndex &) const
{
    return {};
}

QModelIndex OpFilterProxyModel::sibling(int row, int column, const QModelIndex &idx) const
{
    return idx.isValid() ? index(row, column) : QModelIndex();
}

int OpFilterProxyModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return identity() ? sourceModel()->rowCount() : int(m_rows.size());
}

int OpFilterProxyModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return sourceModel()->columnCount();
}

bool OpFilterProxyModel::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0;
}

QModelIndex OpFilterProxyModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!sourceModel() || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    const int row = identity()
                        ? proxyIndex.row()
                        : (std::size_t(proxyIndex.row()) < m_rows.size() ? m_rows[std::size_t(proxyIndex.row())] : -1);
    return row < 0 ? QModelIndex() : sourceModel()->index(row, proxyIndex.column());
}

QModelIndex OpFilterProxyModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceModel() || !sourceIndex.isValid() || sourceIndex.model() != sourceModel())
        return {};
    if (identity())
        return index(sourceIndex.row(), sourceIndex.column());
    const std::size_t r = std::size_t(sourceIndex.row());
    if (r >= m_proxyRowOf.size() || m_proxyRowOf[r] < 0)
        return {};
    return index(m_proxyRowOf[r], sourceIndex.column());
}

QVariant OpFilterProxyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Columns are the source's own; QAbstractProxyModel would map through row 0, which an
    // empty filter result does not have.
    if (!sourceModel() || orientation != Qt::Horizontal)
        return {};
    return sourceModel()->headerData(section, orientation, role);
}

} // namespace TraceInspector
