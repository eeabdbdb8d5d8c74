// SPDX-License-Identifier: MIT
#include "core/itemmodels/tensorstatsmodel.h"

#include <cmath>

#include "core/analysis/evidenceanalysis.h"
#include "core/display/format.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString number(double value)
{
    return QString::number(value, 'g', 6);
}

} // namespace

TensorStatsModel::TensorStatsModel(QObject *parent)
    : FlatTableModel(parent)
{
}

TensorStatsModel::~TensorStatsModel() = default;

void TensorStatsModel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const EvidenceAnalysis> evidence)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_evidence = m_trace && evidence && evidence->tensorStats.size() == m_trace->tensorStats.size()
                         && evidence->tensors.statsOp.size() == m_trace->tensorStats.size()
                     ? std::move(evidence)
                     : nullptr;
    m_flagged = 0;
    if (m_evidence) {
        for (const TensorStatsVerdict &v : m_evidence->tensorStats)
            m_flagged += v.flags != 0;
    }
    resetRecords(m_trace ? m_trace->tensorStats.size() : 0);
    endResetModel();
}

int TensorStatsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

std::int64_t TensorStatsModel::spanOfRecord(std::size_t record) const
{
    if (!m_trace || record >= m_trace->tensorStats.size())
        return -1;
    return m_trace->findSpan(m_trace->tensorStats[record].spanId);
}

std::int64_t TensorStatsModel::opOfRecord(std::size_t record) const
{
    if (!m_evidence || record >= m_evidence->tensors.statsOp.size())
        return -1;
    const std::uint32_t op = m_evidence->tensors.statsOp[record];
    return op == TensorEvidence::kNone ? -1 : std::int64_t(op);
}

QString TensorStatsModel::flagText(std::size_t record) const
{
    if (!m_evidence || record >= m_evidence->tensorStats.size())
        return {};
    const TensorStatsVerdict &v = m_evidence->tensorStats[record];
    QStringList words;
    if (v.flags & NonFiniteValues)
        words << tr("non-finite");
    if (v.flags & NearRangeLimit)
        words << tr("near %1 range").arg(qs(m_trace->str(m_trace->tensorStats[record].dtype)));
    if (v.flags & RmsOutlier)
        words << tr("rms outlier");
    return words.join(QStringLiteral(", "));
}

QVariant TensorStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ScoreColumn: return tr("Score");
        case FlagsColumn: return tr("Outlier");
        case LabelColumn: return tr("Label");
        case ShapeColumn: return tr("Shape");
        case DtypeColumn: return tr("Dtype");
        case ElementsColumn: return tr("Elements");
        case NonFiniteColumn: return tr("Non-finite");
        case RmsColumn: return tr("RMS");
        case RmsZColumn: return tr("RMS z");
        case AbsMaxColumn: return tr("|max|");
        case RangeColumn: return tr("Of range");
        case MeanColumn: return tr("Mean");
        case OpColumn: return tr("Producing op");
        case SpanColumn: return tr("Span");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ScoreColumn:
            return tr(
                "Outlier score: 4 for non-finite values, 2 for |max| near the dtype's range, 1 for an rms outlier, "
                "plus a severity below 1");
        case RmsZColumn:
            return tr("z-score of the rms against the other records with the same label (needs at least 4 records)");
        case RangeColumn:
            return tr(
                "|max| as a fraction of the dtype's largest finite value (f16 65504, bf16 ≈3.39e38, f32 ≈3.40e38)");
        case OpColumn:
            return tr(
                "The op that produced the tensor with this label in this span (or the last op of the span with the same shape and dtype)");
        default: return {};
        }
    }
    return {};
}

void TensorStatsModel::sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const
{
    const Trace &t = *m_trace;
    const std::vector<TensorStats> &stats = t.tensorStats;
    const auto strings = [&](auto idOf) {
        std::vector<StringId> ids(stats.size());
        for (std::size_t i = 0; i < stats.size(); ++i)
            ids[i] = idOf(i);
        stringKeys(t, ids, keys, absent);
    };
    const auto doubles = [&](auto valueOf) {
        for (std::size_t i = 0; i < stats.size(); ++i) {
            const std::optional<double> v = valueOf(i);
            keys[i] = v ? doubleKey(*v) : 0;
            absent[i] = !v;
        }
    };
    const std::vector<TensorStatsVerdict> *verdicts = m_evidence ? &m_evidence->tensorStats : nullptr;
    switch (column) {
    case ScoreColumn:
    case FlagsColumn:
        doubles([&](std::size_t i) {
            return verdicts ? std::optional<double>(column == ScoreColumn ? (*verdicts)[i].score : (*verdicts)[i].flags)
                            : std::nullopt;
        });
        break;
    case LabelColumn: strings([&](std::size_t i) { return stats[i].label; }); break;
    case DtypeColumn: strings([&](std::size_t i) { return stats[i].dtype; }); break;
    case SpanColumn: strings([&](std::size_t i) { return stats[i].spanId; }); break;
    case OpColumn:
        strings([&](std::size_t i) {
            const std::int64_t op = opOfRecord(i);
            return op < 0 ? kNoString : t.ops[std::size_t(op)].opName;
        });
        break;
    case ShapeColumn:
    case ElementsColumn:
        for (std::size_t i = 0; i < stats.size(); ++i)
            keys[i] = stats[i].elements;
        break;
    case NonFiniteColumn:
        for (std::size_t i = 0; i < stats.size(); ++i)
            keys[i] = stats[i].nonFinite;
        break;
    case RmsColumn: doubles([&](std::size_t i) { return std::optional<double>(stats[i].rms); }); break;
    case AbsMaxColumn: doubles([&](std::size_t i) { return std::optional<double>(stats[i].absMax); }); break;
    case MeanColumn: doubles([&](std::size_t i) { return std::optional<double>(stats[i].mean); }); break;
    case RmsZColumn:
        // By |z|: the most deviating first when descending, whatever the sign.
        doubles([&](std::size_t i) {
            const std::optional<double> z = verdicts ? (*verdicts)[i].rmsZ : std::nullopt;
            return z ? std::optional<double>(std::abs(*z)) : std::nullopt;
        });
        break;
    case RangeColumn:
        doubles([&](std::size_t i) { return verdicts ? (*verdicts)[i].rangeFraction : std::nullopt; });
        break;
    default: break;
    }
}

bool TensorStatsModel::recordMatches(std::size_t record, const TextFilter &filter) const
{
    const TensorStats &s = m_trace->tensorStats[record];
    if (stringMatches(s.label) || stringMatches(s.dtype) || stringMatches(s.spanId))
        return true;
    if (m_evidence && m_evidence->tensorStats[record].flags != 0 && filter.matches(flagText(record).toStdString()))
        return true;
    const std::int64_t span = spanOfRecord(record);
    return span >= 0 && stringMatches(m_trace->spans[std::size_t(span)].name);
}

QVariant TensorStatsModel::display(std::size_t i, int column) const
{
    const Trace &t = *m_trace;
    const TensorStats &s = t.tensorStats[i];
    const TensorStatsVerdict *v = m_evidence ? &m_evidence->tensorStats[i] : nullptr;
    switch (column) {
    case ScoreColumn: return v ? QVariant(QString::number(v->score, 'f', 2)) : QVariant();
    case FlagsColumn: return v ? QVariant(v->flags ? flagText(i) : tr("—")) : QVariant();
    case LabelColumn: return qs(t.str(s.label));
    case ShapeColumn: return formatShape(t.shapes.view(s.shape));
    case DtypeColumn: return qs(t.str(s.dtype));
    case ElementsColumn: return formatCount(s.elements);
    case NonFiniteColumn: return formatCount(s.nonFinite);
    case RmsColumn: return number(s.rms);
    case RmsZColumn:
        if (!v || !v->rmsZ)
            return {};
        return std::isinf(*v->rmsZ) ? (*v->rmsZ > 0 ? tr("+∞") : tr("−∞")) : QString::number(*v->rmsZ, 'f', 2);
    case AbsMaxColumn: return number(s.absMax);
    case RangeColumn: return v && v->rangeFraction ? QVariant(formatPercent(*v->rangeFraction)) : QVariant();
    case MeanColumn: return number(s.mean);
    case OpColumn: {
        const std::int64_t op = opOfRecord(i);
        return op < 0 ? QVariant() : QVariant(qs(t.str(t.ops[std::size_t(op)].opName)));
    }
    case SpanColumn: {
        const std::int64_t span = spanOfRecord(i);
        const QString id = qs(t.str(s.spanId));
        return span < 0 ? tr("%1 (unknown span)").arg(id)
                        : QStringLiteral("%1 · %2").arg(id, qs(t.str(t.spans[std::size_t(span)].name)));
    }
    default: return {};
    }
}

QVariant TensorStatsModel::recordData(std::size_t i, int column, int role) const
{
    const TensorStats &s = m_trace->tensorStats[i];
    const TensorStatsVerdict *v = m_evidence ? &m_evidence->tensorStats[i] : nullptr;
    switch (role) {
    case Qt::DisplayRole: return display(i, column);
    case Qt::TextAlignmentRole:
        if (column == ScoreColumn || (column >= ElementsColumn && column <= MeanColumn))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == OpColumn && m_evidence && m_evidence->tensors.statsOpByShape[i])
            return tr(
                "No tensor record with this label in this span: the last op of the span with the same shape and dtype");
        return {};
    case SortRole:
        switch (column) {
        case ScoreColumn: return v ? QVariant(v->score) : QVariant();
        case ElementsColumn: return quint64(s.elements);
        case NonFiniteColumn: return quint64(s.nonFinite);
        case RmsColumn: return s.rms;
        case AbsMaxColumn: return s.absMax;
        case MeanColumn: return s.mean;
        default: return display(i, column);
        }
    case SeverityRole:
        // Flagged records read as warnings (non-finite as errors) in the shared severity palette.
        if (!v || v->flags == 0)
            return {};
        return int(v->flags & NonFiniteValues ? Severity::Error : Severity::Warning);
    case SpanIndexRole: return qint64(spanOfRecord(i));
    case SpanIdRole: return qs(m_trace->str(s.spanId));
    case OpIndexRole: return qint64(opOfRecord(i));
    case LineRole: return quint64(s.line);
    default: return {};
    }
}

} // namespace TraceInspector
