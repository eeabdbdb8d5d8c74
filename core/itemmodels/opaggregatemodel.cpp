// SPDX-License-Identifier: MIT
#include "core/itemmodels/opaggregatemodel.h"

#include "core/analysis/format.h"
#include "core/analysis/opstatistics.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"

namespace TraceInspector {

OpAggregateModel::OpAggregateModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

OpAggregateModel::~OpAggregateModel() = default;

void OpAggregateModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const OpStatistics> statistics)
{
    beginResetModel();
    m_trace = std::move(trace);
    if (!m_trace)
        m_stats.reset();
    else if (statistics)
        m_stats = std::move(statistics);
    else
        m_stats = std::make_shared<const OpStatistics>(OpStatistics::compute(*m_trace));
    endResetModel();
}

int OpAggregateModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_stats)
        return 0;
    return int(m_stats->rows().size());
}

int OpAggregateModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void OpAggregateModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    Q_EMIT headerDataChanged(Qt::Horizontal, TotalColumn, MaxColumn);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, TotalColumn), index(rowCount() - 1, MaxColumn), {Qt::DisplayRole});
}

QVariant OpAggregateModel::data(const QModelIndex &index, int role) const
{
    if (!m_stats || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const std::size_t row = std::size_t(index.row());
    const OpNameStatistics &r = m_stats->rows()[row];
    const QString name = QString::fromUtf8(m_trace->str(r.name).data(), qsizetype(m_trace->str(r.name).size()));
    const auto fraction = m_stats->fractionOfTotal(row);

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return name;
        case CountColumn: return formatCount(r.count);
        case TotalColumn: return formatDurationIn(r.totalNs, m_unit, false);
        case MeanColumn: return formatDurationIn(std::uint64_t(r.meanNs + 0.5), m_unit, false);
        case MinColumn: return formatDurationIn(r.minNs, m_unit, false);
        case MaxColumn: return formatDurationIn(r.maxNs, m_unit, false);
        case PercentColumn: return fraction ? formatPercent(*fraction) : tr("n/a");
        default: return {};
        }
    case SortRole:
        switch (index.column()) {
        case NameColumn: return name;
        case CountColumn: return QVariant::fromValue(quint64(r.count));
        case TotalColumn: return QVariant::fromValue(quint64(r.totalNs));
        case MeanColumn: return r.meanNs;
        case MinColumn: return QVariant::fromValue(quint64(r.minNs));
        case MaxColumn: return QVariant::fromValue(quint64(r.maxNs));
        case PercentColumn: return fraction ? QVariant(*fraction) : QVariant();
        default: return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() != NameColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %2 ops, %3 ns in total").arg(name).arg(r.count).arg(r.totalNs);
    case OpNameRole:
        return name;
    case CountRole:
        return QVariant::fromValue(quint64(r.count));
    case DurationRole:
        return QVariant::fromValue(quint64(r.totalNs));
    case FractionRole:
        return fraction ? QVariant(*fraction) : QVariant();
    case BarValueRole:
        return QVariant::fromValue(quint64(r.totalNs));
    case TotalRole:
        return QVariant::fromValue(quint64(m_stats->totalNs()));
    default:
        return {};
    }
}

QVariant OpAggregateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::InitialSortOrderRole)
        return section == NameColumn ? QVariant() : QVariant(int(Qt::DescendingOrder)); // costs: largest first
    if (role == Qt::DisplayRole) {
        const QString unit = m_unit == TimeUnit::Auto ? QString() : QStringLiteral(" (%1)").arg(timeUnitSymbol(m_unit));
        switch (section) {
        case NameColumn: return tr("Op");
        case CountColumn: return tr("Count");
        case TotalColumn: return QString(tr("Total") + unit);
        case MeanColumn: return QString(tr("Mean") + unit);
        case MinColumn: return QString(tr("Min") + unit);
        case MaxColumn: return QString(tr("Max") + unit);
        case PercentColumn: return tr("% of op time");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("op_name");
        case CountColumn: return tr("Number of op records with this name");
        case TotalColumn: return tr("Sum of duration_ns");
        case MeanColumn: return tr("Total divided by count");
        case MinColumn: return tr("Shortest duration_ns");
        case MaxColumn: return tr("Longest duration_ns");
        case PercentColumn: return tr("Total as a share of the summed duration of all ops");
        default: return {};
        }
    }
    return {};
}

} // namespace TraceInspector
