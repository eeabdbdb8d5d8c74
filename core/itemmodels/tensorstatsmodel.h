// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "core/itemmodels/flattablemodel.h"

namespace TraceInspector {

struct Trace;
struct EvidenceAnalysis;

/// Every `tensor_stats` record (trace/10, TRACE_FORMAT.md §4.6) with its outlier verdict
/// (core/analysis/tensorstatsoutliers.h): flags, score, rms z-score within its label and
/// abs_max against the dtype's range. Sorting and filtering as FlatTableModel; the filter
/// matches label, dtype, span id and name, and the flag words ("non-finite", "range", "rms").
class TensorStatsModel : public FlatTableModel
{
    Q_OBJECT
public:
    enum Column {
        ScoreColumn,
        FlagsColumn,
        LabelColumn,
        ShapeColumn,
        DtypeColumn,
        ElementsColumn,
        NonFiniteColumn,
        RmsColumn,
        RmsZColumn,
        AbsMaxColumn,
        RangeColumn,
        MeanColumn,
        OpColumn,
        SpanColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit TensorStatsModel(QObject *parent = nullptr);
    ~TensorStatsModel() override;

    /// Without \a evidence (same trace) there are no verdicts and no ops yet.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const EvidenceAnalysis> evidence = {});
    const Trace *trace() const { return m_trace.get(); }
    bool hasVerdicts() const { return m_evidence != nullptr; }
    /// Records with at least one outlier flag.
    std::size_t flaggedCount() const { return m_flagged; }

    std::int64_t spanOfRecord(std::size_t record) const;
    std::int64_t opOfRecord(std::size_t record) const;
    /// The flags of record \a record as words, e.g. "non-finite, near f16 range".
    QString flagText(std::size_t record) const;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const Trace *filterTrace() const override { return m_trace.get(); }
    void sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const override;
    bool recordMatches(std::size_t record, const TextFilter &filter) const override;
    QVariant recordData(std::size_t record, int column, int role) const override;

private:
    QVariant display(std::size_t record, int column) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const EvidenceAnalysis> m_evidence;
    std::size_t m_flagged = 0;
};

} // namespace TraceInspector
