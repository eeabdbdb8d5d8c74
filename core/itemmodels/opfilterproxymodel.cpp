// SPDX-License-Identifier: MIT
#include "core/itemmodels/opfilterproxymodel.h"

#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/optablemodel.h"
#include "core/model/trace.h"

namespace TraceInspector {

OpFilterProxyModel::OpFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(-1);
}

OpFilterProxyModel::~OpFilterProxyModel() = default;

void OpFilterProxyModel::setSourceModel(QAbstractItemModel *sourceModel)
{
    if (m_opModel)
        disconnect(m_opModel, nullptr, this, nullptr);
    m_opModel = qobject_cast<OpTableModel *>(sourceModel);
    m_dirty = true;
    if (m_opModel) {
        // Verdicts belong to one trace; they are rebuilt on first use after the reset.
        connect(m_opModel, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_dirty = true; });
    }
    QSortFilterProxyModel::setSourceModel(sourceModel);
}

void OpFilterProxyModel::setFilterText(const QString &text)
{
    TextFilter filter(text);
    if (filter.text() == m_filter.text())
        return;
    m_filter = std::move(filter);
    m_dirty = true;
    if (m_opModel) {
        // One layout change instead of a remove/insert signal per contiguous row range.
        invalidate();
    } else {
        setFilterFixedString(m_filter.text());
    }
    Q_EMIT filterTextChanged(m_filter.text());
}

void OpFilterProxyModel::sort(int column, Qt::SortOrder order)
{
    if (m_opModel) {
        m_opModel->sort(column, order);
        return;
    }
    QSortFilterProxyModel::sort(column, order);
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

void OpFilterProxyModel::ensureAccepted() const
{
    if (!m_dirty)
        return;
    m_dirty = false;
    m_accepted.clear();
    m_verdict.clear();
    const Trace *trace = m_opModel ? m_opModel->trace() : nullptr;
    if (!trace || m_filter.isEmpty())
        return;
    m_verdict.assign(trace->strings.size(), 0);
    m_accepted.resize(trace->ops.size());
    for (std::size_t i = 0; i < trace->ops.size(); ++i) {
        const Op &o = trace->ops[i];
        bool match = stringMatches(o.opName) || stringMatches(o.spanId) || stringMatches(o.device) || stringMatches(o.dtype);
        if (!match) {
            const std::int64_t span = m_opModel->spanOfOp(std::int64_t(i));
            match = span >= 0 && stringMatches(trace->spans[std::size_t(span)].name);
        }
        m_accepted[i] = match ? 1 : 0;
    }
    m_verdict = {};
}

bool OpFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_opModel)
        return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
    if (m_filter.isEmpty())
        return true;
    ensureAccepted();
    const std::int64_t op = m_opModel->opAt(sourceRow);
    return op >= 0 && std::uint64_t(op) < m_accepted.size() && m_accepted[std::size_t(op)] != 0;
}

} // namespace TraceInspector
