// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "core/itemmodels/flattablemodel.h"

namespace TraceInspector {

struct Trace;
struct EvidenceAnalysis;
struct HealthReport;
struct GradientKeyEvidence;

/// One row per gradient parameter key (root, key) — observed pairs first, then manifest
/// pairs never captured (state "not captured") — with state, norm, family and expectation
/// from the run's gradient contract, and the health findings that concern it.
class GradientKeyModel : public FlatTableModel
{
    Q_OBJECT
public:
    enum Column {
        RootColumn,
        KeyColumn,
        StateColumn,
        NormColumn,
        FamilyColumn,
        ExpectationColumn,
        RecordsColumn,
        FindingsColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    explicit GradientKeyModel(QObject *parent = nullptr);
    ~GradientKeyModel() override;

    /// \a health gives the findings' texts; both of the same trace.
    void setEvidence(std::shared_ptr<const Trace> trace, std::shared_ptr<const EvidenceAnalysis> evidence,
                     std::shared_ptr<const HealthReport> health);
    const EvidenceAnalysis *evidence() const { return m_evidence.get(); }
    const GradientKeyEvidence *keyAt(std::size_t record) const;
    /// "present", "zero", "missing", "non-finite" or "not captured".
    static QString stateText(const GradientKeyEvidence &key);
    /// The messages of the findings about record \a record, one per line.
    QStringList findingTexts(std::size_t record) const;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    const Trace *filterTrace() const override { return m_trace.get(); }
    void sortKeys(int column, std::vector<std::uint64_t> &keys, std::vector<std::uint8_t> &absent) const override;
    bool recordMatches(std::size_t record, const TextFilter &filter) const override;
    QVariant recordData(std::size_t record, int column, int role) const override;

private:
    QVariant display(std::size_t record, int column) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const EvidenceAnalysis> m_evidence;
    std::shared_ptr<const HealthReport> m_health;
};

} // namespace TraceInspector
