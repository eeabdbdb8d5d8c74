// SPDX-License-Identifier: MIT
#pragma once

#include "core/itemmodels/flattablemodel.h"
#include "core/loading/tracecomparison.h"

namespace TraceInspector {

/// The op groups of an A/B comparison (issue #15 item 3): one row per (op name, shape,
/// dtype, device) of either run with its count, total time and output bytes in both runs and
/// the changes. A group only one run has shows "—" on the other side. DeltaRole carries the
/// signed change of the Δ columns.
class OpGroupDiffModel : public FlatTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ShapeColumn,
        DtypeColumn,
        DeviceColumn,
        BaselineCountColumn,
        CandidateCountColumn,
        BaselineTotalColumn,
        CandidateTotalColumn,
        DeltaTotalColumn,
        DeltaTotalPercentColumn,
        BaselineBytesColumn,
        CandidateBytesColumn,
        DeltaBytesColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit OpGroupDiffModel(QObject *parent = nullptr);
    ~OpGroupDiffModel() override;

    void setComparison(TraceComparisonPtr comparison);
    TimeUnit timeUnit() const { return m_unit; }
    void setTimeUnit(TimeUnit unit);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const Trace *filterTrace() const override;
    void sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const override;
    bool recordMatches(std::size_t record, const TextFilter &filter) const override;
    QVariant recordData(std::size_t record, int column, int role) const override;

private:
    TraceComparisonPtr m_comparison;
    TimeUnit m_unit = TimeUnit::Auto;
};

} // namespace TraceInspector
