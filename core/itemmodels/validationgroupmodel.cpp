// SPDX-License-Identifier: MIT
#include "core/itemmodels/validationgroupmodel.h"

#include "core/display/format.h"

#include <QHash>

#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/model/problem.h"

namespace TraceInspector {

namespace {
// internalId of a group row; a child's is its group + 1.
constexpr quintptr kGroupRow = 0;
} // namespace

ValidationGroupModel::ValidationGroupModel(QObject *parent)
    : QAbstractProxyModel(parent)
{
}

ValidationGroupModel::~ValidationGroupModel() = default;

void ValidationGroupModel::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    if (sourceModel())
        disconnect(sourceModel(), nullptr, this, nullptr);
    m_filter = qobject_cast<ValidationFilterProxyModel *>(source);
    QAbstractProxyModel::setSourceModel(m_filter);
    if (m_filter) {
        const auto regroup = [this] {
            beginResetModel();
            rebuild();
            endResetModel();
        };
        connect(m_filter, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
        connect(m_filter, &QAbstractItemModel::modelReset, this, [this] {
            rebuild();
            endResetModel();
        });
        connect(m_filter, &QAbstractItemModel::layoutChanged, this, regroup);
        connect(m_filter, &QAbstractItemModel::rowsInserted, this, regroup);
        connect(m_filter, &QAbstractItemModel::rowsRemoved, this, regroup);
        connect(m_filter, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
                    for (int r = topLeft.row(); r <= bottomRight.row(); ++r) {
                        const QModelIndex first = mapFromSource(m_filter->index(r, topLeft.column()));
                        const QModelIndex last = mapFromSource(m_filter->index(r, bottomRight.column()));
                        if (first.isValid())
                            Q_EMIT dataChanged(first, last, roles);
                    }
                });
        connect(m_filter, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    }
    rebuild();
    endResetModel();
}

void ValidationGroupModel::rebuild()
{
    m_groups.clear();
    m_place.clear();
    if (!m_filter)
        return;
    const auto *issues = qobject_cast<const ValidationIssueModel *>(m_filter->sourceModel());
    if (!issues)
        return;
    const int rows = m_filter->rowCount();
    m_place.resize(std::size_t(rows));
    // Straight to the problems: a million rows must not each build QVariants.
    QHash<QString, int> groupOf;
    std::string lastRule;
    int lastGroup = -1;
    for (int r = 0; r < rows; ++r) {
        const Problem *p = issues->problemAt(m_filter->mapToSource(m_filter->index(r, 0)).row());
        if (!p)
            continue;
        int g = lastGroup;
        if (lastGroup < 0 || p->ruleId != lastRule) {
            const QString rule = QString::fromStdString(p->ruleId);
            const auto it = groupOf.constFind(rule);
            if (it == groupOf.constEnd()) {
                g = int(m_groups.size());
                groupOf.insert(rule, g);
                m_groups.push_back({rule, int(p->severity), p->line, {}});
            } else {
                g = *it;
            }
            lastRule = p->ruleId;
            lastGroup = g;
        }
        Group &group = m_groups[std::size_t(g)];
        group.worstSeverity = std::min(group.worstSeverity, int(p->severity));
        m_place[std::size_t(r)] = {g, int(group.rows.size())};
        group.rows.push_back(r);
    }
}

int ValidationGroupModel::groupSize(int group) const
{
    return group >= 0 && group < groupCount() ? int(m_groups[std::size_t(group)].rows.size()) : 0;
}

QString ValidationGroupModel::groupRule(int group) const
{
    return group >= 0 && group < groupCount() ? m_groups[std::size_t(group)].rule : QString();
}

QModelIndex ValidationGroupModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= columnCount(parent))
        return {};
    if (!parent.isValid())
        return row < groupCount() ? createIndex(row, column, kGroupRow) : QModelIndex();
    if (parent.internalId() != kGroupRow || parent.column() != 0)
        return {};
    if (row >= groupSize(parent.row()))
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex ValidationGroupModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kGroupRow)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kGroupRow);
}

int ValidationGroupModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return groupCount();
    if (parent.internalId() != kGroupRow || parent.column() != 0)
        return 0;
    return groupSize(parent.row());
}

int ValidationGroupModel::columnCount(const QModelIndex &) const
{
    return ValidationIssueModel::ColumnCount;
}

bool ValidationGroupModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

QModelIndex ValidationGroupModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!m_filter || !proxyIndex.isValid() || proxyIndex.internalId() == kGroupRow)
        return {};
    const int group = int(proxyIndex.internalId() - 1);
    if (group >= groupCount() || proxyIndex.row() >= groupSize(group))
        return {};
    return m_filter->index(m_groups[std::size_t(group)].rows[std::size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex ValidationGroupModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != m_filter || std::size_t(sourceIndex.row()) >= m_place.size())
        return {};
    const auto [group, row] = m_place[std::size_t(sourceIndex.row())];
    return createIndex(row, sourceIndex.column(), quintptr(group) + 1);
}

QVariant ValidationGroupModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() != kGroupRow)
        return mapToSource(index).data(role);
    if (index.row() >= groupCount())
        return {};
    const Group &g = m_groups[std::size_t(index.row())];
    const int n = int(g.rows.size());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ValidationIssueModel::SeverityColumn:
            return Severity(g.worstSeverity) == Severity::Error ? tr("Error") : tr("Warning");
        case ValidationIssueModel::RuleColumn: return g.rule;
        case ValidationIssueModel::MessageColumn:
            return tr("%1 finding(s)", nullptr, numerusCount(std::uint64_t(n))).arg(formatCount(std::uint64_t(n)));
        case ValidationIssueModel::LineColumn: return g.firstLine == 0 ? QString() : QString::number(g.firstLine);
        default: return {};
        }
    case Qt::ToolTipRole:
        return tr("%1: %n finding(s) shown, first on line %2", nullptr, n).arg(g.rule).arg(g.firstLine);
    case SeverityRole: return g.worstSeverity;
    case CountRole: return QVariant::fromValue(quint64(n));
    case IsSyntheticRole: return true;
    case Qt::TextAlignmentRole:
        return index.column() == ValidationIssueModel::LineColumn
                   ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    default: return {};
    }
}

QVariant ValidationGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_filter ? m_filter->headerData(section, orientation, role) : QVariant();
}

Qt::ItemFlags ValidationGroupModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

void ValidationGroupModel::sort(int column, Qt::SortOrder order)
{
    // The children follow the proxy's order; the groups follow their first row in it.
    if (m_filter)
        m_filter->sort(column, order);
}

} // namespace TraceInspector
