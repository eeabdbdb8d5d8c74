// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

#include <ctime>
#include <exception>
#include <memory>

#include "core/model/malloctuning.h"
#include "core/loading/workerpool.h"

namespace TraceInspector {

/// Milliseconds of CPU time the calling thread has used: the wall time of an analysis says
/// little on a loaded machine, its CPU time says what it costs.
inline qint64 threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

/// One post-read analysis run on the analysis pool, so the independent analyses of a load use
/// every core (issue #13: the window drawn soon after the read). Its error is kept and
/// rethrown by take() on the loader's thread, so a failed analysis fails the load as it did
/// when the analyses ran one after another there. A job not finished when the load ends
/// (cancelled or failed) is waited for: no work outlives its load.
template<typename T>
class AnalysisJob
{
public:
    template<typename Compute>
    explicit AnalysisJob(Compute compute)
        : m_future(QtConcurrent::run(analysisPool(), [compute = std::move(compute)]() noexcept {
            Outcome outcome;
            QElapsedTimer clock;
            clock.start();
            const qint64 cpuStart = threadCpuMs();
            try {
                outcome.value = compute();
            } catch (...) {
                outcome.error = std::current_exception();
            }
            releaseFreeMemory(); // the analysis's scratch, freed between the blocks it keeps
            outcome.ms = clock.elapsed();
            outcome.cpuMs = threadCpuMs() - cpuStart;
            return outcome;
        }))
    {
    }
    AnalysisJob(const AnalysisJob &) = delete;
    AnalysisJob &operator=(const AnalysisJob &) = delete;
    ~AnalysisJob() { m_future.waitForFinished(); }

    bool isFinished() const { return m_future.isFinished(); }
    /// Waits for the result; rethrows the job's exception. \a ms and \a cpuMs receive the
    /// job's wall and CPU milliseconds.
    std::shared_ptr<const T> take(qint64 *ms = nullptr, qint64 *cpuMs = nullptr)
    {
        const Outcome &outcome = m_future.result();
        if (outcome.error)
            std::rethrow_exception(outcome.error);
        if (ms)
            *ms = outcome.ms;
        if (cpuMs)
            *cpuMs = outcome.cpuMs;
        return outcome.value;
    }

private:
    struct Outcome {
        std::shared_ptr<const T> value;
        qint64 ms = 0;
        qint64 cpuMs = 0;
        std::exception_ptr error;
    };
    QFuture<Outcome> m_future;
};

} // namespace TraceInspector
