// SPDX-License-Identifier: MIT
#include "core/itemmodels/liveallocationsmodel.h"

#include <algorithm>
#include <climits>

#include "core/analysis/logicalmemory.h"
#include "core/analysis/memoryprofile.h"
#include "core/itemmodels/backgroundsort.h"
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
    , m_filterer(new BackgroundSort(this))
{
    connect(m_filterer, &BackgroundSort::runningChanged, this, &LiveAllocationsModel::filteringChanged);
}

bool LiveAllocationsModel::isFiltering() const
{
    return m_filterer->isRunning();
}

LiveAllocationsModel::~LiveAllocationsModel() = default;

void LiveAllocationsModel::setAllocations(std::shared_ptr<const Trace> trace,
                                          std::shared_ptr<const MemoryProfile> profile, std::uint64_t timeNs,
                                          std::vector<std::uint32_t> lifetimes)
{
    m_filterer->cancel(); // a filter of the previous instant
    m_trace = std::move(trace);
    m_profile = std::move(profile);
    m_timeNs = timeNs;
    m_all.clear();
    if (m_trace && m_profile && m_profile->logical) {
        m_all = std::move(lifetimes);
        if (m_all.size() > std::size_t(INT_MAX))
            m_all.resize(std::size_t(INT_MAX));
    }
    if (m_range.isEmpty() || m_all.empty() || m_all.size() >= BackgroundSort::backgroundRows()) {
        // Unfiltered at once; a big filtered list follows from the worker.
        show(m_range.isEmpty() ? m_all : std::vector<std::uint32_t>{});
        if (!m_range.isEmpty() && !m_all.empty())
            applyFilter();
        return;
    }
    show(overlapping(*m_trace, *m_profile->logical, m_all, m_range));
}

void LiveAllocationsModel::setTimeRange(const TimeWindow &range)
{
    const TimeWindow next = range.isEmpty() ? TimeWindow{} : range;
    if (next == m_range)
        return;
    m_range = next;
    applyFilter();
}

void LiveAllocationsModel::applyFilter()
{
    m_filterer->cancel();
    if (m_range.isEmpty() || m_all.empty() || !m_trace || !m_profile || !m_profile->logical) {
        show(m_all);
        return;
    }
    if (m_all.size() < BackgroundSort::backgroundRows()) {
        show(overlapping(*m_trace, *m_profile->logical, m_all, m_range));
        return;
    }
    // A million storages live at a peak: their lifetimes are looked up on a worker.
    m_filterer->start([this, trace = m_trace, profile = m_profile, all = m_all,
                       range = m_range]() -> BackgroundSort::Apply {
        auto shown = std::make_shared<std::vector<std::uint32_t>>(overlapping(*trace, *profile->logical, all, range));
        return [this, shown] { show(std::move(*shown)); };
    });
}

std::vector<std::uint32_t> LiveAllocationsModel::overlapping(const Trace &trace, const LogicalMemoryProfile &profile,
                                                             const std::vector<std::uint32_t> &lifetimes,
                                                             const TimeWindow &range)
{
    std::vector<std::uint32_t> result;
    for (const std::uint32_t l : lifetimes) {
        const std::uint64_t start = trace.memory[profile.lifetimeAllocRecord(l)].timestampNs;
        const std::optional<std::uint32_t> free = profile.lifetimeFreeRecord(trace, l);
        // Alive from its alloc up to its free; one never freed stays alive to the end.
        const std::uint64_t end = free ? std::max(trace.memory[*free].timestampNs.value(), start + 1) : UINT64_MAX;
        if (start < range.end && end > range.begin)
            result.push_back(l);
    }
    return result;
}

void LiveAllocationsModel::show(std::vector<std::uint32_t> lifetimes)
{
    beginResetModel();
    m_lifetimes = std::move(lifetimes);
    m_totalBytes = 0;
    if (m_trace && m_profile && m_profile->logical) {
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
    const LogicalStorageLifetime l =
        m_profile->logical->lifetimeAsOf(*m_trace, m_lifetimes[std::size_t(row)], m_timeNs);
    QStringList ids;
    for (const StringId t : l.tensorIds)
        ids << text(m_trace->str(t));
    return ids.join(QStringLiteral(", "));
}

int LiveAllocationsModel::firstRowOfSpan(qint64 spanIndex) const
{
    if (!m_trace || !m_profile || !m_profile->logical || spanIndex < 0
        || std::size_t(spanIndex) >= m_trace->spans.size())
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
        case StorageColumn: return text(m_trace->str(a.storageId));
        case DeviceColumn: return text(m_trace->str(a.device));
        case BytesColumn: return formatBytes(a.bytes);
        case CategoryColumn: return text(memoryCategoryName(a.category));
        case TensorIdsColumn: return tensorIds(index.row());
        case SpanColumn: return text(m_trace->str(a.spanId));
        case OpColumn: return a.opName == kNoString ? QStringLiteral("\u2014") : text(m_trace->str(a.opName));
        case StartColumn: return formatTimePoint(a.timestampNs, m_unit, false);
        }
        break;
    case Qt::ToolTipRole:
        switch (column) {
        case BytesColumn: return tr("%1 bytes").arg(formatCount(a.bytes));
        case SpanColumn: {
            const std::int64_t s = m_trace->findSpan(a.spanId);
            if (s >= 0)
                return tr("Span name: %1").arg(text(m_trace->str(m_trace->spans[std::size_t(s)].name)));
            return tr("No span has this id");
        }
        case OpColumn: return a.opName == kNoString ? tr("No allocating op recorded") : QVariant();
        case StartColumn: return tr("%1 ns since the run started").arg(formatCount(a.timestampNs));
        default: return {};
        }
    case SortRole:
        switch (column) {
        case BytesColumn: return QVariant::fromValue<quint64>(a.bytes);
        case StartColumn: return QVariant::fromValue<quint64>(a.timestampNs);
        case TensorIdsColumn: return tensorIds(index.row());
        default: return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole:
        if (column == BytesColumn || column == StartColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case SpanIdRole: return text(m_trace->str(a.spanId));
    case SpanIndexRole: return QVariant::fromValue<qint64>(m_trace->findSpan(a.spanId));
    case DeviceRole: return text(m_trace->str(a.device));
    case BytesRole: return QVariant::fromValue<quint64>(a.bytes);
    case OpNameRole: return a.opName == kNoString ? QVariant() : QVariant(text(m_trace->str(a.opName)));
    case LineRole: return QVariant::fromValue<quint64>(a.line);
    default: break;
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
        static const char *const names[ColumnCount] = {"Storage",    "Device", "Bytes", "Category",
                                                       "Tensor ids", "Span",   "Op",    "Allocated"};
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
    default: return {};
    }
}

} // namespace TraceInspector
