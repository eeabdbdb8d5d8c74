// SPDX-License-Identifier: MIT
#pragma once

#include "core/loading/workerpool.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <type_traits>
#include <utility>

namespace TraceInspector {

/// Set when a worker's result is no longer wanted (a newer request, or the panel is gone):
/// the worker stops at its next check and nobody waits for it.
using CancelFlag = std::shared_ptr<std::atomic<bool>>;

inline CancelFlag newCancelFlag()
{
    return std::make_shared<std::atomic<bool>>(false);
}

inline bool isCancelled(const CancelFlag &flag)
{
    return flag && flag->load(std::memory_order_relaxed);
}

/// Sets \a flag (if any) and forgets it.
inline void cancelAndForget(CancelFlag &flag)
{
    if (flag)
        flag->store(true, std::memory_order_relaxed);
    flag.reset();
}

/// Runs \a job on the thread pool and hands its result to \a done on \a context's thread.
/// The watcher is a child of \a context and deletes itself when the job ends; when \a context
/// goes first it takes the watcher with it and the result is dropped. Nothing ever waits for
/// the job, which must own (share) everything it reads.
template<typename Job, typename Done>
void runAbandonable(QObject *context, Job job, Done done)
{
    using Result = std::invoke_result_t<Job>;
    auto *watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, context, [watcher, done] {
        watcher->deleteLater();
        done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(workerPool(), std::move(job)));
}

} // namespace TraceInspector
