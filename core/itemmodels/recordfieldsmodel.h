// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <vector>

#include "core/model/problem.h"

namespace TraceInspector {

struct Trace;
struct RecordExtents;
class SpanTree;

/// Every field of one record (or finding) and the values derived from it, as a two-level
/// tree: section rows ("Record", "Derived", "Finding") with field rows below. Values keep
/// every digit (`start_ns 12345678912 (12.345 678 912 s)`).
///
/// Derived values of a span or op: total and self time, % of its parent span, % of the run
/// (the host extent from the first start to the last end), % of the measured total, depth,
/// child span and op counts, bytes in and out (of its ops, for a span) and bytes per ns.
class RecordFieldsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { FieldColumn, ValueColumn, ColumnCount };
    Q_ENUM(Column)

    explicit RecordFieldsModel(QObject *parent = nullptr);
    ~RecordFieldsModel() override;

    /// \a extents (of the same trace) give the run's time span; without them the records
    /// are walked.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                  const RecordExtents *extents = nullptr);
    /// Shows record \a index of \a kind (Span, Op, Tensor, Storage = memory event,
    /// DeviceInterval); RelatedKind::None or an index out of range empties the model.
    void setRecord(RelatedKind kind, qint64 index);
    /// Shows a finding and, when it names a record, that record's fields below it.
    void setProblem(const Problem &problem, RelatedKind kind = RelatedKind::None, qint64 index = -1);
    void clear();

    /// Title of what is shown: `span train_step`, `op matmul`…; empty when nothing.
    QString title() const { return m_title; }
    /// All sections as text, one `field: value` per line, for the clipboard.
    QString toText() const;
    /// The value of \a field in section \a section, or a null string (tests, tooltips).
    QString value(const QString &section, const QString &field) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Field {
        QString name;
        QString value;
    };
    struct Section {
        QString title;
        std::vector<Field> fields;
    };
    void build(RelatedKind kind, qint64 index, std::vector<Section> &out);
    void spanSections(std::size_t i, std::vector<Section> &out) const;
    void opSections(std::size_t i, std::vector<Section> &out) const;
    void tensorSections(std::size_t i, std::vector<Section> &out) const;
    void memorySections(std::size_t i, std::vector<Section> &out) const;
    void intervalSections(std::size_t i, std::vector<Section> &out) const;
    void gradientSections(std::size_t i, std::vector<Section> &out) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::uint64_t m_runBegin = 0;
    std::uint64_t m_runEnd = 0;
    std::vector<Section> m_sections;
    QString m_title;
};

} // namespace TraceInspector
