// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <QFuture>
#include <QObject>

namespace TraceInspector {

/// Computes a row order on a worker thread and applies it on the owner's thread: the sort
/// of a million-row model (keys, radix sort) takes 50-250 ms, longer than the GUI thread may
/// be held. Only the newest request is ever applied: each start() or cancel() bumps a
/// generation, and a result of an older generation is dropped when it arrives, so a model
/// reset or a second click on a header never sees an order computed for other data.
///
/// The computation must own everything it reads (shared_ptrs to the immutable trace, keys
/// copied on the calling thread): it may still run after the model moved on.
class BackgroundSort : public QObject
{
    Q_OBJECT
public:
    /// What a computation hands back: the step that applies its result, run on the owner's
    /// thread (it owns the result, e.g. a captured row order).
    using Apply = std::function<void()>;

    /// Models with fewer rows than this sort on the calling thread (a few ms), which keeps
    /// small traces, and the tests written against them, synchronous. 100 000 by default;
    /// tests lower it to drive the background path with small traces.
    static std::size_t backgroundRows();
    static void setBackgroundRows(std::size_t rows);

    explicit BackgroundSort(QObject *parent = nullptr);
    ~BackgroundSort() override;

    /// Runs \a compute on a worker thread; the Apply it returns runs on this object's thread
    /// unless start() or cancel() is called again first.
    void start(std::function<Apply()> compute);
    /// Drops the pending result, if any.
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    /// A computation started (true) or its result was applied or dropped (false).
    void runningChanged(bool running);

private:
    void setRunning(bool running);

    quint64 m_generation = 0;
    bool m_running = false;
    std::vector<QFuture<void>> m_workers;
};

} // namespace TraceInspector
