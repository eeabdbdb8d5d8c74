// SPDX-License-Identifier: MIT
#include "core/itemmodels/validationfilterproxymodel.h"

#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/model/problem.h"

namespace TraceInspector {

ValidationFilterProxyModel::ValidationFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
}

void ValidationFilterProxyModel::setSeverityFilter(SeverityFilter filter)
{
    if (filter == m_severity)
        return;
    m_severity = filter;
    invalidateRowsFilter();
}

void ValidationFilterProxyModel::setText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateRowsFilter();
}

bool ValidationFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *model = sourceModel();
    if (!model)
        return false;
    if (m_severity != SeverityFilter::All) {
        const QModelIndex idx = model->index(sourceRow, ValidationIssueModel::SeverityColumn, sourceParent);
        const auto severity = Severity(model->data(idx, SeverityRole).toInt());
        if ((m_severity == SeverityFilter::Errors) != (severity == Severity::Error))
            return false;
    }
    if (m_text.isEmpty())
        return true;
    for (int column : {int(ValidationIssueModel::RuleColumn), int(ValidationIssueModel::CodeColumn),
                       int(ValidationIssueModel::MessageColumn), int(ValidationIssueModel::LineColumn)}) {
        const QModelIndex idx = model->index(sourceRow, column, sourceParent);
        if (model->data(idx, Qt::DisplayRole).toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace TraceInspector
