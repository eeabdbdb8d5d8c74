// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>

#include <sys/resource.h>
#include <time.h>

// The clocks every GUI benchmark reads: wall time, the GUI thread's own CPU time (what an
// action costs there, whatever else a shared machine runs) and why wall exceeds CPU.
namespace BenchClock {

inline double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

inline double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// Why a call's wall time exceeds its CPU time: waits (voluntary switches: a lock, I/O),
// preemption by other threads (involuntary) and page faults (major: read from disk).
struct ThreadWaits {
    long voluntary = 0;
    long involuntary = 0;
    long majorFaults = 0;
    long minorFaults = 0;
};

inline ThreadWaits threadWaits()
{
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return {u.ru_nvcsw, u.ru_nivcsw, u.ru_majflt, u.ru_minflt};
}

} // namespace BenchClock
