// SPDX-License-Identifier: MIT
#include "core/itemmodels/tensortablemodel.h"

#include "core/analysis/densebytes.h"
#include "core/analysis/evidenceanalysis.h"
#include "core/display/format.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

TensorTableModel::TensorTableModel(QObject *parent)
    : FlatTableModel(parent)
{
}

TensorTableModel::~TensorTableModel() = default;

void TensorTableModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const EvidenceAnalysis> evidence)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_evidence =
        m_trace && evidence && evidence->tensors.size() == m_trace->tensors.size() ? std::move(evidence) : nullptr;
    resetRecords(m_trace ? m_trace->tensors.size() : 0);
    endResetModel();
}

int TensorTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

std::int64_t TensorTableModel::spanOfTensor(std::size_t tensor) const
{
    if (!m_trace || tensor >= m_trace->tensors.size())
        return -1;
    if (m_evidence) {
        const std::uint32_t span = m_evidence->tensors.spanIndex[tensor];
        return span == TensorEvidence::kNone ? -1 : std::int64_t(span);
    }
    return m_trace->findSpan(m_trace->tensors[tensor].spanId);
}

std::int64_t TensorTableModel::opOfTensor(std::size_t tensor) const
{
    if (!m_evidence || tensor >= m_evidence->tensors.size())
        return -1;
    const std::uint32_t op = m_evidence->tensors.producingOp[tensor];
    return op == TensorEvidence::kNone ? -1 : std::int64_t(op);
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IdColumn: return tr("Tensor");
        case LabelColumn: return tr("Label");
        case ShapeColumn: return tr("Shape");
        case DtypeColumn: return tr("Dtype");
        case DeviceColumn: return tr("Device");
        case BytesColumn: return tr("Dense bytes");
        case CategoryColumn: return tr("Category");
        case RequiresGradColumn: return tr("Grad");
        case OpColumn: return tr("Producing op");
        case SpanColumn: return tr("Span");
        case StorageColumn: return tr("Storage");
        case AllocColumn: return tr("Alloc");
        case FreeColumn: return tr("Free");
        case AgeAtPeakColumn: return tr("Age at peak");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ShapeColumn: return tr("Shape; sorted by element count");
        case BytesColumn: return tr("Dense footprint (given, or derived from shape and dtype, TRACE_FORMAT.md §7.1)");
        case RequiresGradColumn: return tr("requires_grad");
        case OpColumn: return tr("The first op whose output is this tensor");
        case StorageColumn: return tr("The logical storage (memory records) that held this tensor id");
        case AllocColumn: return tr("Host time the storage was allocated");
        case FreeColumn: return tr("Host time the storage was freed; \"live at end\" when never freed");
        case AgeAtPeakColumn:
            return tr("How long the storage had been live at the logical memory peak; empty when it was not live then");
        default: return {};
        }
    }
    return {};
}

void TensorTableModel::sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const
{
    const Trace &t = *m_trace;
    const std::vector<Tensor> &tensors = t.tensors;
    const auto strings = [&](auto idOf) {
        std::vector<StringId> ids(tensors.size());
        for (std::size_t i = 0; i < tensors.size(); ++i)
            ids[i] = idOf(i);
        stringKeys(t, ids, keys, absent);
    };
    const TensorEvidence *ev = m_evidence ? &m_evidence->tensors : nullptr;
    // Ranks computed by the loader, when there: no string sorting on the GUI thread.
    const auto ranked = [&](const std::vector<std::uint32_t> &ranks) {
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            keys[i] = ranks[i];
            absent[i] = ranks[i] == TensorEvidence::kNone;
        }
    };
    switch (column) {
    case IdColumn:
        if (ev)
            ranked(ev->idRank);
        else
            strings([&](std::size_t i) { return tensors[i].tensorId; });
        break;
    case LabelColumn:
        if (ev)
            ranked(ev->labelRank);
        else
            strings([&](std::size_t i) { return tensors[i].label; });
        break;
    case DtypeColumn: strings([&](std::size_t i) { return tensors[i].dtype; }); break;
    case DeviceColumn: strings([&](std::size_t i) { return tensors[i].device; }); break;
    case SpanColumn:
        if (ev) {
            // Known spans in id order (Trace::spans is id-sorted); unknown span ids after them.
            for (std::size_t i = 0; i < tensors.size(); ++i)
                keys[i] = ev->spanIndex[i];
        } else {
            strings([&](std::size_t i) { return tensors[i].spanId; });
        }
        break;
    case OpColumn:
        strings([&](std::size_t i) {
            const std::int64_t op = opOfTensor(i);
            return op < 0 ? kNoString : t.ops[std::size_t(op)].opName;
        });
        break;
    case StorageColumn:
        if (ev)
            ranked(ev->storageRank);
        else
            absent.assign(absent.size(), 1);
        break;
    case ShapeColumn:
        for (std::size_t i = 0; i < tensors.size(); ++i)
            keys[i] = elemCount(t.shapes.view(tensors[i].shape));
        break;
    case BytesColumn:
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            keys[i] = tensors[i].denseBytes;
            absent[i] = !tensors[i].hasDenseBytes;
        }
        break;
    case CategoryColumn:
        // By name, as shown.
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            const std::string_view name = memoryCategoryName(tensors[i].category);
            keys[i] = std::uint64_t(static_cast<unsigned char>(name[0])) << 8 | static_cast<unsigned char>(name[1]);
        }
        break;
    case RequiresGradColumn:
        for (std::size_t i = 0; i < tensors.size(); ++i)
            keys[i] = tensors[i].requiresGrad;
        break;
    case AllocColumn:
    case FreeColumn:
    case AgeAtPeakColumn:
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            if (!ev) {
                absent[i] = 1;
                continue;
            }
            if (column == AllocColumn) {
                keys[i] = ev->allocNs[i];
                absent[i] = !ev->hasStorage(i);
            } else if (column == FreeColumn) {
                // Never freed sorts after every free time; no storage at all is absent.
                keys[i] = ev->freeNs[i];
                absent[i] = !ev->hasStorage(i);
            } else {
                const std::optional<std::uint64_t> age = ev->ageAtPeakNs(i);
                keys[i] = age.value_or(0);
                absent[i] = !age;
            }
        }
        break;
    default: break;
    }
}

bool TensorTableModel::recordMatches(std::size_t record, const TextFilter &filter) const
{
    const Tensor &tensor = m_trace->tensors[record];
    if (stringMatches(tensor.tensorId) || stringMatches(tensor.label) || stringMatches(tensor.dtype)
        || stringMatches(tensor.device) || stringMatches(tensor.spanId))
        return true;
    if (filter.matches(memoryCategoryName(tensor.category)))
        return true;
    if (const std::int64_t op = opOfTensor(record); op >= 0 && stringMatches(m_trace->ops[std::size_t(op)].opName))
        return true;
    if (m_evidence && stringMatches(m_evidence->tensors.storageId[record]))
        return true;
    const std::int64_t span = spanOfTensor(record);
    return span >= 0 && stringMatches(m_trace->spans[std::size_t(span)].name);
}

QVariant TensorTableModel::display(std::size_t i, int column) const
{
    const Trace &t = *m_trace;
    const Tensor &tensor = t.tensors[i];
    const TensorEvidence *ev = m_evidence ? &m_evidence->tensors : nullptr;
    switch (column) {
    case IdColumn: return qs(t.str(tensor.tensorId));
    case LabelColumn: return tensor.label == kNoString ? QVariant() : QVariant(qs(t.str(tensor.label)));
    case ShapeColumn: return formatShape(t.shapes.view(tensor.shape));
    case DtypeColumn: return qs(t.str(tensor.dtype));
    case DeviceColumn: return qs(t.str(tensor.device));
    case BytesColumn: return tensor.hasDenseBytes ? QVariant(formatBytes(tensor.denseBytes)) : QVariant(tr("unknown"));
    case CategoryColumn: return qs(memoryCategoryName(tensor.category));
    case RequiresGradColumn: return tensor.requiresGrad ? tr("yes") : tr("no");
    case OpColumn: {
        const std::int64_t op = opOfTensor(i);
        return op < 0 ? QVariant() : QVariant(qs(t.str(t.ops[std::size_t(op)].opName)));
    }
    case SpanColumn: {
        const std::int64_t span = spanOfTensor(i);
        const QString id = qs(t.str(tensor.spanId));
        return span < 0 ? tr("%1 (unknown span)").arg(id)
                        : QStringLiteral("%1 · %2").arg(id, qs(t.str(t.spans[std::size_t(span)].name)));
    }
    case StorageColumn: return ev && ev->storageId[i] != kNoString ? QVariant(qs(t.str(ev->storageId[i]))) : QVariant();
    case AllocColumn: return ev && ev->hasStorage(i) ? QVariant(formatTimePoint(ev->allocNs[i])) : QVariant();
    case FreeColumn:
        if (!ev || !ev->hasStorage(i))
            return {};
        return ev->freeNs[i] == TensorEvidence::kNoTime ? tr("live at end") : formatTimePoint(ev->freeNs[i]);
    case AgeAtPeakColumn: {
        const std::optional<std::uint64_t> age = ev ? ev->ageAtPeakNs(i) : std::nullopt;
        return age ? QVariant(formatDuration(*age)) : QVariant();
    }
    default: return {};
    }
}

QVariant TensorTableModel::recordData(std::size_t i, int column, int role) const
{
    const Tensor &tensor = m_trace->tensors[i];
    switch (role) {
    case Qt::DisplayRole: return display(i, column);
    case Qt::TextAlignmentRole:
        if (column == BytesColumn || column == AllocColumn || column == FreeColumn || column == AgeAtPeakColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == OpColumn && opOfTensor(i) < 0)
            return tr("No op lists this tensor as its output");
        if ((column == StorageColumn || column == AllocColumn) && !(m_evidence && m_evidence->tensors.hasStorage(i)))
            return tr("No memory record names this tensor");
        return {};
    case SortRole:
        switch (column) {
        case BytesColumn: return tensor.hasDenseBytes ? QVariant(quint64(tensor.denseBytes)) : QVariant();
        case RequiresGradColumn: return tensor.requiresGrad;
        default: return display(i, column);
        }
    case SpanIndexRole: return qint64(spanOfTensor(i));
    case SpanIdRole: return qs(m_trace->str(tensor.spanId));
    case OpIndexRole: return qint64(opOfTensor(i));
    case LineRole: return quint64(tensor.line);
    case BytesRole: return tensor.hasDenseBytes ? QVariant(quint64(tensor.denseBytes)) : QVariant();
    case DeviceRole: return qs(m_trace->str(tensor.device));
    default: return {};
    }
}

} // namespace TraceInspector
