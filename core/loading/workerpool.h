// SPDX-License-Identifier: MIT
#pragma once

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

/// The pool a load's analyses after the read run on: one thread per core, so the analyses
/// share every core but no more of them run at once than there are cores (each holds
/// scratch memory while it runs, and the peak RSS of a load is set after the read).
QThreadPool *analysisPool();

} // namespace TraceInspector
