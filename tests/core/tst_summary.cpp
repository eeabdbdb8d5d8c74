// SPDX-License-Identifier: MIT
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/spanidindex.h"
#include "core/analysis/summary.h"
#include "core/io/tracereader.h"
#include "core/output/jsonwriter.h"
#include "core/output/summaryjson.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

namespace {

const std::string kMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e",)"
    R"("phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host",)"
    R"("capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"partial",)"
    R"("physical_memory":"none","device_timing":"none"},"tags":{}})";
const std::string kTerminal = R"({"kind":"terminal","outcome":"complete","timestamp_ns":18446744073709551615})";

/// "ID[>PARENT][:DURATION|:open][*]" (* = measured), e.g. "b>a:40*"; or a memory record
/// "a|f TS STORAGE BYTES".
std::string record(const QString &spec)
{
    nlohmann::json j;
    const QStringList mem = spec.split(QLatin1Char(' '));
    if (mem.size() == 4) {
        j = {{"kind", "memory"},
             {"timestamp_ns", mem[1].toULongLong()},
             {"storage_id", mem[2].toStdString()},
             {"tensor_id", "t"},
             {"span_id", "s"},
             {"device", "cpu"},
             {"bytes", mem[3].toULongLong()},
             {"action", mem[0] == QLatin1String("a") ? "alloc" : "free"},
             {"dtype", "f32"}};
        return j.dump();
    }
    QString s = spec;
    const bool measured = s.endsWith(QLatin1Char('*'));
    if (measured)
        s.chop(1);
    QString duration = QStringLiteral("0");
    if (const qsizetype colon = s.indexOf(QLatin1Char(':')); colon >= 0) {
        duration = s.mid(colon + 1);
        s.truncate(colon);
    }
    QString parent;
    if (const qsizetype gt = s.indexOf(QLatin1Char('>')); gt >= 0) {
        parent = s.mid(gt + 1);
        s.truncate(gt);
    }
    j = {{"kind", "span_start"}, {"id", s.toStdString()},   {"name", "n"},
         {"start_ns", 0},        {"span_kind", "function"}, {"measured", measured}};
    if (!parent.isEmpty())
        j["parent_id"] = parent.toStdString();
    std::string out = j.dump();
    if (duration != QLatin1String("open"))
        out += "\n"
               + nlohmann::json{{"kind", "span_end"}, {"id", s.toStdString()}, {"duration_ns", duration.toULongLong()}}
                     .dump();
    return out;
}

std::shared_ptr<const Trace> load(const QString &records)
{
    std::string text = kMeta + "\n";
    for (const QString &r : records.split(QLatin1Char(','), Qt::SkipEmptyParts))
        text += record(r.trimmed()) + "\n";
    text += kTerminal + "\n";
    return TestFixtures::acceptedTraceFrom(QByteArray::fromStdString(text), QStringLiteral("test.jsonl"));
}

std::shared_ptr<const Trace> loadExample(const QString &name)
{
    return TestFixtures::acceptedTraceFrom(TestFixtures::fileBytes(TestFixtures::examplePath(name)), name);
}

QString summaryJson(const TraceSummary &s)
{
    JsonWriter w;
    writeSummaryJson(w, s);
    return QString::fromStdString(w.takeBuffer());
}

} // namespace

class TstSummary : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void examples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::newRow("01") << "01_valid_trace10_forward.jsonl"
                            << R"({"op_count":1,"total_ns":50000,"span_count":2,"root_span_count":1,"max_depth":1,)"
                               R"("alloc_count":1,"free_count":1,"logical_peak_bytes":393216})";
        QTest::newRow("02") << "02_valid_trace9_train.jsonl"
                            << R"({"op_count":1,"total_ns":260500,"span_count":4,"root_span_count":1,"max_depth":1,)"
                               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        // §7.3: the array-form example and the example whose total wraps modulo 2^64.
        QTest::newRow("11") << "11_array_records.jsonl"
                            << R"({"op_count":1,"total_ns":8000,"span_count":2,"root_span_count":1,"max_depth":1,)"
                               R"("alloc_count":1,"free_count":1,"logical_peak_bytes":3725664})";
        QTest::newRow("30") << "30_total_ns_wraps.jsonl"
                            << R"({"op_count":0,"total_ns":553255926290448384,"span_count":2,"root_span_count":1,)"
                               R"("max_depth":1,"alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
    }
    void examples()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const auto trace = loadExample(file);
        QVERIFY(trace);
        const TraceSummary s = computeSummary(*trace, analyzeMemory(*trace));
        QCOMPARE(summaryJson(s), expected);
    }

    void depth_data()
    {
        QTest::addColumn<QString>("spans");
        QTest::addColumn<QString>("depths"); // per span in id order
        QTest::addColumn<int>("maxDepth");
        QTest::newRow("no spans") << ""
                                  << "" << 0;
        QTest::newRow("root") << "a"
                              << "0" << 0;
        QTest::newRow("child") << "a, b>a"
                               << "0 1" << 1;
        QTest::newRow("chain") << "a, b>a, c>b, d>c"
                               << "0 1 2 3" << 3;
        QTest::newRow("chain listed backwards") << "d>c, c>b, b>a, a"
                                                << "0 1 2 3" << 3;
        QTest::newRow("missing parent") << "a>ghost"
                                        << "1" << 1;
        QTest::newRow("child of a child of a missing parent") << "a>ghost, b>a"
                                                              << "1 2" << 2;
        QTest::newRow("self parent") << "a>a"
                                     << "1" << 1;
        QTest::newRow("two-span cycle") << "a>b, b>a"
                                        << "2 2" << 2;
        QTest::newRow("three-span cycle") << "a>c, b>a, c>b"
                                          << "3 3 3" << 3;
        QTest::newRow("tail into a cycle") << "a>b, b>a, c>a, d>c"
                                           << "2 2 2 3" << 3;
        QTest::newRow("tail into a self loop") << "a>a, b>a, c>b"
                                               << "1 1 2" << 2;
        QTest::newRow("two trees") << "a, b>a, x, y>x, z>y"
                                   << "0 1 0 1 2" << 2;
        QTest::newRow("siblings share an ancestor") << "a, b>a, c>a, d>b, e>b"
                                                    << "0 1 1 2 2" << 2;
    }
    void depth()
    {
        QFETCH(QString, spans);
        QFETCH(QString, depths);
        QFETCH(int, maxDepth);
        const auto trace = load(spans);
        QVERIFY(trace);
        QStringList got;
        for (const std::uint64_t d : spanDepths(*trace))
            got << QString::number(d);
        QCOMPARE(got.join(QLatin1Char(' ')), depths);
        QCOMPARE(computeSummary(*trace, analyzeMemory(*trace)).maxDepth, std::uint64_t(maxDepth));
        // Through the trace's span id index, as the window's loader computes it.
        const SpanIdIndex ids = SpanIdIndex::build(*trace);
        QCOMPARE(computeSummary(*trace, std::nullopt, &ids).maxDepth, std::uint64_t(maxDepth));
        // An index of another trace is not used.
        const auto other = load(QStringLiteral("x, y>x, z>y, w>z, v>w"));
        QVERIFY(other);
        const SpanIdIndex otherIds = SpanIdIndex::build(*other);
        QCOMPARE(computeSummary(*trace, std::nullopt, &otherIds).maxDepth, std::uint64_t(maxDepth));
    }

    void longChainIsLinear()
    {
        // 200 000 nested spans: a quadratic walk would take minutes.
        std::string text = kMeta + "\n";
        const int count = 200000;
        for (int i = 0; i < count; ++i) {
            nlohmann::json j = {{"kind", "span_start"},
                                {"id", "s" + std::to_string(i)},
                                {"name", "n"},
                                {"start_ns", 0},
                                {"span_kind", "function"}};
            if (i > 0)
                j["parent_id"] = "s" + std::to_string(i - 1);
            text += j.dump() + "\n";
        }
        text += kTerminal + "\n";
        ReadResult result = TraceReader::readBytes(text, "chain.jsonl");
        QVERIFY(result.accepted());
        QElapsedTimer timer;
        timer.start();
        const TraceSummary s = computeSummary(*result.trace, MemoryProfile{});
        QCOMPARE(s.maxDepth, std::uint64_t(count - 1));
        QCOMPARE(s.rootSpanCount, std::uint64_t(1));
        QVERIFY2(timer.elapsed() < 2000, "depth computation is not linear");
    }

    void counts_data()
    {
        QTest::addColumn<QString>("records");
        QTest::addColumn<QString>("expected");
        QTest::newRow("only measured spans count")
            << "a:100*, b>a:40, c>a:7*"
            << R"({"op_count":0,"total_ns":107,"span_count":3,"root_span_count":1,"max_depth":1,)"
               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        QTest::newRow("open measured span adds 0")
            << "a:open*, b:5*"
            << R"({"op_count":0,"total_ns":5,"span_count":2,"root_span_count":2,"max_depth":0,)"
               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        // §7.3: the sum wraps modulo 2^64 (upstream's release build), it does not saturate.
        QTest::newRow("total wraps past 2^64-1")
            << "a:18446744073709551615*, b:2*"
            << R"({"op_count":0,"total_ns":1,"span_count":2,"root_span_count":2,"max_depth":0,)"
               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        QTest::newRow("total wraps to exactly 0")
            << "a:18446744073709551615*, b:1*"
            << R"({"op_count":0,"total_ns":0,"span_count":2,"root_span_count":2,"max_depth":0,)"
               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        QTest::newRow("total reaches 2^64-1 without wrapping")
            << "a:18446744073709551614*, b:1*, c:5"
            << R"({"op_count":0,"total_ns":18446744073709551615,"span_count":3,"root_span_count":3,"max_depth":0,)"
               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        QTest::newRow("unmeasured and open spans never wrap the total")
            << "a:18446744073709551615*, b:open*, c:9"
            << R"({"op_count":0,"total_ns":18446744073709551615,"span_count":3,"root_span_count":3,"max_depth":0,)"
               R"("alloc_count":0,"free_count":0,"logical_peak_bytes":null})";
        QTest::newRow("raw alloc and free counts")
            << "a, a 10 s 5, a 20 s 5, f 30 s 5, f 40 s 5, f 50 x 1"
            << R"({"op_count":0,"total_ns":0,"span_count":1,"root_span_count":1,"max_depth":0,)"
               R"("alloc_count":2,"free_count":3,"logical_peak_bytes":5})";
        QTest::newRow("alloc and free at one time: peak 0")
            << "a 10 s 5, f 10 s 5"
            << R"({"op_count":0,"total_ns":0,"span_count":0,"root_span_count":0,"max_depth":0,)"
               R"("alloc_count":1,"free_count":1,"logical_peak_bytes":0})";
        QTest::newRow("only frees: no peak")
            << "f 10 s 5"
            << R"({"op_count":0,"total_ns":0,"span_count":0,"root_span_count":0,"max_depth":0,)"
               R"("alloc_count":0,"free_count":1,"logical_peak_bytes":null})";
    }
    void counts()
    {
        QFETCH(QString, records);
        QFETCH(QString, expected);
        const auto trace = load(records);
        QVERIFY(trace);
        QCOMPARE(summaryJson(computeSummary(*trace, analyzeMemory(*trace))), expected);
    }
};

QTEST_GUILESS_MAIN(TstSummary)
#include "tst_summary.moc"
