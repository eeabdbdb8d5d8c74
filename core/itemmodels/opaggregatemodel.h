// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "core/display/format.h"
#include "core/analysis/opstatistics.h"
#include "core/diff/opgroupcounterpart.h"
#include "core/itemmodels/comparisoncolumnsmodel.h"
#include "core/loading/tracecomparison.h"

namespace TraceInspector {

struct Trace;

/// Op durations, bytes moved and parent shares aggregated by op name (one row per distinct
/// `op_name`) or, switched with setGrouping(), by op name + shape + dtype + device; over
/// OpStatistics computed by the loader for both groupings. Rows come longest total first;
/// sort through a QSortFilterProxyModel with SortRole. TotalColumn carries BarValueRole /
/// TotalRole (the sum over all ops) for a bar delegate. Shape, dtype and device columns are
/// empty when grouping by name.
///
/// With a comparison whose candidate is the shown trace (issue #15 item 3), six columns are
/// inserted after the others: the total time and bytes moved of the same group in the
/// baseline's aggregate (OpGroupCounterpart), Δ and Δ% (DeltaRole for colour); a group the
/// baseline lacks shows "—", its whole cost as Δ and "new" as Δ% (as the Compare tab does). Clearing the comparison removes them. The rows are op
/// groups (hundreds, not millions): sorting them on the GUI thread stays far below 100 ms.
class OpAggregateModel : public ComparisonColumnsModel<QAbstractTableModel>
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
        BytesMovedColumn,
        BytesPerNsColumn,
        ParentShareColumn,
        ShapeColumn,
        DtypeColumn,
        DeviceColumn,
        ColumnCount,
        // Shown only while a comparison is set (setComparison()), appended after the others.
        BaselineTotalColumn = ColumnCount,
        DeltaTotalColumn,
        DeltaTotalPercentColumn,
        BaselineBytesColumn,
        DeltaBytesColumn,
        DeltaBytesPercentColumn,
        ComparisonColumnCount
    };
    Q_ENUM(Column)

    explicit OpAggregateModel(QObject *parent = nullptr);
    ~OpAggregateModel() override;

    /// Shows \a statistics computed from \a trace (the trace provides the op names); computes
    /// them when \a statistics is null. Resets the model.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const OpStatistics> statistics);
    /// The aggregate by op + shape + dtype + device (computed with the span tree); resets
    /// the model when that grouping is shown.
    void setShapeStatistics(std::shared_ptr<const OpStatistics> statistics);
    /// The statistics of the current grouping; null when that grouping is not computed yet.
    const OpStatistics *statistics() const { return current(); }
    OpGrouping grouping() const { return m_grouping; }
    /// Switches the rows between the two groupings (a model reset; no aggregation here).
    void setGrouping(OpGrouping grouping);
    /// The current grouping's rows are not computed yet (by shape before the span tree).
    bool isPending() const { return m_trace && !current(); }

    /// Adds the comparison columns when \a comparison's candidate is the shown trace; null,
    /// or another trace, removes them. setTrace() removes them too.
    void setComparison(TraceComparisonPtr comparison);

    /// Unit of the duration columns; a fixed unit moves to the headers.
    TimeUnit timeUnit() const { return m_unit; }
    void setTimeUnit(TimeUnit unit);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const OpStatistics *current() const { return m_grouping == OpGrouping::Name ? m_stats.get() : m_shapeStats.get(); }

    /// The baseline's aggregate of the shown grouping and the rows matched in it.
    const OpStatistics *baselineStatistics() const;
    void matchBaseline();
    QVariant comparisonData(std::size_t row, int column, int role) const;

    std::shared_ptr<const Trace> m_trace;
    OpGroupCounterpart m_byName;  ///< per row of m_stats
    OpGroupCounterpart m_byShape; ///< per row of m_shapeStats
    std::shared_ptr<const OpStatistics> m_stats;
    std::shared_ptr<const OpStatistics> m_shapeStats;
    OpGrouping m_grouping = OpGrouping::Name;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
