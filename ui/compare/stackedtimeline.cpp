// SPDX-License-Identifier: MIT
#include "ui/compare/stackedtimeline.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "core/diff/spanmatcher.h"
#include "ui/timeline/timelineview.h"

namespace TraceInspector {

Q_LOGGING_CATEGORY(lcStacked, "traceinspector.compare.timeline", QtWarningMsg)

namespace {

QWidget *titled(QLabel *title, TimelineView *view, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(title);
    layout->addWidget(view, 1);
    return box;
}

} // namespace

StackedTimeline::StackedTimeline(QWidget *parent)
    : QWidget(parent)
    , m_baselineTitle(new QLabel(this))
    , m_candidateTitle(new QLabel(this))
    , m_baseline(new TimelineView(this))
    , m_candidate(new TimelineView(this))
{
    setObjectName(QStringLiteral("compareTimeline"));
    m_baseline->setObjectName(QStringLiteral("compareBaselineTimeline"));
    m_candidate->setObjectName(QStringLiteral("compareCandidateTimeline"));
    m_baselineTitle->setObjectName(QStringLiteral("compareBaselineTimelineTitle"));
    m_candidateTitle->setObjectName(QStringLiteral("compareCandidateTimelineTitle"));
    m_baselineTitle->setTextFormat(Qt::PlainText);
    m_candidateTitle->setTextFormat(Qt::PlainText);
    // The ruler and two lines (a row) each: the Compare tab's least height is part of the window's.
    for (TimelineView *view : {m_baseline, m_candidate})
        view->setMinimumHeight(view->rulerHeight() + 2 * fontMetrics().height());

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(titled(m_baselineTitle, m_baseline, splitter));
    splitter->addWidget(titled(m_candidateTitle, m_candidate, splitter));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_baseline, &TimelineView::visibleWindowChanged, this,
            [this](const TimeWindow &w) { follow(m_candidate, w); });
    connect(m_candidate, &TimelineView::visibleWindowChanged, this,
            [this](const TimeWindow &w) { follow(m_baseline, w); });
    // A layout arrives fitted to its own run: show it on the other run's window.
    connect(m_baseline, &TimelineView::layoutReady, this, [this] {
        qCInfo(lcStacked) << "baseline layout ready";
        if (m_candidate->isLayoutReady())
            follow(m_baseline, m_candidate->visibleWindow());
    });
    connect(m_candidate, &TimelineView::layoutReady, this, [this] {
        if (m_baseline->isLayoutReady())
            follow(m_candidate, m_baseline->visibleWindow());
    });
    connect(m_baseline, &TimelineView::hovered, this, [this](const Selection &s) { link(s, true); });
    connect(m_candidate, &TimelineView::hovered, this, [this](const Selection &s) { link(s, false); });
    connect(m_baseline, &TimelineView::selected, this, [this](const Selection &s) { link(s, true); });
    connect(m_candidate, &TimelineView::selected, this, [this](const Selection &s) {
        link(s, false);
        if (s.kind == Selection::Kind::Span && s.isValid())
            Q_EMIT candidateSpanSelected(s.index);
    });
}

StackedTimeline::~StackedTimeline() = default;

void StackedTimeline::setComparison(TraceComparisonPtr comparison)
{
    if (comparison == m_comparison)
        return; // already laid out (the tab was shown again)
    m_comparison = std::move(comparison);
    if (!m_comparison) {
        m_baseline->clear();
        m_candidate->clear();
        m_baselineTitle->clear();
        m_candidateTitle->clear();
        return;
    }
    QElapsedTimer clock;
    clock.start();
    const LoadedTrace &b = *m_comparison->baseline, &c = *m_comparison->candidate;
    m_baselineTitle->setText(tr("Baseline: %1").arg(QFileInfo(b.path).fileName()));
    m_candidateTitle->setText(tr("Candidate (this window): %1").arg(QFileInfo(c.path).fileName()));
    m_baseline->setTrace(b.trace, b.spanTree);
    m_candidate->setTrace(c.trace, c.spanTree);
    qCInfo(lcStacked) << "both layouts started in" << clock.elapsed() << "ms (GUI thread)";
}

qint64 StackedTimeline::counterpart(qint64 span, bool fromBaseline) const
{
    if (!m_comparison || span < 0)
        return -1;
    const SpanMatch &m = m_comparison->diff.spans;
    const std::vector<std::uint32_t> &partner = fromBaseline ? m.candidateOf : m.baselineOf;
    if (std::uint64_t(span) >= partner.size() || partner[std::size_t(span)] == SpanMatch::kNone)
        return -1;
    return qint64(partner[std::size_t(span)]);
}

void StackedTimeline::link(const Selection &selection, bool fromBaseline)
{
    // Ops, intervals and empty space link nothing: the other run's highlight goes.
    const qint64 span = selection.kind == Selection::Kind::Span && selection.isValid() ? selection.index : -1;
    const qint64 other = counterpart(span, fromBaseline);
    TimelineView *otherView = fromBaseline ? m_candidate : m_baseline;
    otherView->setSelection(other >= 0 ? Selection::span(other) : Selection());
    if (span >= 0)
        Q_EMIT linked(fromBaseline ? span : other, fromBaseline ? other : span);
}

void StackedTimeline::follow(TimelineView *to, const TimeWindow &window)
{
    if (m_following || !to->isLayoutReady())
        return;
    m_following = true;
    to->setVisibleWindow(window);
    m_following = false;
}

} // namespace TraceInspector
