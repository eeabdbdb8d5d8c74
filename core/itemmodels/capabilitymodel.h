// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QAbstractTableModel>

namespace TraceInspector {

struct EvidenceAnalysis;

/// The capability matrix (core/analysis/capabilitymatrix.h): one row per evidence plane
/// with the contract's declared level, the records captured and the resulting level
/// (complete / partial / not captured / unknown).
class CapabilityModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { PlaneColumn, DeclaredColumn, RecordsColumn, LevelColumn, NoteColumn, ColumnCount };
    Q_ENUM(Column)
    /// CapabilityLevel as int, for the delegate's colour.
    static constexpr int LevelRole = Qt::UserRole + 150;

    explicit CapabilityModel(QObject *parent = nullptr);
    ~CapabilityModel() override;

    void setEvidence(std::shared_ptr<const EvidenceAnalysis> evidence);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const EvidenceAnalysis> m_evidence;
};

} // namespace TraceInspector
