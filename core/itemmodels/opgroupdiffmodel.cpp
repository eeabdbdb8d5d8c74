// SPDX-License-Identifier: MIT
#include "core/itemmodels/opgroupdiffmodel.h"

#include <algorithm>
#include <numeric>

#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spandiffmodel.h"

namespace TraceInspector {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

/// Ranks of \a texts in byte-wise order, as sort keys.
void textKeys(const std::vector<const std::string *> &texts, std::vector<std::uint64_t> &keys)
{
    std::vector<std::uint32_t> order(texts.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return *texts[a] < *texts[b]; });
    for (std::size_t rank = 0; rank < order.size(); ++rank)
        keys[order[rank]] = rank;
}

} // namespace

OpGroupDiffModel::OpGroupDiffModel(QObject *parent)
    : FlatTableModel(parent)
{
}

OpGroupDiffModel::~OpGroupDiffModel() = default;

void OpGroupDiffModel::setComparison(TraceComparisonPtr comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    resetRecords(m_comparison ? m_comparison->diff.opGroups.size() : 0);
    endResetModel();
}

void OpGroupDiffModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, BaselineTotalColumn), index(rowCount() - 1, DeltaTotalPercentColumn));
    Q_EMIT headerDataChanged(Qt::Horizontal, BaselineTotalColumn, DeltaTotalColumn);
}

int OpGroupDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpGroupDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        const QString unit = m_unit == TimeUnit::Auto ? QString() : QStringLiteral(" (%1)").arg(timeUnitSymbol(m_unit));
        switch (section) {
        case NameColumn: return tr("Op");
        case ShapeColumn: return tr("Shape");
        case DtypeColumn: return tr("Dtype");
        case DeviceColumn: return tr("Device");
        case BaselineCountColumn: return tr("Baseline count");
        case CandidateCountColumn: return tr("Candidate count");
        case BaselineTotalColumn: return QString(tr("Baseline total") + unit);
        case CandidateTotalColumn: return QString(tr("Candidate total") + unit);
        case DeltaTotalColumn: return QString(tr("Δ total") + unit);
        case DeltaTotalPercentColumn: return tr("Δ% total");
        case BaselineBytesColumn: return tr("Baseline bytes");
        case CandidateBytesColumn: return tr("Candidate bytes");
        case DeltaBytesColumn: return tr("Δ bytes");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case DeltaTotalColumn: return tr("Candidate minus baseline: negative is faster");
        case BaselineBytesColumn:
        case CandidateBytesColumn: return tr("Summed output dense bytes of the group's ops");
        case DeltaBytesColumn: return tr("Candidate minus baseline output bytes");
        default: return {};
        }
    }
    return {};
}

const Trace *OpGroupDiffModel::filterTrace() const
{
    return m_comparison ? m_comparison->candidate->trace.get() : nullptr;
}

void OpGroupDiffModel::sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const
{
    const std::vector<OpGroupDelta> &rows = m_comparison->diff.opGroups;
    if (column <= DeviceColumn) {
        std::vector<const std::string *> texts(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const OpGroupDelta &g = rows[i];
            texts[i] = column == NameColumn    ? &g.name
                       : column == ShapeColumn ? &g.shape
                       : column == DtypeColumn ? &g.dtype
                                               : &g.device;
        }
        textKeys(texts, keys);
        return;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const OpGroupDelta &g = rows[i];
        switch (column) {
        case BaselineCountColumn: keys[i] = g.baselineCount; break;
        case CandidateCountColumn: keys[i] = g.candidateCount; break;
        case BaselineTotalColumn: keys[i] = g.baselineNs; break;
        case CandidateTotalColumn: keys[i] = g.candidateNs; break;
        case DeltaTotalColumn: keys[i] = signedKey(g.deltaNs()); break;
        case DeltaTotalPercentColumn:
            if (const auto p = deltaPercent(g.baselineNs, g.deltaNs()); p && g.baselineCount > 0)
                keys[i] = doubleKey(*p);
            else
                absent[i] = 1;
            break;
        case BaselineBytesColumn: keys[i] = g.baselineBytes; break;
        case CandidateBytesColumn: keys[i] = g.candidateBytes; break;
        case DeltaBytesColumn: keys[i] = signedKey(g.deltaBytes()); break;
        default: absent[i] = 1; break;
        }
    }
}

bool OpGroupDiffModel::recordMatches(std::size_t record, const TextFilter &filter) const
{
    const OpGroupDelta &g = m_comparison->diff.opGroups[record];
    return filter.matches(g.name) || filter.matches(g.device) || filter.matches(g.dtype);
}

QVariant OpGroupDiffModel::recordData(std::size_t record, int column, int role) const
{
    if (!m_comparison || record >= m_comparison->diff.opGroups.size())
        return {};
    const OpGroupDelta &g = m_comparison->diff.opGroups[record];
    const bool inBaseline = g.baselineCount > 0, inCandidate = g.candidateCount > 0;
    if (role == Qt::TextAlignmentRole && column > DeviceColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == OpNameRole)
        return qs(g.name);
    const auto plain = [&](bool present, std::uint64_t value, bool time) -> QVariant {
        if (role == Qt::DisplayRole) {
            if (!present)
                return QStringLiteral("—");
            return time ? formatDurationIn(value, m_unit, m_unit == TimeUnit::Auto) : formatCount(value);
        }
        if (role == SortRole)
            return QVariant::fromValue<quint64>(value);
        return {};
    };
    const auto bytes = [&](bool present, std::uint64_t value) -> QVariant {
        if (role == Qt::DisplayRole)
            return present ? formatBytes(value) : QStringLiteral("—");
        if (role == SortRole || role == BytesRole)
            return QVariant::fromValue<quint64>(value);
        return {};
    };
    switch (column) {
    case NameColumn: return role == Qt::DisplayRole || role == SortRole ? qs(g.name) : QVariant();
    case ShapeColumn: return role == Qt::DisplayRole || role == SortRole ? qs(g.shape) : QVariant();
    case DtypeColumn: return role == Qt::DisplayRole || role == SortRole ? qs(g.dtype) : QVariant();
    case DeviceColumn: return role == Qt::DisplayRole || role == SortRole ? qs(g.device) : QVariant();
    case BaselineCountColumn: return plain(true, g.baselineCount, false);
    case CandidateCountColumn: return plain(true, g.candidateCount, false);
    case BaselineTotalColumn: return plain(inBaseline, g.baselineNs, true);
    case CandidateTotalColumn: return plain(inCandidate, g.candidateNs, true);
    case DeltaTotalColumn:
        if (role == Qt::DisplayRole)
            return formatDeltaDuration(g.deltaNs(), m_unit);
        if (role == SortRole || role == DeltaRole)
            return QVariant::fromValue<qint64>(g.deltaNs());
        return {};
    case DeltaTotalPercentColumn: {
        const std::optional<double> p = inBaseline ? deltaPercent(g.baselineNs, g.deltaNs()) : std::nullopt;
        if (role == Qt::DisplayRole)
            return p ? formatDeltaPercent(*p) : (inBaseline ? QStringLiteral("—") : tr("new"));
        if (role == SortRole)
            return p ? QVariant(*p) : QVariant();
        if (role == DeltaRole)
            return QVariant::fromValue<qint64>(g.deltaNs());
        return {};
    }
    case BaselineBytesColumn: return bytes(inBaseline, g.baselineBytes);
    case CandidateBytesColumn: return bytes(inCandidate, g.candidateBytes);
    case DeltaBytesColumn:
        if (role == Qt::DisplayRole)
            return formatDeltaBytes(g.deltaBytes());
        if (role == SortRole || role == DeltaRole)
            return QVariant::fromValue<qint64>(g.deltaBytes());
        return {};
    default: return {};
    }
}

} // namespace TraceInspector
