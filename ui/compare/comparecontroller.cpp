// SPDX-License-Identifier: MIT
#include "ui/compare/comparecontroller.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "core/itemmodels/spandiffmodel.h"
#include "core/loading/backgroundrelease.h"
#include "core/loading/workerpool.h"

namespace TraceInspector {

CompareController::CompareController(QObject *parent)
    : QObject(parent)
    , m_loader(new TraceLoader(this))
{
    connect(m_loader, &TraceLoader::progressChanged, this,
            [this](quint64, int permille, const QString &phase) { Q_EMIT progressChanged(permille, phase); });
    connect(m_loader, &TraceLoader::finished, this, [this](quint64, const LoadedTracePtr &snapshot) {
        m_baseline = snapshot;
        setState(State::WaitingForCandidate);
        startIfReady();
    });
    connect(m_loader, &TraceLoader::failed, this,
            [this](quint64, const QString &message, TraceLoader::FailureKind kind) {
                setState(State::Failed);
                Q_EMIT failed(message, kind);
            });
    connect(m_loader, &TraceLoader::cancelled, this, [this](quint64) { setState(State::Idle); });
}

CompareController::~CompareController()
{
    // A comparison still computing holds only shared snapshots; its result is dropped.
    ++m_computeGeneration;
    m_loader->cancel();
}

int CompareController::initialSpanColumn()
{
    return SpanDiffModel::DeltaSelfColumn;
}

void CompareController::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void CompareController::dropComparison()
{
    ++m_computeGeneration;
    m_initialSpanOrder.clear();
    // The comparison (with the baseline run it holds) is freed on a worker once every view has
    // let go of it: freeing a 1 GB pair's took 220 ms here.
    if (m_comparison) {
        TraceComparisonPtr last = std::exchange(m_comparison, {});
        Q_EMIT comparisonCleared();
        releaseInBackground(std::move(last));
    }
}

void CompareController::setCandidate(LoadedTracePtr candidate)
{
    if (candidate == m_candidate)
        return;
    const bool sameTrace = candidate && m_candidate && candidate->generation == m_candidate->generation
                           && candidate->path == m_candidate->path;
    m_candidate = std::move(candidate);
    if (!sameTrace)
        dropComparison();
    if (m_baseline
        && (m_state == State::Ready || m_state == State::Computing || m_state == State::WaitingForCandidate)) {
        if (!sameTrace || m_state != State::Ready)
            setState(State::WaitingForCandidate);
        startIfReady();
    }
}

void CompareController::compareWith(const QString &baselinePath)
{
    dropComparison();
    releaseInBackground(std::exchange(m_baseline, {}));
    releaseInBackground(m_loader->takeCurrent()); // else load() would free it here
    m_baselinePath = baselinePath;
    setState(State::LoadingBaseline);
    m_loader->load(baselinePath);
}

void CompareController::cancel()
{
    ++m_computeGeneration;
    if (m_loader->isLoading())
        m_loader->cancel();
    if (m_state == State::Computing || m_state == State::WaitingForCandidate)
        setState(m_comparison ? State::Ready : State::Idle);
}

void CompareController::clear()
{
    cancel();
    // The comparison and the loader hold the baseline too: it goes to a worker after the
    // views let go.
    LoadedTracePtr baseline = std::exchange(m_baseline, {});
    releaseInBackground(m_loader->takeCurrent());
    m_baselinePath.clear();
    dropComparison();
    releaseInBackground(std::move(baseline));
    setState(State::Idle);
}

void CompareController::startIfReady()
{
    if (m_state != State::WaitingForCandidate || !m_baseline || !m_candidate || !m_candidate->isComplete())
        return;
    if (!m_baseline->spanTree || !m_candidate->spanTree) {
        setState(State::Failed);
        Q_EMIT failed(tr("%1 has no span tree to compare: it did not load completely.")
                          .arg(!m_baseline->spanTree ? m_baseline->path : m_candidate->path),
                      TraceLoader::FailureKind::NotATrace);
        return;
    }
    setState(State::Computing);
    const quint64 generation = ++m_computeGeneration;
    using Result = std::pair<TraceComparisonPtr, std::vector<std::uint32_t>>;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_computeGeneration)
            return; // superseded by a new baseline or candidate, or cancelled
        Result result = watcher->result();
        m_comparison = std::move(result.first);
        m_initialSpanOrder = std::move(result.second);
        setState(State::Ready);
        Q_EMIT comparisonReady(m_comparison);
    });
    watcher->setFuture(QtConcurrent::run(workerPool(), [baseline = m_baseline, candidate = m_candidate] {
        TraceComparisonPtr comparison = TraceComparison::compute(baseline, candidate);
        std::vector<std::uint32_t> order =
            SpanDiffModel::presortedOrder(*comparison, initialSpanColumn(), kInitialOrder);
        return Result(std::move(comparison), std::move(order));
    }));
}

} // namespace TraceInspector
