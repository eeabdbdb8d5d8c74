// SPDX-License-Identifier: MIT
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/analysis/recordextents.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"

using namespace TraceInspector;

namespace {

const std::string kMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e",)"
    R"("phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host",)"
    R"("capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"partial",)"
    R"("physical_memory":"partial","device_timing":"none"},"tags":{}})";
const std::string kTerminal = R"({"kind":"terminal","outcome":"complete","timestamp_ns":18446744073709551615})";

/// "a|f TS DEVICE STORAGE BYTES [CATEGORY]" or "d TS DEVICE [used=N] [reserved=N]".
std::string record(const std::string &spec)
{
    std::istringstream in(spec);
    std::string kind, device;
    std::uint64_t ts = 0;
    in >> kind >> ts >> device;
    nlohmann::json j;
    if (kind == "d") {
        j = {{"kind", "device_memory"}, {"timestamp_ns", ts}, {"device", device}};
        std::string kv;
        while (in >> kv) {
            const auto eq = kv.find('=');
            j[kv.substr(0, eq) + "_bytes"] = std::stoull(kv.substr(eq + 1));
        }
        return j.dump();
    }
    std::string storage, category;
    std::uint64_t bytes = 0;
    in >> storage >> bytes >> category;
    j = {{"kind", "memory"}, {"timestamp_ns", ts}, {"storage_id", storage}, {"tensor_id", "t"},
         {"span_id", "s"},   {"device", device},   {"bytes", bytes},        {"action", kind == "a" ? "alloc" : "free"},
         {"dtype", "f32"}};
    if (!category.empty())
        j["category"] = category;
    return j.dump();
}

struct Loaded {
    std::shared_ptr<const Trace> trace;
    MemoryProfile profile;
    MemorySeries series;
};

std::unique_ptr<Loaded> load(const std::vector<std::string> &records)
{
    std::string text = kMeta + "\n";
    for (const std::string &r : records)
        text += record(r) + "\n";
    text += kTerminal + "\n";
    ReadResult result = TraceReader::readBytes(text, "test.jsonl");
    if (!result.accepted())
        return nullptr;
    auto out = std::make_unique<Loaded>();
    out->trace = result.trace;
    out->profile = analyzeMemory(*out->trace);
    out->series = MemorySeries(*out->trace, out->profile);
    return out;
}

QString totals(const LogicalChartData &d)
{
    QStringList out;
    for (const StackedColumn &c : d.columns)
        out << QStringLiteral("%1:%2").arg(c.timeNs).arg(c.stack.back());
    return out.join(QLatin1Char(' '));
}

QString points(const std::vector<ChartPoint> &p)
{
    QStringList out;
    for (const ChartPoint &c : p)
        out << QStringLiteral("%1:%2").arg(c.timeNs).arg(c.bytes);
    return out.join(QLatin1Char(' '));
}

int deviceIndex(const MemorySeries &s, const std::string &name)
{
    const auto &d = s.devices();
    const auto it = std::find(d.begin(), d.end(), name);
    return it == d.end() ? -2 : int(it - d.begin());
}

/// Per-bucket min and max of the §8.1 timeline (total, or one device's live bytes), with the
/// value held from before the window counted in the first bucket and gaps filled.
struct Extremes {
    bool seen = false;
    std::uint64_t min = 0, max = 0;
    void add(std::uint64_t v)
    {
        min = seen ? std::min(min, v) : v;
        max = seen ? std::max(max, v) : v;
        seen = true;
    }
};

/// The selection's value at every timeline point (total, or one device's live bytes).
std::vector<std::uint64_t> timelineValues(const LogicalMemoryProfile &p, int device)
{
    std::vector<std::uint64_t> out;
    for (LogicalMemoryProfile::Cursor c(p); !c.atEnd(); c.next()) {
        std::uint64_t v = device < 0 ? c.liveBytes() : 0;
        if (device >= 0)
            for (const DeviceBytes &d : c.liveBytesByDevice())
                if (d.device == p.devices()[std::size_t(device)])
                    v = d.bytes;
        out.push_back(v);
    }
    return out;
}

std::vector<Extremes> expectedBuckets(const Trace &trace, const LogicalMemoryProfile &p, int device,
                                      const std::vector<std::uint64_t> &values, const TimeWindow &w, int buckets)
{
    const auto valueAt = [&](std::size_t i) { return values[i]; };
    // A device's line starts at its first storage.
    std::uint64_t startsAt = 0;
    if (device >= 0) {
        startsAt = UINT64_MAX;
        for (std::size_t l = 0; l < p.lifetimeCount(); ++l) {
            const LogicalStorageLifetime lt = p.lifetime(trace, l);
            if (lt.device == p.devices()[std::size_t(device)])
                startsAt = std::min(startsAt, lt.startTimestampNs);
        }
    }
    std::vector<Extremes> out(static_cast<std::size_t>(buckets));
    std::optional<std::uint64_t> held;
    int last = -1;
    for (std::size_t i = 0; i < p.timelineSize(); ++i) {
        const std::uint64_t t = p.timelineTimestamps()[i];
        if (t < startsAt)
            continue;
        if (t < w.begin) {
            held = valueAt(i);
            continue;
        }
        if (t >= w.end)
            break;
        const int b = bucketIndex(w, buckets, t);
        if (held) {
            for (int k = std::max(last, 0); k <= b; ++k)
                if (k > last || last < 0)
                    out[std::size_t(k)].add(*held);
        }
        held = valueAt(i);
        out[std::size_t(b)].add(*held);
        last = b;
    }
    if (held)
        for (int k = std::max(last, 0); k < buckets; ++k)
            if (k > last || last < 0)
                out[std::size_t(k)].add(*held);
    for (int k = 0; k < buckets; ++k)
        if (bucketStart(w, buckets, k) == bucketStart(w, buckets, k + 1))
            out[std::size_t(k)] = {};
    return out;
}

} // namespace

class TstMemorySeries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unknownIsNotZero()
    {
        const auto none = load({});
        QVERIFY(none);
        QVERIFY(!none->series.hasLogical());
        QVERIFY(!none->series.hasPhysical());
        QVERIFY(none->series.fullRange().isEmpty());
        QVERIFY(!none->series.logical(MemorySeries::kAllDevices, {0, 100}, 10).known);
        QVERIFY(!none->series.physical(MemorySeries::kAllDevices, {0, 100}, 10).known);

        const auto mixed = load({"a 10 cpu s 5", "d 20 cuda:0 used=7"});
        QVERIFY(mixed);
        QCOMPARE(mixed->series.devices(), (std::vector<std::string>{"cpu", "cuda:0"}));
        const int cpu = deviceIndex(mixed->series, "cpu");
        const int gpu = deviceIndex(mixed->series, "cuda:0");
        QVERIFY(mixed->series.logical(cpu, {0, 100}, 10).known);
        QVERIFY(!mixed->series.logical(gpu, {0, 100}, 10).known);
        QVERIFY(!mixed->series.physical(cpu, {0, 100}, 10).known);
        QVERIFY(mixed->series.physical(gpu, {0, 100}, 10).known);
        QCOMPARE(mixed->series.fullRange(), (TimeWindow{10, 21}));

        // A zero-byte storage is known and zero.
        const auto zero = load({"a 10 cpu s 0"});
        const LogicalChartData d = zero->series.logical(MemorySeries::kAllDevices, {0, 100}, 10);
        QVERIFY(d.known);
        QCOMPARE(totals(d), QStringLiteral("10:0 100:0"));
        QCOMPARE(d.peakBytes, std::optional<std::uint64_t>(0));
    }

    void steps_data()
    {
        QTest::addColumn<QString>("records"); // ';'-separated
        QTest::addColumn<QString>("device");
        QTest::addColumn<quint64>("begin");
        QTest::addColumn<quint64>("end");
        QTest::addColumn<QString>("expected");
        const QString sawtooth = QStringLiteral("a 10 cpu s1 40;a 20 cpu s2 70;f 30 cpu s1 0");
        QTest::newRow("whole range") << sawtooth << QString() << quint64(10) << quint64(31)
                                     << "10:40 20:40 20:110 30:110 30:70 31:70";
        QTest::newRow("value carried into the window")
            << sawtooth << QString() << quint64(15) << quint64(25) << "15:40 20:40 20:110 25:110";
        QTest::newRow("window before the data") << sawtooth << QString() << quint64(0) << quint64(5) << "";
        QTest::newRow("window after the data") << sawtooth << QString() << quint64(40) << quint64(50) << "40:70 50:70";
        QTest::newRow("free then alloc at one time: no spike")
            << "a 10 cpu s1 100;f 20 cpu s1 0;a 20 cpu s2 100" << QString() << quint64(0) << quint64(30)
            << "10:100 30:100";
        QTest::newRow("one device of two") << "a 10 cpu s1 40;a 20 cuda:0 s2 70;f 30 cpu s1 0;a 40 cuda:0 s3 1"
                                           << "cuda:0" << quint64(0) << quint64(50) << "20:70 40:70 40:71 50:71";
        QTest::newRow("all devices of two")
            << "a 10 cpu s1 40;a 20 cuda:0 s2 70;f 30 cpu s1 0;a 40 cuda:0 s3 1" << QString() << quint64(0)
            << quint64(50) << "10:40 20:40 20:110 30:110 30:70 40:70 40:71 50:71";
    }
    void steps()
    {
        QFETCH(QString, records);
        QFETCH(QString, device);
        QFETCH(quint64, begin);
        QFETCH(quint64, end);
        QFETCH(QString, expected);
        std::vector<std::string> recs;
        for (const QString &r : records.split(QLatin1Char(';')))
            recs.push_back(r.toStdString());
        const auto l = load(recs);
        QVERIFY(l);
        const int d = device.isEmpty() ? MemorySeries::kAllDevices : deviceIndex(l->series, device.toStdString());
        const LogicalChartData data = l->series.logical(d, {begin, end}, 100);
        QVERIFY(data.known);
        QVERIFY(!data.downsampled);
        QCOMPARE(totals(data), expected);
    }

    void cancelledWalkStops()
    {
        // A superseded request's walk gives up and returns nothing; an uncancelled one with
        // the same flag type draws as ever, stepped or downsampled.
        const auto l = load({"a 10 cpu p 5 parameter", "a 20 cpu a 7 activation", "f 40 cpu p 0"});
        QVERIFY(l);
        std::atomic<bool> flag{false};
        for (const int buckets : {100, 2}) {
            const LogicalChartData drawn = l->series.logical(MemorySeries::kAllDevices, {0, 50}, buckets, &flag);
            QVERIFY(!drawn.columns.empty());
            QCOMPARE(drawn.downsampled, buckets == 2);
        }
        flag = true;
        for (const int buckets : {100, 2}) {
            const LogicalChartData dropped = l->series.logical(MemorySeries::kAllDevices, {0, 50}, buckets, &flag);
            QVERIFY(dropped.columns.empty());
            QVERIFY(dropped.envelope.empty());
        }
    }

    void stackedByCategory()
    {
        const auto l =
            load({"a 10 cpu p 5 parameter", "a 20 cpu a 7 activation", "a 30 cpu o 11 optimizer", "f 40 cpu p 0"});
        QVERIFY(l);
        const LogicalChartData d = l->series.logical(MemorySeries::kAllDevices, {0, 50}, 100);
        QCOMPARE(d.categoryPresent, (std::array<bool, 5>{true, true, false, true, false}));
        QCOMPARE(d.columns.size(), std::size_t(8));
        const StackedColumn &c = d.columns[4]; // after the optimizer alloc at 30
        QCOMPARE(c.timeNs, std::uint64_t(30));
        // Parameter, optimizer, gradient, activation, other — cumulative.
        QCOMPARE(c.stack, (std::array<std::uint64_t, 5>{5, 16, 16, 23, 23}));
        QCOMPARE(d.columns.back().stack, (std::array<std::uint64_t, 5>{0, 11, 11, 18, 18}));
        QCOMPARE(d.peakTimeNs, std::optional<std::uint64_t>(30));
        QCOMPARE(d.peakBytes, std::optional<std::uint64_t>(23));
        QCOMPARE(d.maxBytes, std::uint64_t(23));
    }

    void bucketsMatchTimeline_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<int>("devices");
        // Records in time order as read (the deltas in one pass over them) or not (the
        // lifetimes' ends sorted and merged in).
        QTest::addColumn<bool>("inTimeOrder");
        for (const bool inOrder : {false, true}) {
            const char *order = inOrder ? "in time order" : "out of order";
            for (int seed = 1; seed <= 6; ++seed)
                for (int buckets : {1, 7, 64, 333})
                    QTest::addRow("seed %d, %d buckets, %s", seed, buckets, order) << seed << buckets << 3 << inOrder;
            // More than 4096 devices: the deltas' metas no longer fit 2 bytes.
            for (int seed = 7; seed <= 8; ++seed)
                QTest::addRow("seed %d, 5000 devices, %s", seed, order) << seed << 64 << 5000 << inOrder;
        }
    }
    void bucketsMatchTimeline()
    {
        QFETCH(int, seed);
        QFETCH(int, buckets);
        QFETCH(int, devices);
        QFETCH(bool, inTimeOrder);
        std::mt19937_64 rng{static_cast<std::uint64_t>(seed)};
        std::vector<std::string> recs;
        const char *named[] = {"cpu", "cuda:0", "cuda:1"};
        const auto deviceName = [&](int i) {
            if (devices == 3)
                return std::string(named[rng() % 3]);
            // every device at least once, then at random
            return "cuda:" + std::to_string(i < devices ? i : int(rng() % std::uint64_t(devices)));
        };
        const char *cats[] = {"parameter", "activation", "gradient", "optimizer", "other"};
        for (int i = 0; i < (devices == 3 ? 3000 : 2 * devices); ++i) {
            const bool alloc = (devices != 3 && i < devices) || rng() % 100 < 55;
            recs.push_back(std::string(alloc ? "a " : "f ") + std::to_string(rng() % 20000) + " " + deviceName(i) + " s"
                           + std::to_string(rng() % 150) + " " + std::to_string(rng() % 100000) + " "
                           + cats[rng() % 5]);
        }
        if (inTimeOrder) {
            const auto time = [](const std::string &r) { return std::stoull(r.substr(2)); };
            std::stable_sort(recs.begin(), recs.end(),
                             [&](const std::string &a, const std::string &b) { return time(a) < time(b); });
        }
        const auto l = load(recs);
        QVERIFY(l);
        const LogicalMemoryProfile &p = *l->profile.logical;
        QCOMPARE(p.recordsInTimeOrder(), inTimeOrder);
        if (devices == 3) {
            // Every category's share, at every point of the timeline.
            const std::uint64_t firstStart =
                p.lifetimeCount() > 0 ? p.lifetime(*l->trace, 0).startTimestampNs : UINT64_MAX;
            for (LogicalMemoryProfile::Cursor c(p); !c.atEnd(); c.next()) {
                std::array<std::uint64_t, kMemoryCategoryCount> byCategory{};
                for (const CategoryBytes &cb : c.liveBytesByCategory())
                    byCategory[std::size_t(cb.category)] = cb.bytes;
                StackedColumn want{c.timestampNs(), {}};
                std::uint64_t running = 0;
                for (std::size_t k = 0; k < kChartCategoryOrder.size(); ++k) {
                    running += byCategory[std::size_t(kChartCategoryOrder[k])];
                    want.stack[k] = running;
                }
                const std::optional<StackedColumn> got =
                    l->series.logicalAt(MemorySeries::kAllDevices, c.timestampNs());
                // Before the first allocation (frees of nothing) the series knows nothing yet.
                QCOMPARE(got.has_value(), c.timestampNs() >= firstStart);
                if (got)
                    QCOMPARE(got->stack, want.stack);
            }
        }
        std::vector<std::vector<std::uint64_t>> values;
        for (int device = -1; device < 3; ++device)
            values.push_back(timelineValues(p, device));
        for (int round = 0; round < 6; ++round) {
            std::uint64_t a = rng() % 21000, b = rng() % 21000;
            if (a > b)
                std::swap(a, b);
            const TimeWindow w{a, b + 1};
            for (int device = -1; device < 3; ++device) {
                int seriesDevice = MemorySeries::kAllDevices;
                if (device >= 0)
                    seriesDevice = deviceIndex(l->series, std::string(l->trace->str(p.devices()[std::size_t(device)])));
                const LogicalChartData d = l->series.logical(seriesDevice, w, buckets);
                const std::vector<Extremes> want =
                    expectedBuckets(*l->trace, p, device, values[std::size_t(device + 1)], w, buckets);
                std::vector<Extremes> got(static_cast<std::size_t>(buckets));
                for (std::size_t c = 0; c + 1 < d.columns.size(); ++c) // the last column closes the window
                    got[std::size_t(bucketIndex(w, buckets, d.columns[c].timeNs))].add(d.columns[c].stack.back());
                if (!d.downsampled) // steps: compare the overall extremes instead
                    continue;
                for (int k = 0; k < buckets; ++k) {
                    QCOMPARE(got[std::size_t(k)].seen, want[std::size_t(k)].seen);
                    QCOMPARE(got[std::size_t(k)].max, want[std::size_t(k)].max);
                    QCOMPARE(got[std::size_t(k)].min, want[std::size_t(k)].min);
                }
                // The envelope (drawn a pixel column at a time) holds the same extremes, per bucket.
                std::size_t e = 0;
                for (int k = 0; k < buckets; ++k) {
                    if (!want[std::size_t(k)].seen || bucketStart(w, buckets, k) == bucketStart(w, buckets, k + 1))
                        continue;
                    QVERIFY(e < d.envelope.size());
                    const StackedEnvelope &env = d.envelope[e++];
                    QCOMPARE(env.timeNs, bucketStart(w, buckets, k));
                    QCOMPARE(env.endNs, bucketStart(w, buckets, k + 1));
                    QCOMPARE(env.max.back(), want[std::size_t(k)].max);
                    QCOMPARE(env.min.back(), want[std::size_t(k)].min);
                    for (std::size_t level = 0; level < env.min.size(); ++level)
                        QVERIFY(env.min[level] <= env.max[level]);
                }
                QCOMPARE(e, d.envelope.size());
            }
        }
    }

    void peakSurvivesEveryZoom()
    {
        // Noise around 1000 bytes, one 1-ns spike to 50 000 at t = 123452.
        std::vector<std::string> recs;
        for (int i = 0; i < 20000; ++i) {
            recs.push_back("a " + std::to_string(i * 10) + " cpu n" + std::to_string(i) + " 1000");
            recs.push_back("f " + std::to_string(i * 10 + 5) + " cpu n" + std::to_string(i) + " 0");
        }
        recs.push_back("a 123452 cpu spike 49000");
        recs.push_back("f 123453 cpu spike 0");
        const auto l = load(recs);
        QVERIFY(l);
        const TimeWindow full = l->series.fullRange();
        QCOMPARE(full, (TimeWindow{0, 199996}));
        TimeWindow w = full;
        for (int level = 0; level < 40 && w.length() > 2; ++level) {
            for (int buckets : {3, 50, 800}) {
                const LogicalChartData d = l->series.logical(MemorySeries::kAllDevices, w, buckets);
                QCOMPARE(d.maxBytes, std::uint64_t(50000));
                QCOMPARE(d.peakBytes, std::optional<std::uint64_t>(50000));
                QCOMPARE(d.peakTimeNs, std::optional<std::uint64_t>(123452));
            }
            w = zoomWindow(w, 123452, 0.7, full);
        }
    }

    void physicalSeries()
    {
        const auto l = load({"d 10 gpu used=5 reserved=9", "d 20 gpu used=7", "d 30 gpu reserved=8", "d 40 gpu used=1",
                             "d 15 cpu used=3"});
        QVERIFY(l);
        const int gpu = deviceIndex(l->series, "gpu");
        const PhysicalChartData all = l->series.physical(gpu, {0, 100}, 100);
        QVERIFY(all.known);
        QCOMPARE(all.devices.size(), std::size_t(1));
        QCOMPARE(points(all.devices[0].metric(PhysicalMetric::Used).points), QStringLiteral("10:5 20:7 40:1"));
        QCOMPARE(points(all.devices[0].metric(PhysicalMetric::Reserved).points), QStringLiteral("10:9 30:8"));
        QCOMPARE(all.maxBytes, std::uint64_t(9));
        // The nearest sample outside the window on each side keeps lines running to the edges.
        const PhysicalChartData mid = l->series.physical(gpu, {25, 35}, 100);
        QCOMPARE(points(mid.devices[0].metric(PhysicalMetric::Used).points), QStringLiteral("20:7 40:1"));
        QCOMPARE(points(mid.devices[0].metric(PhysicalMetric::Reserved).points), QStringLiteral("10:9 30:8"));
        QCOMPARE(mid.maxBytes, std::uint64_t(9)); // the neighbour at 10 is part of the drawn line
        const PhysicalChartData both = l->series.physical(MemorySeries::kAllDevices, {0, 100}, 100);
        QCOMPARE(both.devices.size(), std::size_t(2));
        QVERIFY(both.devices[0].metric(PhysicalMetric::Used).present);
        QVERIFY(!both.devices[0].metric(PhysicalMetric::Reserved).present);
    }

    void physicalDownsampling()
    {
        std::vector<std::string> recs;
        for (int i = 0; i < 5000; ++i)
            recs.push_back("d " + std::to_string(i) + " gpu used=" + std::to_string(i == 3210 ? 999999 : 1000 + i % 7));
        const auto l = load(recs);
        QVERIFY(l);
        const PhysicalChartData d = l->series.physical(0, {0, 5000}, 40);
        const std::vector<ChartPoint> &used = d.devices[0].metric(PhysicalMetric::Used).points;
        QVERIFY(used.size() <= 80);
        QCOMPARE(d.maxBytes, std::uint64_t(999999));
        bool spike = false;
        for (const ChartPoint &p : used)
            spike |= p.timeNs == 3210 && p.bytes == 999999;
        QVERIFY(spike);
        for (std::size_t i = 1; i < used.size(); ++i)
            QVERIFY(used[i - 1].timeNs < used[i].timeNs);

        // The band: one column per bucket with samples, at the bucket start, holding its extremes.
        const PhysicalMetricSeries &m = d.devices[0].metric(PhysicalMetric::Used);
        QVERIFY(m.downsampled);
        QCOMPARE(m.envelope.size(), std::size_t(40));
        for (int b = 0; b < 40; ++b) {
            const EnvelopeColumn &c = m.envelope[std::size_t(b)];
            QCOMPARE(c.timeNs, bucketStart({0, 5000}, 40, b));
            const bool hasSpike = c.timeNs <= 3210 && 3210 < bucketStart({0, 5000}, 40, b + 1);
            QCOMPARE(c.max, hasSpike ? std::uint64_t(999999) : std::uint64_t(1006));
            QCOMPARE(c.min, std::uint64_t(1000));
        }
        QVERIFY(!d.devices[0].metric(PhysicalMetric::Reserved).present);
        QVERIFY(d.devices[0].metric(PhysicalMetric::Reserved).points.empty());
        // Few samples are drawn as they are: no band.
        QVERIFY(!l->series.physical(0, {3200, 3220}, 40).devices[0].metric(PhysicalMetric::Used).downsampled);
    }

    void capacity()
    {
        const auto l = load({"d 10 gpu used=5 capacity=100", "d 20 gpu used=7", "d 30 gpu capacity=90"});
        QVERIFY(l);
        const PhysicalChartData all = l->series.physical(0, {0, 100}, 100);
        const PhysicalDeviceSeries &dev = all.devices[0];
        QVERIFY(dev.metric(PhysicalMetric::Used).present);
        QVERIFY(!dev.metric(PhysicalMetric::Reserved).present);
        QVERIFY(dev.metric(PhysicalMetric::Capacity).present);
        QCOMPARE(points(dev.metric(PhysicalMetric::Capacity).points), QStringLiteral("10:100 30:90"));
        QCOMPARE(all.maxBytes, std::uint64_t(100));
    }

    void runRangeFollowsTerminal()
    {
        // Example 07: a 0–51.5 µs run whose only memory sample comes late, at 52 µs.
        QFile f(QStringLiteral(TI_EXAMPLES_DIR "/07_terminal_too_early.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        ReadResult r =
            TraceReader::readBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())), "07.jsonl");
        QVERIFY(r.trace);
        const MemoryProfile profile = analyzeMemory(*r.trace);
        const MemorySeries series(*r.trace, profile);
        QCOMPARE(series.fullRange(), (TimeWindow{52000, 52001}));
        QCOMPARE(series.runRange(), (TimeWindow{0, 52001}));
        // The loader hands over the record extents it has: the same run.
        const RecordExtents extents = RecordExtents::compute(*r.trace);
        QCOMPARE(MemorySeries(*r.trace, profile, &extents).runRange(), (TimeWindow{0, 52001}));
    }

    void runRangeFollowsSpansAndOps()
    {
        // A capture cut short (no terminal): the op ends last, after the span and the memory.
        const std::string text =
            kMeta + "\n"
            + R"({"kind":"span_start","id":"root","name":"f","start_ns":1000,"span_kind":"function","measured":true})"
              "\n"
            + record("a 2000 cpu s1 64") + "\n" + record("f 3000 cpu s1 64") + "\n"
            + R"({"kind":"op","span_id":"root","op_name":"matmul","inputs":[],"output":"t","shape":[2],"dtype":"f32",)"
              R"("device":"cpu","duration_ns":8000,"timestamp_ns":1500,"input_dense_bytes":0})"
              "\n"
            + R"({"kind":"span_end","id":"root","duration_ns":5000})"
              "\n";
        ReadResult r = TraceReader::readBytes(text, "cut.jsonl");
        QVERIFY(r.trace);
        QCOMPARE(r.trace->ops.size(), std::size_t(1));
        const MemoryProfile profile = analyzeMemory(*r.trace);
        const RecordExtents extents = RecordExtents::compute(*r.trace);
        const MemorySeries series(*r.trace, profile, &extents);
        QCOMPARE(series.fullRange(), (TimeWindow{2000, 3001}));
        QCOMPARE(series.runRange(), (TimeWindow{0, 9501}));
        QCOMPARE(MemorySeries(*r.trace, profile).runRange(), (TimeWindow{0, 9501}));
    }

    void valuesAtAnInstant()
    {
        const auto l = load({"a 10 gpu s1 4 parameter", "a 20 gpu s2 8 activation", "f 30 gpu s1 0", "a 25 cpu c1 16",
                             "d 15 gpu used=100 reserved=200", "d 35 gpu used=50"});
        QVERIFY(l);
        const int gpu = deviceIndex(l->series, "gpu");
        const int cpu = deviceIndex(l->series, "cpu");
        QVERIFY(!l->series.logicalAt(MemorySeries::kAllDevices, 9)); // nothing yet: unknown, not zero
        QCOMPARE(l->series.logicalAt(MemorySeries::kAllDevices, 10)->stack.back(), std::uint64_t(4));
        const StackedColumn at22 = *l->series.logicalAt(gpu, 22);
        QCOMPARE(at22.stack[0], std::uint64_t(4)); // parameter at the bottom
        QCOMPARE(at22.stack.back(), std::uint64_t(12));
        QCOMPARE(l->series.logicalAt(MemorySeries::kAllDevices, 30)->stack.back(), std::uint64_t(24));
        QCOMPARE(l->series.logicalAt(gpu, 1000)->stack.back(), std::uint64_t(8));
        QVERIFY(!l->series.logicalAt(cpu, 24));
        QCOMPARE(l->series.logicalAt(cpu, 25)->stack.back(), std::uint64_t(16));

        const std::vector<PhysicalReading> none = l->series.physicalAt(gpu, 14);
        QCOMPARE(none.size(), std::size_t(1));
        QVERIFY(!none[0].values[0] && !none[0].values[1] && !none[0].values[2]);
        const std::vector<PhysicalReading> at40 = l->series.physicalAt(MemorySeries::kAllDevices, 40);
        QCOMPARE(at40.size(), std::size_t(1)); // the cpu has no samples
        QCOMPARE(at40[0].device, gpu);
        QCOMPARE(*at40[0].values[std::size_t(PhysicalMetric::Used)], (ChartPoint{35, 50}));
        QCOMPARE(*at40[0].values[std::size_t(PhysicalMetric::Reserved)],
                 (ChartPoint{15, 200})); // the latest reserved sample
        QVERIFY(!at40[0].values[std::size_t(PhysicalMetric::Capacity)]);
    }

    void liveLifetimesAt_data()
    {
        QTest::addColumn<quint64>("time");
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("expected"); // storage ids
        QTest::newRow("before all") << quint64(5) << QString() << QString();
        QTest::newRow("at the first alloc") << quint64(10) << QString() << QStringLiteral("s1");
        QTest::newRow("three live") << quint64(25) << QString() << QStringLiteral("s1 s2 c1");
        QTest::newRow("freed at that instant") << quint64(30) << QString() << QStringLiteral("s2 c1");
        QTest::newRow("one device") << quint64(25) << QStringLiteral("gpu") << QStringLiteral("s1 s2");
        QTest::newRow("other device") << quint64(25) << QStringLiteral("cpu") << QStringLiteral("c1");
        QTest::newRow("unknown device") << quint64(25) << QStringLiteral("tpu") << QString();
        QTest::newRow("end") << quint64(1000) << QString() << QStringLiteral("s2 c1");
    }

    void liveLifetimesAt()
    {
        QFETCH(quint64, time);
        QFETCH(QString, device);
        QFETCH(QString, expected);
        const auto l = load({"a 10 gpu s1 4 parameter", "a 20 gpu s2 8 activation", "f 30 gpu s1 0", "a 25 cpu c1 16"});
        QVERIFY(l);
        const std::vector<std::uint32_t> live =
            MemorySeries::liveLifetimesAt(*l->trace, l->profile, time, device.toStdString());
        QStringList ids;
        for (const std::uint32_t i : live)
            ids << QString::fromStdString(
                std::string(l->trace->str(l->profile.logical->lifetime(*l->trace, i).storageId)));
        QCOMPARE(ids.join(QLatin1Char(' ')), expected);
    }

    void liveAtThePeakIsThePeak()
    {
        // At the global peak the query gives exactly the profile's live_allocations.
        std::vector<std::string> recs;
        std::mt19937_64 rng(9);
        for (int i = 0; i < 400; ++i) {
            recs.push_back("a " + std::to_string(i * 10) + " gpu" + std::to_string(i % 3) + " s" + std::to_string(i)
                           + " " + std::to_string(rng() % 1000 + 1));
            if (i > 20 && rng() % 2)
                recs.push_back("f " + std::to_string(i * 10 + 5) + " gpu" + std::to_string((i - 20) % 3) + " s"
                               + std::to_string(i - 20) + " 0");
        }
        const auto l = load(recs);
        QVERIFY(l);
        const LogicalMemoryPeak &peak = *l->profile.logical->peak();
        QCOMPARE(MemorySeries::liveLifetimesAt(*l->trace, l->profile, peak.timestampNs), peak.liveAllocations);
    }

    void rebucketingIsFast()
    {
        std::vector<std::string> recs;
        std::mt19937_64 rng(5);
        const int n = 300000;
        for (int i = 0; i < n; ++i) {
            recs.push_back("a " + std::to_string(i * 4) + " cuda:" + std::to_string(i % 2) + " s" + std::to_string(i)
                           + " " + std::to_string(rng() % 100000) + " activation");
            if (i >= 50)
                recs.push_back("f " + std::to_string(i * 4 + 1) + " cuda:" + std::to_string((i - 50) % 2) + " s"
                               + std::to_string(i - 50) + " 0");
        }
        const auto l = load(recs);
        QVERIFY(l);
        QElapsedTimer timer;
        timer.start();
        const TimeWindow full = l->series.fullRange();
        for (int i = 0; i < 10; ++i)
            QVERIFY(l->series
                        .logical(i % 2 ? 1 : MemorySeries::kAllDevices,
                                 zoomWindow(full, full.begin + full.length() / 3, 1.0 / (i + 1), full), 1600)
                        .known);
        const qint64 ms = timer.elapsed();
        qInfo("10 re-bucketings over %zu changes: %lld ms", std::size_t(2 * n), ms);
        QVERIFY2(ms < 2000, "re-bucketing is too slow");
    }
};

QTEST_GUILESS_MAIN(TstMemorySeries)
#include "tst_memoryseries.moc"
