// SPDX-License-Identifier: MIT
#include <QTest>

#include "core/analysis/recordextents.h"
#include "core/display/format.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

namespace {

/// Space-separated records: "sID@START:DURATION" a closed span, "sID@START" an open one (a
/// trailing * makes either measured), "oSTART:DURATION" an op on span s0, "mTIME" a memory
/// record, "dTIME" a device_memory sample.
QByteArray records(const QByteArray &spec)
{
    QByteArray text;
    for (QByteArray item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        if (item.startsWith('o')) {
            const QList<QByteArray> f = item.mid(1).split(':');
            text += R"({"kind":"op","span_id":"s0","op_name":"add","shape":[1],"dtype":"f32","device":"cpu",)"
                    R"("timestamp_ns":)"
                    + f[0] + R"(,"duration_ns":)" + f[1] + R"(,"input_dense_bytes":4})" + "\n";
            continue;
        }
        if (item.startsWith('m')) {
            text += R"({"kind":"memory","timestamp_ns":)" + item.mid(1)
                    + R"(,"storage_id":"st","tensor_id":"t","span_id":"s0","device":"cpu","bytes":4,)"
                      R"("action":"alloc","dtype":"f32"})"
                    + "\n";
            continue;
        }
        if (item.startsWith('d')) {
            text += R"({"kind":"device_memory","timestamp_ns":)" + item.mid(1) + R"(,"device":"cpu","used_bytes":1})"
                    + "\n";
            continue;
        }
        const bool measured = item.endsWith('*');
        if (measured)
            item.chop(1);
        const QList<QByteArray> at = item.split('@');
        const QList<QByteArray> f = at[1].split(':');
        text += R"({"kind":"span_start","id":")" + at[0] + R"(","name":"n","start_ns":)" + f[0]
                + R"(,"span_kind":"function","measured":)" + (measured ? "true" : "false") + "}\n";
        if (f.size() > 1)
            text += R"({"kind":"span_end","id":")" + at[0] + R"(","duration_ns":)" + f[1] + "}\n";
    }
    return text;
}

} // namespace

class tst_RecordExtents : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void extents_data();
    void extents();
    void agreesWithCountMeasuredSpans();
};

void tst_RecordExtents::extents_data()
{
    QTest::addColumn<QByteArray>("spec");
    // opMaxDuration opLatestStart spanLatestStart runBegin runEnd measured closedMeasured latestMemory
    QTest::addColumn<QList<quint64>>("expected");
    QTest::addColumn<QByteArray>("longestId"); // "-": no span
    constexpr quint64 max = UINT64_MAX;
    QTest::newRow("no records") << QByteArray() << QList<quint64>{0, 0, 0, 0, 0, 0, 0, 0} << QByteArray("-");
    QTest::newRow("one open span") << QByteArray("s0@70") << QList<quint64>{0, 0, 70, 70, 70, 0, 0, 0}
                                   << QByteArray("s0");
    QTest::newRow("spans")
        // An open span ends at its start; only measured spans are counted, closed or not.
        << QByteArray("s0@100:50* s22@120* s333@90:10 s4@95:0*") << QList<quint64>{0, 0, 120, 90, 150, 3, 2, 0}
        << QByteArray("s333");
    QTest::newRow("ops after the spans") << QByteArray("s0@10:5 o40:100 o12:3 o41:1")
                                         << QList<quint64>{100, 41, 10, 10, 140, 0, 0, 0} << QByteArray("s0");
    QTest::newRow("an op before every span")
        << QByteArray("s0@500:5 o7:1") << QList<quint64>{1, 7, 500, 7, 505, 0, 0, 0} << QByteArray("s0");
    // Of ids of equal length, the first span in the trace's order (the reader's: by id).
    QTest::newRow("first of the longest ids")
        << QByteArray("s0@1:1 sCD@2:1 sAB@3:1 s1@4:1") << QList<quint64>{0, 0, 4, 1, 5, 0, 0, 0} << QByteArray("sAB");
    QTest::newRow("an end past 2^64 - 1 saturates")
        << QByteArray("s0@18446744073709551600:100 o18446744073709551610:9")
        << QList<quint64>{9, 18446744073709551610ULL, 18446744073709551600ULL, 18446744073709551600ULL, max, 0, 0, 0}
        << QByteArray("s0");
    // Memory records and samples bound no host slice: their latest time is kept apart.
    QTest::newRow("memory after the ops") << QByteArray("s0@10:5 o12:3 m300 d250 m20")
                                          << QList<quint64>{3, 12, 10, 10, 15, 0, 0, 300} << QByteArray("s0");
    QTest::newRow("only samples") << QByteArray("d900 m5") << QList<quint64>{0, 0, 0, 0, 0, 0, 0, 900}
                                  << QByteArray("-");
}

void tst_RecordExtents::extents()
{
    QFETCH(QByteArray, spec);
    QFETCH(QList<quint64>, expected);
    QFETCH(QByteArray, longestId);
    const auto trace = TestFixtures::traceFrom(
        QByteArray(TestFixtures::kMeta) + records(spec)
        + R"({"kind":"terminal","outcome":"complete","timestamp_ns":18446744073709551615})" + "\n");
    QVERIFY(trace);
    const RecordExtents e = RecordExtents::compute(*trace);
    const QList<quint64> got{e.opMaxDurationNs, e.opLatestStartNs, e.spanLatestStartNs,   e.runBeginNs,
                             e.runEndNs,        e.measuredSpans,   e.closedMeasuredSpans, e.latestMemoryNs};
    QCOMPARE(got, expected);
    if (longestId == "-") {
        QCOMPARE(e.longestIdSpan, RecordExtents::kNoSpan);
        return;
    }
    QVERIFY(e.longestIdSpan < trace->spans.size());
    const std::string_view id = trace->str(trace->spans[e.longestIdSpan].id);
    QCOMPARE(QByteArray(id.data(), qsizetype(id.size())), longestId);
    for (std::uint32_t i = 0; i < e.longestIdSpan; ++i)
        QVERIFY(trace->str(trace->spans[i].id).size() < id.size());
}

void tst_RecordExtents::agreesWithCountMeasuredSpans()
{
    const auto trace = TestFixtures::exampleTrace(QStringLiteral("01_valid_trace10_forward.jsonl"));
    QVERIFY(trace);
    QVERIFY(!trace->spans.empty());
    const RecordExtents e = RecordExtents::compute(*trace);
    const MeasuredSpanCount count = countMeasuredSpans(*trace);
    QVERIFY(count.measured > 0);
    QCOMPARE(e.measuredSpans, count.measured);
    QCOMPARE(e.closedMeasuredSpans, count.closed);
}

QTEST_GUILESS_MAIN(tst_RecordExtents)
#include "tst_recordextents.moc"
