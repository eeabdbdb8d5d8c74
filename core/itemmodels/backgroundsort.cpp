// SPDX-License-Identifier: MIT
#include "core/itemmodels/backgroundsort.h"

#include "core/loading/workerpool.h"

#include <algorithm>
#include <atomic>

#include <QtConcurrent/QtConcurrentRun>

namespace TraceInspector {

namespace {
std::atomic<std::size_t> g_backgroundRows{100000};
} // namespace

std::size_t BackgroundSort::backgroundRows()
{
    return g_backgroundRows.load(std::memory_order_relaxed);
}

void BackgroundSort::setBackgroundRows(std::size_t rows)
{
    g_backgroundRows.store(rows, std::memory_order_relaxed);
}

BackgroundSort::BackgroundSort(QObject *parent)
    : QObject(parent)
{
}

BackgroundSort::~BackgroundSort()
{
    // Workers post their result to this object: none may outlive it (each takes < 1 s).
    for (QFuture<void> &f : m_workers)
        f.waitForFinished();
}

void BackgroundSort::start(std::function<Apply()> compute)
{
    const quint64 generation = ++m_generation;
    setRunning(true);
    m_workers.erase(
        std::remove_if(m_workers.begin(), m_workers.end(), [](const QFuture<void> &f) { return f.isFinished(); }),
        m_workers.end());
    m_workers.push_back(QtConcurrent::run(workerPool(), [this, compute = std::move(compute), generation]() mutable {
        Apply apply = compute();
        // Safe: the destructor waits for every worker. A call still queued when this object
        // is destroyed is dropped with it.
        QMetaObject::invokeMethod(
            this,
            [this, generation, apply = std::move(apply)] {
                if (generation != m_generation)
                    return; // superseded
                // Applied before the busy state ends: whoever reacts to runningChanged(false)
                // sees the result. The apply step may start a newer computation.
                apply();
                if (generation == m_generation)
                    setRunning(false);
            },
            Qt::QueuedConnection);
    }));
}

void BackgroundSort::cancel()
{
    ++m_generation;
    setRunning(false);
}

void BackgroundSort::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

} // namespace TraceInspector
