// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/loadedtrace.h"

class QLabel;
class QTableView;
class QTreeWidget;

namespace TraceInspector {

class CapabilityModel;

/// Evidence and capabilities: the run's capture contract and the capability matrix
/// (complete / partial / not captured / unknown per plane), the evidence gaps (health
/// warnings and contract mismatches), every view's coverage in words, and the device work
/// outside every span (busy time per device, stream and clock of the device intervals whose
/// span_id names no span: work the span tree cannot show).
class EvidencePanel : public QWidget
{
    Q_OBJECT
public:
    explicit EvidencePanel(QWidget *parent = nullptr);
    ~EvidencePanel() override;

    void setLoadedTrace(LoadedTracePtr loaded);
    void clear();

    CapabilityModel *capabilityModel() const { return m_model; }
    QTableView *matrixView() const { return m_matrix; }
    QTreeWidget *gapList() const { return m_gaps; }
    QTreeWidget *viewList() const { return m_views; }
    QTreeWidget *outsideDeviceList() const { return m_outsideDevice; }
    QString contractText() const;

Q_SIGNALS:
    /// The user activated a gap about a span (an unclosed span).
    void spanActivated(qint64 spanIndex);

private:
    void showOutsideDeviceWork();

    CapabilityModel *m_model;
    QLabel *m_contract;
    QTableView *m_matrix;
    QTreeWidget *m_gaps;
    QTreeWidget *m_views;
    QTreeWidget *m_outsideDevice;
    LoadedTracePtr m_loaded;
};

} // namespace TraceInspector
