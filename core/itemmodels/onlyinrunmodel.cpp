// SPDX-License-Identifier: MIT
#include "core/itemmodels/onlyinrunmodel.h"

#include <algorithm>

#include "core/diff/spanmatcher.h"
#include "core/itemmodels/modelroles.h"

namespace TraceInspector {

OnlyInRunModel::OnlyInRunModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

OnlyInRunModel::~OnlyInRunModel() = default;

void OnlyInRunModel::setComparison(TraceComparisonPtr comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_rows.clear();
    if (m_comparison) {
        const TraceDiff &d = m_comparison->diff;
        for (const Side side : {Side::Baseline, Side::Candidate}) {
            const std::vector<UnmatchedSpan> &spans = side == Side::Baseline ? d.onlyInBaseline : d.onlyInCandidate;
            for (std::size_t i = 0; i < spans.size(); ++i)
                m_rows.push_back(
                    {side, Kind::SpanSubtree, i, spans[i].totalNs.value_or(0), spans[i].totalNs.has_value()});
            std::vector<Row> groups;
            for (std::size_t i = 0; i < d.opGroups.size(); ++i) {
                const OpGroupDelta &g = d.opGroups[i];
                if (side == Side::Baseline && g.candidateCount == 0)
                    groups.push_back({side, Kind::OpGroup, i, g.baselineNs, true});
                else if (side == Side::Candidate && g.baselineCount == 0)
                    groups.push_back({side, Kind::OpGroup, i, g.candidateNs, true});
            }
            std::stable_sort(groups.begin(), groups.end(),
                             [](const Row &a, const Row &b) { return a.totalNs > b.totalNs; });
            m_rows.insert(m_rows.end(), groups.begin(), groups.end());
        }
    }
    endResetModel();
}

void OnlyInRunModel::setTimeUnit(TimeUnit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, TotalColumn), index(rowCount() - 1, TotalColumn));
}

int OnlyInRunModel::countOf(Side side, Kind kind) const
{
    return int(
        std::count_if(m_rows.begin(), m_rows.end(), [&](const Row &r) { return r.side == side && r.kind == kind; }));
}

int OnlyInRunModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OnlyInRunModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OnlyInRunModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RunColumn: return tr("Only in");
    case KindColumn: return tr("Kind");
    case WhatColumn: return tr("Span path / op group");
    case CountColumn: return tr("Spans / ops");
    case TotalColumn: return tr("Total");
    default: return {};
    }
}

QVariant OnlyInRunModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_comparison || std::size_t(index.row()) >= m_rows.size())
        return {};
    const Row &r = m_rows[std::size_t(index.row())];
    const TraceDiff &d = m_comparison->diff;
    const bool baseline = r.side == Side::Baseline;
    if (role == Qt::TextAlignmentRole && index.column() >= CountColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SpanIndexRole) {
        if (r.kind != Kind::SpanSubtree || baseline)
            return qint64(-1); // the window shows the candidate: a baseline span has no row there
        return qint64(d.onlyInCandidate[r.index].index);
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case RunColumn: return baseline ? tr("baseline") : tr("candidate");
    case KindColumn: return r.kind == Kind::SpanSubtree ? tr("span subtree") : tr("op group");
    case WhatColumn:
        if (r.kind == Kind::SpanSubtree) {
            const LoadedTrace &t = baseline ? *m_comparison->baseline : *m_comparison->candidate;
            const UnmatchedSpan &u = baseline ? d.onlyInBaseline[r.index] : d.onlyInCandidate[r.index];
            return QString::fromStdString(spanPath(*t.trace, *t.spanTree, u.index));
        } else {
            const OpGroupDelta &g = d.opGroups[r.index];
            return QStringLiteral("%1 %2 %3 %4")
                .arg(QString::fromStdString(g.name), QString::fromStdString(g.shape), QString::fromStdString(g.dtype),
                     QString::fromStdString(g.device));
        }
    case CountColumn: {
        std::uint64_t n = 0;
        if (r.kind == Kind::SpanSubtree)
            n = (baseline ? d.onlyInBaseline[r.index] : d.onlyInCandidate[r.index]).spans;
        else
            n = baseline ? d.opGroups[r.index].baselineCount : d.opGroups[r.index].candidateCount;
        return role == SortRole ? QVariant::fromValue<quint64>(n) : QVariant(formatCount(n));
    }
    case TotalColumn:
        if (role == SortRole)
            return r.totalKnown ? QVariant::fromValue<quint64>(r.totalNs) : QVariant();
        return r.totalKnown ? formatDurationIn(r.totalNs, m_unit) : tr("open");
    default: return {};
    }
}

} // namespace TraceInspector
