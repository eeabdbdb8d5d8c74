// SPDX-License-Identifier: MIT
#include "core/itemmodels/opaggregatemodel.h"

#include <algorithm>
#include <climits>

#include "core/display/format.h"
#include "core/analysis/opstatistics.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spandiffmodel.h"
#include "core/model/trace.h"

namespace TraceInspector {

OpAggregateModel::OpAggregateModel(QObject *parent)
    : ComparisonColumnsModel(parent)
{
}

OpAggregateModel::~OpAggregateModel() = default;

void OpAggregateModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const OpStatistics> statistics)
{
    beginResetModel();
    // The same run again (a time range applied or cleared) keeps its comparison.
    if (!trace || trace.get() != m_trace.get())
        m_comparison.reset();
    m_trace = std::move(trace);
    m_shapeStats.reset();
    // Never computed here: a pass over every op is the loader's (or a background job's) work.
    m_stats = m_trace ? std::move(statistics) : nullptr;
    matchBaseline();
    endResetModel();
}

void OpAggregateModel::setShapeStatistics(std::shared_ptr<const OpStatistics> statistics)
{
    const bool shown = m_grouping == OpGrouping::NameShapeDtypeDevice;
    if (shown)
        beginResetModel();
    m_shapeStats = m_trace ? std::move(statistics) : nullptr;
    matchBaseline();
    if (shown)
        endResetModel();
}

void OpAggregateModel::setComparison(TraceComparisonPtr comparison)
{
    if (comparison && (!m_trace || !comparison->candidate || comparison->candidate->trace.get() != m_trace.get()))
        comparison.reset();
    replaceComparison(std::move(comparison), BaselineTotalColumn, DeltaBytesPercentColumn, [this] { matchBaseline(); });
}

void OpAggregateModel::matchBaseline()
{
    m_byName = {};
    m_byShape = {};
    if (!m_comparison || !m_trace)
        return;
    const LoadedTrace &base = *m_comparison->baseline;
    if (m_stats && base.opStatistics)
        m_byName = OpGroupCounterpart::compute(*base.trace, *base.opStatistics, *m_trace, *m_stats);
    if (m_shapeStats && base.opStatisticsByShape)
        m_byShape = OpGroupCounterpart::compute(*base.trace, *base.opStatisticsByShape, *m_trace, *m_shapeStats);
}

const OpStatistics *OpAggregateModel::baselineStatistics() const
{
    if (!m_comparison)
        return nullptr;
    const LoadedTrace &base = *m_comparison->baseline;
    return m_grouping == OpGrouping::Name ? base.opStatistics.get() : base.opStatisticsByShape.get();
}

QVariant OpAggregateModel::comparisonData(std::size_t row, int column, int role) const
{
    const OpStatistics *stats = current();
    const OpStatistics *base = baselineStatistics();
    const OpGroupCounterpart &match = m_grouping == OpGrouping::Name ? m_byName : m_byShape;
    if (!stats || row >= stats->rows().size())
        return {};
    // Under a time range the rows hold part of the run; the baseline's are the whole run's.
    if (stats->opCount() != m_trace->ops.size()) {
        if (role == Qt::DisplayRole)
            return QStringLiteral("—");
        if (role == Qt::ToolTipRole)
            return tr("No Δ under a time range: the baseline is aggregated over its whole run");
        return {};
    }
    const OpNameStatistics &r = stats->rows()[row];
    const OpNameStatistics *b = nullptr;
    if (base && row < match.baselineRow.size() && match.baselineRow[row] != OpGroupCounterpart::kNone)
        b = &base->rows()[match.baselineRow[row]];
    const bool time = column <= DeltaTotalPercentColumn;
    const std::uint64_t candidateValue = time ? r.totalNs : r.bytesMoved;
    const std::uint64_t baselineValue = b ? (time ? b->totalNs : b->bytesMoved) : 0;
    constexpr std::uint64_t kMax = std::uint64_t(INT64_MAX);
    const std::int64_t delta =
        std::int64_t(std::min(candidateValue, kMax)) - std::int64_t(std::min(baselineValue, kMax));
    // A plain double: GCC 12 warns (wrongly) of an uninitialized optional<double> here.
    double percent = 0;
    bool hasPercent = false;
    if (b) {
        if (const std::optional<double> p = deltaPercent(baselineValue, delta)) {
            percent = *p;
            hasPercent = true;
        }
    }
    if (role == DeltaRole)
        return column != BaselineTotalColumn && column != BaselineBytesColumn ? QVariant::fromValue(qint64(delta))
                                                                              : QVariant();
    const bool display = role == Qt::DisplayRole;
    if (!display && role != SortRole)
        return {};
    switch (column) {
    case BaselineTotalColumn:
    case BaselineBytesColumn:
        if (!b && display)
            return QStringLiteral("—");
        if (display)
            return time ? formatDurationIn(baselineValue, m_unit, false) : formatBytes(baselineValue);
        return QVariant::fromValue(quint64(baselineValue));
    case DeltaTotalColumn:
    case DeltaBytesColumn:
        // A group the baseline lacks adds all of its cost (as in the Compare tab's op groups).
        if (display)
            return time ? formatDeltaDuration(delta, m_unit) : formatDeltaBytes(delta);
        return QVariant::fromValue(qint64(delta));
    case DeltaTotalPercentColumn:
    case DeltaBytesPercentColumn:
        if (display)
            return !b ? tr("new") : hasPercent ? formatDeltaPercent(percent) : QStringLiteral("—");
        return hasPercent ? QVariant(percent) : QVariant();
    default: return {};
    }
}

void OpAggregateModel::setGrouping(OpGrouping grouping)
{
    if (grouping == m_grouping)
        return;
    beginResetModel();
    m_grouping = grouping;
    endResetModel();
}

int OpAggregateModel::rowCount(const QModelIndex &parent) const
{
    const OpStatistics *stats = current();
    if (parent.isValid() || !stats || !m_trace)
        return 0;
    return int(stats->rows().size());
}

int OpAggregateModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_comparison ? ComparisonColumnCount : ColumnCount;
}

void OpAggregateModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    const int last = m_comparison ? int(DeltaTotalColumn) : int(MaxColumn);
    Q_EMIT headerDataChanged(Qt::Horizontal, TotalColumn, last);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, TotalColumn), index(rowCount() - 1, last), {Qt::DisplayRole});
}

QVariant OpAggregateModel::data(const QModelIndex &index, int role) const
{
    const OpStatistics *stats = current();
    if (!stats || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const std::size_t row = std::size_t(index.row());
    if (index.column() >= ColumnCount) {
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        if (role == Qt::DisplayRole || role == SortRole || role == DeltaRole || role == Qt::ToolTipRole)
            return comparisonData(row, index.column(), role);
        return {};
    }
    const OpNameStatistics &r = stats->rows()[row];
    const auto qs = [this](StringId id) {
        const std::string_view text = m_trace->str(id);
        return QString::fromUtf8(text.data(), qsizetype(text.size()));
    };
    const QString name = qs(r.name);
    const auto fraction = stats->fractionOfTotal(row);
    const auto perNs = r.bytesPerNs();
    const auto share = r.meanParentShare();
    const bool detailed = stats->grouping() == OpGrouping::NameShapeDtypeDevice;

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
        case BytesMovedColumn: return formatBytes(r.bytesMoved);
        case BytesPerNsColumn: return perNs ? formatBytesPerNs(*perNs) : tr("n/a");
        case ParentShareColumn: return share ? formatPercent(*share) : tr("n/a");
        case ShapeColumn: return detailed ? formatShape(m_trace->shapes.view(r.shape)) : QString();
        case DtypeColumn: return detailed ? qs(r.dtype) : QString();
        case DeviceColumn: return detailed ? qs(r.device) : QString();
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
        case BytesMovedColumn: return QVariant::fromValue(quint64(r.bytesMoved));
        case BytesPerNsColumn: return perNs ? QVariant(*perNs) : QVariant();
        case ParentShareColumn: return share ? QVariant(*share) : QVariant();
        case ShapeColumn: return detailed ? formatShape(m_trace->shapes.view(r.shape)) : QString();
        case DtypeColumn: return detailed ? qs(r.dtype) : QString();
        case DeviceColumn: return detailed ? qs(r.device) : QString();
        default: return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() != NameColumn && index.column() < ShapeColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %2 op(s), %3 ns in total", nullptr, numerusCount(r.count)).arg(name).arg(r.count).arg(r.totalNs);
    case OpNameRole: return name;
    case BytesRole: return QVariant::fromValue(quint64(r.bytesMoved));
    case BytesPerNsRole: return perNs ? QVariant(*perNs) : QVariant();
    case ParentShareRole: return share ? QVariant(*share) : QVariant();
    case DeviceRole: return detailed ? qs(r.device) : QVariant();
    case CountRole: return QVariant::fromValue(quint64(r.count));
    case DurationRole: return QVariant::fromValue(quint64(r.totalNs));
    case FractionRole: return fraction ? QVariant(*fraction) : QVariant();
    case BarValueRole: return QVariant::fromValue(quint64(r.totalNs));
    case TotalRole: return QVariant::fromValue(quint64(stats->totalNs()));
    default: return {};
    }
}

QVariant OpAggregateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (role == Qt::InitialSortOrderRole) // costs and Δ: largest first
        return section == NameColumn || (section >= ShapeColumn && section < ColumnCount)
                   ? QVariant()
                   : QVariant(int(Qt::DescendingOrder));
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
        case BytesMovedColumn: return tr("Bytes moved");
        case BytesPerNsColumn: return tr("Bytes/ns");
        case ParentShareColumn: return tr("% of span");
        case ShapeColumn: return tr("Shape");
        case DtypeColumn: return tr("Dtype");
        case DeviceColumn: return tr("Device");
        case BaselineTotalColumn: return QString(tr("Baseline total") + unit);
        case DeltaTotalColumn: return QString(tr("Δ total") + unit);
        case DeltaTotalPercentColumn: return tr("Δ% total");
        case BaselineBytesColumn: return tr("Baseline bytes");
        case DeltaBytesColumn: return tr("Δ bytes");
        case DeltaBytesPercentColumn: return tr("Δ% bytes");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("op_name");
        case CountColumn: return tr("Number of op records in the group");
        case TotalColumn: return tr("Sum of duration_ns");
        case MeanColumn: return tr("Total divided by count");
        case MinColumn: return tr("Shortest duration_ns");
        case MaxColumn: return tr("Longest duration_ns");
        case PercentColumn: return tr("Total as a share of the summed duration of all ops");
        case BytesMovedColumn: return tr("Summed input_dense_bytes + output_dense_bytes (output when known)");
        case BytesPerNsColumn: return tr("Bytes moved divided by the total duration");
        case ParentShareColumn:
            return tr("Mean share of the owning span's host duration taken by each op (closed spans only)");
        case ShapeColumn: return tr("Output shape (when grouping by op, shape, dtype and device)");
        case DtypeColumn: return tr("Output dtype (when grouping by op, shape, dtype and device)");
        case DeviceColumn: return tr("Device (when grouping by op, shape, dtype and device)");
        case BaselineTotalColumn:
            return tr("Total of the same group in the baseline; — when the baseline has no such group");
        case DeltaTotalColumn: return tr("Total minus the baseline's: positive is slower");
        case DeltaTotalPercentColumn:
            return tr("Δ total as a share of the baseline's total; \"new\" for a group only this run has");
        case BaselineBytesColumn: return tr("Bytes moved by the same group in the baseline");
        case DeltaBytesColumn: return tr("Bytes moved minus the baseline's");
        case DeltaBytesPercentColumn: return tr("Δ bytes as a share of the baseline's bytes moved");
        default: return {};
        }
    }
    return {};
}

} // namespace TraceInspector
