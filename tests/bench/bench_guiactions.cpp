// SPDX-License-Identifier: MIT
// How long the GUI thread is blocked by each user action on a big trace, in the whole main
// window. Usage: bench_guiactions TRACE.jsonl (or TI_BENCH_TRACE); without one it skips.
// TI_BENCH_PNG=FILE saves a picture of a selected span and a time range instead of timing.
//
// TI_BENCH_BASELINE=1 measures the same binary the way it worked before background sorting:
// every sort and chart query on the GUI thread, and QTreeView::expandAll() for Expand All.
//
// For each action: the time of the call itself, then the longest single pass of the event
// loop over the next second (background results arriving, repaints), which is what the
// user feels as a freeze. Each action runs on a shown window, which is repainted after it.

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QThreadPool>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "core/analysis/spantree.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/model/trace.h"
#include "core/model/malloctuning.h"
#include "ui/mainwindow.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/optablepanel.h"
#include "ui/search/searchbar.h"
#include "ui/selection/selectionmodel.h"
#include "ui/spantreepanel.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "ui/tensorspanel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/itemmodels/tensortablemodel.h"
#include "ui/timeline/timelineview.h"
#include "tests/bench/benchclock.h"
#include "tests/bench/sloweventapplication.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

namespace {

struct Figure {
    double actionMs = 0; // the call without the repaint after it
    double callMs = 0;
    double worstPassMs = 0;
    double worstCpuMs = 0;
};

using BenchClock::msSince;
using BenchClock::threadCpuMs;
using BenchClock::ThreadWaits;
using BenchClock::threadWaits;

// A later pass this long names its slowest event, the first thing to look at when it nears 100 ms.
constexpr double kNameThePassOverMs = 50;

Figure measure(MainWindow &window, const char *name, const std::function<void()> &action, int settleMs = 1000)
{
    Figure f;
    auto *app = static_cast<SlowEventApplication *>(QCoreApplication::instance());
    app->reset();
    QElapsedTimer call;
    call.start();
    const double cpu0 = threadCpuMs();
    const ThreadWaits w0 = threadWaits();
    action();
    f.actionMs = msSince(call);
    window.repaint();
    f.callMs = msSince(call);
    f.worstCpuMs = threadCpuMs() - cpu0;
    const ThreadWaits w1 = threadWaits();
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < settleMs) {
        QElapsedTimer pass;
        pass.start();
        const double c0 = threadCpuMs();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        f.worstPassMs = std::max(f.worstPassMs, msSince(pass));
        f.worstCpuMs = std::max(f.worstCpuMs, threadCpuMs() - c0);
    }
    std::printf("%-44s call %8.1f ms (repaint %6.1f)   worst later pass %8.1f ms   worst GUI CPU %7.1f ms   %s\n", name,
                f.callMs, f.callMs - f.actionMs, f.worstPassMs, f.worstCpuMs,
                std::max(f.callMs, f.worstPassMs) <= 100 ? "ok" : "OVER 100 ms");
    std::printf("%-44s   the call waited %ld times, was preempted %ld times, faulted %ld major / %ld minor pages\n", "",
                w1.voluntary - w0.voluntary, w1.involuntary - w0.involuntary, w1.majorFaults - w0.majorFaults,
                w1.minorFaults - w0.minorFaults);
    if (f.worstPassMs > kNameThePassOverMs)
        app->print("");
    std::fflush(stdout);
    return f;
}

// The longest time between two signals (e.g. a layout change's start and end): what the
// GUI thread spends in one landing of a background result, apart from the rest of the pass.
class SignalSpan
{
public:
    template<typename Sender, typename Begin, typename End>
    SignalSpan(Sender *sender, Begin begin, End end)
    {
        QObject::connect(sender, begin, &m_context, [this] {
            m_clock.start();
            m_cpu = threadCpuMs();
        });
        QObject::connect(sender, end, &m_context, [this] {
            if (!m_clock.isValid())
                return;
            m_wallMs = std::max(m_wallMs, msSince(m_clock));
            m_cpuMs = std::max(m_cpuMs, threadCpuMs() - m_cpu);
            ++m_count;
            m_clock.invalidate();
        });
    }
    void reset()
    {
        m_wallMs = m_cpuMs = 0;
        m_count = 0;
    }
    void print(const char *what) const
    {
        std::printf("%-44s   %s: %d, the longest %.1f ms (GUI CPU %.1f ms)\n", "", what, m_count, m_wallMs, m_cpuMs);
        std::fflush(stdout);
    }

private:
    QObject m_context;
    QElapsedTimer m_clock;
    double m_cpu = 0;
    double m_wallMs = 0;
    double m_cpuMs = 0;
    int m_count = 0;
};

// Rows a tree view lays out: every row under an open parent (what a relayout walks).
std::size_t shownRows(const QTreeView *view, const QModelIndex &parent = {})
{
    const QAbstractItemModel *model = view->model();
    const int rows = model->rowCount(parent);
    std::size_t total = std::size_t(rows);
    for (int r = 0; r < rows; ++r) {
        const QModelIndex row = model->index(r, 0, parent);
        if (view->isExpanded(row))
            total += shownRows(view, row);
    }
    return total;
}

} // namespace

int main(int argc, char **argv)
{
    tuneMallocForBigTraces(kWindowArenas); // as the application does
    relaunchWithHugePageHeap(argv);        // as the window does
    SlowEventApplication app(argc, argv);
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : qEnvironmentVariable("TI_BENCH_TRACE");
    if (path.isEmpty()) {
        std::printf("SKIP: give a trace (argument or TI_BENCH_TRACE)\n");
        return 77;
    }
    const bool baseline = qEnvironmentVariableIntValue("TI_BENCH_BASELINE") != 0;
    if (baseline) {
        BackgroundSort::setBackgroundRows(std::size_t(-1));
        std::printf("baseline: everything on the GUI thread, QTreeView::expandAll()\n");
    }
    if (const int threads = qEnvironmentVariableIntValue("TI_BENCH_POOL_THREADS"); threads > 0) {
        workerPool()->setMaxThreadCount(threads);
        std::printf("worker pool: %d threads\n", threads);
    }
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    QElapsedTimer load;
    load.start();
    window.openFile(path);
    if (!finished.wait(600000) || !finished.at(0).at(0).toBool()) {
        std::printf("the trace did not load\n");
        return 1;
    }
    std::printf("loaded and drawn in %.1f s\n", double(load.elapsed()) / 1000);
    LoadedTracePtr loaded = window.loadedTrace();
    const Trace &trace = *loaded->trace;
    const SpanTree &tree = *loaded->spanTree;
    std::printf("%zu spans, %zu ops, %zu device intervals\n", trace.spans.size(), trace.ops.size(),
                trace.deviceIntervals.size());
    SelectionModel *selection = window.selectionModel();
    TimelineView *timeline = window.timelineView();
    double worst = 0;
    const auto run = [&](const char *name, const std::function<void()> &action, int settleMs = 1000) {
        const Figure f = measure(window, name, action, settleMs);
        worst = std::max({worst, f.callMs, f.worstPassMs});
    };

    std::size_t midSpan = trace.spans.size() / 2;
    while (midSpan < trace.spans.size() && tree.opsOfSpan(midSpan).empty())
        ++midSpan;
    const std::size_t otherSpan = trace.spans.size() / 3;
    const std::size_t op = trace.ops.size() / 2;
    const std::size_t bigSpan = tree.roots().empty() ? 0 : tree.roots().front();

    run("select a span (click)", [&] { selection->select(Selection::span(qint64(midSpan))); });
    run("select another span", [&] { selection->select(Selection::span(qint64(otherSpan))); });
    run("select an op", [&] { selection->select(Selection::op(qint64(op))); });
    run("select the root span (all its ops)", [&] { selection->select(Selection::span(qint64(bigSpan))); });
    run("activate (zoom to the selection)", [&] { selection->activate(Selection::span(qint64(midSpan))); });
    run("back", [&] { selection->back(); });
    run("forward", [&] { selection->forward(); });
    run("back again", [&] { selection->back(); });
    run("forward again", [&] { selection->forward(); });
    if (const QString png = qEnvironmentVariable("TI_BENCH_PNG"); !png.isEmpty()) {
        // A picture of the linked views: a span selected (its ops, its extent on the memory
        // chart) and a time range around it.
        selection->select(Selection::span(qint64(midSpan)));
        const Span &s = trace.spans[midSpan];
        const std::uint64_t margin = std::max<std::uint64_t>(s.durationNs * 3, 1000);
        timeline->setVisibleWindow({s.startNs > margin ? s.startNs - margin : 0, s.startNs + s.durationNs + margin});
        selection->setTimeRange({s.startNs, s.startNs + std::max<std::uint64_t>(s.durationNs, 1)});
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 1500)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        window.grab().save(png);
        return 0;
    }
    if (qEnvironmentVariableIsSet("TI_BENCH_SELECT_ONLY"))
        return 0;
    run("timeline zoom in (W)", [&] { timeline->zoomIn(); });
    run("timeline pan (D)", [&] { timeline->panRight(); });
    run("timeline fit (Home)", [&] { timeline->fitAll(); });

    SearchBar *search = window.searchBar();
    const std::string name(trace.str(trace.spans[midSpan].name));
    {
        QSignalSpy searched(search, &SearchBar::searchFinished);
        run(
            "search: type a span name", [&] { search->setText(QString::fromStdString(name)); }, 200);
        if (searched.isEmpty())
            searched.wait(60000);
        std::printf("  %zu matches\n", search->matches().size());
    }
    run("search next (F3)", [&] { search->findNext(); });
    run("search next again (F3)", [&] { search->findNext(); });
    run("search previous (Shift+F3)", [&] { search->findPrevious(); });

    const TimeWindow whole = timeline->visibleWindow();
    const TimeWindow tenth{whole.begin + whole.length() / 2, whole.begin + whole.length() / 2 + whole.length() / 10};
    run(
        "range select (10 % of the run)", [&] { selection->setTimeRange(tenth); }, 3000);
    run(
        "clear the range", [&] { selection->clearTimeRange(); }, 3000);

    SpanTreePanel *spans = window.spanTreePanel();
    // Expand All is what the user has (the view's menu action and the '*' key); it may run
    // in slices, so the settle time covers all of them.
    run(
        "span tree expand all",
        [&] {
            if (baseline)
                spans->view()->expandAll();
            else
                spans->expandAll();
        },
        20000);
    std::printf("  %d rows shown\n", int(spans->expandAllRowCount()));
    run(
        "span tree sort by duration after expand all", [&] { spans->view()->sortByColumn(2, Qt::DescendingOrder); },
        3000);
    run(
        "span tree sort by name after expand all", [&] { spans->view()->sortByColumn(0, Qt::AscendingOrder); }, 3000);
    // A sorted tree filters and re-sorts on every filter and range change.
    // A background order lands as one layout change: its handlers (persistent indexes, the
    // view's bookkeeping) are timed apart from the view's relayout and repaint after it.
    SignalSpan landing(spans->proxyModel(), &QAbstractItemModel::layoutAboutToBeChanged,
                       &QAbstractItemModel::layoutChanged);
    SignalSpan reset(spans->model(), &QAbstractItemModel::modelAboutToBeReset, &QAbstractItemModel::modelReset);
    landing.reset();
    run(
        "span tree filter while sorted", [&] { spans->setFilterText(QString::fromStdString(name)); }, 3000);
    landing.print("layout changes");
    std::printf("  %d top-level rows, %zu matches\n", spans->proxyModel()->rowCount(),
                spans->proxyModel()->matchCount());
    std::printf("  %zu rows laid out\n", shownRows(spans->view()));
    landing.reset();
    run(
        "span tree clear the filter while sorted", [&] { spans->setFilterText(QString()); }, 3000);
    landing.print("layout changes");
    std::printf("  %zu rows laid out\n", shownRows(spans->view()));
    run(
        "range select while the tree is sorted", [&] { selection->setTimeRange(tenth); }, 3000);
    run(
        "clear the range while the tree is sorted", [&] { selection->clearTimeRange(); }, 3000);
    if (!qEnvironmentVariableIsSet("TI_BENCH_NO_RELOAD")) {
        // The same file again keeps the view's order: the new tree comes in sorted.
        QSignalSpy reloaded(&window, &MainWindow::loadFinished);
        // The window alone holds the old trace now, as without this benchmark (trace and tree
        // are not used after this point).
        loaded.reset();
        reset.reset();
        landing.reset();
        run(
            "reload the trace while the tree is sorted", [&] { window.openFile(path); }, 1000);
        QElapsedTimer t;
        t.start();
        double worstPass = 0, worstCpu = 0;
        app.reset();
        while (reloaded.isEmpty() && t.elapsed() < 600000) {
            QElapsedTimer pass;
            pass.start();
            const double c0 = threadCpuMs();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            worstPass = std::max(worstPass, msSince(pass));
            worstCpu = std::max(worstCpu, threadCpuMs() - c0);
        }
        app.print("  until it has loaded:");
        const Figure after = measure(
            window, "  ... and until its order has landed", [] {}, 3000);
        worst = std::max({worst, worstPass, after.worstPassMs});
        std::printf("%-44s reloaded after %.1f s, worst pass %.1f ms (GUI CPU %.1f ms)\n", "",
                    double(t.elapsed()) / 1000, worstPass, worstCpu);
        reset.print("span tree model resets");
        landing.print("layout changes");
        loaded = window.loadedTrace(); // the reloaded snapshot, for the chart's steps below
        std::printf("  sorted by column %d, first row %s\n", spans->proxyModel()->sortColumn(),
                    qPrintable(spans->proxyModel()->index(0, 0).data().toString()));
    }
    run(
        "span tree back to tree order", [&] { spans->view()->sortByColumn(-1, Qt::AscendingOrder); }, 3000);
    run(
        "span tree collapse all", [&] { spans->view()->collapseAll(); }, 2000);
    OpTablePanel *ops = window.opTablePanel();
    run(
        "op table sort by duration",
        [&] { ops->opView()->sortByColumn(OpTableModel::DurationColumn, Qt::DescendingOrder); }, 2000);
    run(
        "op table sort by name", [&] { ops->opView()->sortByColumn(OpTableModel::NameColumn, Qt::AscendingOrder); },
        2000);
    run(
        "op table sort by Bytes/ns",
        [&] { ops->opView()->sortByColumn(OpTableModel::BytesPerNsColumn, Qt::DescendingOrder); }, 2000);
    run(
        "op table sort by Bytes/ns ascending",
        [&] { ops->opView()->sortByColumn(OpTableModel::BytesPerNsColumn, Qt::AscendingOrder); }, 2000);
    TensorsPanel *tensors = window.tensorsPanel();
    window.showTab(QStringLiteral("Tensors"));
    std::printf("  tensors table: %d rows\n", tensors->view()->model()->rowCount());
    run(
        "tensors table sort by bytes",
        [&] { tensors->view()->sortByColumn(TensorTableModel::BytesColumn, Qt::DescendingOrder); }, 2000);
    run(
        "tensors table sort by label",
        [&] { tensors->view()->sortByColumn(TensorTableModel::LabelColumn, Qt::AscendingOrder); }, 2000);
    run(
        "tensors table sort by alloc time",
        [&] { tensors->view()->sortByColumn(TensorTableModel::AllocColumn, Qt::AscendingOrder); }, 2000);

    MemoryChartPanel *chart = window.memoryChartPanel();
    run(
        "memory chart set trace (loader's series)",
        [&] { chart->setTrace(loaded->trace, loaded->memory, loaded->memorySeries); }, 3000);
    run(
        "memory chart zoom (a tenth)", [&] { chart->setWindow(tenth); }, 2000);
    run(
        "memory chart Reset zoom", [&] { chart->resetZoom(); }, 3000);
    if (!chart->deviceNames().isEmpty())
        run(
            "memory chart switch device", [&] { chart->setSelectedDevice(0); }, 3000);
    if (chart->deviceNames().size() > 1)
        run(
            "memory chart switch device again", [&] { chart->setSelectedDevice(1); }, 3000);
    run(
        "memory chart all devices", [&] { chart->setSelectedDevice(-1); }, 3000);
    run("timeline fit again (Home)", [&] { timeline->fitAll(); });

    std::printf("worst: %.1f ms\n", worst);
    return 0;
}
