// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace TraceInspector {

struct Trace;
class DeviceTime;

/// Device work outside every span (device intervals whose span_id names no span), as a
/// two-level tree: one row per device lane (device, stream, clock) with its interval count,
/// busy union and extent, and below it every such interval of the lane by start time, so
/// each one can be selected. Times are the device clock's start_ns values, exact.
///
/// A lane may hold a million such intervals (a hostile or truncated capture): its rows are
/// fetched kFetchChunk at a time as the view scrolls (canFetchMore()/fetchMore()), and
/// indexOfInterval() fetches up to the interval it reveals.
///
/// Without intervals, or before the device time is computed, the model holds one note row
/// (setNote()) instead: IsSyntheticRole is true on it and it names no interval.
class OutsideDeviceWorkModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        DeviceColumn,
        StreamColumn,
        ClockColumn,
        IntervalsColumn,
        BusyColumn,
        StartColumn,
        EndColumn,
        LineColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    static constexpr int kFetchChunk = 10000;

    explicit OutsideDeviceWorkModel(QObject *parent = nullptr);
    ~OutsideDeviceWorkModel() override;

    /// The intervals outside every span of \a deviceTime (computed for \a trace); an empty
    /// outside() gives no rows (the caller says why with setNote()).
    void setDeviceTime(std::shared_ptr<const Trace> trace, std::shared_ptr<const DeviceTime> deviceTime);
    /// One row of text instead of the lanes (not captured, computing, none).
    void setNote(const QString &note);
    void clear();

    QString note() const { return m_note; }
    bool isLaneRow(const QModelIndex &index) const;
    /// The interval a row stands for, as an index into Trace::deviceIntervals: the interval
    /// of an interval row, the first (earliest) one of a lane row; -1 for a note row.
    qint64 intervalAt(const QModelIndex &index) const;
    /// The row of interval \a interval (column 0), fetching its lane's rows up to it;
    /// invalid when the interval belongs to a span or is unknown.
    QModelIndex indexOfInterval(qint64 interval);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    QVariant laneData(std::size_t lane, int column, int role) const;
    QVariant intervalData(std::size_t lane, std::size_t position, int column, int role) const;
    void fetchTo(std::size_t lane, std::size_t rows);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const DeviceTime> m_device;
    QString m_note;
    std::vector<std::size_t> m_fetched;   // per lane: child rows made known to the views
    std::vector<std::uint64_t> m_laneEnd; // per lane: the latest end of its intervals
};

} // namespace TraceInspector
