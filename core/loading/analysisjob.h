// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <memory>

#include "core/loading/workerpool.h"

namespace TraceInspector {

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
            try {
                outcome.value = compute();
            } catch (...) {
                outcome.error = std::current_exception();
            }
            outcome.ms = clock.elapsed();
            return outcome;
        }))
    {
    }
    AnalysisJob(const AnalysisJob &) = delete;
    AnalysisJob &operator=(const AnalysisJob &) = delete;
    ~AnalysisJob() { m_future.waitForFinished(); }

    bool isFinished() const { return m_future.isFinished(); }
    /// Waits for the result; rethrows the job's exception.
    std::shared_ptr<const T> take(qint64 *ms = nullptr)
    {
        const Outcome &outcome = m_future.result();
        if (outcome.error)
            std::rethrow_exception(outcome.error);
        if (ms)
            *ms = outcome.ms;
        return outcome.value;
    }

private:
    struct Outcome {
        std::shared_ptr<const T> value;
        qint64 ms = 0;
        std::exception_ptr error;
    };
    QFuture<Outcome> m_future;
};

} // namespace TraceInspector
