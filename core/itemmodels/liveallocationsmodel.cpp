// SPDX-License-Identifier: MIT
#include "core/itemmodels/liveallocationsmodel.h"

#include <climits>

#include "core/analysis/memoryprofile.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

LiveAllocationsModel::LiveAllocationsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

LiveAllocationsModel::~LiveAllocationsModel() = default;

void LiveAllocationsModel::setAllocations(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                                          std::uint64_t timeNs, std::vector<std::uint32_t> lifetimes)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_profile = std::move(profile);
    m_timeNs = timeNs;
    m_lifetimes.clear();
    m_totalBytes = 0;
    if (m_trace && m_profile && m_profile->logical) {
        m_lifetimes = std::move(lifetimes);
        if (m_lifetimes.size() > std::size_t(INT_MAX))
            m_lifetimes.resize(std::size_t(INT_MAX));
        for (const std::uint32_t l : m_lifetimes) {
            const std::uint64_t b = m_trace->memory[m_profile->logical->lifetimeAllocRecord(l)].bytes;
            m_totalBytes = m_totalBytes > UINT64_MAX - b ? UINT64_MAX : m_totalBytes + b; // §8.1 sums saturate
        }
    }
    endResetModel();
}

void LiveAllocationsModel::setPeak(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile)
{
    if (!trace || !profile || !profile->logical || !profile->logical->peak()) {
        setAllocations({}, {}, 0, {});
        return;
    }
    const LogicalMemoryPeak &peak = *profile->logical->peak();
    setAllocations(std::move(trace), std::move(profile), peak.timestampNs, peak.liveAllocations);
}

void LiveAllocationsModel::clear()
{
    setAllocations({}, {}, 0, {});
}

void LiveAllocationsModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    Q_EMIT headerDataChanged(Qt::Horizontal, StartColumn, StartColumn);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, StartColumn), index(rowCount() - 1, StartColumn), {Qt::DisplayRole});
}

int LiveAllocationsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lifetimes.size());
}

int LiveAllocationsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString LiveAllocationsModel::tensorIds(int row) const
{
    const LogicalStorageLifetime l = m_profile->logical->lifetimeAsOf(*m_trace, m_lifetimes[std::size_t(row)], m_timeNs);
    QStringList ids;
    for (const StringId t : l.tensorIds)
        ids << text(m_trace->str(t));
    return ids.join(QStringLiteral(", "));
}

int LiveAllocationsModel::firstRowOfSpan(qint64 spanIndex) const
{
    if (!m_trace || !m_profile || !m_profile->logical || spanIndex < 0 || std::size_t(spanIndex) >= m_trace->spans.size())
        return -1;
    const StringId id = m_trace->spans[std::size_t(spanIndex)].id;
    const LogicalMemoryProfile &p = *m_profile->logical;
    for (std::size_t r = 0; r < m_lifetimes.size(); ++r)
        if (m_trace->memory[p.lifetimeAllocRecord(m_lifetimes[r])].spanId == id)
            return int(r);
    return -1;
}

QVariant LiveAllocationsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogicalMemoryProfile &p = *m_profile->logical;
    // Everything but the tensor ids is the creating alloc's; no need to materialize.
    const MemoryEvent &a = m_trace->memory[p.lifetimeAllocRecord(m_lifetimes[std::size_t(index.row())])];
    const int column = index.column();

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case StorageColumn:
            return text(m_trace->str(a.storageId));
        case DeviceColumn:
            return text(m_trace->str(a.device));
        case BytesColumn:
            return formatBytes(a.bytes);
        case CategoryColumn:
            return text(memoryCategoryName(a.category));
        case TensorIdsColumn:
            return tensorIds(index.row());
        case SpanColumn:
            return text(m_trace->str(a.spanId));
        case OpColumn:
            return a.opName == kNoString ? QStringLiteral("\u2014") : text(m_trace->str(a.opName));
        case StartColumn:
            return formatTimePoint(a.timestampNs, m_unit, false);
        }
        break;
    case Qt::ToolTipRole:
        switch (column) {
        case BytesColumn:
            return tr("%1 bytes").arg(formatCount(a.bytes));
        case SpanColumn: {
            const std::int64_t s = m_trace->findSpan(a.spanId);
            if (s >= 0)
                return tr("Span name: %1").arg(text(m_trace->str(m_trace->spans[std::size_t(s)].name)));
            return tr("No span has this id");
        }
        case OpColumn:
            return a.opName == kNoString ? tr("No allocating op recorded") : QVariant();
        case StartColumn:
            return tr("%1 ns since the run started").arg(formatCount(a.timestampNs));
        default:
            return {};
        }
    case SortRole:
        switch (column) {
        case BytesColumn:
            return QVariant::fromValue<quint64>(a.bytes);
        case StartColumn:
            return QVariant::fromValue<quint64>(a.timestampNs);
        case TensorIdsColumn:
            return tensorIds(index.row());
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole:
        if (column == BytesColumn || column == StartColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case SpanIdRole:
        return text(m_trace->str(a.spanId));
    case SpanIndexRole:
        return QVariant::fromValue<qint64>(m_trace->findSpan(a.spanId));
    case DeviceRole:
        return text(m_trace->str(a.device));
    case BytesRole:
        return QVariant::fromValue<quint64>(a.bytes);
    case StartTimeRole:
        return QVariant::fromValue<quint64>(a.timestampNs);
    case MemoryCategoryRole:
        return int(a.category);
    case OpNameRole:
        return a.opName == kNoString ? QVariant() : QVariant(text(m_trace->str(a.opName)));
    case LineRole:
        return QVariant::fromValue<quint64>(a.line);
    default:
        break;
    }
    return {};
}

QVariant LiveAllocationsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (role) {
    case Qt::DisplayRole: {
        if (section == StartColumn && m_unit != TimeUnit::Auto)
            return tr("Allocated (%1)").arg(timeUnitSymbol(m_unit));
        static const char *const names[ColumnCount] = {"Storage", "Device", "Bytes", "Category", "Tensor ids",
                                                       "Span", "Op", "Allocated"};
        return tr(names[section]);
    }
    case Qt::ToolTipRole: {
        static const char *const tips[ColumnCount] = {
            "Backend storage id; aliases share it",
            "Device of the storage",
            "Real allocation size (memory.bytes of the first alloc)",
            "Memory category of the first alloc",
            "Tensors known to use the storage by this time",
            "Span that allocated the storage",
            "Op that allocated the storage",
            "Time of the first alloc, since the run started",
        };
        return tr(tips[section]);
    }
    case Qt::InitialSortOrderRole:
        // Costs are read largest first.
        return section == BytesColumn ? QVariant::fromValue(int(Qt::DescendingOrder)) : QVariant();
    default:
        return {};
    }
}

} // namespace TraceInspector
