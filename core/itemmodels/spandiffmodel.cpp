// SPDX-License-Identifier: MIT
#include "core/itemmodels/spandiffmodel.h"

#include <cmath>
#include <cstdlib>

#include "core/analysis/spantree.h"
#include "core/diff/spanmatcher.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

QString sign(std::int64_t v)
{
    return v > 0 ? QStringLiteral("+") : v < 0 ? QString(QChar(0x2212)) : QString();
}

std::uint64_t magnitude(std::int64_t v)
{
    return v < 0 ? std::uint64_t(0) - std::uint64_t(v) : std::uint64_t(v);
}

} // namespace

QString formatDeltaDuration(std::int64_t ns, TimeUnit unit)
{
    return sign(ns) + formatDurationIn(magnitude(ns), unit);
}

QString formatDeltaBytes(std::int64_t bytes)
{
    return sign(bytes) + formatBytes(magnitude(bytes));
}

std::optional<double> deltaPercent(std::uint64_t baseline, std::int64_t delta)
{
    if (baseline == 0)
        return std::nullopt;
    return double(delta) / double(baseline) * 100.0;
}

QString formatDeltaPercent(double percent)
{
    const QString digits = QString::number(std::abs(percent), 'f', std::abs(percent) < 10 ? 1 : 0);
    const QString s = percent > 0 ? QStringLiteral("+") : percent < 0 ? QString(QChar(0x2212)) : QString();
    return digits == QLatin1String("0.0") ? QStringLiteral("0 %") : s + digits + QStringLiteral(" %");
}

SpanDiffModel::SpanDiffModel(QObject *parent)
    : FlatTableModel(parent)
{
}

SpanDiffModel::~SpanDiffModel() = default;

void SpanDiffModel::setComparison(TraceComparisonPtr comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    resetRecords(m_comparison ? m_comparison->diff.matched.size() : 0);
    endResetModel();
}

void SpanDiffModel::setComparison(TraceComparisonPtr comparison, int column, Qt::SortOrder order,
                                  std::vector<std::uint32_t> sorted)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    resetRecordsSorted(m_comparison ? m_comparison->diff.matched.size() : 0, column, order, std::move(sorted));
    endResetModel();
}

std::vector<std::uint32_t> SpanDiffModel::presortedOrder(const TraceComparison &comparison, int column,
                                                         Qt::SortOrder order)
{
    const std::size_t n = comparison.diff.matched.size();
    std::vector<std::uint64_t> keys(n, 0);
    std::vector<std::uint8_t> absent(n, 0);
    keysFor(comparison, column, keys, absent);
    return orderFromKeys(std::move(keys), absent, order);
}

void SpanDiffModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, BaselineTotalColumn), index(rowCount() - 1, DeltaSelfPercentColumn));
    Q_EMIT headerDataChanged(Qt::Horizontal, BaselineTotalColumn, DeltaSelfPercentColumn);
}

int SpanDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SpanDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        const QString unit = m_unit == TimeUnit::Auto ? QString() : QStringLiteral(" (%1)").arg(timeUnitSymbol(m_unit));
        switch (section) {
        case PathColumn: return tr("Span path");
        case BaselineTotalColumn: return QString(tr("Baseline total") + unit);
        case CandidateTotalColumn: return QString(tr("Candidate total") + unit);
        case DeltaTotalColumn: return QString(tr("Δ total") + unit);
        case DeltaTotalPercentColumn: return tr("Δ% total");
        case BaselineSelfColumn: return QString(tr("Baseline self") + unit);
        case CandidateSelfColumn: return QString(tr("Candidate self") + unit);
        case DeltaSelfColumn: return QString(tr("Δ self") + unit);
        case DeltaSelfPercentColumn: return tr("Δ% self");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PathColumn:
            return tr("Names from the root; [k] marks the k-th span of that name among its siblings (from 0)");
        case DeltaTotalColumn:
        case DeltaSelfColumn: return tr("Candidate minus baseline: negative is faster");
        case DeltaTotalPercentColumn:
        case DeltaSelfPercentColumn: return tr("Change relative to the baseline");
        default: return {};
        }
    }
    return {};
}

const Trace *SpanDiffModel::filterTrace() const
{
    return m_comparison ? m_comparison->candidate->trace.get() : nullptr;
}

void SpanDiffModel::sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const
{
    keysFor(*m_comparison, column, keys, absent);
}

FlatTableModel::KeyFunction SpanDiffModel::backgroundKeys(int column) const
{
    // The comparison is immutable and shared: a worker may read it while the model moves on.
    if (!m_comparison)
        return {};
    return [comparison = m_comparison, column](std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) {
        keysFor(*comparison, column, keys, absent);
    };
}

void SpanDiffModel::keysFor(const TraceComparison &comparison, int column, std::vector<std::uint64_t> &keys,
                            std::vector<std::uint8_t> &absent)
{
    const std::vector<SpanDelta> &rows = comparison.diff.matched;
    const Trace &ct = *comparison.candidate->trace;
    if (column == PathColumn) {
        // By the span's own name (the last step of its path), then record order (stable).
        std::vector<StringId> ids(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            ids[i] = ct.spans[rows[i].candidate].name;
        stringKeys(ct, ids, keys, absent);
        return;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SpanDelta &r = rows[i];
        std::optional<std::uint64_t> plain;
        std::optional<std::int64_t> delta;
        std::optional<double> percent;
        switch (column) {
        case BaselineTotalColumn: plain = r.baselineTotalNs; break;
        case CandidateTotalColumn: plain = r.candidateTotalNs; break;
        case BaselineSelfColumn: plain = r.baselineSelfNs; break;
        case CandidateSelfColumn: plain = r.candidateSelfNs; break;
        case DeltaTotalColumn: delta = r.totalDeltaNs(); break;
        case DeltaSelfColumn: delta = r.selfDeltaNs(); break;
        case DeltaTotalPercentColumn:
            if (const auto d = r.totalDeltaNs())
                percent = deltaPercent(*r.baselineTotalNs, *d);
            break;
        case DeltaSelfPercentColumn:
            if (const auto d = r.selfDeltaNs())
                percent = deltaPercent(*r.baselineSelfNs, *d);
            break;
        default: break;
        }
        if (plain)
            keys[i] = *plain;
        else if (delta)
            keys[i] = signedKey(*delta);
        else if (percent)
            keys[i] = doubleKey(*percent);
        else
            absent[i] = 1;
    }
}

bool SpanDiffModel::recordMatches(std::size_t record, const TextFilter &) const
{
    return stringMatches(m_comparison->candidate->trace->spans[m_comparison->diff.matched[record].candidate].name);
}

QVariant SpanDiffModel::recordData(std::size_t record, int column, int role) const
{
    if (!m_comparison || record >= m_comparison->diff.matched.size())
        return {};
    const SpanDelta &r = m_comparison->diff.matched[record];
    const auto duration = [&](const std::optional<std::uint64_t> &v) -> QVariant {
        if (role == Qt::DisplayRole)
            return v ? formatDurationIn(*v, m_unit, m_unit == TimeUnit::Auto) : tr("open");
        if (role == SortRole || role == DurationRole)
            return v ? QVariant::fromValue<quint64>(*v) : QVariant();
        return {};
    };
    const auto delta = [&](const std::optional<std::int64_t> &d) -> QVariant {
        if (role == Qt::DisplayRole)
            return d ? formatDeltaDuration(*d, m_unit) : QStringLiteral("—");
        if (role == SortRole || role == DeltaRole)
            return d ? QVariant::fromValue<qint64>(*d) : QVariant();
        return {};
    };
    const auto percent = [&](const std::optional<std::uint64_t> &base,
                             const std::optional<std::int64_t> &d) -> QVariant {
        const std::optional<double> p = d ? deltaPercent(*base, *d) : std::nullopt;
        if (role == Qt::DisplayRole)
            return p ? formatDeltaPercent(*p) : QStringLiteral("—");
        if (role == SortRole)
            return p ? QVariant(*p) : QVariant();
        if (role == DeltaRole)
            return d ? QVariant::fromValue<qint64>(*d) : QVariant();
        return {};
    };
    if (role == SpanIndexRole)
        return qint64(r.candidate);
    if (role == Qt::TextAlignmentRole && column != PathColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    switch (column) {
    case PathColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == SortRole) {
            const LoadedTrace &c = *m_comparison->candidate;
            return QString::fromStdString(spanPath(*c.trace, *c.spanTree, r.candidate));
        }
        return {};
    case BaselineTotalColumn: return duration(r.baselineTotalNs);
    case CandidateTotalColumn: return duration(r.candidateTotalNs);
    case DeltaTotalColumn: return delta(r.totalDeltaNs());
    case DeltaTotalPercentColumn: return percent(r.baselineTotalNs, r.totalDeltaNs());
    case BaselineSelfColumn: return duration(r.baselineSelfNs);
    case CandidateSelfColumn: return duration(r.candidateSelfNs);
    case DeltaSelfColumn: return delta(r.selfDeltaNs());
    case DeltaSelfPercentColumn: return percent(r.baselineSelfNs, r.selfDeltaNs());
    default: return {};
    }
}

} // namespace TraceInspector
