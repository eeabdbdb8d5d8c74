// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>

namespace TraceInspector {

struct Trace;
struct MemoryProfile;

/// The storages live at the §8.1 logical peak (`peak.live_allocations`), one row each, in
/// the profile's order (start time, device, storage id). DisplayRole is formatted text,
/// SortRole the raw value; SpanIdRole gives the allocating span, DeviceRole the device.
class PeakAllocationsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { StorageColumn, DeviceColumn, BytesColumn, CategoryColumn, TensorIdsColumn, SpanColumn, OpColumn,
                  StartColumn, ColumnCount };

    explicit PeakAllocationsModel(QObject *parent = nullptr);
    ~PeakAllocationsModel() override;

    /// Shows the peak of \a profile (computed from \a trace); empty when there is none.
    void setProfile(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString tensorIds(int row) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const MemoryProfile> m_profile;
    int m_rows = 0;
};

} // namespace TraceInspector
