// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "core/analysis/format.h"

namespace TraceInspector {

struct Trace;
class OpStatistics;

/// Op durations aggregated by op name (one row per distinct `op_name`), over OpStatistics.
/// Rows come longest total first; sort through a QSortFilterProxyModel with SortRole.
/// TotalColumn carries BarValueRole / TotalRole (the sum over all ops) for a bar delegate.
class OpAggregateModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        CountColumn,
        TotalColumn,
        MeanColumn,
        MinColumn,
        MaxColumn,
        PercentColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit OpAggregateModel(QObject *parent = nullptr);
    ~OpAggregateModel() override;

    /// Shows \a statistics computed from \a trace (the trace provides the op names); computes
    /// them when \a statistics is null. Resets the model.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const OpStatistics> statistics = {});
    const OpStatistics *statistics() const { return m_stats.get(); }

    /// Unit of the duration columns; a fixed unit moves to the headers.
    TimeUnit timeUnit() const { return m_unit; }
    void setTimeUnit(TimeUnit unit);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const OpStatistics> m_stats;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
