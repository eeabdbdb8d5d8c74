// SPDX-License-Identifier: MIT
// Opening a trace in the window, for issue #13's GUI targets: the time from openFile() to the
// first panel drawn (the read trace shown in the op table, validation and status bar) and to
// the window fully drawn (every stage delivered, the timeline laid out, the memory chart's
// series installed, every visible panel painted), with the process's peak RSS. Each moment is
// taken after a synchronous repaint of the whole window, so "drawn" means painted, not queued.
// Usage: bench_guiopen TRACE; prints one line of figures (ms, MiB) that bench/bench_check.sh reads.
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>

#include <chrono>
#include <ctime>
#include <cstdio>

#include <malloc.h>
#include <sys/resource.h>

#include "core/analysis/devicetime.h"
#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/analysis/spantree.h"
#include "core/model/malloctuning.h"
#include "core/loading/traceloader.h"
#include "ui/mainwindow.h"
#include "tests/testutils/residentmemory.h"
#include "ui/timeline/timelineview.h"

using namespace TraceInspector;

int main(int argc, char **argv)
{
    tuneMallocForBigTraces(kWindowArenas); // as the application does
    relaunchWithHugePageHeap(argv);        // as the window does
    QApplication app(argc, argv);
    if (argc < 2) {
        std::printf("SKIP: give a trace\n");
        return 77;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QCoreApplication::processEvents();

    // CPU seconds of the whole process (every thread) so far: on a shared machine the wall
    // times say more about the neighbours than about the load.
    const auto processCpuMs = [] {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3
               + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
    };
    // The window's own thread: what it spends there delays every panel (issue #13).
    const auto windowThreadCpuMs = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    };
    const double cpuAtStart = processCpuMs();
    const double windowCpuAtStart = windowThreadCpuMs();
    double firstPanelCpuMs = -1;
    double firstPanelWindowCpuMs = -1;
    QElapsedTimer clock;
    double firstPanelMs = -1;
    // Connected after the window's own slot: it runs once the window has shown the read trace.
    QObject::connect(window.loader(), &TraceLoader::traceRead, &window, [&] {
        if (firstPanelMs >= 0)
            return;
        window.repaint();
        firstPanelMs = double(clock.nsecsElapsed()) / 1e6;
        firstPanelCpuMs = processCpuMs() - cpuAtStart;
        firstPanelWindowCpuMs = windowThreadCpuMs() - windowCpuAtStart;
    });
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    clock.start();
    // When the peak happens says which stage's scratch memory makes it: sampled every 2 ms,
    // from (about) the clock's start.
    ResidentMemory::PeakSampler sampler(std::chrono::milliseconds(2));
    window.openFile(path);
    if (!finished.wait(600000) || !finished.at(0).at(0).toBool()) {
        std::printf("the trace did not load\n");
        return 1;
    }
    const double loadedMs = double(clock.nsecsElapsed()) / 1e6;
    // The views' own background work after the last stage: the timeline's layout and the
    // memory chart's series.
    while (window.timelineView()->isComputingLayout() || window.isViewWorkPending())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    QCoreApplication::processEvents();
    window.repaint();
    const double fullyDrawnMs = double(clock.nsecsElapsed()) / 1e6;
    const double fullyDrawnCpuMs = processCpuMs() - cpuAtStart;
    const double fullyDrawnWindowCpuMs = windowThreadCpuMs() - windowCpuAtStart;

    sampler.stop();
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("first panel %.0f ms; last stage %.0f ms; fully drawn %.0f ms; peak RSS %.1f MiB\n", firstPanelMs,
                loadedMs, fullyDrawnMs, double(usage.ru_maxrss) / 1024);

    // Where the time after the read and the memory over the CLI's go (not read by bench_check.sh).
    const LoadedTracePtr loaded = window.loader()->current();
    if (!loaded)
        return 0;
    std::printf("process CPU (ms): at the first panel %.0f, fully drawn %.0f\n", firstPanelCpuMs, fullyDrawnCpuMs);
    std::printf("window thread CPU (ms): at the first panel %.0f, fully drawn %.0f\n", firstPanelWindowCpuMs,
                fullyDrawnWindowCpuMs);
    const LoadTimings &t = loaded->timings;
    std::printf("stages (ms from the start): read %lld, span tree %lld (device time %lld, op regrouping %lld), "
                "health %lld, memory %lld (evidence %lld), memory chart %lld\n",
                static_cast<long long>(t.readDoneMs), static_cast<long long>(t.spanTreeDoneMs),
                static_cast<long long>(t.deviceTimeMs), static_cast<long long>(t.opRegroupMs),
                static_cast<long long>(t.healthDoneMs), static_cast<long long>(t.memoryDoneMs),
                static_cast<long long>(t.evidenceMs), static_cast<long long>(t.memoryChartDoneMs));
    std::printf("analysis CPU (ms): span tree %lld, device time %lld, timeline layout %lld, op regrouping %lld, "
                "health %lld, memory and summary %lld, evidence %lld, memory series %lld\n",
                static_cast<long long>(t.cpu.spanTree), static_cast<long long>(t.cpu.deviceTime),
                static_cast<long long>(t.cpu.timelineLayout), static_cast<long long>(t.cpu.opRegroup),
                static_cast<long long>(t.cpu.health), static_cast<long long>(t.cpu.memory),
                static_cast<long long>(t.cpu.evidence), static_cast<long long>(t.cpu.memorySeries));
    const Trace &trace = *loaded->trace;
    std::printf("records: strings %zu, spans %zu, ops %zu, device intervals %zu, memory %zu, edges %zu\n",
                trace.strings.size(), trace.spans.size(), trace.ops.size(), trace.deviceIntervals.size(),
                trace.memory.size(), trace.edges.size());
    const auto mib = [](std::size_t bytes) { return double(bytes) / (1024 * 1024); };
    const auto layout = window.timelineView()->layoutData();
    std::printf("held (MiB): trace %.1f, span tree %.1f, device time %.1f, memory profile %.1f, memory series %.1f, "
                "evidence %.1f, timeline layout %.1f\n",
                mib(loaded->trace->memoryUsage()), mib(loaded->spanTree ? loaded->spanTree->memoryUsage() : 0),
                mib(loaded->deviceTime ? loaded->deviceTime->memoryUsage() : 0),
                mib(loaded->memory ? loaded->memory->memoryUsage() : 0),
                mib(loaded->memorySeries ? loaded->memorySeries->memoryUsage() : 0),
                mib(loaded->evidence ? loaded->evidence->memoryUsage() : 0), mib(layout ? layout->memoryUsage() : 0));
    const struct mallinfo2 heap = mallinfo2();
    std::printf("malloc (MiB): heap %.1f, mmapped %.1f, in use %.1f, free in the heap %.1f; RSS now %.1f\n",
                mib(heap.arena), mib(heap.hblkhd), mib(heap.uordblks + heap.hblkhd), mib(heap.fordblks),
                mib(ResidentMemory::residentBytes()));
    std::printf("sampled peak RSS %.1f MiB at %.0f ms\n", mib(sampler.peakBytes()), sampler.peakMs());
    return 0;
}
