// SPDX-License-Identifier: MIT
#include "ui/peakallocationsmodel.h"

#include "core/analysis/format.h"
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

PeakAllocationsModel::PeakAllocationsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

PeakAllocationsModel::~PeakAllocationsModel() = default;

void PeakAllocationsModel::setProfile(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_profile = std::move(profile);
    m_rows = 0;
    if (m_trace && m_profile && m_profile->logical)
        m_rows = int(std::min<std::size_t>(m_profile->logical->peakAllocationCount(), std::size_t(INT_MAX)));
    endResetModel();
}

void PeakAllocationsModel::clear()
{
    setProfile({}, {});
}

int PeakAllocationsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int PeakAllocationsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PeakAllocationsModel::tensorIds(int row) const
{
    const LogicalStorageLifetime l = m_profile->logical->peakAllocation(*m_trace, std::size_t(row));
    QStringList ids;
    for (const StringId t : l.tensorIds)
        ids << text(m_trace->str(t));
    return ids.join(QStringLiteral(", "));
}

QVariant PeakAllocationsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogicalMemoryProfile &p = *m_profile->logical;
    const std::uint32_t lifetime = p.peak()->liveAllocations[std::size_t(index.row())];
    // Everything but the tensor ids is the creating alloc's; no need to materialize.
    const MemoryEvent &a = m_trace->memory[p.lifetimeAllocRecord(lifetime)];
    const int column = index.column();

    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (column) {
        case StorageColumn:
            return text(m_trace->str(a.storageId));
        case DeviceColumn:
            return text(m_trace->str(a.device));
        case BytesColumn:
            return role == Qt::ToolTipRole ? QString(formatCount(a.bytes) + QStringLiteral(" bytes")) : formatBytes(a.bytes);
        case CategoryColumn:
            return text(memoryCategoryName(a.category));
        case TensorIdsColumn:
            return tensorIds(index.row());
        case SpanColumn: {
            const QString id = text(m_trace->str(a.spanId));
            if (role == Qt::ToolTipRole) {
                const std::int64_t s = m_trace->findSpan(a.spanId);
                if (s >= 0)
                    return QString(id + QStringLiteral(" — ") + text(m_trace->str(m_trace->spans[std::size_t(s)].name)));
                return QString(id + QStringLiteral(" (no such span)"));
            }
            return id;
        }
        case OpColumn:
            if (a.opName == kNoString)
                return role == Qt::ToolTipRole ? QStringLiteral("no allocating op recorded") : QStringLiteral("—");
            return text(m_trace->str(a.opName));
        case StartColumn:
            return formatTimestamp(a.timestampNs);
        }
        break;
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
    default:
        break;
    }
    return {};
}

QVariant PeakAllocationsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        static const char *const names[ColumnCount] = {"Storage", "Device", "Bytes", "Category", "Tensor ids",
                                                       "Span", "Op", "Start"};
        return QString::fromLatin1(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        static const char *const tips[ColumnCount] = {
            "Backend storage id; aliases share it",
            "Device of the storage",
            "Real allocation size (memory.bytes of the first alloc)",
            "Memory category of the first alloc",
            "Tensors known to use the storage by the peak time",
            "Span that allocated the storage",
            "Op that allocated the storage",
            "Time of the first alloc",
        };
        return QString::fromLatin1(tips[section]);
    }
    return {};
}

} // namespace TraceInspector
