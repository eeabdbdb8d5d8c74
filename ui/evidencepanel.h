// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/loadedtrace.h"

class QLabel;
class QTableView;
class QTreeView;
class QTreeWidget;

namespace TraceInspector {

class CapabilityModel;
class OutsideDeviceWorkModel;

/// Evidence and capabilities: the run's capture contract and the capability matrix
/// (complete / partial / not captured / unknown per plane), the evidence gaps (health
/// warnings and contract mismatches), every view's coverage in words, and the device work
/// outside every span (busy time per device, stream and clock of the device intervals whose
/// span_id names no span: work the span tree cannot show), each lane with its intervals below
/// it. Such an interval belongs to no span, so it joins the window's selection on its own: a
/// click on its row (or on its lane's row: the lane's first interval) selects it, and an
/// interval selected elsewhere (the timeline's device lanes) makes its row current here.
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
    QTreeView *outsideDeviceView() const { return m_outsideDevice; }
    OutsideDeviceWorkModel *outsideDeviceModel() const { return m_outsideModel; }
    QString contractText() const;
    /// Makes the row of device interval \a interval (index into Trace::deviceIntervals)
    /// current, expanding its lane, without emitting deviceIntervalSelected(); an interval
    /// that belongs to a span clears the current row.
    void showDeviceInterval(qint64 interval);

Q_SIGNALS:
    /// The user activated a gap about a span (an unclosed span).
    void spanActivated(qint64 spanIndex);
    /// The user made a row of the device work outside every span current: \a interval is
    /// its interval (a lane's first), an index into Trace::deviceIntervals.
    void deviceIntervalSelected(qint64 interval);

private:
    void showOutsideDeviceWork();
    void setOutsideNote(const QString &note);

    CapabilityModel *m_model;
    QLabel *m_contract;
    QTableView *m_matrix;
    QTreeWidget *m_gaps;
    QTreeWidget *m_views;
    OutsideDeviceWorkModel *m_outsideModel;
    QTreeView *m_outsideDevice;
    LoadedTracePtr m_loaded;
    bool m_showing = false; // showDeviceInterval() is moving the current row
};

} // namespace TraceInspector
