// SPDX-License-Identifier: MIT
#include "core/itemmodels/outsidedeviceworkmodel.h"

#include <algorithm>

#include "core/analysis/densebytes.h"
#include "core/analysis/devicetime.h"
#include "core/display/format.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Exact device-clock times: start_ns as the file has it, grouped so that digits can be read.
QString deviceTime(std::uint64_t ns)
{
    return formatTimePoint(ns, TimeUnit::Nanoseconds);
}

} // namespace

OutsideDeviceWorkModel::OutsideDeviceWorkModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

OutsideDeviceWorkModel::~OutsideDeviceWorkModel() = default;

void OutsideDeviceWorkModel::setDeviceTime(std::shared_ptr<const Trace> trace,
                                           std::shared_ptr<const DeviceTime> deviceTime)
{
    beginResetModel();
    m_note.clear();
    m_trace = std::move(trace);
    m_device = std::move(deviceTime);
    if (!m_trace || !m_device) {
        m_trace.reset();
        m_device.reset();
    }
    m_fetched.clear();
    m_laneEnd.clear();
    if (m_device) {
        const std::size_t lanes = m_device->outside().size();
        m_fetched.resize(lanes, 0);
        m_laneEnd.resize(lanes, 0);
        for (std::size_t e = 0; e < lanes; ++e) {
            for (const std::uint32_t i : m_device->outsideIntervals(e)) {
                const DeviceInterval &d = m_trace->deviceIntervals[i];
                m_laneEnd[e] = std::max(m_laneEnd[e], saturatingAdd(d.startNs, d.durationNs));
            }
            m_fetched[e] = std::min<std::size_t>(m_device->outsideIntervals(e).size(), kFetchChunk);
        }
    }
    endResetModel();
}

void OutsideDeviceWorkModel::setNote(const QString &note)
{
    beginResetModel();
    m_trace.reset();
    m_device.reset();
    m_fetched.clear();
    m_laneEnd.clear();
    m_note = note;
    endResetModel();
}

void OutsideDeviceWorkModel::clear()
{
    setNote(QString());
}

bool OutsideDeviceWorkModel::isLaneRow(const QModelIndex &index) const
{
    return index.isValid() && index.internalId() == 0 && m_note.isEmpty();
}

qint64 OutsideDeviceWorkModel::intervalAt(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_device)
        return -1;
    if (index.internalId() == 0) {
        const auto list = m_device->outsideIntervals(std::size_t(index.row()));
        return list.empty() ? -1 : qint64(list.front());
    }
    return qint64(m_device->outsideIntervals(std::size_t(index.internalId() - 1))[std::size_t(index.row())]);
}

QModelIndex OutsideDeviceWorkModel::indexOfInterval(qint64 interval)
{
    if (!m_device || interval < 0 || std::size_t(interval) >= m_trace->deviceIntervals.size())
        return {};
    const DeviceInterval &d = m_trace->deviceIntervals[std::size_t(interval)];
    const auto &outside = m_device->outside();
    for (std::size_t e = 0; e < outside.size(); ++e) {
        const DeviceLane &lane = m_device->lanes()[outside[e].lane];
        if (lane.device != d.device || lane.stream != d.streamId || lane.clock != d.clockId)
            continue;
        // By start, then index: a binary search finds it among a million.
        const auto list = m_device->outsideIntervals(e);
        const Trace &t = *m_trace;
        const auto it =
            std::lower_bound(list.begin(), list.end(), std::uint32_t(interval), [&t](std::uint32_t a, std::uint32_t b) {
                const std::uint64_t sa = t.deviceIntervals[a].startNs;
                const std::uint64_t sb = t.deviceIntervals[b].startNs;
                return sa != sb ? sa < sb : a < b;
            });
        if (it == list.end() || *it != std::uint32_t(interval))
            return {};
        const auto position = std::size_t(it - list.begin());
        fetchTo(e, position + 1);
        return index(int(position), 0, index(int(e), 0));
    }
    return {};
}

void OutsideDeviceWorkModel::fetchTo(std::size_t lane, std::size_t rows)
{
    const std::size_t total = m_device->outsideIntervals(lane).size();
    rows = std::min(std::max(rows, m_fetched[lane]), total);
    if (rows <= m_fetched[lane])
        return;
    beginInsertRows(index(int(lane), 0), int(m_fetched[lane]), int(rows - 1));
    m_fetched[lane] = rows;
    endInsertRows();
}

bool OutsideDeviceWorkModel::canFetchMore(const QModelIndex &parent) const
{
    if (!m_device || !isLaneRow(parent) || parent.column() != 0)
        return false;
    const auto lane = std::size_t(parent.row());
    return m_fetched[lane] < m_device->outsideIntervals(lane).size();
}

void OutsideDeviceWorkModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        fetchTo(std::size_t(parent.row()), m_fetched[std::size_t(parent.row())] + kFetchChunk);
}

QModelIndex OutsideDeviceWorkModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex OutsideDeviceWorkModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int OutsideDeviceWorkModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_device ? int(m_device->outside().size()) : (m_note.isEmpty() ? 0 : 1);
    if (!isLaneRow(parent) || parent.column() != 0 || !m_device)
        return 0;
    return int(m_fetched[std::size_t(parent.row())]);
}

int OutsideDeviceWorkModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

bool OutsideDeviceWorkModel::hasChildren(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return rowCount() > 0;
    return m_device && isLaneRow(parent) && parent.column() == 0
           && !m_device->outsideIntervals(std::size_t(parent.row())).empty();
}

QVariant OutsideDeviceWorkModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (!m_device) {
        // The note row.
        if (role == IsSyntheticRole)
            return true;
        if ((role == Qt::DisplayRole || role == Qt::ToolTipRole) && index.column() == 0)
            return m_note;
        return {};
    }
    if (role == IsSyntheticRole)
        return false;
    if (role == RelatedKindRole)
        return int(RelatedKind::DeviceInterval);
    if (role == RelatedIndexRole)
        return intervalAt(index);
    if (index.internalId() == 0)
        return laneData(std::size_t(index.row()), index.column(), role);
    return intervalData(std::size_t(index.internalId() - 1), std::size_t(index.row()), index.column(), role);
}

QVariant OutsideDeviceWorkModel::laneData(std::size_t lane, int column, int role) const
{
    const Trace &t = *m_trace;
    const DeviceBusy &busy = m_device->outside()[lane];
    const DeviceLane &l = m_device->lanes()[busy.lane];
    const auto list = m_device->outsideIntervals(lane);
    const std::uint64_t start = list.empty() ? 0 : t.deviceIntervals[list.front()].startNs;
    if (role == Qt::TextAlignmentRole)
        return column >= IntervalsColumn ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == SortRole) {
        switch (column) {
        case IntervalsColumn: return quint64(busy.intervals);
        case BusyColumn: return quint64(busy.busyNs);
        case StartColumn: return quint64(start);
        case EndColumn: return quint64(m_laneEnd[lane]);
        default: break;
        }
    }
    if (role == Qt::ToolTipRole && column == BusyColumn) {
        return busy.intervals == 1
                   ? tr("%1 of device work on this device, stream and clock in one interval whose span_id names no "
                        "span")
                         .arg(formatDuration(busy.busyNs))
                   : tr("%1 of device work on this device, stream and clock in %2 intervals whose span_id names no "
                        "span")
                         .arg(formatDuration(busy.busyNs), formatCount(busy.intervals));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case DeviceColumn: return qs(t.str(l.device));
    case StreamColumn: return qs(t.str(l.stream));
    case ClockColumn: return qs(t.str(l.clock));
    case IntervalsColumn: return formatCount(busy.intervals);
    case BusyColumn: return formatDuration(busy.busyNs);
    case StartColumn: return list.empty() ? QString() : deviceTime(start);
    case EndColumn: return list.empty() ? QString() : deviceTime(m_laneEnd[lane]);
    default: return {};
    }
}

QVariant OutsideDeviceWorkModel::intervalData(std::size_t lane, std::size_t position, int column, int role) const
{
    const Trace &t = *m_trace;
    const DeviceInterval &d = t.deviceIntervals[m_device->outsideIntervals(lane)[position]];
    const std::uint64_t end = saturatingAdd(d.startNs, d.durationNs);
    if (role == Qt::TextAlignmentRole)
        return column >= IntervalsColumn ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == LineRole)
        return quint64(d.line);
    if (role == SortRole) {
        switch (column) {
        case BusyColumn: return quint64(d.durationNs);
        case StartColumn: return quint64(d.startNs);
        case EndColumn: return quint64(end);
        case LineColumn: return quint64(d.line);
        default: break;
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("Device interval of span_id \u201C%1\u201D, which names no span (line %2)")
            .arg(qs(t.str(d.spanId)))
            .arg(d.line);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    // The lane's columns name the interval's span_id instead: the lane row says the rest.
    case DeviceColumn: return qs(t.str(d.spanId));
    case BusyColumn: return formatDuration(d.durationNs);
    case StartColumn: return deviceTime(d.startNs);
    case EndColumn: return deviceTime(end);
    case LineColumn: return QString::number(d.line);
    default: return {};
    }
}

QVariant OutsideDeviceWorkModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case DeviceColumn: return tr("Device / span_id");
    case StreamColumn: return tr("Stream");
    case ClockColumn: return tr("Clock");
    case IntervalsColumn: return tr("Intervals");
    case BusyColumn: return tr("Busy outside every span");
    case StartColumn: return tr("Start (device clock)");
    case EndColumn: return tr("End (device clock)");
    case LineColumn: return tr("Line");
    default: return {};
    }
}

} // namespace TraceInspector
