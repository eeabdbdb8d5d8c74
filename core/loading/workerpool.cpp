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

struct AnalysisPool : QThreadPool {
    AnalysisPool()
    {
        setObjectName(QStringLiteral("TraceInspector analysis pool"));
        setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        qAddPostRoutine(&waitForJobsAtExit);
    }
};

Q_GLOBAL_STATIC(AnalysisPool, analysisThreads)

void waitForJobsAtExit()
{
    if (inspectorPool.exists())
        inspectorPool->waitForDone();
    if (analysisThreads.exists())
        analysisThreads->waitForDone();
}

} // namespace

QThreadPool *workerPool()
{
    return inspectorPool();
}

QThreadPool *analysisPool()
{
    return analysisThreads();
}

} // namespace TraceInspector
