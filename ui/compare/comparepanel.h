// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/display/format.h"
#include "core/loading/tracecomparison.h"
#include "core/loading/traceloader.h"
#include "ui/compare/comparecontroller.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;
class QTabWidget;
class QSortFilterProxyModel;

namespace TraceInspector {

class MemoryDiffChart;
class MessageBanner;
class OnlyInRunModel;
class OpGroupDiffModel;
class SpanDiffModel;
class StackedTimeline;

/// The A/B comparison of the window's trace (the candidate) with a baseline (issue #15
/// items 2–4): the match summary, the fairness banner and the "indicative — one run each"
/// label above four views: matched spans and op groups with baseline, candidate, Δ and Δ%
/// (sorted by Δ, largest slowdown first), what only one run has, and both memory curves with
/// the peak Δ by category. Shows the baseline's load progress with a Cancel button.
class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePanel(CompareController *controller, QWidget *parent = nullptr);
    ~ComparePanel() override;

    void setTimeUnit(TimeUnit unit);

    QLabel *summaryLabel() const { return m_summary; }
    /// Forgets the baseline and the comparison (the span tree's Δ columns go with it).
    QPushButton *closeButton() const { return m_close; }
    QLabel *indicativeLabel() const { return m_indicative; }
    MessageBanner *fairnessBanner() const { return m_fairness; }
    QTableView *spanView() const { return m_spanView; }
    QTableView *opGroupView() const { return m_opView; }
    QTableView *onlyInView() const { return m_onlyView; }
    MemoryDiffChart *memoryChart() const { return m_memoryChart; }
    QTableWidget *peakCategoryTable() const { return m_categories; }
    QTabWidget *views() const { return m_views; }
    /// Both runs stacked on one host axis; laid out when its tab is first shown.
    StackedTimeline *timeline() const { return m_timeline; }
    SpanDiffModel *spanModel() const { return m_spanModel; }
    OpGroupDiffModel *opGroupModel() const { return m_opModel; }
    OnlyInRunModel *onlyInModel() const { return m_onlyModel; }
    /// Whether the span or op group table is being sorted on a worker thread.
    bool isSorting() const;

    /// The banner's text for \a check, one line per difference, then upstream's reasons.
    static QString fairnessText(const FairnessCheck &check);
    /// "9,812 of 9,830 spans matched; 18 only in candidate".
    static QString matchSummary(const TraceDiff &diff, std::size_t candidateSpans);

Q_SIGNALS:
    /// A row naming a span of the window's trace was activated.
    void spanActivated(qint64 spanIndex);
    /// A background sort of a diff table started or ended (isSorting()).
    void sortingChanged(bool sorting);

private:
    void showComparison(const TraceComparisonPtr &comparison);
    void clearComparison();
    void onStateChanged(CompareController::State state);
    void onFailed(const QString &message, TraceLoader::FailureKind kind);
    void fillCategories(const MemoryDiff &memory);
    void showSorting(QTableView *view, int tab, bool sorting);
    void showTimelineIfOpen();

    CompareController *m_controller;
    QLabel *m_title;
    QLabel *m_summary;
    QLabel *m_indicative;
    MessageBanner *m_fairness;
    MessageBanner *m_error;
    QWidget *m_progressRow;
    QProgressBar *m_progress;
    QLabel *m_progressText;
    QPushButton *m_cancel;
    QPushButton *m_close;
    QTabWidget *m_views;
    StackedTimeline *m_timeline;
    TraceComparisonPtr m_shown; ///< what the views show (the timeline takes it when opened)
    QTableView *m_spanView;
    QTableView *m_opView;
    QTableView *m_onlyView;
    MemoryDiffChart *m_memoryChart;
    QTableWidget *m_categories;
    SpanDiffModel *m_spanModel;
    OpGroupDiffModel *m_opModel;
    OnlyInRunModel *m_onlyModel;
    QSortFilterProxyModel *m_onlyProxy;
};

} // namespace TraceInspector
