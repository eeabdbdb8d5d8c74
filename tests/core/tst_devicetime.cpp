// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <random>
#include <tuple>

#include "core/analysis/opstatistics.h"
#include "core/loading/traceloader.h"

#include "core/analysis/devicetime.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/allocationprobe.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;
using namespace Qt::StringLiterals;

class tst_DeviceTime : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void busyUnion_data();
    void busyUnion();
    void deepChain_data();
    void deepChain();
    void matchesABruteForceUnion_data();
    void matchesABruteForceUnion();
    void outsideEverySpan();
    void outsideIntervalsListed_data();
    void outsideIntervalsListed();
    void saturatesAtTheEndOfTime();
    void lanesAreCappedPerSpan();
    void manyIntervalsInOneLane();
    void noIntervals();
    void noAllocationPerSpan();
    void spanTreeModelColumns();
    void spanTreeModelTester();
    void loaderComputesItWithTheTree();
};

namespace {

// Space-separated `span:device:stream:clock:start:duration` device_interval records.
QByteArray intervalsJsonl(const QByteArray &spec)
{
    QByteArray out;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        out += "{\"kind\":\"device_interval\",\"span_id\":\"" + f[0] + "\",\"device\":\"" + f[1] + "\",\"stream_id\":\""
               + f[2] + "\",\"clock_id\":\"" + f[3] + "\",\"backend\":\"cuda\",\"start_ns\":" + f[4]
               + ",\"duration_ns\":" + f[5] + "}\n";
    }
    return out;
}

/// The spans of \a spans (fixtures syntax) with \a intervals inserted before the terminal.
std::shared_ptr<const Trace> load(const QByteArray &spans, const QByteArray &intervals)
{
    return TestFixtures::traceFrom(TestFixtures::withRecords(TestFixtures::spansJsonl(spans), intervals));
}

QString sv(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// `device/stream/clock=busy#intervals` per lane, space-separated (of a span's row or of
/// outside()).
template<typename BusyRange>
QString describe(const Trace &trace, const DeviceTime &device, const BusyRange &busy)
{
    QStringList parts;
    for (const DeviceBusy &b : busy) {
        const DeviceLane &lane = device.lanes()[b.lane];
        parts << QStringLiteral("%1/%2/%3=%4#%5")
                     .arg(sv(trace.str(lane.device)), sv(trace.str(lane.stream)), sv(trace.str(lane.clock)))
                     .arg(b.busyNs)
                     .arg(b.intervals);
    }
    return parts.join(u' ');
}

} // namespace

void tst_DeviceTime::busyUnion_data()
{
    QTest::addColumn<QByteArray>("spans");
    QTest::addColumn<QByteArray>("intervals");
    QTest::addColumn<QString>("span");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("exceeds");

    const QByteArray one = "r:-:0:1000";
    QTest::newRow("single") << one << QByteArray("r:g0:s1:c:10:100") << "r"
                            << "g0/s1/c=100#1" << false;
    QTest::newRow("overlap counts once") << one << QByteArray("r:g0:s1:c:0:100 r:g0:s1:c:50:100") << "r"
                                         << "g0/s1/c=150#2" << false;
    QTest::newRow("nested") << one << QByteArray("r:g0:s1:c:0:900 r:g0:s1:c:100:100 r:g0:s1:c:200:50") << "r"
                            << "g0/s1/c=900#3" << false;
    QTest::newRow("touching intervals join") << one << QByteArray("r:g0:s1:c:0:100 r:g0:s1:c:100:100") << "r"
                                             << "g0/s1/c=200#2" << false;
    QTest::newRow("disjoint") << one << QByteArray("r:g0:s1:c:500:10 r:g0:s1:c:0:10 r:g0:s1:c:250:10") << "r"
                              << "g0/s1/c=30#3" << false;
    QTest::newRow("bridging interval merges three")
        << one << QByteArray("r:g0:s1:c:0:10 r:g0:s1:c:20:10 r:g0:s1:c:40:10 r:g0:s1:c:5:40") << "r"
        << "g0/s1/c=50#4" << false;
    QTest::newRow("empty interval counts, covers nothing") << one << QByteArray("r:g0:s1:c:5:0") << "r"
                                                           << "g0/s1/c=0#1" << false;
    QTest::newRow("several streams stay apart") << one << QByteArray("r:g0:s1:c:0:100 r:g0:s2:c:50:300") << "r"
                                                << "g0/s1/c=100#1 g0/s2/c=300#1" << false;
    QTest::newRow("several devices") << one << QByteArray("r:g1:s:c1:0:100 r:g0:s:c0:0:100") << "r"
                                     << "g0/s/c0=100#1 g1/s/c1=100#1" << false;
    // Start times on different clocks are not comparable: the same numbers are two lanes.
    QTest::newRow("clock domains never merge")
        << one << QByteArray("r:g0:s1:cupti:0:100 r:g0:s1:event-clock:50:100") << "r"
        << "g0/s1/cupti=100#1 g0/s1/event-clock=100#1" << false;
    const QByteArray tree = "r:-:0:1000 a:r:10:400 b:r:500:400 a1:a:20:100";
    QTest::newRow("subtree: children count at the parent")
        << tree << QByteArray("a:g:s:c:0:100 b:g:s:c:50:100 a1:g:s:c:300:10") << "r"
        << "g/s/c=160#3" << false;
    QTest::newRow("subtree: a sibling does not count")
        << tree << QByteArray("a:g:s:c:0:100 b:g:s:c:50:100 a1:g:s:c:300:10") << "a"
        << "g/s/c=110#2" << false;
    QTest::newRow("subtree: leaf") << tree << QByteArray("a:g:s:c:0:100 a1:g:s:c:300:10") << "a1"
                                   << "g/s/c=10#1" << false;
    QTest::newRow("no work in the span") << tree << QByteArray("a:g:s:c:0:100") << "b"
                                         << "" << false;
    QTest::newRow("busy beyond the host window") << QByteArray("r:-:0:100") << QByteArray("r:g:s:c:0:150") << "r"
                                                 << "g/s/c=150#1" << true;
    QTest::newRow("busy equal to the host window") << QByteArray("r:-:0:100") << QByteArray("r:g:s:c:0:100") << "r"
                                                   << "g/s/c=100#1" << false;
    QTest::newRow("two streams each within the window")
        << QByteArray("r:-:0:100") << QByteArray("r:g:s1:c:0:80 r:g:s2:c:0:80") << "r"
        << "g/s1/c=80#1 g/s2/c=80#1" << false;
    // Busy times of 2^32 ns or more, and interval counts of 2^16 or more, are kept aside
    // (EscapedNarrowArray): the values around that edge read back exactly.
    QTest::newRow("busy just below the escape")
        << QByteArray("r:-:0:9000000000") << QByteArray("r:g:s:c:0:4294967294") << "r"
        << "g/s/c=4294967294#1" << false;
    QTest::newRow("busy at the escape") << QByteArray("r:-:0:9000000000") << QByteArray("r:g:s:c:0:4294967295") << "r"
                                        << "g/s/c=4294967295#1" << false;
    QTest::newRow("busy beyond 2^32 ns") << QByteArray("r:-:0:9000000000 a:r:0:10")
                                         << QByteArray("r:g:s:c:0:5000000000 a:g:s:c:0:7") << "r"
                                         << "g/s/c=5000000000#2" << false;
    QTest::newRow("busy beyond 2^32 ns, exceeding")
        << QByteArray("r:-:0:9000000000 a:r:0:10") << QByteArray("a:g:s:c:0:5000000000") << "a"
        << "g/s/c=5000000000#1" << true;
    QTest::newRow("open span is never flagged") << QByteArray("r:-:0:open") << QByteArray("r:g:s:c:0:150") << "r"
                                                << "g/s/c=150#1" << false;
}

void tst_DeviceTime::busyUnion()
{
    QFETCH(QByteArray, spans);
    QFETCH(QByteArray, intervals);
    QFETCH(QString, span);
    QFETCH(QString, expected);
    QFETCH(bool, exceeds);

    const auto trace = load(spans, intervalsJsonl(intervals));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const DeviceTime device = DeviceTime::compute(*trace, tree);
    const std::int64_t index = trace->findSpan(std::string_view(span.toStdString()));
    QVERIFY(index >= 0);
    QCOMPARE(describe(*trace, device, device.busyOfSpan(std::size_t(index))), expected);
    QCOMPARE(device.exceedsHostWindow(std::size_t(index)), exceeds);
    std::uint64_t max = 0;
    for (const DeviceBusy &b : device.busyOfSpan(std::size_t(index)))
        max = std::max(max, b.busyNs);
    QCOMPARE(device.maxBusyNs(std::size_t(index)), max);
    QCOMPARE(device.outsideIntervalCount(), std::uint64_t(0));
}

void tst_DeviceTime::deepChain_data()
{
    QTest::addColumn<int>("depth");
    // Both merge strategies: segment vectors up to kShallowDepth levels, interval sets beyond.
    QTest::newRow("shallow") << int(DeviceTime::kShallowDepth);
    QTest::newRow("deep") << int(DeviceTime::kShallowDepth) + 40;
}

void tst_DeviceTime::deepChain()
{
    QFETCH(int, depth);
    // c0 > c1 > ... each with [10 i, 10 i + 15) on stream s and [100 i, 100 i + 1) on t.
    QByteArray spans = "c0:-:0:100000";
    QByteArray intervals = "c0:g:s:c:0:15 c0:g:t:c:0:1";
    for (int i = 1; i < depth; ++i) {
        spans += " c" + QByteArray::number(i) + ":c" + QByteArray::number(i - 1) + ':' + QByteArray::number(i) + ":10";
        intervals += " c" + QByteArray::number(i) + ":g:s:c:" + QByteArray::number(10 * i) + ":15";
        intervals += " c" + QByteArray::number(i) + ":g:t:c:" + QByteArray::number(100 * i) + ":1";
    }
    const auto trace = load(spans, intervalsJsonl(intervals));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    QCOMPARE(int(tree.maxDepth()), depth - 1);
    const DeviceTime device = DeviceTime::compute(*trace, tree);
    const auto busyOf = [&](int i) {
        return describe(*trace, device,
                        device.busyOfSpan(std::size_t(trace->findSpan(std::string_view("c" + std::to_string(i))))));
    };
    const int last = depth - 1;
    QCOMPARE(busyOf(0), QStringLiteral("g/s/c=%1#%2 g/t/c=%2#%2").arg(10 * last + 15).arg(depth));
    const int mid = depth / 2;
    QCOMPARE(busyOf(mid), QStringLiteral("g/s/c=%1#%2 g/t/c=%2#%2").arg(10 * (last - mid) + 15).arg(depth - mid));
    QCOMPARE(busyOf(last), QStringLiteral("g/s/c=15#1 g/t/c=1#1"));
    // Every span but the last lasts 10 ns and holds more than that on stream s.
    QCOMPARE(device.exceedingSpanCount(), std::size_t(depth - 1));
    QVERIFY(device.exceedsHostWindow(std::size_t(trace->findSpan(std::string_view("c" + std::to_string(last))))));
}

void tst_DeviceTime::matchesABruteForceUnion_data()
{
    QTest::addColumn<int>("seed");
    QTest::addColumn<bool>("deep");
    QTest::addColumn<int>("devices"); // 6 lanes each: up to 6, 12, 24 and 48 lanes
    for (int seed = 1; seed <= 6; ++seed) {
        const int devices = 1 << (seed % 4);
        QTest::addRow("shallow %d, %d devices", seed, devices) << seed << false << devices;
        QTest::addRow("deep %d, %d devices", seed, devices) << seed << true << devices;
    }
}

void tst_DeviceTime::matchesABruteForceUnion()
{
    // Random forests with overlapping, nested, touching, empty and out-of-order intervals on
    // 6 to 48 lanes (rows sized with 8- to 64-bit lane masks; some outside every span), checked span by span against the union computed
    // the plain way: every interval of the subtree, per lane, sorted and joined.
    QFETCH(int, seed);
    QFETCH(bool, deep);
    QFETCH(int, devices);
    std::mt19937 rng{std::uint32_t(seed)};
    const auto pick = [&rng](int n) { return int(rng() % std::uint32_t(n)); };
    const int spanCount = 120;
    std::vector<int> parent(spanCount, -1);
    QByteArray spans;
    for (int i = 0; i < spanCount; ++i) {
        parent[i] = i == 0 || pick(5) == 0 ? -1 : pick(i);
        spans += "s" + QByteArray::number(i) + ':'
                 + (parent[i] < 0 ? QByteArray("-") : "s" + QByteArray::number(parent[i])) + ':'
                 + QByteArray::number(pick(1000)) + ':' + QByteArray::number(pick(400)) + ' ';
    }
    int total = spanCount;
    if (deep) { // a chain below a random span takes the tree past kShallowDepth
        int above = pick(spanCount);
        for (std::uint32_t d = 0; d < DeviceTime::kShallowDepth + 4; ++d, ++total) {
            parent.push_back(above);
            spans += "s" + QByteArray::number(total) + ":s" + QByteArray::number(above) + ':'
                     + QByteArray::number(pick(1000)) + ":50 ";
            above = total;
        }
    }
    const char *const deviceNames[] = {"g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7"};
    const char *const streams[] = {"7", "14", "s"};
    const char *const clocks[] = {"c", "event"};
    struct Interval {
        int span = -1; // -1: names no span
        std::tuple<std::string, std::string, std::string> lane;
        std::uint64_t start = 0;
        std::uint64_t end = 0;
    };
    std::vector<Interval> all;
    QByteArray intervals;
    for (int k = 0; k < 600; ++k) {
        Interval iv;
        iv.span = pick(12) == 0 ? -1 : pick(total);
        iv.lane = std::make_tuple(std::string(deviceNames[pick(devices)]), std::string(streams[pick(3)]),
                                  std::string(pick(6) == 0 ? clocks[1] : clocks[0]));
        // Mostly in launch order, as a stream runs them, with some going back in time.
        iv.start = pick(4) == 0 ? std::uint64_t(pick(3000)) : std::uint64_t(k * 5 + pick(20));
        iv.end = iv.start + (pick(8) == 0 ? 0 : std::uint64_t(pick(60)));
        all.push_back(iv);
        intervals += (iv.span < 0 ? QByteArray("nobody") : "s" + QByteArray::number(iv.span)) + ':'
                     + std::get<0>(iv.lane).c_str() + ':' + std::get<1>(iv.lane).c_str() + ':'
                     + std::get<2>(iv.lane).c_str() + ':' + QByteArray::number(iv.start) + ':'
                     + QByteArray::number(iv.end - iv.start) + ' ';
    }
    const auto trace = load(spans, intervalsJsonl(intervals));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    QCOMPARE(tree.maxDepth() > DeviceTime::kShallowDepth, deep);
    const DeviceTime device = DeviceTime::compute(*trace, tree);

    const auto within = [&parent](int span, int ancestor) {
        for (int at = span; at >= 0; at = parent[at]) {
            if (at == ancestor)
                return true;
        }
        return false;
    };
    for (int span = 0; span < total; ++span) {
        std::map<std::tuple<std::string, std::string, std::string>,
                 std::vector<std::pair<std::uint64_t, std::uint64_t>>>
            byLane;
        for (const Interval &iv : all) {
            if (iv.span >= 0 && within(iv.span, span))
                byLane[iv.lane].emplace_back(iv.start, iv.end);
        }
        QStringList parts;
        for (auto &[lane, list] : byLane) {
            std::sort(list.begin(), list.end());
            std::uint64_t busy = 0;
            std::uint64_t from = 0;
            std::uint64_t to = 0;
            bool open = false;
            for (const auto &[start, end] : list) {
                if (end <= start)
                    continue;
                if (open && start <= to) {
                    to = std::max(to, end);
                    continue;
                }
                busy += open ? to - from : 0;
                from = start;
                to = end;
                open = true;
            }
            busy += open ? to - from : 0;
            parts << QStringLiteral("%1/%2/%3=%4#%5")
                         .arg(QString::fromStdString(std::get<0>(lane)), QString::fromStdString(std::get<1>(lane)),
                              QString::fromStdString(std::get<2>(lane)))
                         .arg(busy)
                         .arg(list.size());
        }
        const std::int64_t index = trace->findSpan("s" + std::to_string(span));
        QVERIFY(index >= 0);
        QCOMPARE(describe(*trace, device, device.busyOfSpan(std::size_t(index))), parts.join(u' '));
    }
}

void tst_DeviceTime::outsideEverySpan()
{
    const auto trace =
        load("r:-:0:1000", intervalsJsonl("r:g:s:c:0:10 ghost:g:s:c:0:100 ghost:g:s:c:50:100 other:g:s2:c:0:7"));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const DeviceTime device = DeviceTime::compute(*trace, tree);
    QCOMPARE(device.intervalCount(), std::uint64_t(4));
    QCOMPARE(device.outsideIntervalCount(), std::uint64_t(3));
    QCOMPARE(describe(*trace, device, device.outside()), QStringLiteral("g/s/c=150#2 g/s2/c=7#1"));
    QCOMPARE(describe(*trace, device, device.busyOfSpan(std::size_t(trace->findSpan(std::string_view("r"))))),
             QStringLiteral("g/s/c=10#1"));
}

void tst_DeviceTime::outsideIntervalsListed_data()
{
    QTest::addColumn<QByteArray>("intervals");
    QTest::addColumn<QStringList>("lists"); // per outside() entry: its interval indices
    QTest::newRow("none outside") << QByteArray("r:g:s:c:0:10") << QStringList{};
    QTest::newRow("file order") << QByteArray("r:g:s:c:0:10 ghost:g:s:c:0:100 ghost:g:s:c:50:100 other:g:s2:c:0:7")
                                << QStringList{u"1 2"_s, u"3"_s};
    // By start time, then by index for equal starts, whatever the file order.
    QTest::newRow("start order") << QByteArray("x:g:s:c:90:1 y:g:s:c:10:1 r:g:s:c:0:10 z:g:s:c:10:5 w:g:s:c:0:0")
                                 << QStringList{u"4 1 3 0"_s};
    QTest::newRow("lanes by device, stream, clock")
        << QByteArray("x:g:s:c2:5:1 x:g:s:c1:9:1 x:a:s:c2:1:1 x:g:s:c1:2:1") << QStringList{u"2"_s, u"3 1"_s, u"0"_s};
}

void tst_DeviceTime::outsideIntervalsListed()
{
    QFETCH(QByteArray, intervals);
    QFETCH(QStringList, lists);
    const auto trace = load("r:-:0:1000", intervalsJsonl(intervals));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const DeviceTime device = DeviceTime::compute(*trace, tree);
    QCOMPARE(device.outside().size(), std::size_t(lists.size()));
    std::uint64_t listed = 0;
    for (std::size_t e = 0; e < device.outside().size(); ++e) {
        QStringList indices;
        for (const std::uint32_t i : device.outsideIntervals(e)) {
            indices << QString::number(i);
            // Each one is on the entry's lane and names no span.
            const DeviceInterval &d = trace->deviceIntervals[i];
            const DeviceLane &lane = device.lanes()[device.outside()[e].lane];
            QCOMPARE(d.device, lane.device);
            QCOMPARE(d.streamId, lane.stream);
            QCOMPARE(d.clockId, lane.clock);
            QCOMPARE(trace->findSpan(d.spanId), std::int64_t(-1));
        }
        QCOMPARE(indices.join(u' '), lists[qsizetype(e)]);
        QCOMPARE(std::uint64_t(device.outsideIntervals(e).size()), std::uint64_t(device.outside()[e].intervals));
        listed += device.outsideIntervals(e).size();
    }
    QCOMPARE(listed, device.outsideIntervalCount());
}

// A row's interval count of 2^16 or more is kept aside (EscapedNarrowArray): the root's
// 70000 and its child's 65535 read back exactly, next to small counts.
void tst_DeviceTime::manyIntervalsInOneLane()
{
    QByteArray intervals;
    for (int i = 0; i < 70000; ++i)
        intervals += (i < 65535 ? "a" : "r") + QByteArray(":g:s:c:") + QByteArray::number(i * 10) + ":5 ";
    intervals += "b:g:s:c:1:2 b:g:s2:c:1:3";
    const auto trace = load("r:-:0:1000000 a:r:0:700000 b:r:800000:10", intervalsJsonl(intervals));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const DeviceTime device = DeviceTime::compute(*trace, tree);
    const auto busyOf = [&](const char *span) {
        return describe(*trace, device, device.busyOfSpan(std::size_t(trace->findSpan(std::string_view(span)))));
    };
    QCOMPARE(busyOf("r"), QStringLiteral("g/s/c=350000#70001 g/s2/c=3#1"));
    QCOMPARE(busyOf("a"), QStringLiteral("g/s/c=327675#65535"));
    QCOMPARE(busyOf("b"), QStringLiteral("g/s/c=2#1 g/s2/c=3#1"));
}

void tst_DeviceTime::saturatesAtTheEndOfTime()
{
    const auto trace =
        load("r:-:0:1000", intervalsJsonl("r:g:s:c:18446744073709551610:100 r:g:s:c:18446744073709551600:5"));
    QVERIFY(trace);
    const DeviceTime device = DeviceTime::compute(*trace, SpanTree::build(*trace));
    // [..610, max) and [..600, ..605): 5 + 5 ns; nothing wraps around.
    QCOMPARE(describe(*trace, device, device.busyOfSpan(0)), QStringLiteral("g/s/c=10#2"));
}

void tst_DeviceTime::lanesAreCappedPerSpan()
{
    QByteArray intervals;
    const int lanes = int(DeviceTime::kMaxLanesPerSpan) + 6;
    for (int i = 0; i < lanes; ++i)
        intervals += "r:g:s" + QByteArray::number(i) + ":c:0:" + QByteArray::number(i + 1) + ' ';
    const auto trace = load("r:-:0:1000", intervalsJsonl(intervals));
    QVERIFY(trace);
    const DeviceTime device = DeviceTime::compute(*trace, SpanTree::build(*trace));
    QCOMPARE(device.busyOfSpan(0).size(), DeviceTime::kMaxLanesPerSpan);
    QCOMPARE(device.lanesOmitted(0), 6U);
    // The busiest lanes are kept: the six shortest (1..6 ns) are the ones left out.
    for (const DeviceBusy &b : device.busyOfSpan(0))
        QVERIFY(b.busyNs > 6);
    QCOMPARE(device.maxBusyNs(0), std::uint64_t(lanes));
}

void tst_DeviceTime::noIntervals()
{
    const auto trace = load("r:-:0:1000 a:r:0:10", {});
    QVERIFY(trace);
    const DeviceTime device = DeviceTime::compute(*trace, SpanTree::build(*trace));
    QVERIFY(device.isEmpty());
    QCOMPARE(device.spanCount(), std::size_t(2));
    QVERIFY(device.busyOfSpan(0).empty());
    QCOMPARE(device.exceedingSpanCount(), std::size_t(0));
}

void tst_DeviceTime::noAllocationPerSpan()
{
    // The merge keeps the unions of inner spans on one stack: a vector per inner span (and
    // per lane list) was two allocations a span, ~45 MB of small blocks on the 1 GB trace.
    const auto allocationsFor = [](int inner) -> std::size_t {
        // root > inner i (an interval of its own) > two leaves (one interval each).
        QByteArray spans = "root:-:0:1000000";
        QByteArray intervals;
        for (int i = 0; i < inner; ++i) {
            const QByteArray n = QByteArray::number(i);
            const QByteArray start = QByteArray::number(100 * i);
            spans += " p" + n + ":root:" + start + ":100 a" + n + ":p" + n + ':' + start + ":10 b" + n + ":p" + n + ':'
                     + QByteArray::number(100 * i + 20) + ":10";
            intervals += " p" + n + ":g:s:c:" + QByteArray::number(100 * i + 50) + ":5";
            intervals += " a" + n + ":g:s:c:" + start + ":8";
            intervals += " b" + n + ":g:t:c:" + QByteArray::number(100 * i + 20) + ":8";
        }
        const auto trace = load(spans, intervalsJsonl(intervals));
        if (!trace)
            return 0;
        const SpanTree tree = SpanTree::build(*trace);
        TestFixtures::AllocationProbe probe;
        const DeviceTime device = DeviceTime::compute(*trace, tree);
        probe.stop();
        return device.busyOfSpan(std::size_t(trace->findSpan(std::string_view("root")))).size() == 2 ? probe.count()
                                                                                                     : 0;
    };
    const std::size_t few = allocationsFor(200);
    const std::size_t many = allocationsFor(800);
    QVERIFY(few > 0 && many > 0);
    // Vectors sized by the span count are allocated once each; only a few grow (and then
    // by doubling): 600 more inner spans add a handful of allocations, not 1200.
    QVERIFY2(many < few + 20, qPrintable(QStringLiteral("%1 -> %2 allocations").arg(few).arg(many)));
}

void tst_DeviceTime::spanTreeModelColumns()
{
    const auto trace = load("r:-:0:100 a:r:0:50", intervalsJsonl("a:g0:s1:cupti:0:150 r:g0:s2:cupti:0:20"));
    QVERIFY(trace);
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    auto device = std::make_shared<const DeviceTime>(DeviceTime::compute(*trace, *tree));
    SpanTreeModel model;
    model.setTrace(trace, tree, device);
    QVERIFY(model.deviceTime());
    const QModelIndex r = model.indexForSpan(trace->findSpan(std::string_view("r")));
    const QModelIndex a = model.indexForSpan(trace->findSpan(std::string_view("a")));
    QCOMPARE(r.siblingAtColumn(SpanTreeModel::DeviceBusyColumn).data(SortRole).toULongLong(), 150ULL);
    QCOMPARE(r.data(DeviceBusyRole).toULongLong(), 150ULL);
    QCOMPARE(r.data(DeviceExceedsHostRole).toBool(), true); // 150 ns on stream s1 in a 100 ns span
    QCOMPARE(a.data(DeviceExceedsHostRole).toBool(), true);
    QVERIFY(r.siblingAtColumn(SpanTreeModel::DeviceBusyColumn).data().toString().contains(QStringLiteral("> host")));
    QCOMPARE(a.siblingAtColumn(SpanTreeModel::DeviceLanesColumn).data().toString(), QStringLiteral("g0 · s1 · cupti"));
    QCOMPARE(r.siblingAtColumn(SpanTreeModel::DeviceLanesColumn).data().toString(), QStringLiteral("2 streams on g0"));
    QCOMPARE(model.deviceLines(trace->findSpan(std::string_view("r"))).size(), 3); // two lanes + the warning
    QVERIFY(r.data(Qt::ToolTipRole).toString().contains(QStringLiteral("stream s2")));

    // Without device time the columns are empty and the roles invalid.
    model.setTrace(trace, tree);
    QVERIFY(!model.deviceTime());
    const QModelIndex r2 = model.indexForSpan(trace->findSpan(std::string_view("r")), SpanTreeModel::DeviceBusyColumn);
    QVERIFY(!r2.data().isValid());
    QVERIFY(!r2.data(DeviceBusyRole).isValid());

    // The proxy sorts by busy time, spans without device work last ascending.
    model.setTrace(trace, tree, device);
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SpanTreeModel::DeviceBusyColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data(SpanIdRole).toString(), QStringLiteral("r"));
}

void tst_DeviceTime::spanTreeModelTester()
{
    const auto trace = load("r:-:0:1000 a:r:10:400 b:r:500:400 a1:a:20:100 lone:-:0:5",
                            intervalsJsonl("a:g:s:c:0:100 b:g:s:c:50:100 a1:g:s2:c2:300:10 nowhere:g:s:c:0:1"));
    QVERIFY(trace);
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    SpanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(trace, tree, std::make_shared<const DeviceTime>(DeviceTime::compute(*trace, *tree)));
    SpanFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.sort(SpanTreeModel::DeviceLanesColumn, Qt::AscendingOrder);
    proxy.sort(SpanTreeModel::DeviceBusyColumn, Qt::DescendingOrder);
    model.setTimeUnit(TimeUnit::Microseconds);
    model.setTrace({}, {});
}

void tst_DeviceTime::loaderComputesItWithTheTree()
{
    QByteArray text = TestFixtures::spansJsonl("r:-:0:100 a:r:0:50");
    text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), intervalsJsonl("a:g:s:c:0:70 ghost:g:s:c:0:5"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("device.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();

    TraceLoader loader;
    QSignalSpy stages(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(path);
    QVERIFY(finished.wait(20000));
    LoadedTracePtr atTree;
    for (const QList<QVariant> &stage : stages) {
        const auto snapshot = stage.at(1).value<LoadedTracePtr>();
        if (snapshot->stage == LoadStage::SpanTree)
            atTree = snapshot;
    }
    QVERIFY(atTree);
    QVERIFY(atTree->deviceTime && atTree->opStatisticsByShape);
    QCOMPARE(atTree->opStatisticsByShape->grouping(), OpGrouping::NameShapeDtypeDevice);
    QVERIFY(atTree->timings.deviceTimeMs >= 0 && atTree->timings.opRegroupMs >= 0);
    const DeviceTime &device = *atTree->deviceTime;
    QCOMPARE(device.intervalCount(), std::uint64_t(2));
    QCOMPARE(device.outsideIntervalCount(), std::uint64_t(1));
    const auto a = std::size_t(atTree->trace->findSpan(std::string_view("a")));
    QCOMPARE(device.maxBusyNs(a), std::uint64_t(70));
    QVERIFY(device.exceedsHostWindow(a));
    QCOMPARE(device.exceedingSpanCount(), std::size_t(1)); // r lasts 100 ns
}

QTEST_GUILESS_MAIN(tst_DeviceTime)
#include "tst_devicetime.moc"
