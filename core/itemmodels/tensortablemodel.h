// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "core/itemmodels/flattablemodel.h"

namespace TraceInspector {

struct Trace;
struct EvidenceAnalysis;

/// Every `tensor` record, one row each (TRACE_FORMAT.md §4.5), with its producing op and the
/// logical storage that held it (from EvidenceAnalysis::tensors). Computed on the fly from
/// the flat arrays; sorting and filtering as FlatTableModel. The filter matches tensor id,
/// label, dtype, device, category, span id and name, producing op name and storage id.
class TensorTableModel : public FlatTableModel
{
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        LabelColumn,
        ShapeColumn,
        DtypeColumn,
        DeviceColumn,
        BytesColumn,
        CategoryColumn,
        RequiresGradColumn,
        OpColumn,
        SpanColumn,
        StorageColumn,
        AllocColumn,
        FreeColumn,
        AgeAtPeakColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit TensorTableModel(QObject *parent = nullptr);
    ~TensorTableModel() override;

    /// \a evidence (of the same trace) may follow later: until then ops and storage are empty.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const EvidenceAnalysis> evidence = {});
    const Trace *trace() const { return m_trace.get(); }

    /// Index into Trace::spans of tensor \a tensor's span, or -1.
    std::int64_t spanOfTensor(std::size_t tensor) const;
    /// Index into Trace::ops of the op that produced tensor \a tensor, or -1.
    std::int64_t opOfTensor(std::size_t tensor) const;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const Trace *filterTrace() const override { return m_trace.get(); }
    void sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const override;
    bool recordMatches(std::size_t record, const TextFilter &filter) const override;
    QVariant recordData(std::size_t record, int column, int role) const override;

private:
    QVariant display(std::size_t tensor, int column) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const EvidenceAnalysis> m_evidence;
};

} // namespace TraceInspector
