// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/analysis/timecoordinates.h"
#include "core/display/format.h"

namespace TraceInspector {

struct Trace;
struct MemoryProfile;
class LogicalMemoryProfile;
class BackgroundSort;

/// The storages live at one instant (§8.1 lifetimes, as the timeline point at that time sees
/// them: the tensor ids known by then), one row each, in profile order (start time, device,
/// storage id). Shows the logical peak's `live_allocations` as well as those at any clicked
/// time. DisplayRole is formatted text, SortRole the raw value; SpanIdRole gives the
/// allocating span, DeviceRole the device.
class LiveAllocationsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        StorageColumn,
        DeviceColumn,
        BytesColumn,
        CategoryColumn,
        TensorIdsColumn,
        SpanColumn,
        OpColumn,
        StartColumn,
        ColumnCount
    };
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

    /// Shows only the storages whose lifetime (alloc to free, or on to the end when never
    /// freed) overlaps \a range, the window's shared time range; an empty range shows all.
    /// With BackgroundSort::backgroundRows() storages or more the filter runs on a worker
    /// (isFiltering() until it lands; the rows shown meanwhile are the previous filter's).
    void setTimeRange(const TimeWindow &range);
    TimeWindow timeRange() const { return m_range; }
    bool isFiltering() const;
    /// Storages live at timeNs(), shown or not.
    std::size_t liveCount() const { return m_all.size(); }
    /// Of \a lifetimes, those whose lifetime overlaps \a range, in their order; thread-safe.
    static std::vector<std::uint32_t> overlapping(const Trace &trace, const LogicalMemoryProfile &profile,
                                                  const std::vector<std::uint32_t> &lifetimes, const TimeWindow &range);

    std::uint64_t timeNs() const { return m_timeNs; }
    /// Bytes of the storages shown.
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

Q_SIGNALS:
    /// A background filter started (true) or its rows were shown or dropped (false).
    void filteringChanged(bool filtering);

private:
    QString tensorIds(int row) const;
    void applyFilter();
    void show(std::vector<std::uint32_t> lifetimes);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const MemoryProfile> m_profile;
    std::vector<std::uint32_t> m_all;       // live at m_timeNs
    std::vector<std::uint32_t> m_lifetimes; // shown: m_all in the time range
    TimeWindow m_range;
    BackgroundSort *m_filterer;
    std::uint64_t m_timeNs = 0;
    std::uint64_t m_totalBytes = 0;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
