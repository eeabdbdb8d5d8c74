// SPDX-License-Identifier: MIT
#pragma once

#include "ui/evidencetablepanel.h"

class QLabel;
class QPlainTextEdit;

namespace TraceInspector {

class GradientHistogram;
class GradientKeyModel;

/// Gradient evidence: the run's gradient contract (declared coverage, manifest, the §9.4
/// digest check, families), one row per parameter key with state, norm, family and
/// findings, a log-scale histogram of the norms, and the findings of the current key.
/// Gradient records name no span: selecting a key shows its findings and source line.
class GradientsPanel : public EvidenceTablePanel
{
    Q_OBJECT
public:
    explicit GradientsPanel(QWidget *parent = nullptr);
    ~GradientsPanel() override;

    void setLoadedTrace(LoadedTracePtr loaded) override;
    void clear() override;
    GradientKeyModel *keyModel() const { return m_model; }
    GradientHistogram *histogram() const { return m_histogram; }
    QString contractText() const;
    QString detailText() const;

protected:
    QString countText(int shown, std::size_t total) const override;

private:
    void showDetail(qint64 record);
    void updateContract(const LoadedTracePtr &loaded);

    GradientKeyModel *m_model;
    QLabel *m_contract;
    GradientHistogram *m_histogram;
    QPlainTextEdit *m_detail;
    const void *m_shownEvidence = nullptr;
};

} // namespace TraceInspector
