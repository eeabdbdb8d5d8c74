// SPDX-License-Identifier: MIT
#include "core/loading/workerpool.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cerrno>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

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

// Enough for the GUI thread to win a shared core (weight 1024 against 335) without starving
// the load when the GUI thread is busy for long.
constexpr int kBackgroundNiceIncrement = 5;

} // namespace

QThreadPool *workerPool()
{
    return inspectorPool();
}

void enterBackgroundPriority()
{
#ifdef __linux__
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
    // Linux keeps a nice value per thread: PRIO_PROCESS with a thread id sets that thread's.
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int current = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0)
        (void)::setpriority(PRIO_PROCESS, tid, std::min(19, current + kBackgroundNiceIncrement));
#endif
}

} // namespace TraceInspector
