// SPDX-License-Identifier: MIT
#include "core/itemmodels/spantreemodel.h"

#include "core/analysis/devicetime.h"
#include "core/display/format.h"
#include "core/analysis/spantree.h"
#include "core/diff/spancounterpart.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spandiffmodel.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {
QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
} // namespace

SpanTreeModel::SpanTreeModel(QObject *parent)
    : ComparisonColumnsModel(parent)
{
}

SpanTreeModel::~SpanTreeModel() = default;

void SpanTreeModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                             std::shared_ptr<const DeviceTime> deviceTime)
{
    beginResetModel();
    m_comparison.reset(); // it compared the previous snapshot
    if (trace && tree && tree->spanCount() == trace->spans.size()) {
        m_trace = std::move(trace);
        m_tree = std::move(tree);
        const bool fits = deviceTime && !deviceTime->isEmpty() && deviceTime->spanCount() == m_tree->spanCount();
        m_device = fits ? std::move(deviceTime) : nullptr;
    } else {
        m_trace.reset();
        m_tree.reset();
        m_device.reset();
    }
    endResetModel();
}

void SpanTreeModel::setComparison(TraceComparisonPtr comparison)
{
    if (comparison && (!m_tree || !comparison->candidate || comparison->candidate->spanTree.get() != m_tree.get()))
        comparison.reset();
    replaceComparison(std::move(comparison), BaselineTotalColumn, DeltaSelfPercentColumn);
}

QVariant SpanTreeModel::comparisonData(std::size_t span, int column, int role) const
{
    const SpanCounterpart c(m_comparison->diff.spans, *m_comparison->baseline->spanTree, *m_tree);
    const auto s = std::uint32_t(span);
    const auto duration = [&](const std::optional<std::uint64_t> &v) -> QVariant {
        if (role == Qt::DisplayRole)
            return v ? formatDurationIn(*v, m_unit, false) : QStringLiteral("—");
        if (role == SortRole)
            return v ? QVariant::fromValue(quint64(*v)) : QVariant();
        return {};
    };
    const auto delta = [&](const std::optional<std::int64_t> &d, const std::optional<double> &p,
                           bool percent) -> QVariant {
        if (role == Qt::DisplayRole) {
            if (percent)
                return p ? formatDeltaPercent(*p) : QStringLiteral("—");
            return d ? formatDeltaDuration(*d, m_unit) : QStringLiteral("—");
        }
        if (role == SortRole) {
            if (percent)
                return p ? QVariant(*p) : QVariant();
            return d ? QVariant::fromValue(qint64(*d)) : QVariant();
        }
        if (role == DeltaRole)
            return d ? QVariant::fromValue(qint64(*d)) : QVariant();
        return {};
    };
    switch (column) {
    case BaselineTotalColumn: return duration(c.baselineTotalNs(s));
    case DeltaTotalColumn: return delta(c.totalDeltaNs(s), std::nullopt, false);
    case DeltaTotalPercentColumn: return delta(c.totalDeltaNs(s), c.totalDeltaPercent(s), true);
    case BaselineSelfColumn: return duration(c.baselineSelfNs(s));
    case DeltaSelfColumn: return delta(c.selfDeltaNs(s), std::nullopt, false);
    case DeltaSelfPercentColumn: return delta(c.selfDeltaNs(s), c.selfDeltaPercent(s), true);
    default: return {};
    }
}

QString SpanTreeModel::lanesText(std::size_t span) const
{
    const auto busy = m_device->busyOfSpan(span);
    if (busy.empty())
        return {};
    if (busy.size() == 1) {
        const DeviceLane &lane = m_device->lanes()[busy[0].lane];
        return tr("%1 · %2 · %3")
            .arg(qs(m_trace->str(lane.device)), qs(m_trace->str(lane.stream)), qs(m_trace->str(lane.clock)));
    }
    QStringList devices;
    for (const DeviceBusy &b : busy) {
        const QString device = qs(m_trace->str(m_device->lanes()[b.lane].device));
        if (!devices.contains(device))
            devices.append(device);
    }
    const int lanes = int(busy.size() + m_device->lanesOmitted(span));
    return tr("%1 streams on %2").arg(lanes).arg(devices.join(QStringLiteral(", ")));
}

QStringList SpanTreeModel::deviceLines(std::int64_t spanIndex) const
{
    QStringList lines;
    if (!m_device || spanIndex < 0 || std::uint64_t(spanIndex) >= m_device->spanCount())
        return lines;
    const auto span = std::size_t(spanIndex);
    for (const DeviceBusy &b : m_device->busyOfSpan(span)) {
        const DeviceLane &lane = m_device->lanes()[b.lane];
        const QString intervals =
            b.intervals == 1 ? tr("1 interval") : tr("%1 intervals").arg(formatCount(b.intervals));
        lines.append(tr("%1 · stream %2 · clock %3 (%4): busy %5 (%6)")
                         .arg(qs(m_trace->str(lane.device)), qs(m_trace->str(lane.stream)),
                              qs(m_trace->str(lane.clock)), qs(m_trace->str(lane.backend)), formatDuration(b.busyNs),
                              intervals));
    }
    if (const std::uint32_t omitted = m_device->lanesOmitted(span))
        lines.append(omitted == 1 ? tr("… 1 more stream with less busy time")
                                  : tr("… %1 more streams with less busy time").arg(omitted));
    if (m_device->exceedsHostWindow(span))
        lines.append(tr("Device busy time exceeds the host duration %1: the device worked past the host span, "
                        "or the intervals are attributed to the wrong span.")
                         .arg(formatDuration(m_tree->durationNs(span).value_or(0))));
    return lines;
}

QModelIndex SpanTreeModel::indexForSpan(std::int64_t spanIndex, int column) const
{
    if (!m_tree || spanIndex < 0 || std::uint64_t(spanIndex) >= m_tree->spanCount() || column < 0
        || column >= columnCount())
        return {};
    const auto span = std::size_t(spanIndex);
    return createIndex(int(m_tree->row(span)), column, quintptr(span));
}

std::int64_t SpanTreeModel::spanIndex(const QModelIndex &index) const
{
    if (!m_tree || !index.isValid() || index.model() != this)
        return -1;
    return std::int64_t(index.internalId());
}

std::int64_t SpanTreeModel::spanAt(int row, const QModelIndex &parent) const
{
    if (!m_tree || row < 0)
        return -1;
    if (parent.isValid() && parent.column() != 0)
        return -1;
    const auto list = parent.isValid() ? m_tree->children(parent.internalId()) : m_tree->roots();
    if (std::size_t(row) >= list.size())
        return -1;
    return list[std::size_t(row)];
}

std::uint64_t SpanTreeModel::barTotalNs() const
{
    if (!m_tree)
        return 0;
    return m_tree->measuredTotalNs() > 0 ? m_tree->measuredTotalNs() : m_tree->maxDurationNs();
}

void SpanTreeModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    const int last = m_comparison ? int(DeltaSelfPercentColumn) : int(DeviceBusyColumn);
    Q_EMIT headerDataChanged(Qt::Horizontal, StartColumn, last);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, StartColumn), index(rowCount() - 1, last), {Qt::DisplayRole});
}

QModelIndex SpanTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= columnCount())
        return {};
    const std::int64_t span = spanAt(row, parent);
    if (span < 0)
        return {};
    return createIndex(row, column, quintptr(span));
}

QModelIndex SpanTreeModel::parent(const QModelIndex &child) const
{
    if (!m_tree || !child.isValid())
        return {};
    const std::uint32_t p = m_tree->parent(child.internalId());
    if (p == SpanTree::kNoParent)
        return {};
    return createIndex(int(m_tree->row(p)), 0, quintptr(p));
}

int SpanTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!m_tree)
        return 0;
    if (!parent.isValid())
        return int(m_tree->roots().size());
    if (parent.column() != 0)
        return 0;
    return int(m_tree->children(parent.internalId()).size());
}

int SpanTreeModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return m_comparison ? ComparisonColumnCount : ColumnCount;
}

bool SpanTreeModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

Qt::ItemFlags SpanTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return Qt::NoItemFlags;
    return spanFlags(index.internalId());
}

Qt::ItemFlags SpanTreeModel::spanFlags(std::size_t span) const
{
    if (!m_tree || span >= m_tree->spanCount())
        return Qt::NoItemFlags;
    const Qt::ItemFlags flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    return m_tree->children(span).empty() ? flags | Qt::ItemNeverHasChildren : flags;
}

QVariant SpanTreeModel::data(const QModelIndex &index, int role) const
{
    if (!m_tree || !index.isValid() || index.internalId() >= m_tree->spanCount())
        return {};
    const std::size_t span = index.internalId();
    const int column = index.column();
    const Span &s = m_trace->spans[span];

    if (column >= ColumnCount) {
        if (!m_comparison)
            return {};
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        if (role == Qt::DisplayRole || role == SortRole || role == DeltaRole)
            return comparisonData(span, column, role);
    }
    switch (role) {
    case Qt::DisplayRole: return displayData(span, column);
    case Qt::ToolTipRole: return toolTip(span);
    case Qt::TextAlignmentRole:
        if ((column >= StartColumn && column <= MeasuredPercentColumn) || column == DeviceBusyColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case SortRole: return sortData(span, column);
    case SpanIndexRole: return QVariant::fromValue(qint64(span));
    case SpanIdRole: return qs(m_trace->str(s.id));
    case DurationRole:
        if (const auto d = m_tree->durationNs(span))
            return QVariant::fromValue(quint64(*d));
        return {};
    case SelfTimeRole:
        if (const auto d = m_tree->selfNs(span))
            return QVariant::fromValue(quint64(*d));
        return {};
    case FractionRole:
        if (const auto f = m_tree->fractionOfMeasured(span))
            return *f;
        return {};
    case BarValueRole: return QVariant::fromValue(quint64(m_tree->durationNs(span).value_or(0)));
    case TotalRole: return QVariant::fromValue(quint64(barTotalNs()));
    case IsOpenRole: return m_tree->isOpen(span);
    case IsDanglingRole: return m_tree->isDangling(span);
    case IsCycleRole: return m_tree->isInCycle(span);
    case IsMeasuredRole: return m_tree->isMeasured(span);
    case DepthRole: return int(m_tree->depth(span));
    case LineRole: return QVariant::fromValue(quint64(s.startLine));
    case DeviceBusyRole:
        if (m_device && !m_device->busyOfSpan(span).empty())
            return QVariant::fromValue(quint64(m_device->maxBusyNs(span)));
        return {};
    case DeviceExceedsHostRole: return m_device != nullptr && m_device->exceedsHostWindow(span);
    default: return {};
    }
}

QVariant SpanTreeModel::displayData(std::size_t span, int column) const
{
    const Span &s = m_trace->spans[span];
    switch (column) {
    case NameColumn: return qs(m_trace->str(s.name));
    case KindColumn: return qs(spanKindName(s.kind));
    case StepColumn: return qs(stepName(s.step));
    case StartColumn: return formatTimePoint(s.startNs, m_unit, false);
    case DurationColumn:
        if (const auto d = m_tree->durationNs(span))
            return formatDurationIn(*d, m_unit, false);
        return tr("open");
    case SelfColumn:
        if (const auto d = m_tree->selfNs(span))
            return formatDurationIn(*d, m_unit, false);
        return tr("open");
    case MeasuredPercentColumn:
        if (const auto f = m_tree->fractionOfMeasured(span))
            return formatPercent(*f);
        return tr("n/a");
    case DeviceBusyColumn:
        if (!m_device || m_device->busyOfSpan(span).empty())
            return {};
        if (m_device->exceedsHostWindow(span))
            return tr("%1 > host").arg(formatDurationIn(m_device->maxBusyNs(span), m_unit, false));
        return formatDurationIn(m_device->maxBusyNs(span), m_unit, false);
    case DeviceLanesColumn: return m_device ? lanesText(span) : QVariant();
    default: return {};
    }
}

QVariant SpanTreeModel::sortData(std::size_t span, int column) const
{
    const Span &s = m_trace->spans[span];
    switch (column) {
    case NameColumn: return qs(m_trace->str(s.name));
    case KindColumn: // declaration order: function, op, module
        return int(s.kind);
    case StepColumn: // execution order: none, forward, backward, optimizer
        return int(s.step);
    case StartColumn: return QVariant::fromValue(quint64(s.startNs));
    case DurationColumn:
    case BarColumn:
        if (const auto d = m_tree->durationNs(span))
            return QVariant::fromValue(quint64(*d));
        return {};
    case SelfColumn:
        if (const auto d = m_tree->selfNs(span))
            return QVariant::fromValue(quint64(*d));
        return {};
    case MeasuredPercentColumn:
        if (const auto f = m_tree->fractionOfMeasured(span))
            return *f;
        return {};
    case DeviceBusyColumn:
        if (m_device && !m_device->busyOfSpan(span).empty())
            return QVariant::fromValue(quint64(m_device->maxBusyNs(span)));
        return {};
    case DeviceLanesColumn:
        if (m_device)
            return QVariant::fromValue(quint64(m_device->busyOfSpan(span).size() + m_device->lanesOmitted(span)));
        return {};
    default: return {};
    }
}

QString SpanTreeModel::toolTip(std::size_t span) const
{
    const Span &s = m_trace->spans[span];
    QString text = qs(m_trace->str(s.name)) + u'\n' + tr("id: %1").arg(qs(m_trace->str(s.id)));
    if (s.parentId != kNoString)
        text += u'\n' + tr("parent: %1").arg(qs(m_trace->str(s.parentId)));
    text += u'\n' + tr("line: %1").arg(s.startLine);
    if (m_tree->isOpen(span))
        text += u'\n' + tr("Open: no span_end was recorded, so the duration is unknown.");
    if (m_tree->isDangling(span))
        text +=
            u'\n'
            + tr("Dangling parent: no span has the id %1; shown at the top level.").arg(qs(m_trace->str(s.parentId)));
    if (m_tree->isCycleBreak(span))
        text +=
            u'\n'
            + tr(
                "Parent cycle: its parent links lead back to itself; the cycle is cut here and shown at the top level.");
    else if (m_tree->isInCycle(span))
        text +=
            u'\n' + tr("Parent cycle: part of a cycle of parent links; shown under the span where the cycle is cut.");
    const QStringList device = deviceLines(std::int64_t(span));
    if (!device.isEmpty())
        text += u'\n' + tr("Device busy time (this span and its descendants):") + u'\n' + device.join(u'\n');
    return text;
}

QVariant SpanTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (role == Qt::InitialSortOrderRole) {
        // Costs are read largest first: the first click on a time column sorts descending.
        // Δ columns too: the largest slowdown first.
        switch (section) {
        case BaselineTotalColumn:
        case DeltaTotalColumn:
        case DeltaTotalPercentColumn:
        case BaselineSelfColumn:
        case DeltaSelfColumn:
        case DeltaSelfPercentColumn:
        case DurationColumn:
        case SelfColumn:
        case MeasuredPercentColumn:
        case BarColumn:
        case DeviceBusyColumn:
        case DeviceLanesColumn: return int(Qt::DescendingOrder);
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        const QString unit = m_unit == TimeUnit::Auto ? QString() : QStringLiteral(" (%1)").arg(timeUnitSymbol(m_unit));
        switch (section) {
        case NameColumn: return tr("Name");
        case KindColumn: return tr("Kind");
        case StepColumn: return tr("Step");
        case StartColumn: return QString(tr("Start") + unit);
        case DurationColumn: return QString(tr("Duration") + unit);
        case SelfColumn: return QString(tr("Self") + unit);
        case MeasuredPercentColumn: return tr("% measured");
        case BarColumn: return tr("Time");
        case DeviceBusyColumn: return QString(tr("Device busy") + unit);
        case DeviceLanesColumn: return tr("Device · stream · clock");
        case BaselineTotalColumn: return QString(tr("Baseline") + unit);
        case DeltaTotalColumn: return QString(tr("Δ duration") + unit);
        case DeltaTotalPercentColumn: return tr("Δ% duration");
        case BaselineSelfColumn: return QString(tr("Baseline self") + unit);
        case DeltaSelfColumn: return QString(tr("Δ self") + unit);
        case DeltaSelfPercentColumn: return tr("Δ% self");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("Span name (semantic label)");
        case KindColumn: return tr("span_kind: function, op or module");
        case StepColumn: return tr("Training step tag: forward, backward or optimizer");
        case StartColumn: return tr("start_ns: time since the profile run started (host clock)");
        case DurationColumn: return tr("duration_ns of the span_end; \"open\" when the span never ended");
        case SelfColumn: return tr("Duration minus the durations of the closed child spans");
        case MeasuredPercentColumn: return tr("Duration as a share of the measured total (sum of measured spans)");
        case BarColumn: return tr("Duration relative to the measured total");
        case DeviceBusyColumn:
            return tr("Union of the device_interval records of the span and its descendants on its busiest "
                      "device stream (overlaps count once); \"> host\" when it exceeds the host duration");
        case DeviceLanesColumn:
            return tr(
                "Device, stream and clock domain of the device work (device clocks are never compared with host time)");
        case BaselineTotalColumn:
            return tr("Duration of the matching span in the baseline (matched by path, or by semantic label); "
                      "— when it has none");
        case DeltaTotalColumn: return tr("Duration minus the baseline's: positive is slower");
        case DeltaTotalPercentColumn: return tr("Δ duration as a share of the baseline's duration");
        case BaselineSelfColumn: return tr("Self time of the matching span in the baseline");
        case DeltaSelfColumn: return tr("Self time minus the baseline's: positive is slower");
        case DeltaSelfPercentColumn: return tr("Δ self as a share of the baseline's self time");
        default: return {};
        }
    }
    return {};
}

QHash<int, QByteArray> SpanTreeModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(SortRole, "sort");
    names.insert(SpanIndexRole, "spanIndex");
    names.insert(SpanIdRole, "spanId");
    names.insert(DurationRole, "durationNs");
    names.insert(SelfTimeRole, "selfNs");
    names.insert(FractionRole, "fraction");
    names.insert(IsOpenRole, "isOpen");
    names.insert(IsDanglingRole, "isDangling");
    names.insert(IsCycleRole, "isCycle");
    return names;
}

} // namespace TraceInspector
