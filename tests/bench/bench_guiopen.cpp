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

#include <cstdio>

#include <sys/resource.h>

#include "core/loading/traceloader.h"
#include "core/loading/mallocarenas.h"
#include "ui/mainwindow.h"
#include "ui/timeline/timelineview.h"

using namespace TraceInspector;

int main(int argc, char **argv)
{
    limitMallocArenas(); // as the application does
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

    QElapsedTimer clock;
    double firstPanelMs = -1;
    // Connected after the window's own slot: it runs once the window has shown the read trace.
    QObject::connect(window.loader(), &TraceLoader::traceRead, &window, [&] {
        if (firstPanelMs >= 0)
            return;
        window.repaint();
        firstPanelMs = double(clock.nsecsElapsed()) / 1e6;
    });
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    clock.start();
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

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("first panel %.0f ms; last stage %.0f ms; fully drawn %.0f ms; peak RSS %.1f MiB\n", firstPanelMs,
                loadedMs, fullyDrawnMs, double(usage.ru_maxrss) / 1024);
    return 0;
}
