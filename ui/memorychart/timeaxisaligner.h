// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

class QTimer;

namespace TraceInspector {

class MemoryChartPanel;
class TimelineView;

/// Keeps the timeline's time area and the memory chart's plot area on the same screen x
/// range, so that one time is at the same x in both (they show the same window). Both get
/// the wider of their left gutters (the chart's byte labels) and right margins (the chart's
/// legend, the timeline's scroll bar), again whenever either is resized, moved or relaid out
/// (fonts, labels, a legend entry, a scroll bar coming or going).
class TimeAxisAligner : public QObject
{
    Q_OBJECT
public:
    TimeAxisAligner(TimelineView *timeline, MemoryChartPanel *chart, QObject *parent = nullptr);

    /// Lines both up now (normally done after every change, from the event loop).
    void align();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void schedule();

    QPointer<TimelineView> m_timeline;
    QPointer<MemoryChartPanel> m_chart;
    QTimer *m_timer = nullptr;
};

} // namespace TraceInspector
