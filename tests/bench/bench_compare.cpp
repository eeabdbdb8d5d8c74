// SPDX-License-Identifier: MIT
// The A/B comparison on big traces (issue #15, "Speed"): how long loading the baseline and the
// candidate takes, how long matching and diffing them takes (the target: at most 1.5x the
// loads), and the longest single pass of the GUI thread's event loop from "Compare with…" to
// the shown result and during the compare views' actions (the target: none over 100 ms).
// Usage: bench_compare BASELINE CANDIDATE (or TI_BENCH_BASELINE / TI_BENCH_CANDIDATE);
// without them it skips.

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QTabWidget>
#include <QPushButton>
#include <QTableView>
#include <QThread>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/opgroupdiffmodel.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/itemmodels/spandiffmodel.h"
#include "core/loading/tracecomparison.h"
#include "ui/compare/comparecontroller.h"
#include "ui/compare/comparepanel.h"
#include "ui/compare/stackedtimeline.h"
#include "core/model/malloctuning.h"
#include "ui/mainwindow.h"
#include "ui/optablepanel.h"
#include "ui/spantreepanel.h"
#include "ui/timeline/timelineview.h"
#include "tests/bench/benchclock.h"

using namespace TraceInspector;

namespace {

using BenchClock::msSince;
using BenchClock::threadCpuMs;

// The longest single pass of the event loop: wall time, and the GUI thread's CPU time of
// the pass that used the most.
struct Pass {
    double wallMs = 0;
    double cpuMs = 0;
    void add(double wall, double cpu)
    {
        wallMs = std::max(wallMs, wall);
        cpuMs = std::max(cpuMs, cpu);
    }
};

/// Runs the event loop until \a done (or \a timeoutMs), returning the longest single pass.
Pass spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    Pass worst;
    QElapsedTimer total;
    total.start();
    while (!done() && total.elapsed() < timeoutMs) {
        QElapsedTimer pass;
        pass.start();
        const double cpu = threadCpuMs();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        worst.add(msSince(pass), threadCpuMs() - cpu);
    }
    return worst;
}

double measure(MainWindow &window, const char *name, const std::function<void()> &action)
{
    QElapsedTimer call;
    call.start();
    const double cpu0 = threadCpuMs();
    action();
    const double actionMs = msSince(call);
    window.repaint();
    const double callMs = msSince(call);
    const double callCpuMs = threadCpuMs() - cpu0;
    QElapsedTimer settle;
    settle.start();
    const Pass worst = spinUntil([&] { return settle.elapsed() >= 1000; }, 2000);
    std::printf("%-44s call %8.1f ms (repaint %6.1f, CPU %6.1f)   worst later pass %8.1f ms (CPU %6.1f)   %s\n", name,
                callMs, callMs - actionMs, callCpuMs, worst.wallMs, worst.cpuMs,
                std::max(callMs, worst.wallMs) <= 100 ? "ok" : "OVER 100 ms");
    std::fflush(stdout);
    return std::max(callMs, worst.wallMs);
}

// TI_BENCH_SLOW_EVENTS=MS names every event delivery on the GUI thread that takes longer:
// the receiver's class and name and the event type, with wall and CPU time. Which slot or
// handler holds a long pass up, without a profiler.
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_thresholdMs <= 0 || m_depth > 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        const QEvent::Type type = event->type();
        const QByteArray className = receiver->metaObject()->className();
        const QString name = receiver->objectName();
        QElapsedTimer clock;
        clock.start();
        const double cpu = threadCpuMs();
        const BenchClock::ThreadWaits w0 = BenchClock::threadWaits();
        ++m_depth;
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        const double ms = msSince(clock);
        if (ms >= m_thresholdMs) {
            // Wall far above CPU: waits (voluntary switches: a lock, I/O), preemption by other
            // threads (involuntary) or page faults (major: read from disk).
            const BenchClock::ThreadWaits w1 = BenchClock::threadWaits();
            std::printf("  slow event: %s \"%s\" type %d: %.1f ms (GUI CPU %.1f ms; waited %ld, preempted %ld, "
                        "%ld major faults)\n",
                        className.constData(), qPrintable(name), int(type), ms, threadCpuMs() - cpu,
                        w1.voluntary - w0.voluntary, w1.involuntary - w0.involuntary, w1.majorFaults - w0.majorFaults);
        }
        return result;
    }
    double m_thresholdMs = 0;

private:
    int m_depth = 0;
};

} // namespace

int main(int argc, char **argv)
{
    tuneMallocForBigTraces(kWindowArenas); // as the application does
    TimingApplication app(argc, argv);
    app.m_thresholdMs = qEnvironmentVariableIntValue("TI_BENCH_SLOW_EVENTS");
    const QString baseline = argc > 2 ? QString::fromLocal8Bit(argv[1]) : qEnvironmentVariable("TI_BENCH_BASELINE");
    const QString candidate = argc > 2 ? QString::fromLocal8Bit(argv[2]) : qEnvironmentVariable("TI_BENCH_CANDIDATE");
    if (baseline.isEmpty() || candidate.isEmpty()) {
        std::printf("SKIP: give two traces (arguments or TI_BENCH_BASELINE and TI_BENCH_CANDIDATE)\n");
        return 77;
    }
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    CompareController *controller = window.compareController();

    bool loaded = false, loadOk = false;
    QObject::connect(&window, &MainWindow::loadFinished, &window, [&](bool ok) {
        loaded = true;
        loadOk = ok;
    });
    QElapsedTimer clock;
    clock.start();
    window.openFile(candidate);
    const Pass loadPass = spinUntil([&] { return loaded; }, 900000);
    const double worstLoad = loadPass.wallMs;
    const double candidateLoadMs = msSince(clock);
    if (!loadOk) {
        std::printf("the candidate did not load\n");
        return 1;
    }
    std::printf("candidate loaded and drawn in %.1f s (worst GUI pass %.1f ms, CPU %.1f ms)\n", candidateLoadMs / 1000,
                loadPass.wallMs, loadPass.cpuMs);

    bool compared = false, compareOk = false;
    QObject::connect(&window, &MainWindow::comparisonFinished, &window, [&](bool ok) {
        compared = true;
        compareOk = ok;
    });
    double baselineLoadMs = -1;
    QObject::connect(controller, &CompareController::stateChanged, &window, [&](CompareController::State s) {
        if (s == CompareController::State::Computing && baselineLoadMs < 0)
            baselineLoadMs = msSince(clock);
    });
    clock.restart();
    window.compareWith(baseline);
    // The worst pass in each phase: loading the baseline, computing, showing the result.
    const auto comparePhases = [&](const char *what) {
        Pass loading, computing, showing;
        while (!compared && clock.elapsed() < 900000) {
            const CompareController::State before = controller->state();
            QElapsedTimer pass;
            pass.start();
            const double cpu = threadCpuMs();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            Pass &worstOf = before == CompareController::State::LoadingBaseline ? loading
                            : before == CompareController::State::Computing     ? computing
                                                                                : showing;
            worstOf.add(msSince(pass), threadCpuMs() - cpu);
        }
        std::printf("%s: worst GUI pass while loading the baseline %.1f ms (CPU %.1f), while matching %.1f ms (CPU "
                    "%.1f), showing the result %.1f ms (CPU %.1f)\n",
                    what, loading.wallMs, loading.cpuMs, computing.wallMs, computing.cpuMs, showing.wallMs,
                    showing.cpuMs);
        return std::max({loading.wallMs, computing.wallMs, showing.wallMs});
    };
    const double worstCompare = comparePhases("compare");
    const double totalMs = msSince(clock);
    if (!compareOk) {
        std::printf("the comparison did not finish\n");
        return 1;
    }
    const TraceComparisonPtr c = controller->comparison();
    const double matchMs = double(c->computeMs);
    std::printf("baseline loaded in %.1f s; matching and diffing took %.1f s; shown after %.1f s\n",
                baselineLoadMs / 1000, matchMs / 1000, totalMs / 1000);
    std::printf("%zu matched spans, %zu op groups; worst GUI pass from Compare to the result %.1f ms %s\n",
                c->diff.matched.size(), c->diff.opGroups.size(), worstCompare,
                worstCompare <= 100 ? "ok" : "OVER 100 ms");
    const double loads = candidateLoadMs + baselineLoadMs;
    std::printf("matching / loading both = %.1f / %.1f s = %.2fx (target <= 1.5x) %s\n", matchMs / 1000, loads / 1000,
                matchMs / loads, matchMs <= 1.5 * loads ? "ok" : "OVER");

    ComparePanel *panel = window.comparePanel();
    double worst = std::max(worstCompare, 0.0);
    const auto run = [&](const char *name, const std::function<void()> &action) {
        worst = std::max(worst, measure(window, name, action));
    };
    run("sort spans by Δ total (descending)",
        [&] { panel->spanView()->sortByColumn(SpanDiffModel::DeltaTotalColumn, Qt::DescendingOrder); });
    run("sort spans by Δ self (descending)",
        [&] { panel->spanView()->sortByColumn(SpanDiffModel::DeltaSelfColumn, Qt::DescendingOrder); });
    run("sort spans by path", [&] { panel->spanView()->sortByColumn(SpanDiffModel::PathColumn, Qt::AscendingOrder); });
    run("sort op groups by Δ",
        [&] { panel->opGroupView()->sortByColumn(OpGroupDiffModel::DeltaTotalColumn, Qt::AscendingOrder); });
    run("show Only in One Run", [&] { panel->views()->setCurrentIndex(2); });
    run("show Memory", [&] { panel->views()->setCurrentIndex(3); });
    run("show Spans", [&] { panel->views()->setCurrentIndex(0); });
    // The comparison columns of the window's own views (issue #15 item 3).
    SpanTreePanel *tree = window.spanTreePanel();
    const auto untilSorted = [&](const char *name) {
        QElapsedTimer t;
        t.start();
        const Pass pass = spinUntil([&] { return !tree->proxyModel()->isSorting(); }, 120000);
        worst = std::max(worst, pass.wallMs);
        std::printf("%-44s sorted after %8.1f ms   worst pass %8.1f ms (CPU %6.1f)\n", name, msSince(t), pass.wallMs,
                    pass.cpuMs);
    };
    run("span tree: sort by Δ self (descending)",
        [&] { tree->view()->sortByColumn(SpanTreeModel::DeltaSelfColumn, Qt::DescendingOrder); });
    untilSorted("span tree: Δ self order applied");
    run("span tree: sort by Δ% duration (descending)",
        [&] { tree->view()->sortByColumn(SpanTreeModel::DeltaTotalPercentColumn, Qt::DescendingOrder); });
    untilSorted("span tree: Δ% duration order applied");
    std::printf("span tree top by Δ%% duration: %s\n",
                qPrintable(tree->view()->model()->index(0, SpanTreeModel::NameColumn).data().toString()));
    run("op aggregate: sort by Δ total (descending)", [&] {
        window.opTablePanel()->aggregateView()->sortByColumn(OpAggregateModel::DeltaTotalColumn, Qt::DescendingOrder);
    });
    std::printf("op aggregate top by Δ total: %s %s\n",
                qPrintable(window.opTablePanel()->aggregateView()->model()->index(0, 0).data().toString()),
                qPrintable(window.opTablePanel()
                               ->aggregateView()
                               ->model()
                               ->index(0, OpAggregateModel::DeltaTotalColumn)
                               .data()
                               .toString()));
    {
        run("show Timelines (both runs laid out in the background)",
            [&] { panel->views()->setCurrentWidget(panel->timeline()); });
        QElapsedTimer t;
        t.start();
        const Pass pass = spinUntil(
            [&] {
                return panel->timeline()->baselineView()->isLayoutReady()
                       && panel->timeline()->candidateView()->isLayoutReady();
            },
            300000);
        worst = std::max(worst, pass.wallMs);
        std::printf("%-44s laid out after %8.1f ms   worst pass %8.1f ms (CPU %6.1f)\n", "stacked timelines",
                    msSince(t), pass.wallMs, pass.cpuMs);
        run("stacked timelines: zoom in (the other follows)", [&] { panel->timeline()->candidateView()->zoomIn(); });
    }
    std::printf("top span by Δ self: %s\n",
                qPrintable(panel->spanView()->model()->index(0, SpanDiffModel::PathColumn).data().toString()));
    {
        // Compare again while the span tree is sorted by a Δ column: the new values re-sort
        // it (on the worker), and the old comparison is let go (on a worker).
        compared = false;
        clock.restart();
        window.compareWith(baseline);
        worst = std::max(worst, comparePhases("re-compare while the span tree is sorted by Δ% duration"));
        untilSorted("span tree: Δ% duration order after re-compare");
        std::printf("span tree top by Δ%% duration after re-compare: %s\n",
                    qPrintable(tree->view()->model()->index(0, SpanTreeModel::NameColumn).data().toString()));
    }
    run("close the comparison (Δ columns removed)", [&] { panel->closeButton()->click(); });
    std::printf("span tree columns after closing: %d\n", tree->view()->model()->columnCount());
    std::printf("worst GUI-thread block over the comparison: %.1f ms %s\n", std::max(worst, worstLoad),
                std::max(worst, worstLoad) <= 100 ? "ok" : "OVER 100 ms");
    return 0;
}
