// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/display/format.h"

namespace TraceInspector {

struct Trace;
struct MemoryProfile;

/// The storages live at one instant (§8.1 lifetimes, as the timeline point at that time sees
/// them: the tensor ids known by then), one row each, in profile order (start time, device,
/// storage id). Shows the logical peak's `live_allocations` as well as those at any clicked
/// time. DisplayRole is formatted text, SortRole the raw value; SpanIdRole gives the
/// allocating span, DeviceRole the device.
class LiveAllocationsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { StorageColumn, DeviceColumn, BytesColumn, CategoryColumn, TensorIdsColumn, SpanColumn, OpColumn,
                  StartColumn, ColumnCount };
    Q_ENUM(Column)

    explicit LiveAllocationsModel(QObject *parent = nullptr);
    ~LiveAllocationsModel() override;

    /// Shows the lifetimes \a lifetimes (indices into the logical profile of \a profile,
    /// computed from \a trace) as live at \a timeNs.
    void setAllocations(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                        std::uint64_t timeNs, std::vector<std::uint32_t> lifetimes);
    /// Shows the §8.1 peak's live allocations (empty when there is no peak).
    void setPeak(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile);
    void clear();

    std::uint64_t timeNs() const { return m_timeNs; }
    std::uint64_t totalBytes() const { return m_totalBytes; }
    TimeUnit timeUnit() const { return m_unit; }
    void setTimeUnit(TimeUnit unit);

    /// The first row whose allocation was made in span \a spanIndex (by its span_id), or -1.
    /// A pass over the rows without building any QVariant.
    int firstRowOfSpan(qint64 spanIndex) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString tensorIds(int row) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const MemoryProfile> m_profile;
    std::vector<std::uint32_t> m_lifetimes;
    std::uint64_t m_timeNs = 0;
    std::uint64_t m_totalBytes = 0;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
