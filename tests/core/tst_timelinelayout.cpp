// SPDX-License-Identifier: MIT
#include <QTest>

#include <algorithm>
#include <random>

#include "core/analysis/spantree.h"
#include "core/model/trace.h"
#include "core/analysis/recordextents.h"
#include "core/timeline/timelinelayout.h"
#include "core/timeline/timelinetrack.h"
#include "tests/testutils/timelinefixtures.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_TimelineLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostLevels_data();
    void hostLevels();
    void openSpanReachesRunEnd();
    void runEndCountsMemory();
    void trackCapKeepsEverySlice();
    void deviceLanes();
    void laneOutOfStartOrder();
    void longSlicesKeepTheirEnds();
    void locateEveryItem();
    void marks_data();
    void marks();
    void marksInvariants_data();
    void marksInvariants();
    void markAtMatchesMarks_data();
    void markAtMatchesMarks();
    void visibleRange();
    void compactTimesAreExact_data();
    void compactTimesAreExact();
    void cancelled();
    void emptyTrace();
};

namespace {

QByteArray itemText(const Trace &trace, const SpanTree &tree, TimelineItem item)
{
    if (item.kind == TimelineItemKind::Op)
        return '#'
               + QByteArray(trace.str(trace.ops[item.index].opName).data(),
                            qsizetype(trace.str(trace.ops[item.index].opName).size()));
    if (item.kind == TimelineItemKind::DeviceInterval)
        return '@' + QByteArray::number(item.index);
    const auto id = trace.str(trace.spans[item.index].id);
    return QByteArray(id.data(), qsizetype(id.size())) + (tree.isOpen(item.index) ? "?" : "");
}

// `d0:a d1:b,c|x d2:#mm orphans:#z`: levels, tracks separated by `|`, items in start order.
QByteArray dumpHost(const Trace &trace, const SpanTree &tree, const TimelineLayout &layout)
{
    QByteArray out;
    for (const auto &level : layout.hostLevels()) {
        if (!out.isEmpty())
            out += ' ';
        out += level.orphanOps ? QByteArray("orphans") : "d" + QByteArray::number(level.depth);
        out += ':';
        for (std::size_t t = 0; t < level.tracks.size(); ++t) {
            if (t)
                out += '|';
            for (std::size_t i = 0; i < level.tracks[t].size(); ++i)
                out += (i ? "," : "") + itemText(trace, tree, TimelineLayout::hostItem(level.tracks[t].payload(i)));
        }
    }
    return out;
}

QByteArray dumpMarks(const std::vector<TimelineMark> &marks)
{
    QByteArray out;
    for (const TimelineMark &m : marks) {
        if (!out.isEmpty())
            out += ' ';
        out += QByteArray::number(m.x0, 'g', 6) + '-' + QByteArray::number(m.x1, 'g', 6) + ':'
               + QByteArray::number(m.count);
    }
    return out;
}

TimelineTrack makeTrack(const QList<QPair<quint64, quint64>> &slices)
{
    TimelineTrack track;
    for (int i = 0; i < slices.size(); ++i)
        track.append(slices[i].first, slices[i].second, std::uint32_t(i));
    track.finish();
    return track;
}

TimelineTrack randomTrack(std::mt19937_64 &rng, bool overlapping, std::size_t n)
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> slices;
    std::uint64_t t = rng() % 100;
    for (std::size_t i = 0; i < n; ++i) {
        // Mostly tiny slices, some long ones: the mix that makes merging matter.
        const std::uint64_t length = rng() % 10 == 0 ? rng() % 5000 : rng() % 20;
        slices.emplace_back(t, t + length);
        t += overlapping ? rng() % 30 : length + rng() % 30;
    }
    TimelineTrack track;
    for (std::size_t i = 0; i < slices.size(); ++i)
        track.append(slices[i].first, slices[i].second, std::uint32_t(i));
    track.finish();
    return track;
}

} // namespace

void tst_TimelineLayout::hostLevels_data()
{
    QTest::addColumn<QByteArray>("spans");
    QTest::addColumn<QByteArray>("ops");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("nested, ops innermost")
        << QByteArray("a:-:0:100 b:a:10:30 c:a:50:40") << QByteArray("b:mm:12:5 c:add:60:3 c:mul:70:3")
        << QByteArray("d0:a d1:b,c d2:#mm,#add,#mul");
    QTest::newRow("ops of a span with children share the children's level")
        << QByteArray("a:-:0:100 b:a:10:30") << QByteArray("a:mm:50:5") << QByteArray("d0:a d1:b,#mm");
    QTest::newRow("overlapping siblings get a second track")
        << QByteArray("a:-:0:100 b:a:10:50 c:a:30:40 d:a:70:5") << QByteArray() << QByteArray("d0:a d1:b,d|c");
    QTest::newRow("open child runs over later siblings")
        << QByteArray("a:-:0:100 b:a:10:open c:a:50:10") << QByteArray() << QByteArray("d0:a d1:b?|c");
    QTest::newRow("op without a span gets its own level")
        << QByteArray("a:-:0:100") << QByteArray("zz:orphan:5:1") << QByteArray("d0:a orphans:#orphan");
    QTest::newRow("a span goes before an op of the same start")
        << QByteArray("a:-:0:100 b:a:50:30") << QByteArray("a:mm:50:5 a:add:50:2") << QByteArray("d0:a d1:b|#mm|#add");
    QTest::newRow("spans and ops out of order in the file")
        << QByteArray("c:-:40:10 a:-:0:10 b:-:20:10") << QByteArray("c:z:45:1 a:y:5:1 b:x:25:1")
        << QByteArray("d0:a,b,c d1:#y,#x,#z");
    QTest::newRow("spans in id order are not in start order")
        << QByteArray("r:-:0:100 a:r:50:10 b:r:10:10") << QByteArray("r:mm:30:5") << QByteArray("d0:r d1:b,#mm,a");
    QTest::newRow("touching slices share a track")
        << QByteArray("a:-:0:10 b:-:10:10 c:-:20:0 d:-:20:5") << QByteArray() << QByteArray("d0:a,b,c,d");
    QTest::newRow("dangling parent is a root")
        << QByteArray("a:-:0:10 b:nope:20:10 c:b:22:3") << QByteArray() << QByteArray("d0:a,b d1:c");
}

void tst_TimelineLayout::hostLevels()
{
    QFETCH(QByteArray, spans);
    QFETCH(QByteArray, ops);
    QFETCH(QByteArray, expected);
    const auto f = loadFixture(traceJsonl(spans, opsJsonl(ops)));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    QVERIFY(!layout.isCancelled());
    QCOMPARE(dumpHost(*f.trace, *f.tree, layout), expected);
    // Given the span tree's order by start, as the loader does, it lays out the same.
    std::vector<std::uint32_t> byStart;
    SpanTree::build(*f.trace, &byStart);
    QCOMPARE(byStart.size(), f.trace->spans.size());
    const TimelineLayout handed = TimelineLayout::build(*f.trace, *f.tree, nullptr, std::move(byStart));
    QCOMPARE(dumpHost(*f.trace, *f.tree, handed), expected);
    // Given the record extents too, as the loader does.
    const RecordExtents extents = RecordExtents::compute(*f.trace);
    const TimelineLayout withExtents = TimelineLayout::build(*f.trace, *f.tree, nullptr, {}, &extents);
    QCOMPARE(dumpHost(*f.trace, *f.tree, withExtents), expected);
    QCOMPARE(withExtents.hostExtent(), layout.hostExtent());
    QCOMPARE(withExtents.runEndNs(), layout.runEndNs());
}

void tst_TimelineLayout::openSpanReachesRunEnd()
{
    const auto f = loadFixture(traceJsonl("a:-:0:open b:a:10:20", opsJsonl("b:mm:15:1000")));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    // The fixture's terminal is at 1 s: the latest host time, so the open span ends there.
    QCOMPARE(layout.runEndNs(), quint64(1000000000));
    const auto a = std::size_t(f.trace->findSpan(std::string_view("a")));
    QVERIFY(f.tree->isOpen(a));
    QCOMPARE(layout.extentOf(*f.trace, {TimelineItemKind::Span, std::uint32_t(a)}),
             std::make_pair(std::uint64_t(0), std::uint64_t(1000000000)));
    const auto loc = layout.locate(*f.trace, *f.tree, {TimelineItemKind::Span, std::uint32_t(a)});
    QVERIFY(loc);
    const TimelineTrack &track = layout.hostLevels()[loc->group].tracks[loc->track];
    QCOMPARE(track.end(loc->position), quint64(1000000000));
    QCOMPARE(layout.hostExtent(), (TimeWindow{0, 1000000000}));
}

void tst_TimelineLayout::runEndCountsMemory()
{
    // Memory and device_memory records past every span, op and the terminal (at 1 s) end the
    // run: the open span reaches the latest of them.
    const QByteArray memory =
        R"({"kind":"memory","timestamp_ns":2000000000,"storage_id":"st","tensor_id":"t","span_id":"a",)"
        R"("device":"cpu","bytes":4,"action":"alloc","dtype":"f32"})"
        "\n"
        R"({"kind":"device_memory","timestamp_ns":1500000000,"device":"cpu","used_bytes":1})"
        "\n";
    const auto f = loadFixture(traceJsonl("a:-:10:open b:a:20:30", memory));
    QVERIFY(f.trace);
    QCOMPARE(f.trace->memory.size(), std::size_t(1));
    QCOMPARE(f.trace->deviceMemory.size(), std::size_t(1));
    const RecordExtents extents = RecordExtents::compute(*f.trace);
    for (const RecordExtents *given : {static_cast<const RecordExtents *>(nullptr), &extents}) {
        const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree, nullptr, {}, given);
        QCOMPARE(layout.runEndNs(), quint64(2000000000));
        QCOMPARE(layout.hostExtent(), (TimeWindow{10, 2000000000}));
    }
}

void tst_TimelineLayout::trackCapKeepsEverySlice()
{
    // 40 ops at the same time in one span: 16 tracks, the last holding the overflow.
    QByteArray ops;
    for (int i = 0; i < 40; ++i)
        ops += "a:op" + QByteArray::number(i) + ":10:50 ";
    const auto f = loadFixture(traceJsonl("a:-:0:100", opsJsonl(ops)));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    QCOMPARE(layout.hostLevels().size(), std::size_t(2));
    const auto &tracks = layout.hostLevels()[1].tracks;
    QCOMPARE(tracks.size(), TimelineLayout::kMaxTracksPerLevel);
    std::size_t total = 0;
    bool anyOverlap = false;
    for (const auto &t : tracks) {
        total += t.size();
        anyOverlap = anyOverlap || t.hasOverlaps();
    }
    QCOMPARE(total, std::size_t(40));
    QVERIFY(anyOverlap);
    for (std::uint32_t i = 0; i < 40; ++i)
        QVERIFY(layout.locate(*f.trace, *f.tree, {TimelineItemKind::Op, i}));
}

void tst_TimelineLayout::deviceLanes()
{
    const QByteArray intervals = intervalsJsonl("a,cuda:0,14,clkA,500,100 a,cuda:0,7,clkA,100,50 "
                                                "b,cuda:0,7,clkA,120,10 "
                                                "b,cuda:1,7,clkB,9000000000,30 ghost,cuda:1,7,clkB,9000000100,5");
    const auto f = loadFixture(traceJsonl("a:-:0:100 b:a:10:20", intervals));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    const Trace &t = *f.trace;
    const auto &lanes = layout.deviceLanes();
    QCOMPARE(lanes.size(), std::size_t(3));
    auto laneText = [&](const TimelineLayout::DeviceLane &l) -> QByteArray {
        return QByteArray(t.str(l.clock).data(), qsizetype(t.str(l.clock).size())) + '/'
               + QByteArray(t.str(l.device).data(), qsizetype(t.str(l.device).size())) + '/'
               + QByteArray(t.str(l.stream).data(), qsizetype(t.str(l.stream).size())) + '='
               + QByteArray::number(qulonglong(l.intervalCount)) + 'x'
               + QByteArray::number(qulonglong(l.tracks.size()));
    };
    // Streams in natural order ("7" before "14"), grouped by clock.
    QCOMPARE(laneText(lanes[0]), QByteArray("clkA/cuda:0/7=2x2"));
    QCOMPARE(laneText(lanes[1]), QByteArray("clkA/cuda:0/14=1x1"));
    QCOMPARE(laneText(lanes[2]), QByteArray("clkB/cuda:1/7=2x1"));
    const auto &domains = layout.clockDomains();
    QCOMPARE(domains.size(), std::size_t(2));
    QCOMPARE(t.str(domains[0].clock), std::string_view("clkA"));
    QCOMPARE(domains[0].extent, (TimeWindow{100, 600}));
    QCOMPARE(domains[0].lanes, (std::vector<std::uint32_t>{0, 1}));
    // The foreign clock's axis is its own: 9 s on clkB says nothing about host time.
    QCOMPARE(domains[1].extent, (TimeWindow{9000000000, 9000000105}));
    QCOMPARE(layout.hostExtent(), (TimeWindow{0, 1000000000}));
    // span_id resolution, including an unknown span.
    QCOMPARE(layout.spanOfInterval(0), std::uint32_t(t.findSpan(std::string_view("a"))));
    QCOMPARE(layout.spanOfInterval(2), std::uint32_t(t.findSpan(std::string_view("b"))));
    QCOMPARE(layout.spanOfInterval(4), TimelineLayout::kNoSpan);
    for (std::uint32_t i = 0; i < 5; ++i) {
        const auto loc = layout.locate(t, *f.tree, {TimelineItemKind::DeviceInterval, i});
        QVERIFY(loc);
        QVERIFY(loc->device);
        QCOMPARE(layout.itemAt(true, loc->group, loc->track, loc->position),
                 (TimelineItem{TimelineItemKind::DeviceInterval, i}));
    }
}

void tst_TimelineLayout::longSlicesKeepTheirEnds()
{
    // The layout buffers a level's slices with 32-bit lengths and finds a longer one's end
    // again from its record: spans (closed and open), an op and intervals of 2^32 ns or more,
    // next to short ones, are drawn to their exact ends.
    const QByteArray intervals =
        intervalsJsonl("a,g,s,c,0,4294967295 a,g,s,c,5000000000,4294967296 b,g,s,c,9999999999,7");
    const auto f = loadFixture(traceJsonl("a:-:0:6000000000 b:a:10:5000000000 c:-:3:open d:b:20:4294967294",
                                          opsJsonl("d:mm:25:4294967296 d:add:30:5") + intervals));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    const auto endOf = [&](TimelineItem item) {
        const auto loc = layout.locate(*f.trace, *f.tree, item);
        if (!loc)
            return std::uint64_t(0);
        const TimelineTrack &track = loc->device ? layout.deviceLanes()[loc->group].tracks[loc->track]
                                                 : layout.hostLevels()[loc->group].tracks[loc->track];
        return track.end(loc->position);
    };
    const auto span = [&](const char *id) {
        return TimelineItem{TimelineItemKind::Span, std::uint32_t(f.trace->findSpan(std::string_view(id)))};
    };
    QCOMPARE(endOf(span("a")), std::uint64_t(6000000000));
    QCOMPARE(endOf(span("b")), std::uint64_t(5000000010));
    QCOMPARE(endOf(span("c")), layout.runEndNs()); // open: to the run's end
    QCOMPARE(layout.runEndNs(), std::uint64_t(6000000000));
    QCOMPARE(endOf(span("d")), std::uint64_t(4294967314));
    QCOMPARE(endOf({TimelineItemKind::Op, 0}), std::uint64_t(4294967321));
    QCOMPARE(endOf({TimelineItemKind::Op, 1}), std::uint64_t(35));
    QCOMPARE(endOf({TimelineItemKind::DeviceInterval, 0}), std::uint64_t(4294967295));
    QCOMPARE(endOf({TimelineItemKind::DeviceInterval, 1}), std::uint64_t(9294967296));
    QCOMPARE(endOf({TimelineItemKind::DeviceInterval, 2}), std::uint64_t(10000000006));
}

void tst_TimelineLayout::laneOutOfStartOrder()
{
    // A lane's intervals go by start, equal starts by file order, however the file has them
    // and whatever the other lanes do between them (the second at 100 overlaps the first:
    // a track of its own, listed last).
    const QByteArray intervals = intervalsJsonl("a,g,s,c,300,10 a,g,t,c,50,10 a,g,s,c,100,10 a,g,s,c,100,10 "
                                                "a,g,t,c,40,10 a,g,s,c,200,10");
    const auto f = loadFixture(traceJsonl("a:-:0:1000", intervals));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    const auto &lanes = layout.deviceLanes();
    QCOMPARE(lanes.size(), std::size_t(2));
    const auto payloads = [](const TimelineLayout::DeviceLane &lane) {
        std::vector<std::uint32_t> out;
        for (const TimelineTrack &track : lane.tracks)
            for (std::size_t i = 0; i < track.size(); ++i)
                out.push_back(track.payload(i));
        return out;
    };
    QCOMPARE(payloads(lanes[0]), (std::vector<std::uint32_t>{2, 5, 0, 3}));
    QCOMPARE(payloads(lanes[1]), (std::vector<std::uint32_t>{4, 1}));
}

void tst_TimelineLayout::locateEveryItem()
{
    const auto f = loadFixture(traceJsonl("a:-:0:100 b:a:10:50 c:a:30:40 d:c:31:2 e:-:200:open",
                                          opsJsonl("b:x:11:1 c:y:32:1 d:z:31:1 e:w:300:5 nope:v:1:1")));
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    for (std::uint32_t i = 0; i < f.trace->spans.size(); ++i) {
        const auto loc = layout.locate(*f.trace, *f.tree, {TimelineItemKind::Span, i});
        QVERIFY(loc);
        QCOMPARE(layout.itemAt(false, loc->group, loc->track, loc->position),
                 (TimelineItem{TimelineItemKind::Span, i}));
        QCOMPARE(layout.hostLevels()[loc->group].depth, f.tree->depth(i));
    }
    for (std::uint32_t i = 0; i < f.trace->ops.size(); ++i) {
        const auto loc = layout.locate(*f.trace, *f.tree, {TimelineItemKind::Op, i});
        QVERIFY(loc);
        QCOMPARE(layout.itemAt(false, loc->group, loc->track, loc->position), (TimelineItem{TimelineItemKind::Op, i}));
    }
    QVERIFY(!layout.locate(*f.trace, *f.tree, {TimelineItemKind::Span, 999}));
}

void tst_TimelineLayout::marks_data()
{
    QTest::addColumn<QList<QPair<quint64, quint64>>>("slices");
    QTest::addColumn<quint64>("begin");
    QTest::addColumn<quint64>("end");
    QTest::addColumn<double>("width");
    QTest::addColumn<QByteArray>("expected");

    using S = QList<QPair<quint64, quint64>>;
    S tenPerPixel;
    for (quint64 i = 0; i < 40; ++i)
        tenPerPixel.append({i * 10, i * 10 + 1});
    QTest::newRow("ten 1 ns slices per 100 ns pixel")
        << tenPerPixel << quint64(0) << quint64(400) << 4.0 << QByteArray("0-1:10 1-2:10 2-3:10 3-4:10");
    QTest::newRow("wide slices one by one") << S{{0, 100}, {100, 250}, {300, 400}} << quint64(0) << quint64(400) << 4.0
                                            << QByteArray("0-1:1 1-2.5:1 3-4:1");
    S narrowThenWide;
    for (quint64 i = 0; i < 10; ++i)
        narrowThenWide.append({i * 9, i * 9 + 1});
    narrowThenWide.append({95, 500});
    QTest::newRow("wide slice leaving a merged column stays whole")
        << narrowThenWide << quint64(0) << quint64(1000) << 10.0 << QByteArray("0-1:10 0.95-5:1");
    QTest::newRow("a lone sub-pixel slice is itself")
        << S{{50, 51}} << quint64(0) << quint64(1000) << 10.0 << QByteArray("0.5-0.51:1");
    QTest::newRow("window cuts slices") << S{{0, 1000}, {1000, 1001}, {1500, 3000}} << quint64(500) << quint64(2000)
                                        << 15.0 << QByteArray("-5-5:1 5-5.01:1 10-25:1");
    QTest::newRow("slices left and right of the window are skipped")
        << S{{0, 10}, {100, 110}, {200, 210}} << quint64(50) << quint64(150) << 100.0 << QByteArray("50-60:1");
    QTest::newRow("overlapping track: wide and merged") << S{{0, 1000}, {10, 11}, {20, 21}, {30, 31}} << quint64(0)
                                                        << quint64(1000) << 10.0 << QByteArray("0-10:1 0-1:3");
    QTest::newRow("late in a 13 s run, ns apart")
        << S{{12999999000, 12999999001}, {12999999002, 12999999003}, {12999999010, 12999999020}} << quint64(12999999000)
        << quint64(12999999020) << 20.0 << QByteArray("0-1:1 2-3:1 10-20:1");
}

void tst_TimelineLayout::marks()
{
    using S = QList<QPair<quint64, quint64>>;
    QFETCH(S, slices);
    QFETCH(quint64, begin);
    QFETCH(quint64, end);
    QFETCH(double, width);
    QFETCH(QByteArray, expected);
    const TimelineTrack track = makeTrack(slices);
    std::vector<TimelineMark> marks;
    track.marks({begin, end}, width, marks);
    QCOMPARE(dumpMarks(marks), expected);
}

void tst_TimelineLayout::marksInvariants_data()
{
    QTest::addColumn<bool>("overlapping");
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 4; ++seed) {
        QTest::addRow("disjoint %d", seed) << false << seed;
        QTest::addRow("overlapping %d", seed) << true << seed;
    }
}

void tst_TimelineLayout::marksInvariants()
{
    QFETCH(bool, overlapping);
    QFETCH(int, seed);
    std::mt19937_64 rng{std::uint64_t(seed)};
    const TimelineTrack track = randomTrack(rng, overlapping, 20000);
    QCOMPARE(track.hasOverlaps(), overlapping);
    const std::uint64_t extent = track.lastEnd();
    for (int round = 0; round < 200; ++round) {
        const std::uint64_t length = 1 + rng() % extent;
        const std::uint64_t begin = rng() % extent;
        const TimeWindow window{begin, begin + length};
        const double width = 50 + double(rng() % 1500);
        std::vector<TimelineMark> marks;
        track.marks(window, width, marks);
        // Every slice touching the window is in exactly one mark; singles are exact, merged
        // marks hold only sub-pixel slices that start in the mark's column.
        std::vector<int> seen(track.size(), 0);
        const double scale = width / double(length);
        auto x = [&](std::uint64_t t) { return t >= begin ? double(t - begin) * scale : -double(begin - t) * scale; };
        for (const TimelineMark &m : marks) {
            if (m.count == 1) {
                QCOMPARE(m.last, m.first + 1);
                ++seen[m.first];
                QCOMPARE(m.x0, x(track.start(m.first)));
                QCOMPARE(m.x1, x(track.end(m.first)));
                continue;
            }
            std::uint32_t counted = 0;
            for (std::uint32_t i = m.first; i < m.last; ++i) {
                const double w = x(track.end(i)) - x(track.start(i));
                // (Overlapping tracks) wide slices are listed on their own and slices that
                // end before the window are not drawn.
                if (w >= 1.0 || track.end(i) < window.begin)
                    continue;
                // In the mark's column (up to rounding at the column's right edge).
                const double sx = x(track.start(i));
                QVERIFY(sx >= m.x0 - 1e-9 && sx < m.x0 + 1.0 + 1e-9);
                ++seen[i];
                ++counted;
            }
            QCOMPARE(counted, m.count);
        }
        for (std::size_t i = 0; i < track.size(); ++i) {
            const bool touches = track.start(i) < window.end && track.end(i) >= window.begin;
            if (touches != (seen[i] == 1))
                QFAIL(qPrintable(QStringLiteral("slice %1 [%2, %3) seen %4 times in [%5, %6)")
                                     .arg(i)
                                     .arg(track.start(i))
                                     .arg(track.end(i))
                                     .arg(seen[i])
                                     .arg(window.begin)
                                     .arg(window.end)));
        }
        // Marks stay proportional to the pixels on a track without overlaps.
        if (!overlapping)
            QVERIFY(double(marks.size()) <= 3 * width + 4);
    }
}

void tst_TimelineLayout::markAtMatchesMarks_data()
{
    marksInvariants_data();
}

void tst_TimelineLayout::markAtMatchesMarks()
{
    QFETCH(bool, overlapping);
    QFETCH(int, seed);
    std::mt19937_64 rng(std::uint64_t(seed) * 7919);
    const TimelineTrack track = randomTrack(rng, overlapping, 5000);
    const std::uint64_t extent = track.lastEnd();
    for (int round = 0; round < 100; ++round) {
        const std::uint64_t length = 1 + rng() % extent;
        const std::uint64_t begin = rng() % extent;
        const TimeWindow window{begin, begin + length};
        const double width = 50 + double(rng() % 800);
        std::vector<TimelineMark> marks;
        track.marks(window, width, marks);
        for (int probe = 0; probe < 20; ++probe) {
            const double px = double(rng() % std::uint64_t(width * 10)) / 10.0;
            const double tolerance = probe % 2 ? 3.0 : 0.0;
            // Brute force over the full list, same rule: nearest within tolerance, last wins.
            const TimelineMark *expected = nullptr;
            double best = tolerance;
            for (const TimelineMark &m : marks) {
                const double x1 = std::max(m.x1, m.x0 + 1.0);
                const double d = px < m.x0 ? m.x0 - px : (px > x1 ? px - x1 : 0.0);
                if (d <= best) {
                    expected = &m;
                    best = d;
                }
            }
            const auto got = track.markAt(window, width, px, tolerance);
            QCOMPARE(bool(got), expected != nullptr);
            if (got) {
                QCOMPARE(got->first, expected->first);
                QCOMPARE(got->count, expected->count);
            }
        }
    }
}

void tst_TimelineLayout::visibleRange()
{
    const TimelineTrack track = makeTrack({{0, 10}, {10, 20}, {30, 40}, {50, 50}});
    QCOMPARE(track.visibleRange({0, 5}), std::make_pair(std::size_t(0), std::size_t(1)));
    QCOMPARE(track.visibleRange({20, 30}), std::make_pair(std::size_t(1), std::size_t(2)));
    QCOMPARE(track.visibleRange({45, 60}), std::make_pair(std::size_t(3), std::size_t(4)));
    QCOMPARE(track.visibleRange({60, 70}), std::make_pair(std::size_t(4), std::size_t(4)));
    QCOMPARE(track.find(30, 2), std::optional<std::size_t>(2));
    QCOMPARE(track.find(30, 1), std::optional<std::size_t>());
}

void tst_TimelineLayout::compactTimesAreExact_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<bool>("compact"); // every start offset and length fits in 32 bits
    QTest::newRow("ns timestamps late in a long run") << 0 << true;
    QTest::newRow("a slice longer than 2^32 ns") << 1 << false;
    QTest::newRow("a gap of more than 2^32 ns inside a block") << 2 << false;
    QTest::newRow("overlapping, near the top of the range") << 3 << true;
}

void tst_TimelineLayout::compactTimesAreExact()
{
    // Starts and ends are kept as 32-bit offsets and lengths where they fit, whole where
    // they do not: either way every query sees the times that were appended.
    QFETCH(int, shape);
    QFETCH(bool, compact);
    std::mt19937_64 rng(11);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> slices;
    std::uint64_t t = shape == 3 ? UINT64_MAX - (std::uint64_t(1) << 40) : std::uint64_t(12) << 30;
    for (std::size_t i = 0; i < 1000; ++i) {
        std::uint64_t length = rng() % 5000;
        if (shape == 1 && i == 500)
            length = std::uint64_t(5) << 30;
        slices.emplace_back(t, t + length);
        t += shape == 3 ? rng() % 300 : length + rng() % 300;
        if (shape == 2 && i == 700)
            t += std::uint64_t(5) << 30;
    }
    TimelineTrack track;
    for (std::size_t i = 0; i < slices.size(); ++i)
        track.append(slices[i].first, slices[i].second, std::uint32_t(i));
    track.finish();
    QCOMPARE(track.size(), slices.size());
    QCOMPARE(track.hasOverlaps(), shape == 3);
    std::uint64_t lastEnd = 0;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        QCOMPARE(track.start(i), slices[i].first);
        QCOMPARE(track.end(i), slices[i].second);
        QCOMPARE(track.find(slices[i].first, std::uint32_t(i)), std::optional<std::size_t>(i));
        lastEnd = std::max(lastEnd, slices[i].second);
    }
    QCOMPARE(track.lastEnd(), lastEnd);
    for (int k = 0; k < 200; ++k) {
        const std::uint64_t a = slices[rng() % slices.size()].first + rng() % 100;
        const TimeWindow window{a, a + 1 + rng() % 20000};
        const auto [first, last] = track.visibleRange(window);
        for (std::size_t i = 0; i < slices.size(); ++i) {
            const bool intersects = slices[i].first < window.end && slices[i].second >= window.begin;
            if (intersects)
                QVERIFY(i >= first && i < last);
        }
    }
    // 12 bytes a slice when compact (plus the coarse index and, with overlaps, the running
    // maximum of the ends), 20 when not.
    const std::size_t perSlice = compact ? 12 : 20;
    const std::size_t extra = (slices.size() / 32 + 1) * 8 + (shape == 3 ? slices.size() * 8 : 0);
    QVERIFY2(track.memoryUsage() <= slices.size() * perSlice + extra, qPrintable(QString::number(track.memoryUsage())));
}

void tst_TimelineLayout::cancelled()
{
    const auto f = loadFixture(traceJsonl("a:-:0:100 b:a:10:30", opsJsonl("b:mm:12:5")));
    QVERIFY(f.trace);
    std::atomic<bool> cancel{true};
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree, &cancel);
    QVERIFY(layout.isCancelled());
}

void tst_TimelineLayout::emptyTrace()
{
    const auto f =
        loadFixture(QByteArray(kMeta) + "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":0}\n");
    QVERIFY(f.trace);
    const TimelineLayout layout = TimelineLayout::build(*f.trace, *f.tree);
    QVERIFY(layout.hostLevels().empty());
    QVERIFY(layout.deviceLanes().empty());
    QVERIFY(!layout.hostExtent().isEmpty());
}

QTEST_GUILESS_MAIN(tst_TimelineLayout)
#include "tst_timelinelayout.moc"
