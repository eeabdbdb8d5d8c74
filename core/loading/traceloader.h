// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

#include <QHash>

#include <atomic>
#include <memory>
#include <utility>

#include "core/loading/loadedtrace.h"
#include "core/loading/loadprogress.h"

class QFutureWatcherBase;

namespace TraceInspector {

class StageGate;

/// Loads trace files off the GUI thread (house rules 3–6).
///
/// Each load() starts a new generation and supersedes the previous one: the old job is
/// cancelled and whatever it still produces is dropped. The job reads the file tolerantly,
/// then builds the span tree, runs health and memory analysis, prepares the memory chart's
/// series (MemorySeries, plain C++: the chart only draws them), and publishes an
/// immutable LoadedTrace snapshot after each stage, so views can fill as data arrives.
/// All signals are emitted on the thread that owns the loader, and only for the current
/// generation.
class TraceLoader : public QObject
{
    Q_OBJECT
public:
    /// Why a load failed, for the window to choose its wording and actions.
    enum class FailureKind {
        Unreadable,       ///< cannot be opened or read (missing, a folder, a device, a read error)
        NotATrace,        ///< readable, but not candle-graph JSONL
        ChangedWhileRead, ///< the file changed while it was read: reloading may succeed
        OutOfMemory,
    };
    Q_ENUM(FailureKind)

    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    /// Starts loading \a path and returns the new generation id (> 0).
    quint64 load(const QString &path);
    /// Cancels the current load; the reader stops at its next chunk, or within 100 ms when
    /// it waits for a pipe's data. Emits cancelled().
    void cancel();

    bool isLoading() const;
    quint64 currentGeneration() const { return m_generation; }
    /// The newest snapshot of the current generation, or null.
    LoadedTracePtr current() const { return m_current; }
    /// Hands over the newest snapshot and forgets it, once no load is running: the caller's
    /// reference may then be the last one (to free a big trace off the GUI thread).
    LoadedTracePtr takeCurrent() { return isLoading() ? m_current : std::exchange(m_current, {}); }

Q_SIGNALS:
    void started(quint64 generation, const QString &path);
    /// \a permille runs 0..1000 over the whole load; \a phase says what is being done.
    void progressChanged(quint64 generation, int permille, const QString &phase);
    /// The same progress as values: the named step, its own progress, a detail line.
    void stepProgress(quint64 generation, const TraceInspector::LoadProgress &progress);
    /// The file was read: trace, reader problems and strict verdict are available.
    void traceRead(quint64 generation, TraceInspector::LoadedTracePtr snapshot);
    /// A later stage finished; \a snapshot->stage tells which.
    void analysisReady(quint64 generation, TraceInspector::LoadedTracePtr snapshot);
    /// All stages are done; \a snapshot is final.
    void finished(quint64 generation, TraceInspector::LoadedTracePtr snapshot);
    /// The file could not be opened or read, or is not a trace; nothing was loaded.
    void failed(quint64 generation, const QString &message, TraceInspector::TraceLoader::FailureKind kind);
    void cancelled(quint64 generation);

private:
    void onResult(QFutureWatcherBase *watcher, quint64 generation, int index);
    void onJobFinished(QFutureWatcherBase *watcher, quint64 generation);
    void retireCurrentJob();

    quint64 m_generation = 0;
    LoadedTracePtr m_current;
    QFutureWatcherBase *m_watcher = nullptr; // current job; superseded jobs delete themselves
    // Each job's cancel flag, read by the reader itself: a job waiting for a FIFO's writer
    // sends no progress, so mirroring QFuture's cancel state from progress would never
    // reach it.
    QHash<QFutureWatcherBase *, std::shared_ptr<std::atomic<bool>>> m_cancelFlags;
    // Each job's gate, opened once the window has shown the read trace (its health analysis
    // waits for it, runStages()), or when the job is retired.
    QHash<QFutureWatcherBase *, std::shared_ptr<StageGate>> m_readShownGates;
    bool m_cancelReported = false;
};

} // namespace TraceInspector
