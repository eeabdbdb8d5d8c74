// SPDX-License-Identifier: MIT
#include "core/itemmodels/spancontentsmodel.h"

#include <algorithm>

#include "core/display/format.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/analysis/groupbyindex.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

SpanContentsModel::SpanContentsModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_indexer(new BackgroundSort(this))
{
}

bool SpanContentsModel::isIndexing() const
{
    return m_indexer->isRunning();
}

SpanContentsModel::~SpanContentsModel() = default;

void SpanContentsModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    m_span = -1;
    m_rows.clear();
    std::fill(std::begin(m_counts), std::end(m_counts), 0);
    m_index = Index();
    m_indexed = false;
    m_indexer->cancel();
    endResetModel();
}

void SpanContentsModel::startIndexing()
{
    // Built when a span is first shown, not with the trace: the 1 GB trace's index is 8.5 MB,
    // which a load that never shows a span's contents does not need to hold.
    if (m_trace->tensors.size() + m_trace->memory.size() < BackgroundSort::backgroundRows()) {
        buildIndex(); // a small trace: at once
        return;
    }
    m_indexer->start([this, trace = m_trace, tree = m_tree]() -> BackgroundSort::Apply {
        auto index = std::make_shared<Index>(computeIndex(*trace, *tree));
        return [this, index] {
            m_index = std::move(*index);
            m_indexed = true;
            if (m_span >= 0)
                setSpan(m_span); // now with its tensors and memory events
        };
    });
}

SpanContentsModel::Index SpanContentsModel::computeIndex(const Trace &trace, const SpanTree &tree)
{
    Index index;
    // Records naming no span are left out: setSpan() only asks for spans.
    static_assert(SpanTree::kNoParent == kNoBucket);
    groupByIndex(
        trace.tensors.size(), tree.spanCount(), [&](std::size_t t) { return tree.spanOfId(trace.tensors[t].spanId); },
        index.tensorOffset, index.tensors);
    groupByIndex(
        trace.memory.size(), tree.spanCount(), [&](std::size_t m) { return tree.spanOfId(trace.memory[m].spanId); },
        index.memoryOffset, index.memory);
    return index;
}

void SpanContentsModel::buildIndex()
{
    m_index = computeIndex(*m_trace, *m_tree);
    m_indexed = true;
}

void SpanContentsModel::setSpan(qint64 spanIndex)
{
    beginResetModel();
    m_rows.clear();
    std::fill(std::begin(m_counts), std::end(m_counts), 0);
    m_span = -1;
    if (m_trace && m_tree && spanIndex >= 0 && std::size_t(spanIndex) < m_trace->spans.size()
        && std::size_t(spanIndex) < m_tree->spanCount()) {
        m_span = spanIndex;
        const auto i = std::size_t(spanIndex);
        for (std::uint32_t c : m_tree->children(i))
            m_rows.push_back({RelatedKind::Span, c});
        m_counts[0] = m_rows.size();
        for (std::uint32_t o : m_tree->opsOfSpan(i))
            m_rows.push_back({RelatedKind::Op, o});
        m_counts[1] = m_tree->opsOfSpan(i).size();
        if (!m_indexed && !m_indexer->isRunning())
            startIndexing();
        const std::size_t before = m_rows.size();
        if (m_indexed) {
            for (std::uint32_t k = m_index.tensorOffset[i]; k < m_index.tensorOffset[i + 1]; ++k)
                m_rows.push_back({RelatedKind::Tensor, m_index.tensors[k]});
        }
        m_counts[2] = m_rows.size() - before;
        const std::size_t beforeMemory = m_rows.size();
        if (m_indexed) {
            for (std::uint32_t k = m_index.memoryOffset[i]; k < m_index.memoryOffset[i + 1]; ++k)
                m_rows.push_back({RelatedKind::Storage, m_index.memory[k]});
        }
        m_counts[3] = m_rows.size() - beforeMemory;
    }
    endResetModel();
}

int SpanContentsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SpanContentsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SpanContentsModel::displayValue(const Row &row, int column) const
{
    const Trace &t = *m_trace;
    const std::uint64_t parentDuration = m_tree->durationNs(std::size_t(m_span)).value_or(0);
    auto share = [&](std::uint64_t ns) -> QVariant {
        if (parentDuration == 0)
            return tr("n/a");
        return formatPercent(double(ns) / double(parentDuration));
    };
    switch (row.kind) {
    case RelatedKind::Span: {
        const Span &s = t.spans[row.index];
        const auto duration = m_tree->durationNs(row.index);
        switch (column) {
        case KindColumn: return tr("span");
        case NameColumn: return qs(t.str(s.name));
        case StartColumn: return formatTimestamp(s.startNs);
        case DurationColumn: return duration ? formatDuration(*duration) : tr("open");
        case SelfColumn: {
            const auto self = m_tree->selfNs(row.index);
            return self ? formatDuration(*self) : tr("open");
        }
        case ShareColumn: return duration ? share(*duration) : QVariant(tr("n/a"));
        default: return {};
        }
    }
    case RelatedKind::Op: {
        const Op &op = t.ops[row.index];
        switch (column) {
        case KindColumn: return tr("op");
        case NameColumn: return qs(t.str(op.opName));
        case StartColumn: return formatTimestamp(op.timestampNs);
        case DurationColumn:
        case SelfColumn: return formatDuration(op.durationNs);
        case ShareColumn: return share(op.durationNs);
        case BytesColumn: return op.hasOutputDenseBytes ? formatBytes(op.outputDenseBytes) : tr("unknown");
        default: return {};
        }
    }
    case RelatedKind::Tensor: {
        const Tensor &tensor = t.tensors[row.index];
        switch (column) {
        case KindColumn: return tr("tensor");
        case NameColumn:
            if (tensor.label == kNoString)
                return qs(t.str(tensor.tensorId));
            return QString(qs(t.str(tensor.tensorId)) + QStringLiteral(" (") + qs(t.str(tensor.label)) + u')');
        case BytesColumn: return tensor.hasDenseBytes ? formatBytes(tensor.denseBytes) : tr("unknown");
        default: return {};
        }
    }
    case RelatedKind::Storage: {
        const MemoryEvent &m = t.memory[row.index];
        switch (column) {
        case KindColumn: return m.action == MemoryAction::Alloc ? tr("alloc") : tr("free");
        case NameColumn: return QString(qs(t.str(m.storageId)) + QStringLiteral(" \u2192 ") + qs(t.str(m.tensorId)));
        case StartColumn: return formatTimestamp(m.timestampNs);
        case BytesColumn: return formatBytes(m.bytes);
        default: return {};
        }
    }
    default: return {};
    }
}

QVariant SpanContentsModel::sortValue(const Row &row, int column) const
{
    const Trace &t = *m_trace;
    switch (column) {
    case KindColumn: return int(row.kind);
    case NameColumn: return displayValue(row, column);
    default: break;
    }
    switch (row.kind) {
    case RelatedKind::Span: {
        const Span &s = t.spans[row.index];
        switch (column) {
        case StartColumn: return quint64(s.startNs);
        case DurationColumn:
        case ShareColumn:
            // Open spans sort after every closed one: their duration is unknown, not 0.
            return quint64(m_tree->durationNs(row.index).value_or(UINT64_MAX));
        case SelfColumn: return quint64(m_tree->selfNs(row.index).value_or(UINT64_MAX));
        default: return quint64(0);
        }
    }
    case RelatedKind::Op: {
        const Op &op = t.ops[row.index];
        switch (column) {
        case StartColumn: return quint64(op.timestampNs);
        case DurationColumn:
        case SelfColumn:
        case ShareColumn: return quint64(op.durationNs);
        case BytesColumn: return quint64(op.outputDenseBytes);
        default: return quint64(0);
        }
    }
    case RelatedKind::Tensor: return column == BytesColumn ? quint64(t.tensors[row.index].denseBytes) : quint64(0);
    case RelatedKind::Storage: {
        const MemoryEvent &m = t.memory[row.index];
        if (column == StartColumn)
            return quint64(m.timestampNs);
        return column == BytesColumn ? quint64(m.bytes) : quint64(0);
    }
    default: return quint64(0);
    }
}

QVariant SpanContentsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return displayValue(row, index.column());
    case SortRole: return sortValue(row, index.column());
    case RecordKindRole: return int(row.kind);
    case RecordIndexRole: return qint64(row.index);
    case SpanIndexRole: return row.kind == RelatedKind::Span ? qint64(row.index) : qint64(-1);
    case OpIndexRole: return row.kind == RelatedKind::Op ? qint64(row.index) : qint64(-1);
    case IsOpenRole: return row.kind == RelatedKind::Span && m_tree->isOpen(row.index);
    case Qt::TextAlignmentRole:
        if (index.column() >= StartColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

QVariant SpanContentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KindColumn: return tr("Kind");
    case NameColumn: return tr("Name");
    case StartColumn: return tr("Start");
    case DurationColumn: return tr("Duration");
    case SelfColumn: return tr("Self");
    case ShareColumn: return tr("% of span");
    case BytesColumn: return tr("Bytes");
    default: return {};
    }
}

} // namespace TraceInspector
