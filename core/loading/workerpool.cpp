// SPDX-License-Identifier: MIT
#include "core/loading/workerpool.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace TraceInspector {

namespace {

void waitForJobsAtExit();

// Twice the cores: a load holds a worker for seconds, and the short jobs of an interaction
// (a raw line, a search, a range filter) must not queue behind it.
struct InspectorPool : QThreadPool {
    InspectorPool()
    {
        setObjectName(QStringLiteral("TraceInspector worker pool"));
        setMaxThreadCount(std::max(4, 2 * QThread::idealThreadCount()));
        // As QCoreApplication does for the global pool: no job outlives the application
        // object, whose destruction would pull Qt's state from under it.
        qAddPostRoutine(&waitForJobsAtExit);
    }
};

Q_GLOBAL_STATIC(InspectorPool, inspectorPool)

void waitForJobsAtExit()
{
    if (inspectorPool.exists())
        inspectorPool->waitForDone();
}

} // namespace

QThreadPool *workerPool()
{
    return inspectorPool();
}

} // namespace TraceInspector
