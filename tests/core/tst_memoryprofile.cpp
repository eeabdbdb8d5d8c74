// SPDX-License-Identifier: MIT
#include <QFile>
#include <QTest>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "core/analysis/densebytes.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/nodememorymetrics.h"
#include "core/io/tracereader.h"
#include "core/output/jsonwriter.h"
#include "core/output/memoryjson.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;
using nlohmann::json;

namespace {

std::string metaLine(const std::string &logicalMemory = "partial")
{
    return R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e",)"
           R"("phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host",)"
           R"("capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":")"
           + logicalMemory + R"(","physical_memory":"partial","device_timing":"none"},"tags":{}})";
}

const std::string kTerminal = R"({"kind":"terminal","outcome":"complete","timestamp_ns":18446744073709551615})";

std::uint64_t num(const QString &text)
{
    if (text == QLatin1String("MAX"))
        return UINT64_MAX;
    bool ok = false;
    const std::uint64_t v = text.toULongLong(&ok);
    if (!ok)
        qFatal("bad number in test data: %s", qPrintable(text));
    return v;
}

/// One record from a compact spec:
///   memory:  "a|f TS DEVICE STORAGE TENSOR BYTES [cat=C] [span=S] [op=O] [shape=1,2] [dtype=D]"
///   sample:  "d TS DEVICE [used=N] [free=N] [reserved=N] [capacity=N]"
///   span:    "s ID START [DURATION|open] [parent=P] [measured]"
///   op:      "o SPAN NAME DTYPE [shape=1,2]"
std::string record(const QString &spec)
{
    const QStringList t = spec.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    json j;
    std::map<QString, QString> kv;
    const auto options = [&](int from) {
        for (int i = from; i < t.size(); ++i) {
            const qsizetype eq = t[i].indexOf(QLatin1Char('='));
            if (eq < 0)
                kv[t[i]] = QString();
            else
                kv[t[i].left(eq)] = t[i].mid(eq + 1);
        }
    };
    const auto shape = [&](const QString &text) {
        json s = json::array();
        for (const QString &d : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
            s.push_back(num(d));
        return s;
    };
    const QString kind = t.value(0);
    if (kind == QLatin1String("a") || kind == QLatin1String("f")) {
        options(6);
        j["kind"] = "memory";
        j["timestamp_ns"] = num(t[1]);
        j["storage_id"] = t[3].toStdString();
        j["tensor_id"] = t[4].toStdString();
        j["span_id"] = kv.count(QStringLiteral("span")) ? kv[QStringLiteral("span")].toStdString() : "root";
        if (kv.count(QStringLiteral("op")))
            j["op_name"] = kv[QStringLiteral("op")].toStdString();
        j["device"] = t[2].toStdString();
        j["bytes"] = num(t[5]);
        j["action"] = kind == QLatin1String("a") ? "alloc" : "free";
        if (kv.count(QStringLiteral("shape")))
            j["shape"] = shape(kv[QStringLiteral("shape")]);
        j["dtype"] = kv.count(QStringLiteral("dtype")) ? kv[QStringLiteral("dtype")].toStdString() : "f32";
        if (kv.count(QStringLiteral("cat")))
            j["category"] = kv[QStringLiteral("cat")].toStdString();
    } else if (kind == QLatin1String("d")) {
        options(3);
        j["kind"] = "device_memory";
        j["timestamp_ns"] = num(t[1]);
        j["device"] = t[2].toStdString();
        for (const char *f : {"used", "free", "reserved", "capacity"})
            if (kv.count(QLatin1String(f)))
                j[std::string(f) + "_bytes"] = num(kv[QLatin1String(f)]);
    } else if (kind == QLatin1String("s")) {
        j["kind"] = "span_start";
        j["id"] = t[1].toStdString();
        options(4);
        if (kv.count(QStringLiteral("parent")))
            j["parent_id"] = kv[QStringLiteral("parent")].toStdString();
        j["name"] = "n";
        j["start_ns"] = num(t[2]);
        j["span_kind"] = "function";
        j["measured"] = kv.count(QStringLiteral("measured")) > 0;
        std::string out = j.dump();
        if (t.value(3) != QLatin1String("open"))
            out += "\n" + json{{"kind", "span_end"}, {"id", t[1].toStdString()}, {"duration_ns", num(t[3])}}.dump();
        return out;
    } else if (kind == QLatin1String("o")) {
        options(4);
        j["kind"] = "op";
        j["span_id"] = t[1].toStdString();
        j["op_name"] = t[2].toStdString();
        j["shape"] = kv.count(QStringLiteral("shape")) ? shape(kv[QStringLiteral("shape")]) : json::array();
        j["dtype"] = t[3].toStdString();
        j["device"] = "cpu";
        j["duration_ns"] = 1;
        j["input_dense_bytes"] = 0;
    } else {
        qFatal("bad record spec: %s", qPrintable(spec));
    }
    return j.dump();
}

std::shared_ptr<const Trace> load(const QByteArrayList &records, const std::string &logicalMemory = "partial")
{
    std::string text = metaLine(logicalMemory) + "\n";
    for (const QByteArray &r : records)
        text += record(QString::fromUtf8(r)) + "\n";
    text += kTerminal + "\n";
    return TestFixtures::acceptedTraceFrom(QByteArray::fromStdString(text), QStringLiteral("test.jsonl"));
}

std::shared_ptr<const Trace> loadFile(const QString &path)
{
    return TestFixtures::acceptedTraceFrom(TestFixtures::fileBytes(path), path);
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString n(std::uint64_t v)
{
    return v == UINT64_MAX ? QStringLiteral("MAX") : QString::number(v);
}

QString maps(const Trace &trace, std::span<const DeviceBytes> devices, std::span<const CategoryBytes> categories)
{
    QStringList d, c;
    for (const DeviceBytes &e : devices)
        d << qs(trace.str(e.device)) + QLatin1Char('=') + n(e.bytes);
    for (const CategoryBytes &e : categories)
        c << qs(memoryCategoryName(e.category)) + QLatin1Char('=') + n(e.bytes);
    return QLatin1Char('[') + d.join(QLatin1Char(',')) + QLatin1Char('|') + c.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString describeLifetime(const Trace &trace, const LogicalStorageLifetime &l)
{
    QStringList tensors;
    for (const StringId t : l.tensorIds)
        tensors << qs(trace.str(t));
    return qs(trace.str(l.device)) + QLatin1Char('/') + qs(trace.str(l.storageId)) + QLatin1Char('(')
           + tensors.join(QLatin1Char(',')) + QStringLiteral(")@") + n(l.startTimestampNs) + QLatin1Char('-')
           + (l.endTimestampNs ? n(*l.endTimestampNs) : QString());
}

QString describeTimeline(const Trace &trace, const LogicalMemoryProfile &p)
{
    QStringList points;
    for (LogicalMemoryProfile::Cursor c(p); !c.atEnd(); c.next())
        points << n(c.timestampNs()) + QLatin1Char(':') + n(c.liveBytes())
                      + maps(trace, c.liveBytesByDevice(), c.liveBytesByCategory());
    return points.join(QLatin1Char(' '));
}

/// Random alloc/free records over four devices, one tensor and two categories: many
/// timeline points whose device and category maps change often.
struct RandomDeviceRecords {
    std::uint64_t seed;
    int count;
    int timeRange;
    int storages;
    int otherCategoryOneIn; // the second category on one record in this many
    const char *otherCategory;
};

QByteArrayList randomDeviceRecords(const RandomDeviceRecords &spec)
{
    std::mt19937_64 rng(spec.seed);
    QByteArrayList records;
    const char *devices[] = {"d0", "d1", "d2", "d3"};
    for (int i = 0; i < spec.count; ++i)
        records << QStringLiteral("%1 %2 %3 s%4 t 7 cat=%5")
                       .arg(rng() % 100 < 55 ? QLatin1Char('a') : QLatin1Char('f'))
                       .arg(rng() % std::uint64_t(spec.timeRange))
                       .arg(QLatin1String(devices[rng() % 4]))
                       .arg(rng() % std::uint64_t(spec.storages))
                       .arg(QLatin1String(rng() % std::uint64_t(spec.otherCategoryOneIn) ? "activation"
                                                                                         : spec.otherCategory))
                       .toUtf8();
    return records;
}

/// The peak's live bytes as the profile has them and as the profile-free walk finds them
/// ("-": none); the two must agree.
QString profilePeakBytes(const MemoryProfile &profile)
{
    if (!profile.logical || !profile.logical->peak())
        return QStringLiteral("-");
    return QString::number(profile.logical->peak()->liveBytes);
}

QString walkedPeakBytes(const Trace &trace)
{
    const std::optional<std::uint64_t> peak = LogicalMemoryProfile::peakLiveBytes(trace);
    return peak ? QString::number(*peak) : QStringLiteral("-");
}

QString describePeak(const Trace &trace, const LogicalMemoryProfile &p)
{
    const auto &peak = p.peak();
    if (!peak)
        return QStringLiteral("none");
    QString out = n(peak->timestampNs) + QLatin1Char(':') + n(peak->liveBytes)
                  + maps(trace, peak->liveBytesByDevice, peak->liveBytesByCategory);
    for (std::size_t k = 0; k < p.peakAllocationCount(); ++k)
        out += QLatin1Char(' ') + describeLifetime(trace, p.peakAllocation(trace, k));
    return out;
}

QString describeLifetimes(const Trace &trace, const LogicalMemoryProfile &p)
{
    QStringList out;
    for (std::size_t i = 0; i < p.lifetimeCount(); ++i)
        out << describeLifetime(trace, p.lifetime(trace, i));
    return out.join(QLatin1Char(' '));
}

QString describeDevices(const Trace &trace, const LogicalMemoryProfile &p)
{
    QStringList out;
    for (const LogicalDeviceMemoryStats &d : p.byDevice()) {
        QString peak = QStringLiteral("-");
        if (d.peakLiveBytes)
            peak = n(*d.peakLiveBytes) + QLatin1Char('@') + n(*d.peakTimestampNs);
        out << qs(trace.str(d.device)) + QLatin1Char(' ') + n(d.storageAllocationCount) + QLatin1Char('/')
                   + n(d.matchedStorageFreeCount) + QLatin1Char('/') + n(d.totalAllocatedBytes) + QLatin1Char(' ')
                   + peak;
    }
    return out.join(QStringLiteral("; "));
}

QString describePhysicalTimeline(const Trace &trace, const PhysicalMemoryProfile &p)
{
    QStringList out;
    for (const std::uint32_t i : p.timeline()) {
        const DeviceMemorySample &s = trace.deviceMemory[i];
        const auto v = [&](DeviceMemorySample::Field f, std::uint64_t x) {
            return s.has(f) ? n(x) : QStringLiteral("-");
        };
        out << n(s.timestampNs) + QLatin1Char(' ') + qs(trace.str(s.device)) + QLatin1Char(' ')
                   + v(DeviceMemorySample::Used, s.usedBytes) + QLatin1Char('/')
                   + v(DeviceMemorySample::Free, s.freeBytes) + QLatin1Char('/')
                   + v(DeviceMemorySample::Reserved, s.reservedBytes) + QLatin1Char('/')
                   + v(DeviceMemorySample::Capacity, s.capacityBytes);
    }
    return out.join(QStringLiteral(", "));
}

QString describePhysicalDevices(const Trace &trace, const PhysicalMemoryProfile &p)
{
    QStringList out;
    for (const PhysicalDeviceMemoryStats &d : p.byDevice()) {
        QString s = qs(trace.str(d.device))
                    + QStringLiteral(" n=%1 u=%2 f=%3 r=%4 c=%5")
                          .arg(d.sampleCount)
                          .arg(d.usedSampleCount)
                          .arg(d.freeSampleCount)
                          .arg(d.reservedSampleCount)
                          .arg(d.capacitySampleCount);
        if (d.peakUsedBytes)
            s += QStringLiteral(" pu=") + n(*d.peakUsedBytes) + QLatin1Char('@') + n(*d.peakUsedTimestampNs);
        if (d.peakReservedBytes)
            s += QStringLiteral(" pr=") + n(*d.peakReservedBytes) + QLatin1Char('@') + n(*d.peakReservedTimestampNs);
        if (d.minimumFreeBytes)
            s += QStringLiteral(" mf=") + n(*d.minimumFreeBytes) + QLatin1Char('@') + n(*d.minimumFreeTimestampNs);
        if (d.maximumObservedCapacityBytes)
            s += QStringLiteral(" mc=") + n(*d.maximumObservedCapacityBytes);
        out << s;
    }
    return out.join(QStringLiteral("; "));
}

QString describeNodeMetrics(const std::map<std::string, NodeMemoryMetrics> &map)
{
    QStringList out;
    for (const auto &[id, m] : map) {
        QStringList f;
        if (m.directAllocatedBytes)
            f << QStringLiteral("d=") + n(*m.directAllocatedBytes);
        if (m.subtreePeakLiveBytes)
            f << QStringLiteral("p=") + n(*m.subtreePeakLiveBytes);
        if (m.subtreeResidualBytes)
            f << QStringLiteral("r=") + n(*m.subtreeResidualBytes);
        if (m.outputDenseBytes)
            f << QStringLiteral("o=") + n(*m.outputDenseBytes);
        out << qs(id) + QLatin1Char('{') + f.join(QLatin1Char(',')) + QLatin1Char('}');
    }
    return out.join(QStringLiteral("; "));
}

std::string profileJson(const Trace &trace, const MemoryProfile &profile)
{
    JsonWriter w;
    writeMemoryProfileJson(w, trace, profile);
    return w.takeBuffer();
}

// ---- A literal, slow transcription of §8.1 (std::map state, recomputed sums), used as the
// oracle for randomized traces. Writes the `logical` object with its own code.

struct RefStorage {
    std::string device, storage;
    std::set<std::string> tensors;
    std::string span;
    std::optional<std::string> op;
    std::uint64_t bytes = 0;
    std::vector<std::uint64_t> shape;
    std::string dtype;
    std::string category;
    std::uint64_t start = 0;
    std::optional<std::uint64_t> end;
};

struct RefPoint {
    std::uint64_t ts = 0, live = 0;
    std::map<std::string, std::uint64_t> byDevice, byCategory;
};

void refWriteLifetime(JsonWriter &w, const RefStorage &s, bool withEnd)
{
    w.beginObject();
    w.key("device").string(s.device);
    w.key("storage_id").string(s.storage);
    w.key("tensor_ids").beginArray();
    for (const std::string &t : s.tensors)
        w.string(t);
    w.endArray();
    w.key("allocation_span_id").string(s.span);
    w.key("op_name");
    if (s.op)
        w.string(*s.op);
    else
        w.null();
    w.key("bytes").u64(s.bytes);
    w.key("shape").beginArray();
    for (const auto d : s.shape)
        w.u64(d);
    w.endArray();
    w.key("dtype").string(s.dtype);
    w.key("category").string(s.category);
    w.key("start_timestamp_ns").u64(s.start);
    if (withEnd && s.end)
        w.key("end_timestamp_ns").u64(*s.end);
    w.endObject();
}

void refWriteMap(JsonWriter &w, const std::map<std::string, std::uint64_t> &m)
{
    w.beginObject();
    for (const auto &[k, v] : m)
        w.key(k).u64(v);
    w.endObject();
}

std::string referenceLogicalJson(const Trace &trace)
{
    struct Rec {
        std::uint64_t ts;
        std::size_t pos;
    };
    std::vector<Rec> order;
    for (std::size_t i = 0; i < trace.memory.size(); ++i)
        order.push_back({trace.memory[i].timestampNs, i});
    std::stable_sort(order.begin(), order.end(), [](const Rec &a, const Rec &b) { return a.ts < b.ts; });

    struct Dev {
        std::uint64_t allocs = 0, frees = 0, bytes = 0;
        std::optional<std::uint64_t> peak, peakTs;
    };
    std::map<std::pair<std::string, std::string>, RefStorage> active;
    std::map<std::string, Dev> devices;
    std::uint64_t allocs = 0, frees = 0, allocated = 0;
    std::optional<RefPoint> peak;
    std::vector<RefStorage> peakLive;
    std::vector<RefStorage> lifetimes;
    std::vector<RefPoint> timeline;
    const auto sortLifetimes = [](std::vector<RefStorage> &v) {
        std::stable_sort(v.begin(), v.end(), [](const RefStorage &a, const RefStorage &b) {
            return std::tie(a.start, a.device, a.storage) < std::tie(b.start, b.device, b.storage);
        });
    };
    for (std::size_t i = 0; i < order.size();) {
        const std::uint64_t ts = order[i].ts;
        for (; i < order.size() && order[i].ts == ts; ++i) {
            const MemoryEvent &e = trace.memory[order[i].pos];
            const std::string device(trace.str(e.device));
            const auto key = std::make_pair(device, std::string(trace.str(e.storageId)));
            Dev &dev = devices[device];
            if (e.action == MemoryAction::Alloc) {
                if (auto it = active.find(key); it != active.end()) {
                    it->second.tensors.insert(std::string(trace.str(e.tensorId)));
                    continue;
                }
                RefStorage s;
                s.device = device;
                s.storage = key.second;
                s.tensors.insert(std::string(trace.str(e.tensorId)));
                s.span = trace.str(e.spanId);
                if (e.opName != kNoString)
                    s.op = std::string(trace.str(e.opName));
                s.bytes = e.bytes;
                const auto shape = trace.shapes.view(e.shape);
                s.shape.assign(shape.begin(), shape.end());
                s.dtype = trace.str(e.dtype);
                s.category = memoryCategoryName(e.category);
                s.start = ts;
                active.emplace(key, std::move(s));
                ++allocs;
                allocated = saturatingAdd(allocated, e.bytes);
                ++dev.allocs;
                dev.bytes = saturatingAdd(dev.bytes, e.bytes);
            } else {
                auto it = active.find(key);
                if (it == active.end())
                    continue;
                RefStorage s = std::move(it->second);
                active.erase(it);
                s.tensors.insert(std::string(trace.str(e.tensorId)));
                s.end = ts;
                lifetimes.push_back(std::move(s));
                ++frees;
                ++dev.frees;
            }
        }
        RefPoint p;
        p.ts = ts;
        for (const auto &[k, s] : active) {
            p.live = saturatingAdd(p.live, s.bytes);
            p.byDevice[s.device] = saturatingAdd(p.byDevice[s.device], s.bytes);
            p.byCategory[s.category] = saturatingAdd(p.byCategory[s.category], s.bytes);
        }
        for (auto &[name, dev] : devices) {
            if (dev.allocs == 0)
                continue;
            const auto it = p.byDevice.find(name);
            const std::uint64_t live = it == p.byDevice.end() ? 0 : it->second;
            if (!dev.peak || live > *dev.peak) {
                dev.peak = live;
                dev.peakTs = ts;
            }
        }
        if (allocs > 0 && (!peak || p.live > peak->live)) {
            peak = p;
            peakLive.clear();
            for (const auto &[k, s] : active)
                peakLive.push_back(s);
            sortLifetimes(peakLive);
        }
        timeline.push_back(std::move(p));
    }
    for (auto &[k, s] : active)
        lifetimes.push_back(s);
    sortLifetimes(lifetimes);

    JsonWriter w;
    w.beginObject();
    w.key("storage_allocation_count").u64(allocs);
    w.key("matched_storage_free_count").u64(frees);
    w.key("total_allocated_bytes").u64(allocated);
    if (peak) {
        w.key("peak").beginObject();
        w.key("timestamp_ns").u64(peak->ts);
        w.key("live_bytes").u64(peak->live);
        w.key("live_bytes_by_device");
        refWriteMap(w, peak->byDevice);
        w.key("live_bytes_by_category");
        refWriteMap(w, peak->byCategory);
        w.key("live_allocations").beginArray();
        for (const RefStorage &s : peakLive)
            refWriteLifetime(w, s, false);
        w.endArray();
        w.endObject();
    }
    w.key("timeline").beginArray();
    for (const RefPoint &p : timeline) {
        w.beginObject();
        w.key("timestamp_ns").u64(p.ts);
        w.key("live_bytes").u64(p.live);
        w.key("live_bytes_by_device");
        refWriteMap(w, p.byDevice);
        w.key("live_bytes_by_category");
        refWriteMap(w, p.byCategory);
        w.endObject();
    }
    w.endArray();
    w.key("lifetimes").beginArray();
    for (const RefStorage &s : lifetimes)
        refWriteLifetime(w, s, true);
    w.endArray();
    w.key("by_device").beginArray();
    for (const auto &[name, d] : devices) {
        w.beginObject();
        w.key("device").string(name);
        w.key("storage_allocation_count").u64(d.allocs);
        w.key("matched_storage_free_count").u64(d.frees);
        w.key("total_allocated_bytes").u64(d.bytes);
        if (d.peak) {
            w.key("peak_live_bytes").u64(*d.peak);
            w.key("peak_timestamp_ns").u64(*d.peakTs);
        }
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.takeBuffer();
}

const char *const kExample01Memory =
    R"({"logical":{"storage_allocation_count":1,"matched_storage_free_count":1,"total_allocated_bytes":393216,)"
    R"("peak":{"timestamp_ns":13600,"live_bytes":393216,"live_bytes_by_device":{"cuda:0":393216},)"
    R"("live_bytes_by_category":{"activation":393216},"live_allocations":[{"device":"cuda:0",)"
    R"("storage_id":"cuda:0/storage-17","tensor_ids":["t:q"],"allocation_span_id":"span-matmul","op_name":"matmul",)"
    R"("bytes":393216,"shape":[2,128,768],"dtype":"bf16","category":"activation","start_timestamp_ns":13600}]},)"
    R"("timeline":[{"timestamp_ns":13600,"live_bytes":393216,"live_bytes_by_device":{"cuda:0":393216},)"
    R"("live_bytes_by_category":{"activation":393216}},{"timestamp_ns":50500,"live_bytes":0,)"
    R"("live_bytes_by_device":{},"live_bytes_by_category":{}}],"lifetimes":[{"device":"cuda:0",)"
    R"("storage_id":"cuda:0/storage-17","tensor_ids":["t:q"],"allocation_span_id":"span-matmul","op_name":"matmul",)"
    R"("bytes":393216,"shape":[2,128,768],"dtype":"bf16","category":"activation","start_timestamp_ns":13600,)"
    R"("end_timestamp_ns":50500}],"by_device":[{"device":"cuda:0","storage_allocation_count":1,)"
    R"("matched_storage_free_count":1,"total_allocated_bytes":393216,"peak_live_bytes":393216,)"
    R"("peak_timestamp_ns":13600}]},"physical":{"timeline":[{"timestamp_ns":1000,"device":"cuda:0",)"
    R"("used_bytes":2147483648,"free_bytes":148176371712,"reserved_bytes":2415919104,"capacity_bytes":150323855360},)"
    R"({"timestamp_ns":51000,"device":"cuda:0","used_bytes":2147876864,"free_bytes":148175978496,)"
    R"("reserved_bytes":2415919104,"capacity_bytes":150323855360}],"by_device":[{"device":"cuda:0","sample_count":2,)"
    R"("used_sample_count":2,"free_sample_count":2,"reserved_sample_count":2,"capacity_sample_count":2,)"
    R"("peak_used_bytes":2147876864,"peak_used_timestamp_ns":51000,"peak_reserved_bytes":2415919104,)"
    R"("peak_reserved_timestamp_ns":1000,"minimum_free_bytes":148175978496,"minimum_free_timestamp_ns":51000,)"
    R"("maximum_observed_capacity_bytes":150323855360}]}})";

const char *const kExample02Memory =
    R"({"physical":{"timeline":[{"timestamp_ns":260400,"device":"cuda:0","used_bytes":6442450944,)"
    R"("reserved_bytes":7516192768}],"by_device":[{"device":"cuda:0","sample_count":1,"used_sample_count":1,)"
    R"("free_sample_count":0,"reserved_sample_count":1,"capacity_sample_count":0,"peak_used_bytes":6442450944,)"
    R"("peak_used_timestamp_ns":260400,"peak_reserved_bytes":7516192768,"peak_reserved_timestamp_ns":260400}]}})";

} // namespace

class TstMemoryProfile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void logical_data();
    void logical();
    void lifetimeMetadataAndJson();
    void jsonEscapesNames();
    void examplesJson_data();
    void examplesJson();
    void noMemoryAtAll();
    void randomAgainstReference_data();
    void randomAgainstReference();
    void randomAccessMatchesCursor();
    void moreSlotsThanTwoBytesName();
    void cursorFromAnyStart();
    void lifetimeIntoReusesOneObject();
    void physical_data();
    void physical();
    void nodeMetrics_data();
    void nodeMetrics();
};

void TstMemoryProfile::logical_data()
{
    QTest::addColumn<QByteArrayList>("records");
    QTest::addColumn<QString>("timeline");
    QTest::addColumn<QString>("peak");
    QTest::addColumn<QString>("lifetimes");
    QTest::addColumn<QString>("devices");

    QTest::newRow("same storage on two devices")
        << QByteArrayList{"a 10 cpu s t1 10", "a 10 cuda:0 s t2 20"} << "10:30[cpu=10,cuda:0=20|other=30]"
        << "10:30[cpu=10,cuda:0=20|other=30] cpu/s(t1)@10- cuda:0/s(t2)@10-"
        << "cpu/s(t1)@10- cuda:0/s(t2)@10-"
        << "cpu 1/0/10 10@10; cuda:0 1/0/20 20@10";
    QTest::newRow("alias base view") << QByteArrayList{"a 10 cpu a base 64", "a 20 cpu a view 64", "f 40 cpu a view 64"}
                                     << "10:64[cpu=64|other=64] 20:64[cpu=64|other=64] 40:0[|]"
                                     << "10:64[cpu=64|other=64] cpu/a(base)@10-"
                                     << "cpu/a(base,view)@10-40"
                                     << "cpu 1/1/64 64@10";
    QTest::newRow("40@10 70@20 free@30") << QByteArrayList{"a 10 cpu s1 t1 40", "a 20 cpu s2 t2 70",
                                                           "f 30 cpu s1 t1 40"}
                                         << "10:40[cpu=40|other=40] 20:110[cpu=110|other=110] 30:70[cpu=70|other=70]"
                                         << "20:110[cpu=110|other=110] cpu/s1(t1)@10- cpu/s2(t2)@20-"
                                         << "cpu/s1(t1)@10-30 cpu/s2(t2)@20-"
                                         << "cpu 2/1/110 110@20";
    QTest::newRow("free then alloc at one timestamp")
        << QByteArrayList{"a 10 cpu s1 t1 100", "f 20 cpu s1 t1 100", "a 20 cpu s2 t2 100"}
        << "10:100[cpu=100|other=100] 20:100[cpu=100|other=100]"
        << "10:100[cpu=100|other=100] cpu/s1(t1)@10-"
        << "cpu/s1(t1)@10-20 cpu/s2(t2)@20-"
        << "cpu 2/1/200 100@10";
    QTest::newRow("alloc then free at one timestamp: peak 0, not none")
        << QByteArrayList{"a 10 cpu s t 5", "f 10 cpu s t 5"} << "10:0[|]"
        << "10:0[|]"
        << "cpu/s(t)@10-10"
        << "cpu 1/1/5 0@10";
    QTest::newRow("free without alloc") << QByteArrayList{"f 10 cpu s t 5"} << "10:0[|]"
                                        << "none"
                                        << ""
                                        << "cpu 0/0/0 -";
    QTest::newRow("unmatched free still makes a point and a device")
        << QByteArrayList{"a 10 cpu s t 5", "f 20 cuda:1 x y 9"} << "10:5[cpu=5|other=5] 20:5[cpu=5|other=5]"
        << "10:5[cpu=5|other=5] cpu/s(t)@10-"
        << "cpu/s(t)@10-"
        << "cpu 1/0/5 5@10; cuda:1 0/0/0 -";
    QTest::newRow("several devices with their own peaks")
        << QByteArrayList{"a 10 cuda:1 s1 t1 50", "a 20 cuda:0 s2 t2 30", "f 30 cuda:1 s1 t1 50",
                          "a 40 cuda:0 s3 t3 40", "a 50 cpu s4 t4 1"}
        << "10:50[cuda:1=50|other=50] 20:80[cuda:0=30,cuda:1=50|other=80] 30:30[cuda:0=30|other=30] "
           "40:70[cuda:0=70|other=70] 50:71[cpu=1,cuda:0=70|other=71]"
        << "20:80[cuda:0=30,cuda:1=50|other=80] cuda:1/s1(t1)@10- cuda:0/s2(t2)@20-"
        << "cuda:1/s1(t1)@10-30 cuda:0/s2(t2)@20- cuda:0/s3(t3)@40- cpu/s4(t4)@50-"
        << "cpu 1/0/1 1@50; cuda:0 2/0/70 70@40; cuda:1 1/1/50 50@10";
    QTest::newRow("categories keyed by name")
        << QByteArrayList{"a 10 cpu s1 t1 1 cat=parameter", "a 10 cpu s2 t2 2 cat=activation",
                          "a 10 cpu s3 t3 4 cat=optimizer", "a 10 cpu s4 t4 8 cat=gradient", "a 10 cpu s5 t5 16"}
        << "10:31[cpu=31|activation=2,gradient=8,optimizer=4,other=16,parameter=1]"
        << "10:31[cpu=31|activation=2,gradient=8,optimizer=4,other=16,parameter=1] cpu/s1(t1)@10- cpu/s2(t2)@10- "
           "cpu/s3(t3)@10- cpu/s4(t4)@10- cpu/s5(t5)@10-"
        << "cpu/s1(t1)@10- cpu/s2(t2)@10- cpu/s3(t3)@10- cpu/s4(t4)@10- cpu/s5(t5)@10-"
        << "cpu 5/0/31 31@10";
    QTest::newRow("zero-byte storage is still live") << QByteArrayList{"a 10 cpu s t 0"} << "10:0[cpu=0|other=0]"
                                                     << "10:0[cpu=0|other=0] cpu/s(t)@10-"
                                                     << "cpu/s(t)@10-"
                                                     << "cpu 1/0/0 0@10";
    QTest::newRow("stream out of time order")
        << QByteArrayList{"a 30 cpu s2 t2 7", "a 10 cpu s1 t1 5", "f 20 cpu s1 t1 5"}
        << "10:5[cpu=5|other=5] 20:0[|] 30:7[cpu=7|other=7]"
        << "30:7[cpu=7|other=7] cpu/s2(t2)@30-"
        << "cpu/s1(t1)@10-20 cpu/s2(t2)@30-"
        << "cpu 2/1/12 7@30";
    QTest::newRow("equal timestamps keep stream order")
        << QByteArrayList{"f 10 cpu s t0 1", "a 10 cpu s t1 5", "a 5 cpu q t9 1", "f 10 cpu q t9 1"}
        << "5:1[cpu=1|other=1] 10:5[cpu=5|other=5]"
        << "10:5[cpu=5|other=5] cpu/s(t1)@10-"
        << "cpu/q(t9)@5-10 cpu/s(t1)@10-"
        << "cpu 2/1/6 5@10";
    QTest::newRow("lifetimes by start, device, storage byte-wise")
        << QByteArrayList{"a 10 cuda:0 b t1 1", "a 10 cpu z t2 1", "a 10 cpu B t3 1", "a 5 cuda:0 late t4 1"}
        << "5:1[cuda:0=1|other=1] 10:4[cpu=2,cuda:0=2|other=4]"
        << "10:4[cpu=2,cuda:0=2|other=4] cuda:0/late(t4)@5- cpu/B(t3)@10- cpu/z(t2)@10- cuda:0/b(t1)@10-"
        << "cuda:0/late(t4)@5- cpu/B(t3)@10- cpu/z(t2)@10- cuda:0/b(t1)@10-"
        << "cpu 2/0/2 2@10; cuda:0 2/0/2 2@10";
    QTest::newRow("key re-allocated in the group that freed it")
        << QByteArrayList{"a 10 cpu s t1 5", "f 10 cpu s t1 5", "a 10 cpu s t2 6"} << "10:6[cpu=6|other=6]"
        << "10:6[cpu=6|other=6] cpu/s(t2)@10-"
        << "cpu/s(t1)@10-10 cpu/s(t2)@10-"
        << "cpu 2/1/11 6@10";
    QTest::newRow("alias keeps first alloc's size and category")
        << QByteArrayList{"a 10 cpu s zeta 100 cat=activation", "a 20 cpu s Alpha 999 cat=parameter",
                          "f 30 cpu s mid 5"}
        << "10:100[cpu=100|activation=100] 20:100[cpu=100|activation=100] 30:0[|]"
        << "10:100[cpu=100|activation=100] cpu/s(zeta)@10-"
        << "cpu/s(Alpha,mid,zeta)@10-30"
        << "cpu 1/1/100 100@10";
    QTest::newRow("second free of a storage is ignored")
        << QByteArrayList{"a 10 cpu s t 5", "f 20 cpu s t 5", "f 30 cpu s t 5"} << "10:5[cpu=5|other=5] 20:0[|] 30:0[|]"
        << "10:5[cpu=5|other=5] cpu/s(t)@10-"
        << "cpu/s(t)@10-20"
        << "cpu 1/1/5 5@10";
    QTest::newRow("free tensor id joins the lifetime")
        << QByteArrayList{"a 10 cpu s t1 5", "f 20 cpu s t9 5"} << "10:5[cpu=5|other=5] 20:0[|]"
        << "10:5[cpu=5|other=5] cpu/s(t1)@10-"
        << "cpu/s(t1,t9)@10-20"
        << "cpu 1/1/5 5@10";
    QTest::newRow("saturating sums recover after a free")
        << QByteArrayList{"a 10 cpu x t1 MAX", "a 20 cpu y t2 MAX", "f 30 cpu y t2 0", "f 40 cpu x t1 0"}
        << "10:MAX[cpu=MAX|other=MAX] 20:MAX[cpu=MAX|other=MAX] 30:MAX[cpu=MAX|other=MAX] 40:0[|]"
        << "10:MAX[cpu=MAX|other=MAX] cpu/x(t1)@10-"
        << "cpu/x(t1)@10-40 cpu/y(t2)@20-30"
        << "cpu 2/2/MAX MAX@10";
    QTest::newRow("device peak needs strictly more")
        << QByteArrayList{"a 10 cpu a t 5", "f 20 cpu a t 5", "a 30 cpu b t 5", "a 40 cuda:0 c t 9"}
        << "10:5[cpu=5|other=5] 20:0[|] 30:5[cpu=5|other=5] 40:14[cpu=5,cuda:0=9|other=14]"
        << "40:14[cpu=5,cuda:0=9|other=14] cpu/b(t)@30- cuda:0/c(t)@40-"
        << "cpu/a(t)@10-20 cpu/b(t)@30- cuda:0/c(t)@40-"
        << "cpu 2/1/10 5@10; cuda:0 1/0/9 9@40";
}

void TstMemoryProfile::logical()
{
    QFETCH(QByteArrayList, records);
    QFETCH(QString, timeline);
    QFETCH(QString, peak);
    QFETCH(QString, lifetimes);
    QFETCH(QString, devices);
    const auto trace = load(records);
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    QVERIFY(profile.logical);
    QVERIFY(!profile.physical);
    const LogicalMemoryProfile &p = *profile.logical;
    QCOMPARE(describeTimeline(*trace, p), timeline);
    QCOMPARE(describePeak(*trace, p), peak);
    QCOMPARE(describeLifetimes(*trace, p), lifetimes);
    QCOMPARE(describeDevices(*trace, p), devices);
    // The optimized analysis and JSON writer agree with the literal transcription.
    const std::string text = profileJson(*trace, profile);
    QCOMPARE(QString::fromStdString(text),
             QString::fromStdString("{\"logical\":" + referenceLogicalJson(*trace) + "}"));
}

void TstMemoryProfile::lifetimeMetadataAndJson()
{
    const auto trace =
        load({"a 10 cuda:0 s t:a 64 span=sp1 op=matmul shape=2,8 dtype=BF16 cat=activation",
              "a 20 cuda:0 s t:b 8 span=sp2 op=view shape=4 dtype=f32 cat=parameter", "a 30 cpu h t:h 3 span=sp3"});
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    const std::string expected =
        R"({"logical":{"storage_allocation_count":2,"matched_storage_free_count":0,"total_allocated_bytes":67,)"
        R"("peak":{"timestamp_ns":30,"live_bytes":67,"live_bytes_by_device":{"cpu":3,"cuda:0":64},)"
        R"("live_bytes_by_category":{"activation":64,"other":3},"live_allocations":[)"
        R"({"device":"cuda:0","storage_id":"s","tensor_ids":["t:a","t:b"],"allocation_span_id":"sp1","op_name":"matmul",)"
        R"("bytes":64,"shape":[2,8],"dtype":"BF16","category":"activation","start_timestamp_ns":10},)"
        R"({"device":"cpu","storage_id":"h","tensor_ids":["t:h"],"allocation_span_id":"sp3","op_name":null,)"
        R"("bytes":3,"shape":[],"dtype":"f32","category":"other","start_timestamp_ns":30}]},)"
        R"("timeline":[{"timestamp_ns":10,"live_bytes":64,"live_bytes_by_device":{"cuda:0":64},)"
        R"("live_bytes_by_category":{"activation":64}},{"timestamp_ns":20,"live_bytes":64,)"
        R"("live_bytes_by_device":{"cuda:0":64},"live_bytes_by_category":{"activation":64}},)"
        R"({"timestamp_ns":30,"live_bytes":67,"live_bytes_by_device":{"cpu":3,"cuda:0":64},)"
        R"("live_bytes_by_category":{"activation":64,"other":3}}],"lifetimes":[)"
        R"({"device":"cuda:0","storage_id":"s","tensor_ids":["t:a","t:b"],"allocation_span_id":"sp1","op_name":"matmul",)"
        R"("bytes":64,"shape":[2,8],"dtype":"BF16","category":"activation","start_timestamp_ns":10},)"
        R"({"device":"cpu","storage_id":"h","tensor_ids":["t:h"],"allocation_span_id":"sp3","op_name":null,)"
        R"("bytes":3,"shape":[],"dtype":"f32","category":"other","start_timestamp_ns":30}],)"
        R"("by_device":[{"device":"cpu","storage_allocation_count":1,"matched_storage_free_count":0,)"
        R"("total_allocated_bytes":3,"peak_live_bytes":3,"peak_timestamp_ns":30},{"device":"cuda:0",)"
        R"("storage_allocation_count":1,"matched_storage_free_count":0,"total_allocated_bytes":64,)"
        R"("peak_live_bytes":64,"peak_timestamp_ns":10}]}})";
    QCOMPARE(QString::fromStdString(profileJson(*trace, profile)), QString::fromStdString(expected));
    const LogicalStorageLifetime l = profile.logical->lifetime(*trace, 0);
    QCOMPARE(trace->str(l.opName), std::string_view("matmul"));
    QCOMPARE(trace->str(l.allocationSpanId), std::string_view("sp1"));
    QCOMPARE(l.allocRecord, 0u);
    QVERIFY(!profile.logical->lifetimeFreeRecord(*trace, 0));
}

// Names that need escaping, in every place the profile's JSON writes one: the timeline's
// and the peak's device keys (escaped once per device), the lifetimes' strings and the
// per-device stats. The text is serde_json's (TRACE_FORMAT.md §11.3).
void TstMemoryProfile::jsonEscapesNames()
{
    const auto trace = load({QStringLiteral("a 10 c\"1 s\\x t\u0001 5 span=sp\t op=o\" dtype=d\\").toUtf8(),
                             QStringLiteral("f 20 c\"1 s\\x t\u0001 5").toUtf8()});
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    const std::string lifetime = R"({"device":"c\"1","storage_id":"s\\x","tensor_ids":["t\u0001"],)"
                                 R"("allocation_span_id":"sp\t","op_name":"o\"","bytes":5,"shape":[],"dtype":"d\\",)"
                                 R"("category":"other","start_timestamp_ns":10)";
    const std::string expected =
        R"({"logical":{"storage_allocation_count":1,"matched_storage_free_count":1,"total_allocated_bytes":5,)"
        R"("peak":{"timestamp_ns":10,"live_bytes":5,"live_bytes_by_device":{"c\"1":5},)"
        R"("live_bytes_by_category":{"other":5},"live_allocations":[)"
        + lifetime + R"(}]},"timeline":[{"timestamp_ns":10,"live_bytes":5,"live_bytes_by_device":{"c\"1":5},)"
        + R"("live_bytes_by_category":{"other":5}},{"timestamp_ns":20,"live_bytes":0,"live_bytes_by_device":{},)"
        + R"("live_bytes_by_category":{}}],"lifetimes":[)" + lifetime + R"(,"end_timestamp_ns":20}],)"
        + R"("by_device":[{"device":"c\"1","storage_allocation_count":1,"matched_storage_free_count":1,)"
        + R"("total_allocated_bytes":5,"peak_live_bytes":5,"peak_timestamp_ns":10}]}})";
    QCOMPARE(QString::fromStdString(profileJson(*trace, profile)), QString::fromStdString(expected));
}

void TstMemoryProfile::examplesJson_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("01") << "01_valid_trace10_forward.jsonl" << QString::fromLatin1(kExample01Memory);
    QTest::newRow("02") << "02_valid_trace9_train.jsonl" << QString::fromLatin1(kExample02Memory);
}

void TstMemoryProfile::examplesJson()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const auto trace = loadFile(QStringLiteral(TI_EXAMPLES_DIR "/") + file);
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    QCOMPARE(QString::fromStdString(profileJson(*trace, profile)), expected);
}

void TstMemoryProfile::noMemoryAtAll()
{
    const auto trace = load({"s root 0 10"});
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    QVERIFY(!profile.logical);
    QVERIFY(!profile.physical);
    QCOMPARE(QString::fromStdString(profileJson(*trace, profile)), QStringLiteral("{}"));
}

void TstMemoryProfile::randomAgainstReference_data()
{
    QTest::addColumn<int>("seed");
    QTest::addColumn<int>("events");
    QTest::addColumn<int>("storages");
    QTest::addColumn<int>("timeRange");
    for (int seed = 1; seed <= 12; ++seed)
        QTest::addRow("small seed %d", seed) << seed << 60 << 6 << 25;
    QTest::newRow("dense timestamps") << 101 << 400 << 20 << 40;
    QTest::newRow("many storages") << 102 << 600 << 300 << 5000;
    QTest::newRow("past checkpoints") << 103 << 3000 << 80 << 100000;
}

void TstMemoryProfile::randomAgainstReference()
{
    QFETCH(int, seed);
    QFETCH(int, events);
    QFETCH(int, storages);
    QFETCH(int, timeRange);
    std::mt19937_64 rng{static_cast<std::uint64_t>(seed)};
    const auto pick = [&](int n) { return int(rng() % std::uint64_t(n)); };
    const char *devices[] = {"cuda:1", "cpu", "cuda:0"};
    const char *cats[] = {"parameter", "activation", "gradient", "optimizer", "other"};
    QByteArrayList records;
    for (int i = 0; i < events; ++i) {
        const bool alloc = pick(100) < 58;
        std::uint64_t bytes = std::uint64_t(pick(1000));
        if (pick(50) == 0)
            bytes = UINT64_MAX - std::uint64_t(pick(3));
        QString r = QStringLiteral("%1 %2 %3 s%4 t%5 %6 cat=%7")
                        .arg(alloc ? QLatin1Char('a') : QLatin1Char('f'))
                        .arg(pick(timeRange))
                        .arg(QLatin1String(devices[pick(3)]))
                        .arg(pick(storages))
                        .arg(pick(storages * 2))
                        .arg(bytes == UINT64_MAX ? QStringLiteral("MAX") : QString::number(bytes))
                        .arg(QLatin1String(cats[pick(5)]));
        if (pick(3) == 0)
            r += QStringLiteral(" op=op%1").arg(pick(4));
        records << r.toUtf8();
    }
    const auto trace = load(records);
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    QVERIFY(profile.logical);
    QCOMPARE(QString::fromStdString(profileJson(*trace, profile)),
             QString::fromStdString("{\"logical\":" + referenceLogicalJson(*trace) + "}"));
}

// More memory slots (devices and categories) than a change's 2 bytes can name: the walk keeps
// its changes in 4 bytes each, and every point still reads back exactly.
void TstMemoryProfile::moreSlotsThanTwoBytesName()
{
    constexpr int kDevices = 33000;
    QByteArrayList records;
    for (int i = 0; i < kDevices; ++i)
        records << QStringLiteral("a %1 d%1 s%1 t%1 %2 cat=activation").arg(i).arg(i + 1).toUtf8();
    for (int i = 0; i < kDevices; i += 2)
        records << QStringLiteral("f %1 d%2 s%2 t%2 %3 cat=activation").arg(kDevices + i).arg(i).arg(i + 1).toUtf8();
    const auto trace = load(records);
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QVERIFY(profile.logical);
    const LogicalMemoryProfile &p = *profile.logical;
    QCOMPARE(p.timelineSize(), std::size_t(kDevices + kDevices / 2));
    const auto byDevice = [&](std::size_t index) {
        std::map<std::string, std::uint64_t> live;
        for (const DeviceBytes &d : p.timelinePoint(index).liveBytesByDevice)
            live[std::string(trace->str(d.device))] = d.bytes;
        return live;
    };
    const std::map<std::string, std::uint64_t> allAllocated = byDevice(kDevices - 1);
    QCOMPARE(allAllocated.size(), std::size_t(kDevices));
    QCOMPARE(allAllocated.at("d0"), std::uint64_t(1));
    QCOMPARE(allAllocated.at("d32999"), std::uint64_t(33000));
    const std::map<std::string, std::uint64_t> atEnd = byDevice(p.timelineSize() - 1);
    QCOMPARE(atEnd.size(), std::size_t(kDevices / 2));
    QVERIFY(!atEnd.contains("d0"));
    QCOMPARE(atEnd.at("d1"), std::uint64_t(2));
    QCOMPARE(atEnd.at("d32999"), std::uint64_t(33000));
    QCOMPARE(p.timelinePoint(p.timelineSize() - 1).liveBytes, std::uint64_t(kDevices / 2) * (kDevices / 2 + 1));
}

void TstMemoryProfile::randomAccessMatchesCursor()
{
    const auto trace = load(randomDeviceRecords({7, 5000, 4000, 200, 2, "gradient"}));
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    const LogicalMemoryProfile &p = *profile.logical;
    QVERIFY(p.timelineSize() > 1000);
    for (LogicalMemoryProfile::Cursor c(p); !c.atEnd(); c.next()) {
        const LogicalTimelinePoint point = p.timelinePoint(c.index());
        QCOMPARE(point.timestampNs, c.timestampNs());
        QCOMPARE(point.liveBytes, c.liveBytes());
        QVERIFY(std::ranges::equal(point.liveBytesByDevice, c.liveBytesByDevice()));
        QVERIFY(std::ranges::equal(point.liveBytesByCategory, c.liveBytesByCategory()));
    }
}

void TstMemoryProfile::cursorFromAnyStart()
{
    const auto trace = load(randomDeviceRecords({11, 3000, 2500, 150, 3, "parameter"}));
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    const LogicalMemoryProfile &p = *profile.logical;
    QVERIFY(p.timelineSize() > 600);
    // Starts at, next to and between checkpoints (every 256 points), the last point and
    // past the end: a cursor started anywhere walks on exactly like one started at 0.
    for (const std::size_t start :
         {std::size_t(0), std::size_t(1), std::size_t(255), std::size_t(256), std::size_t(257), std::size_t(400),
          std::size_t(511), p.timelineSize() - 1, p.timelineSize()}) {
        LogicalMemoryProfile::Cursor from0(p);
        while (!from0.atEnd() && from0.index() < start)
            from0.next();
        LogicalMemoryProfile::Cursor c(p, start);
        QCOMPARE(c.index(), start);
        QCOMPARE(c.atEnd(), from0.atEnd());
        for (; !c.atEnd(); c.next(), from0.next()) {
            QVERIFY(!from0.atEnd());
            QCOMPARE(c.timestampNs(), from0.timestampNs());
            QCOMPARE(c.liveBytes(), from0.liveBytes());
            QVERIFY(std::ranges::equal(c.liveBytesByDevice(), from0.liveBytesByDevice()));
            QVERIFY(std::ranges::equal(c.liveBytesByCategory(), from0.liveBytesByCategory()));
        }
        QVERIFY(from0.atEnd());
    }
}

// lifetimeInto() and peakAllocationInto() fill one object in turn with lifetimes of 3, 1, 0
// and 2 tensor ids, open and closed, with and without an op name: each fill must equal the
// freshly made lifetime(), nothing of the previous one left over.
void TstMemoryProfile::lifetimeIntoReusesOneObject()
{
    const auto trace =
        load(QByteArrayList{"a 10 cpu s1 t1 100 op=mm shape=2,3 dtype=bf16 cat=activation", "a 11 cpu s1 t2 100",
                            "a 12 cpu s1 t3 100", "a 13 gpu s2 u1 7 cat=gradient", "f 14 gpu s2 u1 7",
                            "f 15 cpu s1 t1 100", "a 16 cpu s3 v1 5 op=add", "a 17 cpu s3 v2 5", "a 18 gpu s4 w 9"});
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    const LogicalMemoryProfile &p = *profile.logical;
    QCOMPARE(p.lifetimeCount(), std::size_t(4));
    const auto same = [&](const LogicalStorageLifetime &a, const LogicalStorageLifetime &b) {
        return a.device == b.device && a.storageId == b.storageId && a.tensorIds == b.tensorIds
               && a.allocationSpanId == b.allocationSpanId && a.opName == b.opName && a.bytes == b.bytes
               && a.shape == b.shape && a.dtype == b.dtype && a.category == b.category
               && a.startTimestampNs == b.startTimestampNs && a.endTimestampNs == b.endTimestampNs
               && a.allocRecord == b.allocRecord;
    };
    LogicalStorageLifetime reused;
    for (const std::size_t i : {0, 1, 2, 3, 1, 0}) {
        p.lifetimeInto(*trace, i, reused);
        QVERIFY2(same(reused, p.lifetime(*trace, i)), qPrintable(describeLifetime(*trace, reused)));
    }
    QVERIFY(p.peakAllocationCount() > 0);
    for (std::size_t k = p.peakAllocationCount(); k-- > 0;) {
        p.peakAllocationInto(*trace, k, reused);
        QVERIFY2(same(reused, p.peakAllocation(*trace, k)), qPrintable(describeLifetime(*trace, reused)));
    }
}

void TstMemoryProfile::physical_data()
{
    QTest::addColumn<QByteArrayList>("records");
    QTest::addColumn<QString>("timeline");
    QTest::addColumn<QString>("devices");
    QTest::newRow("ties go to the earliest sample")
        << QByteArrayList{"d 10 gpu used=5 reserved=9", "d 20 gpu used=5 reserved=9 free=3",
                          "d 30 gpu free=3 capacity=7", "d 40 gpu capacity=6 used=4"}
        << "10 gpu 5/-/9/-, 20 gpu 5/3/9/-, 30 gpu -/3/-/7, 40 gpu 4/-/-/6"
        << "gpu n=4 u=3 f=2 r=2 c=2 pu=5@10 pr=9@10 mf=3@20 mc=7";
    QTest::newRow("sample without values") << QByteArrayList{"d 10 gpu"} << "10 gpu -/-/-/-"
                                           << "gpu n=1 u=0 f=0 r=0 c=0";
    QTest::newRow("sorted by time then device")
        << QByteArrayList{"d 20 b used=1", "d 10 z used=2", "d 10 a used=3 free=0"}
        << "10 a 3/0/-/-, 10 z 2/-/-/-, 20 b 1/-/-/-"
        << "a n=1 u=1 f=1 r=0 c=0 pu=3@10 mf=0@10; b n=1 u=1 f=0 r=0 c=0 pu=1@20; z n=1 u=1 f=0 r=0 c=0 pu=2@10";
    QTest::newRow("same time and device keep stream order")
        << QByteArrayList{"d 10 a used=1", "d 10 a used=2"} << "10 a 1/-/-/-, 10 a 2/-/-/-"
        << "a n=2 u=2 f=0 r=0 c=0 pu=2@10";
    QTest::newRow("larger value earlier in time wins over stream order")
        << QByteArrayList{"d 10 a used=1 free=1", "d 5 a used=2 free=9"} << "5 a 2/9/-/-, 10 a 1/1/-/-"
        << "a n=2 u=2 f=2 r=0 c=0 pu=2@5 mf=1@10";
    QTest::newRow("nothing derived from other values") << QByteArrayList{"d 1 a used=10 free=20"} << "1 a 10/20/-/-"
                                                       << "a n=1 u=1 f=1 r=0 c=0 pu=10@1 mf=20@1";
}

void TstMemoryProfile::physical()
{
    QFETCH(QByteArrayList, records);
    QFETCH(QString, timeline);
    QFETCH(QString, devices);
    const auto trace = load(records);
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    QVERIFY(!profile.logical);
    QVERIFY(profile.physical);
    QCOMPARE(describePhysicalTimeline(*trace, *profile.physical), timeline);
    QCOMPARE(describePhysicalDevices(*trace, *profile.physical), devices);
}

void TstMemoryProfile::nodeMetrics_data()
{
    QTest::addColumn<QByteArrayList>("records");
    QTest::addColumn<QString>("contract");
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<QString>("expected");

    const QByteArrayList upstream{"s root 10 30",
                                  "s child 15 15 parent=root",
                                  "a 16 cpu s1 t1 40 span=child",
                                  "a 20 cpu s2 t2 60 span=child",
                                  "f 25 cpu s1 t1 40",
                                  "f 45 cpu s2 t2 60"};
    QTest::newRow("upstream example, partial capture")
        << upstream << "partial" << QString() << "child{d=100,p=100,r=60}; root{p=100,r=60}";
    QTest::newRow("upstream example, complete capture")
        << (upstream + QByteArrayList{"s other 50 10", "s open 60 open"}) << "complete" << QString()
        << "child{d=100,p=100,r=60}; open{d=0}; other{d=0,p=0,r=0}; root{d=0,p=100,r=60}";
    QTest::newRow("op output sizes, unresolvable ops still numbered")
        << QByteArrayList{"s child 0 10", "o child matmul f32 shape=2,3", "o child q q4 shape=2",
                          "o child h F16 shape=4", "o ghost x u8 shape=5"}
        << "partial" << QString() << "child/op/0{o=24}; child/op/2{o=8}; ghost/op/0{o=5}";
    QTest::newRow("lifetime of an unknown span belongs to no subtree")
        << QByteArrayList{"s root 0 100", "a 10 cpu s t 5 span=nowhere"} << "partial" << QString() << "";
    QTest::newRow("cycle: both spans see the lifetime once")
        << QByteArrayList{"s a 0 100 parent=b", "s b 0 100 parent=a", "a 10 cpu s t 5 span=a"} << "partial" << QString()
        << "a{d=5,p=5,r=5}; b{p=5,r=5}";
    QTest::newRow("self parent") << QByteArrayList{"s a 0 100 parent=a", "a 10 cpu s t 5 span=a",
                                                   "a 20 cpu s2 t 6 span=a"}
                                 << "partial" << QString() << "a{d=11,p=11,r=11}";
    QTest::newRow("empty interval") << QByteArrayList{"s a 10 0", "a 10 cpu s t 5 span=a"} << "partial" << QString()
                                    << "a{d=5,p=0,r=0}";
    QTest::newRow("open span gets no subtree values")
        << QByteArrayList{"s a 10 open", "a 10 cpu s t 5 span=a"} << "partial" << QString() << "a{d=5}";
    QTest::newRow("live at start, freed inside")
        << QByteArrayList{"s a 10 10", "s c 0 1 parent=a", "a 5 cpu s t 5 span=c", "f 15 cpu s t 5",
                          "a 12 cpu u t 2 span=a"}
        << "partial" << QString() << "a{d=2,p=7,r=2}; c{d=5,p=0,r=0}";
    QTest::newRow("freed exactly at the interval end counts as residual")
        << QByteArrayList{"s a 10 10", "a 12 cpu s t 7 span=a", "f 20 cpu s t 7"} << "partial" << QString()
        << "a{d=7,p=7,r=7}";
    QTest::newRow("frees before allocations at one time")
        << QByteArrayList{"s a 10 100", "a 20 cpu s t 7 span=a", "f 30 cpu s t 7", "a 30 cpu u t 7 span=a"} << "partial"
        << QString() << "a{d=14,p=7,r=7}";
    QTest::newRow("lifetime outside the interval is ignored")
        << QByteArrayList{"s a 10 10", "s b 0 100", "a 30 cpu s t 7 span=a", "a 1 cpu u t 3 span=a", "f 10 cpu u t 3"}
        << "partial" << QString() << "a{d=10,p=0,r=0}";
    QTest::newRow("mapped ops get attributed bytes")
        << QByteArrayList{"s child 0 100",
                          "o child matmul f32 shape=2",
                          "o child add f32 shape=3",
                          "o child add f32 shape=4",
                          "a 10 cpu s1 t 40 span=child op=matmul",
                          "a 11 cpu s2 t 10 span=child op=add",
                          "a 12 cpu s3 t 1 span=child"}
        << "partial"
        << "child,0=n0;child,1=n1"
        << "child{d=51,p=51,r=51}; child/op/2{o=16}; n0{d=40,o=8}; n1{d=10,o=12}";
    QTest::newRow("ambiguous op name attributes to the span only")
        << QByteArrayList{"s child 0 100", "o child add f32 shape=3", "o child add f32 shape=4",
                          "a 11 cpu s2 t 10 span=child op=add"}
        << "partial"
        << "child,0=n1;child,1=n2"
        << "child{d=10,p=10,r=10}; n1{o=12}; n2{o=16}";
    QTest::newRow("mapped id equal to a span id merges")
        << QByteArrayList{"s child 0 100", "s x 0 1", "o child add f32 shape=3", "a 11 cpu s2 t 10 span=child op=add"}
        << "complete"
        << "child,0=x"
        << "child{d=10,p=10,r=10}; x{d=0,p=0,r=0,o=12}";
    QTest::newRow("no memory records: only op sizes")
        << QByteArrayList{"s child 0 100", "o child add f32 shape=3"} << "complete" << QString() << "child/op/0{o=12}";
}

void TstMemoryProfile::nodeMetrics()
{
    QFETCH(QByteArrayList, records);
    QFETCH(QString, contract);
    QFETCH(QString, mapping);
    QFETCH(QString, expected);
    const auto trace = load(records, contract.toStdString());
    QVERIFY(trace);
    const MemoryProfile profile = analyzeMemory(*trace);
    QCOMPARE(walkedPeakBytes(*trace), profilePeakBytes(profile));
    OpNodeIdMap map;
    for (const QByteArray &entry : mapping.toUtf8().split(';')) {
        if (entry.isEmpty())
            continue;
        const QByteArrayList kv = entry.split('=');
        const QByteArrayList key = kv[0].split(',');
        map[{key[0].toStdString(), key[1].toULongLong()}] = kv[1].toStdString();
    }
    const NodeMemoryMetricsTable table = nodeMemoryMetrics(*trace, profile, map);
    const std::map<std::string, NodeMemoryMetrics> all = table.toMap(*trace);
    QCOMPARE(describeNodeMetrics(all), expected);
    // Point look-ups agree with the full map.
    for (const auto &[id, m] : all) {
        const std::optional<NodeMemoryMetrics> found = table.find(*trace, id);
        QVERIFY2(found.has_value(), id.c_str());
        QVERIFY2(*found == m, id.c_str());
    }
    for (std::size_t s = 0; s < trace->spans.size(); ++s) {
        const auto it = all.find(std::string(trace->str(trace->spans[s].id)));
        QVERIFY(table.forSpan(*trace, s) == (it == all.end() ? NodeMemoryMetrics{} : it->second));
    }
    for (std::size_t o = 0; o < trace->ops.size(); ++o) {
        const auto it = all.find(table.opNodeId(*trace, o));
        QVERIFY(table.forOp(*trace, o) == (it == all.end() ? NodeMemoryMetrics{} : it->second));
    }
    QVERIFY(!table.find(*trace, "no-such-node"));
    QVERIFY(!table.find(*trace, "child/op/07"));
}

QTEST_GUILESS_MAIN(TstMemoryProfile)
#include "tst_memoryprofile.moc"
