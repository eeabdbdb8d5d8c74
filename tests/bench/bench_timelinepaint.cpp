// SPDX-License-Identifier: MIT
// Paints random viewports of the timeline off-screen and prints median / p95 / max frame
// times, with the layout time and size. Usage: bench_timelinepaint [TRACE.jsonl]; without
// an argument (or TI_BENCH_TRACE) it generates the 1 GB trace with tools/gen_trace.py
// (--events 7000000 --seed 1) into a temporary folder that is removed afterwards.

#include <QDir>
#include <QElapsedTimer>
#include <QApplication>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <optional>
#include <cstdio>
#include <random>
#include <vector>

#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "core/timeline/timelinelayout.h"
#include "core/timeline/tracesearch.h"
#include "ui/details/detailspane.h"
#include "ui/details/rawlinereader.h"
#include "ui/timeline/timelinepainter.h"
#include "ui/timeline/timelinerows.h"
#include "ui/timeline/timelineview.h"
#include "tests/bench/benchclock.h"

using namespace TraceInspector;

namespace {

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

using BenchClock::threadCpuMs;

void report(const char *what, std::vector<double> times)
{
    if (times.empty())
        return;
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    const double p95 = times[std::min(times.size() - 1, times.size() * 95 / 100)];
    std::printf("%-28s n=%3zu  median %7.2f ms  p95 %7.2f ms  max %7.2f ms\n", what, times.size(), median, p95,
                times.back());
}

long peakRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    return -1;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : qEnvironmentVariable("TI_BENCH_TRACE");
    QTemporaryDir dir;
    if (path.isEmpty()) {
        if (QStringLiteral(TI_PYTHON).isEmpty()) {
            std::fprintf(stderr, "python3 was not found when the build was configured: pass a trace path\n");
            return 77;
        }
        path = dir.filePath(QStringLiteral("tl1g.jsonl"));
        std::printf("generating %s (--events 7000000 --seed 1)...\n", qPrintable(path));
        std::fflush(stdout);
        QProcess gen;
        gen.setProcessChannelMode(QProcess::ForwardedChannels);
        gen.start(QStringLiteral(TI_PYTHON), {QStringLiteral(TI_GENERATOR), QStringLiteral("--events"),
                                              QStringLiteral("7000000"), QStringLiteral("--seed"), QStringLiteral("1"),
                                              QStringLiteral("--out"), path, QStringLiteral("--quiet")});
        if (!gen.waitForFinished(-1) || gen.exitCode() != 0) {
            std::fprintf(stderr, "gen_trace.py failed\n");
            return 1;
        }
    }

    QElapsedTimer timer;
    timer.start();
    ReadResult read = TraceReader::readFile(path.toStdString());
    if (!read.trace) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
        return 1;
    }
    const qint64 readNs = timer.nsecsElapsed();
    std::shared_ptr<const Trace> trace = read.trace;
    timer.restart();
    const auto treePtr = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    const SpanTree &tree = *treePtr;
    const qint64 treeNs = timer.nsecsElapsed();
    std::printf("trace: %.0f MB, %zu spans, %zu ops, %zu device intervals; read %.0f ms, span tree %.0f ms\n",
                double(trace->fileBytes) / 1e6, trace->spans.size(), trace->ops.size(), trace->deviceIntervals.size(),
                ms(readNs), ms(treeNs));

    std::vector<double> layoutTimes;
    TimelineLayout layout;
    for (int i = 0; i < 3; ++i) {
        timer.restart();
        layout = TimelineLayout::build(*trace, tree);
        layoutTimes.push_back(ms(timer.nsecsElapsed()));
    }
    std::size_t tracks = 0;
    for (const auto &level : layout.hostLevels())
        tracks += level.tracks.size();
    for (const auto &lane : layout.deviceLanes())
        tracks += lane.tracks.size();
    report("layout (off the GUI thread)", layoutTimes);
    std::size_t overlapping = 0;
    std::size_t overlappingSlices = 0;
    for (const auto &level : layout.hostLevels()) {
        for (const auto &t : level.tracks) {
            overlapping += t.hasOverlaps() ? 1 : 0;
            overlappingSlices += t.hasOverlaps() ? t.size() : 0;
        }
    }
    for (const auto &lane : layout.deviceLanes()) {
        for (const auto &t : lane.tracks) {
            overlapping += t.hasOverlaps() ? 1 : 0;
            overlappingSlices += t.hasOverlaps() ? t.size() : 0;
        }
    }
    std::printf("tracks with overlapping slices: %zu (%zu slices)\n", overlapping, overlappingSlices);
    std::printf("layout: %zu host levels, %zu device lanes on %zu clocks, %zu tracks, %.1f MB\n",
                layout.hostLevels().size(), layout.deviceLanes().size(), layout.clockDomains().size(), tracks,
                double(layout.memoryUsage()) / 1e6);

    TimelinePainter painter;
    painter.setStyle(QApplication::font(), QApplication::palette());
    const TimelineRows rows(layout, painter.rowHeight(), painter.headerHeight(), painter.titleHeight());
    painter.setData(trace.get(), &tree, &layout, &rows);
    QImage image(1600, 900, QImage::Format_ARGB32_Premultiplied);

    std::mt19937_64 rng(7);
    const TimeWindow extent = layout.hostExtent();
    auto randomWindow = [&](const TimeWindow &whole, int kind) {
        // kind 0: most of the run; 1: a micro-batch-sized window (0.1-5 %); 2: an op (1-100 µs).
        std::uint64_t length = 0;
        const double u = double(rng() % 1000000) / 1e6;
        if (kind == 0)
            length = std::uint64_t(double(whole.length()) * (0.5 + 0.5 * u));
        else if (kind == 1)
            length = std::uint64_t(double(whole.length()) * (0.001 + 0.049 * u));
        else
            length = 1000 + std::uint64_t(99000 * u);
        length = std::clamp<std::uint64_t>(length, 1, whole.length());
        const std::uint64_t begin = whole.begin + rng() % (whole.length() - length + 1);
        return TimeWindow{begin, begin + length};
    };
    std::vector<double> all;
    std::vector<double> allCpu;
    std::vector<double> byKind[3];
    std::vector<double> byKindCpu[3];
    const int lanesHeight = image.height() - painter.rulerHeight();
    for (int i = 0; i < 200; ++i) {
        const int kind = i % 3;
        TimelineViewState state;
        state.size = image.size();
        state.host = randomWindow(extent, kind);
        for (const auto &domain : layout.clockDomains())
            state.domains.push_back(randomWindow(domain.extent, kind));
        state.scrollY =
            rows.totalHeight() > lanesHeight ? int(rng() % std::uint64_t(rows.totalHeight() - lanesHeight)) : 0;
        QPainter p(&image);
        const double cpu0 = threadCpuMs();
        timer.restart();
        painter.paint(p, state);
        p.end();
        const double t = ms(timer.nsecsElapsed());
        const double cpu = threadCpuMs() - cpu0;
        all.push_back(t);
        allCpu.push_back(cpu);
        byKind[kind].push_back(t);
        byKindCpu[kind].push_back(cpu);
    }
    report("paint, 200 random viewports", all);
    report("  whole run (50-100 %)", byKind[0]);
    report("  micro-batch (0.1-5 %)", byKind[1]);
    report("  one op (1-100 us)", byKind[2]);
    report("paint, thread CPU time", allCpu);
    report("  whole run (50-100 %)", byKindCpu[0]);
    report("  micro-batch (0.1-5 %)", byKindCpu[1]);
    report("  one op (1-100 us)", byKindCpu[2]);

    // Pictures at three zoom levels (TI_BENCH_PNG_DIR): the whole run, one micro-batch, one op.
    if (const QString pngDir = qEnvironmentVariable("TI_BENCH_PNG_DIR"); !pngDir.isEmpty()) {
        QDir().mkpath(pngDir);
        std::int64_t microbatch = -1;
        for (std::size_t i = 0; i < trace->spans.size() && microbatch < 0; ++i) {
            if (trace->str(trace->spans[i].name) == std::string_view("microbatch.3"))
                microbatch = std::int64_t(i);
        }
        std::int64_t op = -1;
        for (std::size_t i = trace->ops.size() / 2; i < trace->ops.size() && op < 0; ++i) {
            if (trace->str(trace->ops[i].opName) == std::string_view("matmul"))
                op = std::int64_t(i);
        }
        struct Shot {
            const char *name;
            std::optional<TimelineItem> item;
        };
        const Shot shots[] = {
            {"tl1g-whole-run", std::nullopt},
            {"tl1g-microbatch", microbatch >= 0
                                    ? std::optional<TimelineItem>({TimelineItemKind::Span, std::uint32_t(microbatch)})
                                    : std::nullopt},
            {"tl1g-one-op",
             op >= 0 ? std::optional<TimelineItem>({TimelineItemKind::Op, std::uint32_t(op)}) : std::nullopt}};
        for (const Shot &shot : shots) {
            TimelineViewState state;
            state.size = image.size();
            state.host = extent;
            for (const auto &domain : layout.clockDomains())
                state.domains.push_back(domain.extent);
            if (shot.item) {
                const auto [start, end] = layout.extentOf(*trace, *shot.item);
                const std::uint64_t margin = std::max<std::uint64_t>((end - start) / 5, 1);
                state.host = {start - std::min(start, margin), end + margin};
                state.selected = layout.locate(*trace, tree, *shot.item);
                // Device axes: around the intervals of the item's span, on their own clocks.
                const std::uint32_t span =
                    shot.item->kind == TimelineItemKind::Span ? shot.item->index : tree.spanOfOp(shot.item->index);
                for (std::size_t i = 0; i < trace->deviceIntervals.size(); ++i) {
                    if (layout.spanOfInterval(i) != span)
                        continue;
                    if (const auto loc =
                            layout.locate(*trace, tree, {TimelineItemKind::DeviceInterval, std::uint32_t(i)})) {
                        state.related.push_back(*loc);
                        const auto [ds, de] =
                            layout.extentOf(*trace, {TimelineItemKind::DeviceInterval, std::uint32_t(i)});
                        const std::uint32_t d = layout.deviceLanes()[loc->group].clockDomain;
                        const std::uint64_t dm = std::max<std::uint64_t>((de - ds) * 2, 1000);
                        state.domains[d] = {ds - std::min(ds, dm), de + dm};
                    }
                }
            }
            image.fill(Qt::transparent);
            QPainter p(&image);
            painter.paint(p, state);
            p.end();
            image.save(QDir(pngDir).filePath(QString::fromLatin1(shot.name) + QStringLiteral(".png")));
        }
    }

    // Hover: the hit test behind tooltips, over whole-run windows (the worst case).
    std::vector<double> hits;
    for (int i = 0; i < 200; ++i) {
        const TimeWindow w = randomWindow(extent, 0);
        const auto &row = rows.rows()[rng() % std::max<std::size_t>(1, rows.rows().size())];
        if (row.type == TimelineRow::Type::ClockHeader || row.type == TimelineRow::Type::Title)
            continue;
        const TimelineTrack &track = row.type == TimelineRow::Type::DeviceTrack
                                         ? layout.deviceLanes()[row.group].tracks[row.track]
                                         : layout.hostLevels()[row.group].tracks[row.track];
        const TimeWindow &axis =
            row.type == TimelineRow::Type::DeviceTrack ? layout.clockDomains()[row.domain].extent : w;
        timer.restart();
        (void)track.markAt(axis, 1600, double(rng() % 1600), 2.0);
        hits.push_back(ms(timer.nsecsElapsed()));
    }
    report("hover hit test", hits);

    // Selecting: locate a random span's slice (what setSelection does before it scrolls).
    std::vector<double> locates;
    for (int i = 0; i < 200 && !trace->spans.empty(); ++i) {
        const auto index = std::uint32_t(rng() % trace->spans.size());
        timer.restart();
        (void)layout.locate(*trace, tree, {TimelineItemKind::Span, index});
        locates.push_back(ms(timer.nsecsElapsed()));
    }
    report("locate a span (select)", locates);

    for (const char *text : {"matmul", "microbatch.3", "^s12345"}) {
        SearchQuery q;
        q.text = text;
        q.regex = text[0] == '^';
        timer.restart();
        const SearchResult r = TraceSearch::run(*trace, q);
        std::printf("search %-14s %8zu matches in %7.1f ms (off the GUI thread)\n", text, r.matches.size(),
                    ms(timer.nsecsElapsed()));
    }
    // GUI-thread cost of selecting a span in the timeline and in the details pane (the raw
    // line is read in the background and not included).
    {
        auto layoutPtr = std::make_shared<const TimelineLayout>(std::move(layout));
        TimelineView view;
        view.resize(1600, 900);
        view.setLayoutData(trace, treePtr, layoutPtr);
        DetailsPane details;
        details.setTrace(trace, treePtr);
        std::vector<double> viewSelect;
        std::vector<double> detailsSelect;
        std::vector<double> detailsCpu;
        for (int i = 0; i < 50; ++i) {
            const auto index = qint64(rng() % trace->spans.size());
            timer.restart();
            view.setSelection(Selection::span(index));
            viewSelect.push_back(ms(timer.nsecsElapsed()));
            const double cpu0 = threadCpuMs();
            timer.restart();
            details.setSelection(Selection::span(index));
            detailsSelect.push_back(ms(timer.nsecsElapsed()));
            detailsCpu.push_back(threadCpuMs() - cpu0);
        }
        report("select: timeline", viewSelect);
        report("select: details pane", detailsSelect);
        report("select: details pane (CPU)", detailsCpu);
        // The root span holds the parameter tensors and their allocations: the largest list.
        for (std::size_t r = 0; r < tree.roots().size() && r < 2; ++r) {
            timer.restart();
            details.setSelection(Selection::span(tree.roots()[r]));
            std::printf("select: details pane, root span %zu (%d rows): %.1f ms\n", r,
                        details.contentsProxy()->rowCount(), ms(timer.nsecsElapsed()));
        }
        RawLineReader reader;
        reader.setFile(path, trace->fileBytes);
        QSignalSpy spy(&reader, &RawLineReader::linesRead);
        timer.restart();
        reader.request({quint64(trace->lineCount / 2)});
        spy.wait(60000);
        std::printf("raw line, first read (builds the line index, background): %.0f ms\n", ms(timer.nsecsElapsed()));
        std::vector<double> reads;
        for (int i = 0; i < 20; ++i) {
            timer.restart();
            reader.request({1 + rng() % trace->lineCount});
            spy.wait(60000);
            reads.push_back(ms(timer.nsecsElapsed()));
        }
        report("raw line, later reads", reads);
    }
    std::printf("peak RSS %.0f MB\n", double(peakRssKb()) / 1024.0);
    if (qEnvironmentVariableIsSet("TI_BENCH_PNG"))
        image.save(qEnvironmentVariable("TI_BENCH_PNG"));
    return 0;
}
