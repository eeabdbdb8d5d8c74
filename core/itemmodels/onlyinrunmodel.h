// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

#include "core/display/format.h"
#include "core/loading/tracecomparison.h"

namespace TraceInspector {

/// What only one run of an A/B comparison has (issue #15 item 3): the top spans of subtrees
/// without a partner and the op groups with no op on the other side; baseline rows first,
/// each side longest first. A few hundred rows at most in practice, so a plain table model
/// (sorted through a QSortFilterProxyModel with SortRole).
class OnlyInRunModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { RunColumn, KindColumn, WhatColumn, CountColumn, TotalColumn, ColumnCount };
    Q_ENUM(Column)
    enum class Side { Baseline, Candidate };
    enum class Kind { SpanSubtree, OpGroup };

    explicit OnlyInRunModel(QObject *parent = nullptr);
    ~OnlyInRunModel() override;

    void setComparison(TraceComparisonPtr comparison);
    void setTimeUnit(TimeUnit unit);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int countOf(Side side, Kind kind) const;

private:
    struct Row {
        Side side;
        Kind kind;
        std::size_t index; ///< into onlyIn{Baseline,Candidate} or opGroups
        std::uint64_t totalNs;
        bool totalKnown;
    };

    TraceComparisonPtr m_comparison;
    std::vector<Row> m_rows;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
