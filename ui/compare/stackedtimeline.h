// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/tracecomparison.h"
#include "ui/selection/selection.h"

class QLabel;

namespace TraceInspector {

class TimelineView;

/// The two runs of a comparison stacked (issue #15 item 3): the baseline's timeline above
/// the candidate's, two TimelineViews whose host axes move together (zoom or pan one, the
/// other follows: both show the same host time since each run's start). Hovering or
/// selecting a span in one run highlights its matched span in the other (and scrolls it into
/// view); a span without a partner clears the other run's highlight.
class StackedTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit StackedTimeline(QWidget *parent = nullptr);
    ~StackedTimeline() override;

    /// Lays both runs out in the background; null clears both views.
    void setComparison(TraceComparisonPtr comparison);

    TimelineView *baselineView() const { return m_baseline; }
    TimelineView *candidateView() const { return m_candidate; }
    /// The span of the other run linked to \a span of the baseline (\a fromBaseline) or of
    /// the candidate; -1 without a partner.
    qint64 counterpart(qint64 span, bool fromBaseline) const;

Q_SIGNALS:
    /// A hover or click in one run linked \a baselineSpan and \a candidateSpan (-1 on the
    /// side that has no partner).
    void linked(qint64 baselineSpan, qint64 candidateSpan);
    /// A span of the candidate (the window's trace) was clicked.
    void candidateSpanSelected(qint64 spanIndex);

private:
    void link(const Selection &selection, bool fromBaseline);
    void follow(TimelineView *to, const TimeWindow &window);

    QLabel *m_baselineTitle;
    QLabel *m_candidateTitle;
    TimelineView *m_baseline;
    TimelineView *m_candidate;
    TraceComparisonPtr m_comparison;
    bool m_following = false;
};

} // namespace TraceInspector
