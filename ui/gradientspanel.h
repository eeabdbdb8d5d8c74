// SPDX-License-Identifier: MIT
#pragma once

#include "ui/evidencetablepanel.h"

class QLabel;
class QPlainTextEdit;

namespace TraceInspector {

class GradientHistogram;
struct Trace;
class GradientKeyModel;

/// Gradient evidence: the run's gradient contract (declared coverage, manifest, the §9.4
/// digest check, families), one row per parameter key with state, norm, family and
/// findings, a log-scale histogram of the norms, and the findings of the current key.
/// Gradient records name no span: selecting a key selects its first gradient record in the
/// window (the details pane then shows the record, its source line and its findings), and a
/// gradient selected elsewhere (a finding that names it) makes its key current here.
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
    /// Makes the key of gradient record \a gradient (index into Trace::gradients) current,
    /// without emitting gradientSelected(); does nothing for an unknown record.
    void showGradient(qint64 gradient);

Q_SIGNALS:
    /// The user made a key current whose gradient was captured: \a gradient is its first
    /// record's index into Trace::gradients.
    void gradientSelected(qint64 gradient);

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
    std::shared_ptr<const Trace> m_trace;
    bool m_showing = false; // showGradient() is moving the current row
};

} // namespace TraceInspector
