// SPDX-License-Identifier: MIT
#include "ui/memorychart/timeaxisaligner.h"

#include <QEvent>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

#include "ui/memorychart/memorychartpanel.h"
#include "ui/timeline/timelineview.h"

namespace TraceInspector {

TimeAxisAligner::TimeAxisAligner(TimelineView *timeline, MemoryChartPanel *chart, QObject *parent)
    : QObject(parent)
    , m_timeline(timeline)
    , m_chart(chart)
{
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(0);
    connect(m_timer, &QTimer::timeout, this, &TimeAxisAligner::align);
    for (QObject *o : {static_cast<QObject *>(timeline), static_cast<QObject *>(timeline->viewport()),
                       static_cast<QObject *>(timeline->verticalScrollBar()), static_cast<QObject *>(chart)})
        o->installEventFilter(this);
    connect(chart, &MemoryChartPanel::plotSpanChanged, this, &TimeAxisAligner::schedule);
    connect(chart, &MemoryChartPanel::chartReady, this, &TimeAxisAligner::schedule);
    connect(chart, &MemoryChartPanel::windowChanged, this, &TimeAxisAligner::schedule);
    connect(timeline, &TimelineView::visibleWindowChanged, this, &TimeAxisAligner::schedule);
}

bool TimeAxisAligner::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Move:
    case QEvent::Show:
    case QEvent::Hide:
    case QEvent::FontChange:
    case QEvent::StyleChange: schedule(); break;
    default: break;
    }
    return QObject::eventFilter(watched, event);
}

void TimeAxisAligner::schedule()
{
    m_timer->start();
}

void TimeAxisAligner::align()
{
    if (!m_timeline || !m_chart)
        return;
    // The timeline's time area without margins: its contents less the vertical scroll bar.
    const QRect contents = m_timeline->contentsRect();
    const QScrollBar *bar = m_timeline->verticalScrollBar();
    const int barWidth = bar->isVisibleTo(m_timeline) ? bar->width() : 0;
    const int timelineLeft = m_timeline->mapToGlobal(contents.topLeft()).x();
    const int timelineRight = timelineLeft + contents.width() - barWidth;
    const auto chartSpan = m_chart->naturalPlotSpan();
    if (!chartSpan || !m_timeline->isVisible() || !m_chart->isVisible()) {
        m_timeline->setTimeAreaMargins(0, 0);
        m_chart->setPlotSpan(0, 0);
        return;
    }
    const int left = std::max(timelineLeft, chartSpan->first);
    const int right = std::min(timelineRight, chartSpan->second);
    if (right - left < 32) { // side by side, not one above the other: nothing to line up
        m_timeline->setTimeAreaMargins(0, 0);
        m_chart->setPlotSpan(0, 0);
        return;
    }
    m_timeline->setTimeAreaMargins(left - timelineLeft, timelineRight - right);
    // The chart keeps to the run while the timeline's fitted window has a margin on each side:
    // then the chart's window is the part of the timeline's the run covers, and its plot
    // area the part of the time area that shows it.
    int chartLeft = left;
    int chartRight = right;
    const TimeWindow shown = m_timeline->visibleWindow();
    const TimeWindow charted = m_chart->window();
    if (!shown.isEmpty() && !charted.isEmpty() && charted != shown) {
        const double width = double(right - left);
        chartLeft = std::clamp(left + int(std::lround(timeToX(shown, width, charted.begin))), left, right - 1);
        chartRight = std::clamp(left + int(std::lround(timeToX(shown, width, charted.end))), chartLeft + 1, right);
    }
    m_chart->setPlotSpan(chartLeft, chartRight);
}

} // namespace TraceInspector
