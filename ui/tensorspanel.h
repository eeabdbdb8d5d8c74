// SPDX-License-Identifier: MIT
#pragma once

#include "ui/evidencetablepanel.h"

namespace TraceInspector {

class TensorTableModel;

/// Every tensor record of the trace (TensorTableModel): id, label, shape, dtype, device,
/// dense bytes, category, requires_grad, producing op and span, storage and lifetime.
class TensorsPanel : public EvidenceTablePanel
{
    Q_OBJECT
public:
    explicit TensorsPanel(QWidget *parent = nullptr);
    ~TensorsPanel() override;

    void setLoadedTrace(LoadedTracePtr loaded) override;
    void clear() override;
    TensorTableModel *tensorModel() const { return m_model; }

protected:
    QString countText(int shown, std::size_t total) const override;

private:
    TensorTableModel *m_model;
    const void *m_shownTrace = nullptr;
    const void *m_shownEvidence = nullptr;
};

} // namespace TraceInspector
