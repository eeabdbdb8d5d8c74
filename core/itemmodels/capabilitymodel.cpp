// SPDX-License-Identifier: MIT
#include "core/itemmodels/capabilitymodel.h"

#include "core/analysis/evidenceanalysis.h"
#include "core/display/format.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/viewcoverage.h"

namespace TraceInspector {

CapabilityModel::CapabilityModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

CapabilityModel::~CapabilityModel() = default;

void CapabilityModel::setEvidence(std::shared_ptr<const EvidenceAnalysis> evidence)
{
    beginResetModel();
    m_evidence = std::move(evidence);
    endResetModel();
}

int CapabilityModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_evidence ? 0 : int(m_evidence->capabilities.planes.size());
}

int CapabilityModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CapabilityModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PlaneColumn: return tr("Plane");
    case DeclaredColumn: return tr("Declared");
    case RecordsColumn: return tr("Records");
    case LevelColumn: return tr("Capability");
    case NoteColumn: return tr("Note");
    default: return {};
    }
}

QVariant CapabilityModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || !m_evidence || index.row() >= rowCount())
        return {};
    const CapabilityMatrix &m = m_evidence->capabilities;
    const PlaneCapability &p = m.planes[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case PlaneColumn: return ViewCoverageText::planeTitle(p.plane);
        case DeclaredColumn:
            if (p.declared)
                return QString::fromLatin1(coverageLevelName(*p.declared).data());
            return m.hasMeta ? tr("not in contract") : tr("no meta record");
        case RecordsColumn: return formatCount(p.records);
        case LevelColumn: return ViewCoverageText::levelText(p.level);
        case NoteColumn:
            if (p.contractMismatch && p.records == 0)
                return tr("declared but not captured");
            if (p.contractMismatch)
                return tr("captured although declared none");
            if (p.level == CapabilityLevel::Unknown)
                return m.hasMeta ? tr("completeness not declared by the contract") : tr("no capture contract");
            return {};
        default: return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == RecordsColumn ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case SortRole: return index.column() == RecordsColumn ? QVariant(quint64(p.records)) : data(index, Qt::DisplayRole);
    case CountRole: return quint64(p.records);
    case LevelRole: return int(p.level);
    case Qt::ToolTipRole: return tr("Wire member `%1`").arg(QString::fromLatin1(evidencePlaneName(p.plane).data()));
    default: return {};
    }
}

} // namespace TraceInspector
