// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include "core/loading/tracecomparison.h"
#include "core/loading/traceloader.h"

namespace TraceInspector {

/// Runs an A/B comparison for a window (issue #15 item 1): loads the baseline with a
/// TraceLoader of its own (progress, cancel and typed failures like any load), waits until
/// both the baseline and the window's trace (the candidate) are fully loaded, then computes
/// the TraceComparison on a worker thread. A new candidate (the window opened another file)
/// recomputes against the same baseline; results of superseded work are dropped.
class CompareController : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, LoadingBaseline, WaitingForCandidate, Computing, Ready, Failed };
    Q_ENUM(State)

    explicit CompareController(QObject *parent = nullptr);
    ~CompareController() override;

    /// The window's trace as it loads; null when it closes its trace.
    void setCandidate(LoadedTracePtr candidate);
    /// Loads \a path as the baseline and compares once both runs are loaded.
    void compareWith(const QString &baselinePath);
    /// Cancels the baseline load; a comparison being computed is dropped.
    void cancel();
    /// Forgets the baseline and the comparison.
    void clear();

    State state() const { return m_state; }
    bool isBusy() const
    {
        return m_state == State::LoadingBaseline || m_state == State::WaitingForCandidate
               || m_state == State::Computing;
    }
    QString baselinePath() const { return m_baselinePath; }
    LoadedTracePtr baseline() const { return m_baseline; }
    TraceComparisonPtr comparison() const { return m_comparison; }
    /// The matched spans in the order the Compare tab first shows them (Δ self, largest
    /// slowdown first), sorted with the comparison on the worker thread.
    const std::vector<std::uint32_t> &initialSpanOrder() const { return m_initialSpanOrder; }
    static constexpr Qt::SortOrder kInitialOrder = Qt::DescendingOrder;
    static int initialSpanColumn();
    TraceLoader *baselineLoader() const { return m_loader; }

Q_SIGNALS:
    void stateChanged(TraceInspector::CompareController::State state);
    /// Baseline load progress, 0..1000.
    void progressChanged(int permille, const QString &phase);
    void failed(const QString &message, TraceInspector::TraceLoader::FailureKind kind);
    void comparisonReady(TraceInspector::TraceComparisonPtr comparison);
    /// The comparison shown so far no longer applies (new baseline, new candidate, cleared).
    void comparisonCleared();

private:
    void setState(State state);
    void startIfReady();
    void dropComparison();

    TraceLoader *m_loader;
    QString m_baselinePath;
    LoadedTracePtr m_baseline;
    LoadedTracePtr m_candidate;
    TraceComparisonPtr m_comparison;
    std::vector<std::uint32_t> m_initialSpanOrder;
    State m_state = State::Idle;
    quint64 m_computeGeneration = 0;
};

} // namespace TraceInspector
