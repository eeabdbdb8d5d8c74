// SPDX-License-Identifier: MIT
#include "core/itemmodels/recordfieldsmodel.h"

#include <algorithm>
#include <limits>

#include "core/display/format.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/compat/floatformat.h"
#include "core/model/trace.h"
#include "core/timeline/timelineruler.h"

namespace TraceInspector {
namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString exact(std::uint64_t ns)
{
    const RulerUnit unit = rulerUnit(ns);
    const int decimals = unit == RulerUnit::Seconds        ? 9
                         : unit == RulerUnit::Milliseconds ? 6
                         : unit == RulerUnit::Microseconds ? 3
                                                           : 0;
    return QString::number(ns) + QStringLiteral(" (") + QString::fromStdString(formatRulerLabel(ns, unit, decimals))
           + u')';
}

QString duration(std::uint64_t ns)
{
    return QString::number(ns) + QStringLiteral(" (") + formatDuration(ns) + u')';
}

QString bytes(std::uint64_t b)
{
    return b < 1024 ? formatBytes(b) : formatCount(b) + QStringLiteral(" (") + formatBytes(b) + u')';
}

QString optionalString(const Trace &t, StringId id)
{
    return id == kNoString ? RecordFieldsModel::tr("\u2014 (absent)") : qs(t.str(id));
}

QString boolText(bool b)
{
    return b ? QStringLiteral("true") : QStringLiteral("false");
}

QString ratio(std::uint64_t part, std::uint64_t whole)
{
    return whole == 0 ? RecordFieldsModel::tr("n/a") : formatPercent(double(part) / double(whole));
}

QString perNs(std::uint64_t b, std::uint64_t ns)
{
    if (ns == 0)
        return RecordFieldsModel::tr("n/a");
    return QString::number(double(b) / double(ns), 'g', 4) + QStringLiteral(" B/ns");
}

std::uint64_t endOf(std::uint64_t start, std::uint64_t length)
{
    return length > std::numeric_limits<std::uint64_t>::max() - start ? std::numeric_limits<std::uint64_t>::max()
                                                                      : start + length;
}

} // namespace

RecordFieldsModel::RecordFieldsModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

RecordFieldsModel::~RecordFieldsModel() = default;

void RecordFieldsModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                                 const RecordExtents *extents)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    m_sections.clear();
    m_title.clear();
    m_runBegin = m_runEnd = 0;
    if (m_trace) {
        const RecordExtents e = extents ? *extents : RecordExtents::compute(*m_trace);
        m_runBegin = e.runBeginNs;
        m_runEnd = e.runEndNs;
    }
    endResetModel();
}

void RecordFieldsModel::clear()
{
    beginResetModel();
    m_sections.clear();
    m_title.clear();
    endResetModel();
}

void RecordFieldsModel::setRecord(RelatedKind kind, qint64 index)
{
    beginResetModel();
    m_sections.clear();
    m_title.clear();
    build(kind, index, m_sections);
    endResetModel();
}

void RecordFieldsModel::setProblem(const Problem &problem, RelatedKind kind, qint64 index)
{
    beginResetModel();
    m_sections.clear();
    Section finding{tr("Finding"), {}};
    finding.fields.push_back({tr("severity"), QString::fromLatin1(severityName(problem.severity))});
    finding.fields.push_back({tr("rule"), QString::fromStdString(problem.ruleId)});
    if (!problem.code.empty())
        finding.fields.push_back({tr("code"), QString::fromStdString(problem.code)});
    finding.fields.push_back({tr("message"), QString::fromStdString(problem.message)});
    finding.fields.push_back(
        {tr("line"), problem.line == 0 ? tr("\u2014 (whole file)") : QString::number(problem.line)});
    if (problem.column > 0)
        finding.fields.push_back({tr("column"), QString::number(problem.column)});
    if (!problem.relatedId.empty())
        finding.fields.push_back({tr("names"), QString::fromStdString(problem.relatedId)});
    m_sections.push_back(std::move(finding));
    build(kind, index, m_sections);
    m_title = tr("finding %1").arg(QString::fromStdString(problem.ruleId));
    endResetModel();
}

void RecordFieldsModel::build(RelatedKind kind, qint64 index, std::vector<Section> &out)
{
    if (!m_trace || !m_tree || index < 0)
        return;
    const auto i = std::size_t(index);
    const Trace &t = *m_trace;
    switch (kind) {
    case RelatedKind::Span:
        if (i < t.spans.size() && i < m_tree->spanCount()) {
            spanSections(i, out);
            m_title = tr("span %1").arg(qs(t.str(t.spans[i].name)));
        }
        break;
    case RelatedKind::Op:
        if (i < t.ops.size() && i < m_tree->opCount()) {
            opSections(i, out);
            m_title = tr("op %1").arg(qs(t.str(t.ops[i].opName)));
        }
        break;
    case RelatedKind::Tensor:
        if (i < t.tensors.size()) {
            tensorSections(i, out);
            m_title = tr("tensor %1").arg(qs(t.str(t.tensors[i].tensorId)));
        }
        break;
    case RelatedKind::Storage:
        if (i < t.memory.size()) {
            memorySections(i, out);
            m_title =
                tr("memory %1 %2").arg(qs(memoryActionName(t.memory[i].action)), qs(t.str(t.memory[i].storageId)));
        }
        break;
    case RelatedKind::DeviceInterval:
        if (i < t.deviceIntervals.size()) {
            intervalSections(i, out);
            m_title =
                t.findSpan(t.deviceIntervals[i].spanId) < 0
                    ? tr("device interval outside every span (span_id %1)").arg(qs(t.str(t.deviceIntervals[i].spanId)))
                    : tr("device interval of %1").arg(qs(t.str(t.deviceIntervals[i].spanId)));
        }
        break;
    case RelatedKind::Gradient:
        if (i < t.gradients.size()) {
            gradientSections(i, out);
            m_title = tr("gradient (%1, %2)").arg(qs(t.str(t.gradients[i].root)), qs(t.str(t.gradients[i].key)));
        }
        break;
    default: break;
    }
}

void RecordFieldsModel::spanSections(std::size_t i, std::vector<Section> &out) const
{
    const Trace &t = *m_trace;
    const SpanTree &tree = *m_tree;
    const Span &s = t.spans[i];
    Section record{tr("Record"), {}};
    record.fields.push_back({QStringLiteral("id"), qs(t.str(s.id))});
    record.fields.push_back(
        {QStringLiteral("parent_id"), s.parentId == kNoString ? tr("\u2014 (root)") : qs(t.str(s.parentId))});
    record.fields.push_back({QStringLiteral("name"), qs(t.str(s.name))});
    record.fields.push_back({QStringLiteral("span_kind"), qs(spanKindName(s.kind))});
    record.fields.push_back({QStringLiteral("measured"), boolText(s.measured)});
    record.fields.push_back(
        {QStringLiteral("step"), s.step == ExecutionStep::None ? tr("\u2014 (absent)") : qs(stepName(s.step))});
    record.fields.push_back({QStringLiteral("start_ns"), exact(s.startNs)});
    record.fields.push_back(
        {QStringLiteral("duration_ns"), s.closed ? duration(s.durationNs) : tr("\u2014 (open: no span_end)")});
    record.fields.push_back({tr("span_start line"), QString::number(s.startLine)});
    record.fields.push_back({tr("span_end line"), s.endLine == 0 ? tr("\u2014 (open)") : QString::number(s.endLine)});
    out.push_back(std::move(record));

    Section derived{tr("Derived"), {}};
    const auto total = tree.durationNs(i);
    derived.fields.push_back({tr("total"), total ? duration(*total) : tr("unknown (open)")});
    const auto self = tree.selfNs(i);
    derived.fields.push_back({tr("self"), self ? duration(*self) : tr("unknown (open)")});
    const std::uint32_t parent = tree.parent(i);
    if (parent == SpanTree::kNoParent) {
        derived.fields.push_back({tr("% of parent"), tr("n/a (root)")});
    } else {
        const auto parentTotal = tree.durationNs(parent);
        derived.fields.push_back({tr("% of parent"), total && parentTotal ? ratio(*total, *parentTotal) : tr("n/a")});
    }
    derived.fields.push_back({tr("% of run"), total ? ratio(*total, m_runEnd - m_runBegin) : tr("n/a")});
    const auto fraction = tree.fractionOfMeasured(i);
    derived.fields.push_back({tr("% of measured total"), fraction ? formatPercent(*fraction) : tr("n/a")});
    derived.fields.push_back({tr("depth"), QString::number(tree.depth(i))});
    derived.fields.push_back({tr("child spans"), formatCount(tree.children(i).size())});
    const auto ops = tree.opsOfSpan(i);
    derived.fields.push_back({tr("ops"), formatCount(ops.size())});
    std::uint64_t in = 0;
    std::uint64_t outBytes = 0;
    for (std::uint32_t o : ops) {
        in += t.ops[o].inputDenseBytes;
        outBytes += t.ops[o].outputDenseBytes;
    }
    derived.fields.push_back({tr("bytes in (its ops)"), bytes(in)});
    derived.fields.push_back({tr("bytes out (its ops)"), bytes(outBytes)});
    derived.fields.push_back({tr("bytes per ns"), total ? perNs(in + outBytes, *total) : tr("n/a")});
    if (tree.isDangling(i))
        derived.fields.push_back({tr("note"), tr("its parent_id names no span: shown at the root level")});
    if (tree.isInCycle(i))
        derived.fields.push_back({tr("note"), tr("part of a parent cycle")});
    out.push_back(std::move(derived));
}

void RecordFieldsModel::opSections(std::size_t i, std::vector<Section> &out) const
{
    const Trace &t = *m_trace;
    const SpanTree &tree = *m_tree;
    const Op &op = t.ops[i];
    Section record{tr("Record"), {}};
    record.fields.push_back({QStringLiteral("span_id"), qs(t.str(op.spanId))});
    record.fields.push_back({QStringLiteral("op_name"), qs(t.str(op.opName))});
    QStringList inputs;
    for (StringId id : t.idLists.view(op.inputs))
        inputs << qs(t.str(id));
    record.fields.push_back({QStringLiteral("inputs"), u'[' + inputs.join(QStringLiteral(", ")) + u']'});
    record.fields.push_back({QStringLiteral("output"), optionalString(t, op.output)});
    record.fields.push_back({QStringLiteral("shape"), formatShape(t.shapes.view(op.shape))});
    record.fields.push_back({QStringLiteral("dtype"), qs(t.str(op.dtype))});
    record.fields.push_back({QStringLiteral("device"), qs(t.str(op.device))});
    record.fields.push_back({QStringLiteral("duration_ns"), duration(op.durationNs)});
    record.fields.push_back({QStringLiteral("timestamp_ns"), exact(op.timestampNs)});
    record.fields.push_back({QStringLiteral("output_dense_bytes"), op.hasOutputDenseBytes
                                                                       ? bytes(op.outputDenseBytes)
                                                                       : tr("\u2014 (absent, not derivable)")});
    record.fields.push_back({QStringLiteral("input_dense_bytes"), bytes(op.inputDenseBytes)});
    record.fields.push_back({tr("line"), QString::number(op.line)});
    out.push_back(std::move(record));

    Section derived{tr("Derived"), {}};
    derived.fields.push_back({tr("total"), duration(op.durationNs)});
    derived.fields.push_back({tr("self"), duration(op.durationNs)});
    const std::uint32_t span = tree.spanOfOp(i);
    if (span == SpanTree::kNoParent) {
        derived.fields.push_back({tr("% of parent"), tr("n/a (unknown span)")});
    } else {
        const auto spanTotal = tree.durationNs(span);
        derived.fields.push_back(
            {tr("% of parent"), spanTotal ? ratio(op.durationNs, *spanTotal) : tr("n/a (span open)")});
    }
    derived.fields.push_back({tr("% of run"), ratio(op.durationNs, m_runEnd - m_runBegin)});
    derived.fields.push_back(
        {tr("depth"), span == SpanTree::kNoParent ? tr("n/a") : QString::number(tree.depth(span) + 1)});
    derived.fields.push_back({tr("bytes in"), bytes(op.inputDenseBytes)});
    derived.fields.push_back({tr("bytes out"), op.hasOutputDenseBytes ? bytes(op.outputDenseBytes) : tr("unknown")});
    derived.fields.push_back({tr("bytes per ns"), perNs(op.inputDenseBytes + op.outputDenseBytes, op.durationNs)});
    out.push_back(std::move(derived));
}

void RecordFieldsModel::tensorSections(std::size_t i, std::vector<Section> &out) const
{
    const Trace &t = *m_trace;
    const Tensor &x = t.tensors[i];
    Section record{tr("Record"), {}};
    record.fields.push_back({QStringLiteral("span_id"), qs(t.str(x.spanId))});
    record.fields.push_back({QStringLiteral("tensor_id"), qs(t.str(x.tensorId))});
    record.fields.push_back({QStringLiteral("label"), optionalString(t, x.label)});
    record.fields.push_back({QStringLiteral("shape"), formatShape(t.shapes.view(x.shape))});
    record.fields.push_back({QStringLiteral("dtype"), qs(t.str(x.dtype))});
    record.fields.push_back({QStringLiteral("device"), qs(t.str(x.device))});
    record.fields.push_back({QStringLiteral("requires_grad"), boolText(x.requiresGrad)});
    record.fields.push_back(
        {QStringLiteral("dense_bytes"), x.hasDenseBytes ? bytes(x.denseBytes) : tr("\u2014 (absent, not derivable)")});
    record.fields.push_back({QStringLiteral("category"), qs(memoryCategoryName(x.category))});
    record.fields.push_back({tr("line"), QString::number(x.line)});
    out.push_back(std::move(record));
}

void RecordFieldsModel::memorySections(std::size_t i, std::vector<Section> &out) const
{
    const Trace &t = *m_trace;
    const MemoryEvent &m = t.memory[i];
    Section record{tr("Record"), {}};
    record.fields.push_back({QStringLiteral("timestamp_ns"), exact(m.timestampNs)});
    record.fields.push_back({QStringLiteral("storage_id"), qs(t.str(m.storageId))});
    record.fields.push_back({QStringLiteral("tensor_id"), qs(t.str(m.tensorId))});
    record.fields.push_back({QStringLiteral("span_id"), qs(t.str(m.spanId))});
    record.fields.push_back({QStringLiteral("op_name"), optionalString(t, m.opName)});
    record.fields.push_back({QStringLiteral("device"), qs(t.str(m.device))});
    record.fields.push_back({QStringLiteral("bytes"), bytes(m.bytes)});
    record.fields.push_back({QStringLiteral("action"), qs(memoryActionName(m.action))});
    record.fields.push_back({QStringLiteral("shape"), formatShape(t.shapes.view(m.shape))});
    record.fields.push_back({QStringLiteral("dtype"), qs(t.str(m.dtype))});
    record.fields.push_back({QStringLiteral("category"), qs(memoryCategoryName(m.category))});
    record.fields.push_back({tr("line"), QString::number(m.line)});
    out.push_back(std::move(record));
}

void RecordFieldsModel::intervalSections(std::size_t i, std::vector<Section> &out) const
{
    const Trace &t = *m_trace;
    const DeviceInterval &d = t.deviceIntervals[i];
    Section record{tr("Record"), {}};
    record.fields.push_back({QStringLiteral("span_id"), qs(t.str(d.spanId))});
    record.fields.push_back({QStringLiteral("device"), qs(t.str(d.device))});
    record.fields.push_back({QStringLiteral("stream_id"), qs(t.str(d.streamId))});
    record.fields.push_back({QStringLiteral("clock_id"), qs(t.str(d.clockId))});
    record.fields.push_back({QStringLiteral("backend"), qs(t.str(d.backend))});
    record.fields.push_back({QStringLiteral("start_ns"), QString::number(d.startNs) + tr(" (device clock)")});
    record.fields.push_back({QStringLiteral("duration_ns"), duration(d.durationNs)});
    record.fields.push_back({tr("line"), QString::number(d.line)});
    out.push_back(std::move(record));
    Section derived{tr("Derived"), {}};
    derived.fields.push_back({tr("end"), QString::number(endOf(d.startNs, d.durationNs)) + tr(" (device clock)")});
    derived.fields.push_back(
        {tr("clock"),
         tr("device clock %1: not comparable with host times (TRACE_FORMAT.md \u00A74.9)").arg(qs(t.str(d.clockId)))});
    const std::int64_t span = t.findSpan(d.spanId);
    derived.fields.push_back(
        {tr("span"), span < 0 ? tr("outside every span: span_id %1 names no span of the trace").arg(qs(t.str(d.spanId)))
                              : qs(t.str(t.spans[std::size_t(span)].name))});
    out.push_back(std::move(derived));
}

void RecordFieldsModel::gradientSections(std::size_t i, std::vector<Section> &out) const
{
    const Trace &t = *m_trace;
    const Gradient &g = t.gradients[i];
    Section record{tr("Record"), {}};
    record.fields.push_back({QStringLiteral("event_id"), qs(t.str(g.eventId))});
    record.fields.push_back({QStringLiteral("root"), qs(t.str(g.root))});
    record.fields.push_back({QStringLiteral("key"), qs(t.str(g.key))});
    record.fields.push_back({QStringLiteral("state"), qs(gradientStateName(g.state))});
    // The norm as the normalized output writes it, so a copied field matches the file's text.
    record.fields.push_back(
        {QStringLiteral("norm"), g.hasNorm ? QString::fromStdString(formatJsonFloat(g.norm)) : tr("\u2014 (absent)")});
    record.fields.push_back({tr("line"), QString::number(g.line)});
    out.push_back(std::move(record));
    Section derived{tr("Derived"), {}};
    derived.fields.push_back({tr("span"), tr("\u2014 (gradient records name no span)")});
    out.push_back(std::move(derived));
}

QString RecordFieldsModel::toText() const
{
    QString text;
    if (!m_title.isEmpty())
        text += m_title + u'\n';
    for (const Section &s : m_sections) {
        text += QStringLiteral("[%1]\n").arg(s.title);
        for (const Field &f : s.fields)
            text += f.name + QStringLiteral(": ") + f.value + u'\n';
    }
    return text;
}

QString RecordFieldsModel::value(const QString &section, const QString &field) const
{
    for (const Section &s : m_sections) {
        if (s.title != section)
            continue;
        for (const Field &f : s.fields) {
            if (f.name == field)
                return f.value;
        }
    }
    return {};
}

QModelIndex RecordFieldsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid()) {
        if (std::size_t(row) >= m_sections.size())
            return {};
        return createIndex(row, column, quintptr(0));
    }
    if (parent.internalId() != 0 || parent.column() != 0 || std::size_t(parent.row()) >= m_sections.size())
        return {};
    if (std::size_t(row) >= m_sections[std::size_t(parent.row())].fields.size())
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex RecordFieldsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int RecordFieldsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_sections.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return int(m_sections[std::size_t(parent.row())].fields.size());
}

int RecordFieldsModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant RecordFieldsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::EditRole)
        return {};
    if (index.internalId() == 0)
        return index.column() == FieldColumn ? QVariant(m_sections[std::size_t(index.row())].title) : QVariant();
    const Field &f = m_sections[std::size_t(index.internalId() - 1)].fields[std::size_t(index.row())];
    return index.column() == FieldColumn ? f.name : f.value;
}

QVariant RecordFieldsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    return section == FieldColumn ? tr("Field") : tr("Value");
}

} // namespace TraceInspector
