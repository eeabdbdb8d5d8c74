// SPDX-License-Identifier: MIT
#include "core/itemmodels/optablemodel.h"

#include "core/analysis/densebytes.h"
#include "core/analysis/radixorder.h"
#include "core/analysis/recordextents.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <memory>
#include <numeric>
#include <utility>

#include "core/display/format.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Rank of every interned string used by \a field of some op, in byte-wise text order.
// Sorting the distinct values once and comparing ranks is far cheaper than comparing text
// for every pair of rows.
std::vector<std::uint32_t> stringRanks(const Trace &trace, StringId Op::*field)
{
    const std::size_t stringCount = trace.strings.size();
    std::vector<std::uint32_t> rank(stringCount, 0);
    std::vector<StringId> distinct;
    for (const Op &op : trace.ops) {
        const StringId id = op.*field;
        if (id < stringCount && rank[id] == 0) {
            rank[id] = 1;
            distinct.push_back(id);
        }
    }
    std::sort(distinct.begin(), distinct.end(), [&trace](StringId a, StringId b) { return trace.strings.less(a, b); });
    for (std::size_t i = 0; i < distinct.size(); ++i)
        rank[distinct[i]] = std::uint32_t(i);
    return rank;
}

std::vector<std::uint32_t> shapeRanks(const Trace &trace)
{
    std::vector<std::uint32_t> rank(trace.shapes.size(), 0);
    std::vector<ShapeId> distinct;
    for (const Op &op : trace.ops) {
        if (op.shape < rank.size() && rank[op.shape] == 0) {
            rank[op.shape] = 1;
            distinct.push_back(op.shape);
        }
    }
    std::vector<std::uint64_t> elements(trace.shapes.size(), 0);
    for (ShapeId id : distinct)
        elements[id] = elemCount(trace.shapes.view(id));
    // By element count, then dims, so [4] < [2, 3] < [2, 128, 768] reads as "bigger later".
    std::sort(distinct.begin(), distinct.end(), [&](ShapeId a, ShapeId b) {
        if (elements[a] != elements[b])
            return elements[a] < elements[b];
        const auto da = trace.shapes.view(a);
        const auto db = trace.shapes.view(b);
        return std::lexicographical_compare(da.begin(), da.end(), db.begin(), db.end());
    });
    for (std::size_t i = 0; i < distinct.size(); ++i)
        rank[distinct[i]] = std::uint32_t(i);
    return rank;
}

// Rank of each op's span id in byte-wise order without comparing a million strings: known
// span ids are already ordered by span index (Trace::spans is id-sorted); the few ids that
// name no span are sorted among themselves and slotted in front of their lower bound.
std::vector<std::uint64_t> spanIdKeys(const Trace &trace, const SpanTree &tree)
{
    const std::vector<Op> &ops = trace.ops;
    std::vector<std::uint64_t> keys(ops.size());
    std::vector<StringId> unknown;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (tree.spanOfOp(i) == SpanTree::kNoParent)
            unknown.push_back(ops[i].spanId);
    }
    std::sort(unknown.begin(), unknown.end(), [&trace](StringId a, StringId b) { return trace.strings.less(a, b); });
    unknown.erase(std::unique(unknown.begin(), unknown.end()), unknown.end());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::uint32_t span = tree.spanOfOp(i);
        if (span != SpanTree::kNoParent) {
            keys[i] = (std::uint64_t(span) << 32) | 0xFFFFFFFFU;
            continue;
        }
        const std::string_view id = trace.str(ops[i].spanId);
        const auto pos =
            std::lower_bound(trace.spans.begin(), trace.spans.end(), id,
                             [&trace](const Span &s, std::string_view key) { return trace.str(s.id) < key; });
        const auto rank = std::lower_bound(unknown.begin(), unknown.end(), ops[i].spanId,
                                           [&trace](StringId a, StringId b) { return trace.strings.less(a, b); });
        keys[i] = (std::uint64_t(pos - trace.spans.begin()) << 32) | std::uint64_t(rank - unknown.begin());
    }
    return keys;
}

} // namespace

OpTableModel::OpTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_sorter(new BackgroundSort(this))
{
    connect(m_sorter, &BackgroundSort::runningChanged, this, &OpTableModel::sortingChanged);
}

bool OpTableModel::isSorting() const
{
    return m_sorter->isRunning();
}

OpTableModel::~OpTableModel() = default;

void OpTableModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                            const RecordExtents *extents)
{
    beginResetModel();
    m_sorter->cancel(); // an order for the previous trace
    m_trace = std::move(trace);
    m_tree = (m_trace && tree && tree->opCount() == m_trace->ops.size() && tree->spanCount() == m_trace->spans.size())
                 ? std::move(tree)
                 : nullptr;
    m_order.clear();
    m_rowOfOp.clear();
    m_sortColumn = -1;
    m_sortOrder = Qt::AscendingOrder;
    m_maxDurationNs = 0;
    if (m_trace)
        m_maxDurationNs = (extents ? *extents : RecordExtents::compute(*m_trace)).opMaxDurationNs;
    endResetModel();
}

QModelIndex OpTableModel::indexForOp(std::int64_t opIndex, int column) const
{
    if (!m_trace || opIndex < 0 || std::uint64_t(opIndex) >= m_trace->ops.size() || column < 0 || column >= ColumnCount)
        return {};
    const int row = m_rowOfOp.empty() ? int(opIndex) : int(m_rowOfOp[std::size_t(opIndex)]);
    return index(row, column);
}

std::int64_t OpTableModel::opAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    return m_order.empty() ? row : std::int64_t(m_order[std::size_t(row)]);
}

std::int64_t OpTableModel::spanOfOp(std::int64_t opIndex) const
{
    if (!m_trace || opIndex < 0 || std::uint64_t(opIndex) >= m_trace->ops.size())
        return -1;
    return spanOfOpIn(*m_trace, m_tree.get(), std::size_t(opIndex));
}

std::int64_t OpTableModel::spanOfOpIn(const Trace &trace, const SpanTree *tree, std::size_t op)
{
    if (tree) {
        const std::uint32_t span = tree->spanOfOp(op);
        return span == SpanTree::kNoParent ? -1 : std::int64_t(span);
    }
    return trace.findSpan(trace.ops[op].spanId);
}

void OpTableModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    Q_EMIT headerDataChanged(Qt::Horizontal, StartColumn, DurationColumn);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, StartColumn), index(rowCount() - 1, DurationColumn), {Qt::DisplayRole});
}

int OpTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_trace)
        return 0;
    return int(std::min<std::size_t>(m_trace->ops.size(), std::size_t(std::numeric_limits<int>::max())));
}

int OpTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_trace || !index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const std::size_t op = std::size_t(opAt(index.row()));
    const Op &o = m_trace->ops[op];
    const int column = index.column();

    switch (role) {
    case Qt::DisplayRole: return displayData(op, column);
    case Qt::ToolTipRole: return toolTip(op);
    case Qt::TextAlignmentRole:
        if (column >= StartColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case SortRole: return sortData(op, column);
    case OpIndexRole: return QVariant::fromValue(qint64(op));
    case SpanIndexRole: return QVariant::fromValue(qint64(spanOfOp(std::int64_t(op))));
    case SpanIdRole: return qs(m_trace->str(o.spanId));
    case IsDanglingRole: // the op's span_id names no span
        return spanOfOp(std::int64_t(op)) < 0;
    case DurationRole: return QVariant::fromValue(quint64(o.durationNs));
    case BarValueRole: return QVariant::fromValue(quint64(o.durationNs));
    case TotalRole: return QVariant::fromValue(quint64(m_maxDurationNs));
    case BytesPerNsRole:
        if (const auto rate = bytesPerNs(op))
            return *rate;
        return {};
    case ParentShareRole:
        if (const auto share = parentShare(op))
            return *share;
        return {};
    case BytesRole:
        if (column == BytesMovedColumn)
            return QVariant::fromValue(
                quint64(opBytesMoved(o.inputDenseBytes, o.outputDenseBytes, o.hasOutputDenseBytes)));
        if (column == InputBytesColumn)
            return QVariant::fromValue(quint64(o.inputDenseBytes));
        if (column == OutputBytesColumn && o.hasOutputDenseBytes)
            return QVariant::fromValue(quint64(o.outputDenseBytes));
        return {};
    case OpNameRole: return qs(m_trace->str(o.opName));
    case DeviceRole: return qs(m_trace->str(o.device));
    case LineRole: return QVariant::fromValue(quint64(o.line));
    default: return {};
    }
}

QVariant OpTableModel::displayData(std::size_t op, int column) const
{
    const Op &o = m_trace->ops[op];
    switch (column) {
    case NameColumn: return qs(m_trace->str(o.opName));
    case SpanColumn: return qs(m_trace->str(o.spanId));
    case ShapeColumn: return formatShape(m_trace->shapes.view(o.shape));
    case DtypeColumn: return qs(m_trace->str(o.dtype));
    case DeviceColumn: return qs(m_trace->str(o.device));
    case StartColumn: return formatTimePoint(o.timestampNs, m_unit, false);
    case DurationColumn: return formatDurationIn(o.durationNs, m_unit, false);
    case InputBytesColumn: return formatBytes(o.inputDenseBytes);
    case OutputBytesColumn: return o.hasOutputDenseBytes ? formatBytes(o.outputDenseBytes) : tr("n/a");
    case BytesMovedColumn:
        return formatBytes(opBytesMoved(o.inputDenseBytes, o.outputDenseBytes, o.hasOutputDenseBytes));
    case BytesPerNsColumn:
        if (const auto rate = bytesPerNs(op))
            return formatBytesPerNs(*rate);
        return tr("n/a");
    case ParentShareColumn:
        if (const auto share = parentShare(op))
            return formatPercent(*share);
        return tr("n/a");
    default: return {};
    }
}

std::optional<double> OpTableModel::bytesPerNs(std::size_t op) const
{
    return bytesPerNsIn(*m_trace, op);
}

std::optional<double> OpTableModel::bytesPerNsIn(const Trace &trace, std::size_t op)
{
    const Op &o = trace.ops[op];
    if (o.durationNs == 0)
        return std::nullopt;
    return double(opBytesMoved(o.inputDenseBytes, o.outputDenseBytes, o.hasOutputDenseBytes)) / double(o.durationNs);
}

std::optional<double> OpTableModel::parentShare(std::size_t op) const
{
    return parentShareIn(*m_trace, m_tree.get(), op);
}

std::optional<double> OpTableModel::parentShareIn(const Trace &trace, const SpanTree *tree, std::size_t op)
{
    const std::int64_t span = spanOfOpIn(trace, tree, op);
    if (span < 0)
        return std::nullopt;
    const Span &s = trace.spans[std::size_t(span)];
    if (!s.closed || s.durationNs == 0)
        return std::nullopt;
    return double(trace.ops[op].durationNs) / double(s.durationNs);
}

QVariant OpTableModel::sortData(std::size_t op, int column) const
{
    const Op &o = m_trace->ops[op];
    switch (column) {
    case NameColumn:
    case SpanColumn:
    case DtypeColumn:
    case DeviceColumn: return displayData(op, column);
    case ShapeColumn: return QVariant::fromValue(quint64(elemCount(m_trace->shapes.view(o.shape))));
    case StartColumn: return QVariant::fromValue(quint64(o.timestampNs));
    case DurationColumn: return QVariant::fromValue(quint64(o.durationNs));
    case InputBytesColumn: return QVariant::fromValue(quint64(o.inputDenseBytes));
    case OutputBytesColumn:
        if (o.hasOutputDenseBytes)
            return QVariant::fromValue(quint64(o.outputDenseBytes));
        return {};
    case BytesMovedColumn:
        return QVariant::fromValue(quint64(opBytesMoved(o.inputDenseBytes, o.outputDenseBytes, o.hasOutputDenseBytes)));
    case BytesPerNsColumn:
        if (const auto rate = bytesPerNs(op))
            return *rate;
        return {};
    case ParentShareColumn:
        if (const auto share = parentShare(op))
            return *share;
        return {};
    default: return {};
    }
}

QString OpTableModel::toolTip(std::size_t op) const
{
    const Op &o = m_trace->ops[op];
    QString text = qs(m_trace->str(o.opName));
    const std::int64_t span = spanOfOp(std::int64_t(op));
    if (span >= 0)
        text += u'\n'
                + tr("span: %1 (%2)")
                      .arg(qs(m_trace->str(o.spanId)), qs(m_trace->str(m_trace->spans[std::size_t(span)].name)));
    else
        text += u'\n' + tr("span: %1 — names no span in this trace").arg(qs(m_trace->str(o.spanId)));
    const auto inputs = m_trace->idLists.view(o.inputs);
    if (!inputs.empty()) {
        constexpr std::size_t kShown = 8;
        QStringList names;
        for (std::size_t i = 0; i < std::min(inputs.size(), kShown); ++i)
            names.append(qs(m_trace->str(inputs[i])));
        if (inputs.size() > kShown)
            names.append(tr("… %1 more").arg(inputs.size() - kShown));
        text += u'\n' + tr("inputs: %1").arg(names.join(QStringLiteral(", ")));
    }
    if (o.output != kNoString)
        text += u'\n' + tr("output: %1").arg(qs(m_trace->str(o.output)));
    text += u'\n' + tr("duration: %1 ns, start: %2 ns").arg(o.durationNs).arg(o.timestampNs);
    text += u'\n' + tr("line: %1").arg(o.line);
    return text;
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::InitialSortOrderRole) {
        // Costs (time, bytes, elements) are read largest first.
        switch (section) {
        case ShapeColumn:
        case DurationColumn:
        case InputBytesColumn:
        case OutputBytesColumn:
        case BytesMovedColumn:
        case BytesPerNsColumn:
        case ParentShareColumn: return int(Qt::DescendingOrder);
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        const QString unit = m_unit == TimeUnit::Auto ? QString() : QStringLiteral(" (%1)").arg(timeUnitSymbol(m_unit));
        switch (section) {
        case NameColumn: return tr("Op");
        case SpanColumn: return tr("Span");
        case ShapeColumn: return tr("Shape");
        case DtypeColumn: return tr("Dtype");
        case DeviceColumn: return tr("Device");
        case StartColumn: return QString(tr("Start") + unit);
        case DurationColumn: return QString(tr("Duration") + unit);
        case InputBytesColumn: return tr("In bytes");
        case OutputBytesColumn: return tr("Out bytes");
        case BytesMovedColumn: return tr("Bytes moved");
        case BytesPerNsColumn: return tr("Bytes/ns");
        case ParentShareColumn: return tr("% of span");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn: return tr("op_name");
        case SpanColumn: return tr("span_id of the owning span");
        case ShapeColumn: return tr("Output shape; sorted by element count");
        case DtypeColumn: return tr("Output dtype");
        case DeviceColumn: return tr("Device the op ran on");
        case StartColumn: return tr("timestamp_ns: host start time of the op");
        case DurationColumn: return tr("duration_ns");
        case InputBytesColumn: return tr("input_dense_bytes: sum of dense input footprints");
        case OutputBytesColumn:
            return tr("output_dense_bytes, given or derived from shape and dtype; n/a for an unknown dtype");
        case BytesMovedColumn: return tr("Input bytes plus output bytes (when known)");
        case BytesPerNsColumn:
            return tr("Bytes moved divided by duration_ns (1 B/ns = 1 GB/s); n/a for a zero duration");
        case ParentShareColumn:
            return tr(
                "duration_ns as a share of the owning span's host duration; n/a when the span is unknown or open");
        default: return {};
        }
    }
    return {};
}

std::vector<std::uint32_t> OpTableModel::sortedOrder(const Trace &trace, const SpanTree *tree, int column,
                                                     Qt::SortOrder order)
{
    const std::vector<Op> &ops = trace.ops;
    std::vector<std::uint64_t> keys(ops.size());
    std::vector<std::uint8_t> absent; // efficiency columns: the value is n/a
    const auto fill = [&](auto valueOf) {
        for (std::size_t i = 0; i < ops.size(); ++i)
            keys[i] = valueOf(ops[i]);
    };
    switch (column) {
    case SpanColumn:
        if (tree) {
            keys = spanIdKeys(trace, *tree);
            break;
        }
        [[fallthrough]];
    case NameColumn:
    case DtypeColumn:
    case DeviceColumn: {
        StringId Op::*field = column == NameColumn    ? &Op::opName
                              : column == SpanColumn  ? &Op::spanId
                              : column == DtypeColumn ? &Op::dtype
                                                      : &Op::device;
        const std::vector<std::uint32_t> rank = stringRanks(trace, field);
        fill([&](const Op &o) { return o.*field < rank.size() ? std::uint64_t(rank[o.*field]) : 0; });
        break;
    }
    case ShapeColumn: {
        const std::vector<std::uint32_t> rank = shapeRanks(trace);
        fill([&](const Op &o) { return o.shape < rank.size() ? std::uint64_t(rank[o.shape]) : 0; });
        break;
    }
    case StartColumn: fill([](const Op &o) { return o.timestampNs; }); break;
    case DurationColumn: fill([](const Op &o) { return o.durationNs; }); break;
    case InputBytesColumn: fill([](const Op &o) { return o.inputDenseBytes; }); break;
    case OutputBytesColumn: fill([](const Op &o) { return o.outputDenseBytes; }); break;
    case BytesMovedColumn:
        fill([](const Op &o) { return opBytesMoved(o.inputDenseBytes, o.outputDenseBytes, o.hasOutputDenseBytes); });
        break;
    case BytesPerNsColumn:
    case ParentShareColumn:
        // Non-negative doubles order like their bit patterns; n/a is partitioned below.
        absent.assign(ops.size(), 0);
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const auto value = column == BytesPerNsColumn ? bytesPerNsIn(trace, i) : parentShareIn(trace, tree, i);
            keys[i] = value ? std::bit_cast<std::uint64_t>(*value) : 0;
            absent[i] = !value;
        }
        break;
    default: break;
    }
    if (order == Qt::DescendingOrder) {
        // Inverting the keys keeps the sort stable, so ties stay in stream order.
        for (std::uint64_t &key : keys)
            key = ~key;
    }
    std::vector<std::uint32_t> result = radixOrder(std::move(keys));
    if (column == OutputBytesColumn || column == BytesPerNsColumn || column == ParentShareColumn) {
        // Absent values after present ones ascending, before them descending.
        const bool absentFirst = order == Qt::DescendingOrder;
        const auto present = [&](std::uint32_t op) {
            return column == OutputBytesColumn ? ops[op].hasOutputDenseBytes : absent[op] == 0;
        };
        std::stable_partition(result.begin(), result.end(),
                              [&](std::uint32_t op) { return present(op) != absentFirst; });
    }
    return result;
}

void OpTableModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        column = -1;
    if (column == m_sortColumn && (column < 0 || order == m_sortOrder))
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    if (!m_trace || column < 0 || !m_backgroundSorting || m_trace->ops.size() < BackgroundSort::backgroundRows()) {
        m_sorter->cancel();
        applyOrder(m_trace && column >= 0 ? sortedOrder(*m_trace, m_tree.get(), column, order)
                                          : std::vector<std::uint32_t>{});
        return;
    }
    m_sorter->start([this, trace = m_trace, tree = m_tree, column, order]() -> BackgroundSort::Apply {
        // Only the shared trace is read here; \c this is touched by the apply step alone.
        auto sorted = std::make_shared<std::vector<std::uint32_t>>(sortedOrder(*trace, tree.get(), column, order));
        return [this, sorted] { applyOrder(std::move(*sorted)); };
    });
}

void OpTableModel::applyOrder(std::vector<std::uint32_t> newOrder)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::int64_t> opsBefore;
    opsBefore.reserve(std::size_t(before.size()));
    for (const QModelIndex &index : before)
        opsBefore.push_back(opAt(index.row()));

    m_order = std::move(newOrder);
    m_rowOfOp.assign(m_order.size(), 0);
    for (std::size_t row = 0; row < m_order.size(); ++row)
        m_rowOfOp[m_order[row]] = std::uint32_t(row);

    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after.append(indexForOp(opsBefore[std::size_t(i)], before[i].column()));
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace TraceInspector
