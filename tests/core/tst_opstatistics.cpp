// SPDX-License-Identifier: MIT
#include <QTest>

#include "tests/testutils/fixtures.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spanidindex.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"

using namespace TraceInspector;

namespace {

using TestFixtures::kMeta;

// `name:duration` items separated by spaces, one op each.
std::shared_ptr<Trace> opsTrace(const QByteArray &spec)
{
    QByteArray text = kMeta;
    text += "{\"kind\":\"span_start\",\"id\":\"s\",\"name\":\"s\",\"start_ns\":0,\"span_kind\":\"function\"}\n";
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        text += "{\"kind\":\"op\",\"span_id\":\"s\",\"op_name\":\"" + f[0]
                + "\",\"shape\":[1],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":" + f[1]
                + ",\"input_dense_bytes\":0}\n";
    }
    text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":18446744073709551615}\n";
    return TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), "ops.jsonl").trace;
}

QByteArray dump(const Trace &trace, const OpStatistics &stats)
{
    QByteArray out;
    for (std::size_t i = 0; i < stats.rows().size(); ++i) {
        const OpNameStatistics &r = stats.rows()[i];
        if (!out.isEmpty())
            out += ' ';
        out += QByteArray(trace.str(r.name).data(), qsizetype(trace.str(r.name).size())) + '='
               + QByteArray::number(r.count) + '/' + QByteArray::number(r.totalNs) + '/' + QByteArray::number(r.minNs)
               + '/' + QByteArray::number(r.maxNs) + '/' + QByteArray::number(r.meanNs, 'g', 10);
    }
    return out;
}

} // namespace

class tst_OpStatistics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aggregate_data();
    void aggregate();
    void fractions();
    void example();
    void spanSharesWhicheverWaySpansAreFound();
};

void tst_OpStatistics::aggregate_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QByteArray>("expected"); // name=count/total/min/max/mean, longest total first
    QTest::addColumn<quint64>("total");
    QTest::newRow("no ops") << QByteArray() << QByteArray() << quint64(0);
    QTest::newRow("one op") << QByteArray("matmul:10") << QByteArray("matmul=1/10/10/10/10") << quint64(10);
    QTest::newRow("grouped") << QByteArray("matmul:10 add:3 matmul:30 add:4 matmul:20")
                             << QByteArray("matmul=3/60/10/30/20 add=2/7/3/4/3.5") << quint64(67);
    QTest::newRow("ties by name") << QByteArray("b:5 a:5 c:1") << QByteArray("a=1/5/5/5/5 b=1/5/5/5/5 c=1/1/1/1/1")
                                  << quint64(11);
    QTest::newRow("zero durations") << QByteArray("x:0 x:0") << QByteArray("x=2/0/0/0/0") << quint64(0);
    QTest::newRow("saturating total") << QByteArray("x:18446744073709551615 x:5")
                                      << QByteArray("x=2/18446744073709551615/5/18446744073709551615/9.223372037e+18")
                                      << quint64(18446744073709551615ULL);
}

void tst_OpStatistics::aggregate()
{
    QFETCH(QByteArray, spec);
    QFETCH(QByteArray, expected);
    QFETCH(quint64, total);
    const auto trace = opsTrace(spec);
    QVERIFY(trace);
    const OpStatistics stats = OpStatistics::compute(*trace);
    QCOMPARE(dump(*trace, stats), expected);
    QCOMPARE(stats.totalNs(), total);
    QCOMPARE(stats.opCount(), trace->ops.size());
}

void tst_OpStatistics::fractions()
{
    const auto trace = opsTrace("a:75 b:25");
    QVERIFY(trace);
    const OpStatistics stats = OpStatistics::compute(*trace);
    QCOMPARE(stats.fractionOfTotal(0).value_or(-1), 0.75);
    QCOMPARE(stats.fractionOfTotal(1).value_or(-1), 0.25);
    QVERIFY(!stats.fractionOfTotal(2).has_value());

    const auto zero = opsTrace("a:0");
    QVERIFY(zero);
    QVERIFY(!OpStatistics::compute(*zero).fractionOfTotal(0).has_value());
}

void tst_OpStatistics::example()
{
    QFile file(QStringLiteral(TI_EXAMPLES_DIR "/01_valid_trace10_forward.jsonl"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    const auto trace = TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), "01").trace;
    QVERIFY(trace);
    const OpStatistics stats = OpStatistics::compute(*trace);
    QCOMPARE(dump(*trace, stats), QByteArray("matmul=1/11500/11500/11500/11500"));
}

void tst_OpStatistics::spanSharesWhicheverWaySpansAreFound()
{
    // Spans closed with a duration, closed in no time and open, and ops on each, on a span
    // that does not exist, and between them (a span id index spans several 64-bit words).
    QByteArray text = kMeta;
    QByteArray ops;
    for (int i = 0; i < 200; ++i) {
        const QByteArray id = "s" + QByteArray::number(i);
        text += R"({"kind":"span_start","id":")" + id + R"(","name":"n","start_ns":)" + QByteArray::number(i)
                + R"(,"span_kind":"function"})" + "\n";
        if (i % 5 != 4)
            text += R"({"kind":"span_end","id":")" + id + R"(","duration_ns":)"
                    + QByteArray::number(i % 7 == 0 ? 0 : 40 + i) + "}\n";
        const QByteArray spanOfOp = i % 11 == 3 ? "ghost" + QByteArray::number(i) : id;
        ops += R"({"kind":"op","span_id":")" + spanOfOp + R"(","op_name":")" + (i % 3 == 0 ? "add" : "matmul")
               + R"(","shape":[1],"dtype":"f32","device":"cpu","duration_ns":)" + QByteArray::number(10 + i % 13)
               + R"(,"input_dense_bytes":4})" + "\n";
    }
    text += ops;
    text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":18446744073709551615}\n";
    const auto trace = TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), "s").trace;
    QVERIFY(trace);
    QCOMPARE(trace->spans.size(), std::size_t(200));
    QCOMPARE(trace->ops.size(), std::size_t(200));

    const SpanTree tree = SpanTree::build(*trace);
    const OpStatistics byTree = OpStatistics::compute(*trace, OpGrouping::Name, &tree);
    const OpStatistics byIndex = OpStatistics::compute(*trace, SpanIdIndex::build(*trace));
    const OpStatistics byItself = OpStatistics::compute(*trace);
    // An index of another trace is not used: the statistics find the spans themselves.
    const OpStatistics byOtherIndex = OpStatistics::compute(*trace, SpanIdIndex::build(*opsTrace("a:1")));
    for (const OpStatistics *stats : {&byIndex, &byItself, &byOtherIndex}) {
        QCOMPARE(dump(*trace, *stats), dump(*trace, byTree));
        QCOMPARE(stats->rows().size(), std::size_t(2));
        for (std::size_t r = 0; r < stats->rows().size(); ++r) {
            QCOMPARE(stats->rows()[r].shareCount, byTree.rows()[r].shareCount);
            QCOMPARE(stats->rows()[r].parentShareSum, byTree.rows()[r].parentShareSum);
        }
    }
    // Ops on closed spans of non-zero duration only: 200 less the open (every 5th), the
    // zero-length (every 7th) and the ghosts' (every 11th from 3), counted once each.
    std::uint64_t shares = 0;
    int expected = 0;
    for (int i = 0; i < 200; ++i)
        expected += (i % 5 != 4 && i % 7 != 0 && i % 11 != 3) ? 1 : 0;
    for (const OpNameStatistics &row : byTree.rows())
        shares += row.shareCount;
    QCOMPARE(shares, std::uint64_t(expected));
}

QTEST_GUILESS_MAIN(tst_OpStatistics)
#include "tst_opstatistics.moc"
