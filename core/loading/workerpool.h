// SPDX-License-Identifier: MIT
#pragma once

#include <QtConcurrent/QtConcurrentRun>

#include <utility>

class QThreadPool;

namespace TraceInspector {

/// The pool every background job of the inspector runs on: loads, sorts, searches, range
/// filters, comparisons, exports, raw-line reads, releases.
///
/// Not QThreadPool::globalInstance(): Qt 6.4's raster paint engine splits some fills over the
/// global pool and waits for them on the GUI thread. When our jobs held its workers (two on a
/// two-core machine), a repaint waited until one of them finished: 0.5 s passes while a
/// trace reloaded, 6.4 s while a comparison's candidate loaded, with the GUI thread asleep in
/// QSemaphore::acquire under QRasterPaintEngine::drawLines. The global pool is left to Qt.
QThreadPool *workerPool();

/// Gives the calling thread a lower scheduling priority than the GUI thread (a higher nice
/// value, once per thread; threads it starts inherit it). Every job on workerPool() calls it
/// first: on two cores a load's two workers took the CPU from the GUI thread, whose 63 ms of
/// work during a reload then took 124 ms. The priority is relative to the application's own
/// threads only where the desktop groups processes (autogroup, cgroups), as Linux desktops do.
void enterBackgroundPriority();

/// QtConcurrent::run of \a job on workerPool() at background priority.
template<typename Job>
auto runInBackground(Job job)
{
    return QtConcurrent::run(workerPool(), [job = std::move(job)]() mutable {
        enterBackgroundPriority();
        return job();
    });
}

} // namespace TraceInspector
