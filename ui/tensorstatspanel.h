// SPDX-License-Identifier: MIT
#pragma once

#include "ui/evidencetablepanel.h"

namespace TraceInspector {

class TensorStatsModel;

/// Every tensor_stats record (trace/10) with its outlier flags and score, sorted by score
/// (most suspicious first) once the verdicts arrive. Activating a row selects the span and
/// the producing op.
class TensorStatsPanel : public EvidenceTablePanel
{
    Q_OBJECT
public:
    explicit TensorStatsPanel(QWidget *parent = nullptr);
    ~TensorStatsPanel() override;

    void setLoadedTrace(LoadedTracePtr loaded) override;
    void clear() override;
    TensorStatsModel *statsModel() const { return m_model; }

protected:
    QString countText(int shown, std::size_t total) const override;

private:
    TensorStatsModel *m_model;
    const void *m_shownTrace = nullptr;
    const void *m_shownEvidence = nullptr;
};

} // namespace TraceInspector
