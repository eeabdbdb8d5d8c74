// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/itemmodels/modelroles.h"
#include "core/model/problem.h"

namespace TraceInspector {

struct Trace;
class SpanTree;
class BackgroundSort;

/// What happened inside one span, as a flat sortable list: its child spans, its ops, the
/// tensors recorded in it and its memory events. Rows come in that order, each group by
/// time; sort through a QSortFilterProxyModel with SortRole.
///
/// RecordKindRole / RecordIndexRole say which record a row is (RelatedKind::Span, Op,
/// Tensor, Storage for a memory event) so a view can select it.
class SpanContentsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KindColumn,
        NameColumn,
        StartColumn,
        DurationColumn,
        SelfColumn,
        ShareColumn,
        BytesColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        RecordKindRole = UserRoleBase, ///< TraceInspector::RelatedKind as int
        RecordIndexRole,               ///< index into the Trace array of that kind (qint64)
    };

    explicit SpanContentsModel(QObject *parent = nullptr);
    ~SpanContentsModel() override;

    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree);
    /// Lists the contents of span \a spanIndex; -1 empties the list. Resets the model.
    /// The span's tensors and memory events are found through an index by span, built when
    /// a span is first listed, on a worker thread for a big trace: until it lands, a span
    /// lists its child spans and ops, and the model resets once more with the rest
    /// (isIndexing() says whether that is still to come).
    void setSpan(qint64 spanIndex);
    bool isIndexing() const;
    /// The listed span (-1: none). Not span(): QAbstractItemModel::span(index) is virtual.
    qint64 spanIndex() const { return m_span; }

    /// Rows per kind: child spans, ops, tensors, memory events.
    std::size_t childSpanCount() const { return m_counts[0]; }
    std::size_t opCount() const { return m_counts[1]; }
    std::size_t tensorCount() const { return m_counts[2]; }
    std::size_t memoryEventCount() const { return m_counts[3]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RelatedKind kind;
        std::uint32_t index;
    };
    QVariant displayValue(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    qint64 m_span = -1;
    void buildIndex();
    void startIndexing();
    // Tensors and memory events grouped by span (CSR: the records of span i are
    // [offset[i], offset[i + 1]) of the list), built when a span is first shown (in the
    // background for a big trace): a span's records are then a slice, not a scan of millions. Grouped by the span tree's index of
    // their span, not sorted by span id: sorting 1.3 M memory events by their 64-bit keys
    // took ~20 MB at once on the 1 GB trace, beside the load's last analyses.
    struct Index {
        std::vector<std::uint32_t> tensorOffset;
        std::vector<std::uint32_t> tensors;
        std::vector<std::uint32_t> memoryOffset;
        std::vector<std::uint32_t> memory;
    };
    static Index computeIndex(const Trace &trace, const SpanTree &tree);

    std::vector<Row> m_rows;
    std::size_t m_counts[4] = {0, 0, 0, 0};
    Index m_index;
    bool m_indexed = false;
    BackgroundSort *m_indexer;
};

} // namespace TraceInspector
