// SPDX-License-Identifier: MIT
#include <QTest>

#include <cmath>
#include <limits>

#include "tests/testutils/fixtures.h"
#include "tests/testutils/allocationprobe.h"
#include "tests/testutils/traceloading.h"
#include "core/analysis/tensorevidence.h"
#include "core/analysis/tensorstatsoutliers.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"

using namespace TraceInspector;
using namespace Qt::StringLiterals;

class TestTensorStatsOutliers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rangeLimits_data();
    void rangeLimits();
    void rules_data();
    void rules();
    void scoreOrdersFlags();
    void rulesAreParameters();
    void nothingSizedByTheStringCount();
};

namespace {

// One span `s`; each item `label/dtype/elements/non_finite/rms/abs_max/mean` is a
// tensor_stats record with shape [elements].
QByteArray statsTrace(const QList<QByteArray> &records)
{
    QByteArray text = TestFixtures::kMeta;
    text +=
        "{\"kind\":\"span_start\",\"id\":\"s\",\"name\":\"s\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n";
    for (const QByteArray &r : records) {
        const QList<QByteArray> f = r.split('/');
        text += "{\"kind\":\"tensor_stats\",\"span_id\":\"s\",\"label\":\"" + f[0] + "\",\"shape\":[" + f[2]
                + "],\"dtype\":\"" + f[1] + "\",\"elements\":" + f[2] + ",\"non_finite\":" + f[3] + ",\"rms\":" + f[4]
                + ",\"abs_max\":" + f[5] + ",\"mean\":" + f[6] + "}\n";
    }
    text += "{\"kind\":\"span_end\",\"id\":\"s\",\"duration_ns\":100}\n";
    text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000}\n";
    return text;
}

std::shared_ptr<const Trace> load(const QByteArray &jsonl)
{
    return TestFixtures::traceFrom(jsonl, QStringLiteral("stats.jsonl"));
}

QString flagString(std::uint8_t flags)
{
    QString s;
    if (flags & NonFiniteValues)
        s += u'N';
    if (flags & NearRangeLimit)
        s += u'R';
    if (flags & RmsOutlier)
        s += u'Z';
    return s.isEmpty() ? QStringLiteral("-") : s;
}

} // namespace

void TestTensorStatsOutliers::rangeLimits_data()
{
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<double>("limit"); // 0 = none
    QTest::newRow("f16") << u"f16"_s << 65504.0;
    QTest::newRow("bf16") << u"bf16"_s << 3.3895313892515355e38;
    QTest::newRow("f32") << u"f32"_s << double(std::numeric_limits<float>::max());
    QTest::newRow("f64") << u"f64"_s << std::numeric_limits<double>::max();
    QTest::newRow("i64 has no range rule") << u"i64"_s << 0.0;
    QTest::newRow("u8") << u"u8"_s << 0.0;
    QTest::newRow("case matters as in §7.1") << u"F16"_s << 0.0;
    QTest::newRow("unknown") << u"complex64"_s << 0.0;
}

void TestTensorStatsOutliers::rangeLimits()
{
    QFETCH(QString, dtype);
    QFETCH(double, limit);
    const std::optional<double> got = dtypeRangeLimit(dtype.toStdString());
    QCOMPARE(got.has_value(), limit != 0);
    if (got)
        QCOMPARE(*got, limit);
}

void TestTensorStatsOutliers::rules_data()
{
    QTest::addColumn<QList<QByteArray>>("records");
    // Per record: flags (N non-finite, R near range, Z rms outlier, - none) and whether it has
    // a z-score, separated by spaces.
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QList<bool>>("hasZ");

    QTest::newRow("clean single record") << QList<QByteArray>{"a/f32/4/0/1.0/2.0/0.1"} << QStringList{u"-"_s}
                                         << QList<bool>{false};
    QTest::newRow("any non-finite value flags") << QList<QByteArray>{"a/f32/4/1/1.0/2.0/0.1", "b/f32/4/4/0/0/0"}
                                                << QStringList{u"N"_s, u"N"_s} << QList<bool>{false, false};
    QTest::newRow("f16 abs_max within 4x of 65504 flags")
        << QList<QByteArray>{"a/f16/4/0/1.0/16375/0", "b/f16/4/0/1.0/16376/0", "c/f16/4/0/1.0/65504/0"}
        << QStringList{u"-"_s, u"R"_s, u"R"_s} << QList<bool>{false, false, false};
    QTest::newRow("the same abs_max is harmless in f32 and bf16")
        << QList<QByteArray>{"a/f32/4/0/1.0/65504/0", "b/bf16/4/0/1.0/65504/0"} << QStringList{u"-"_s, u"-"_s}
        << QList<bool>{false, false};
    QTest::newRow("bf16 and f32 near their limits")
        << QList<QByteArray>{"a/bf16/1/0/1e38/1e38/1e38", "b/f32/1/0/1e38/1e38/1e38", "c/f32/1/0/1e37/1e37/1e37"}
        << QStringList{u"R"_s, u"R"_s, u"-"_s} << QList<bool>{false, false, false};
    QTest::newRow("integer dtypes have no range rule")
        << QList<QByteArray>{"a/i64/1/0/1e300/1e300/1e300"} << QStringList{u"-"_s} << QList<bool>{false};
    QTest::newRow("three records of a label are too few for a z-score")
        << QList<QByteArray>{"a/f32/4/0/1.0/1/0", "a/f32/4/0/1.1/1/0", "a/f32/4/0/50/50/0"}
        << QStringList{u"-"_s, u"-"_s, u"-"_s} << QList<bool>{false, false, false};
    QTest::newRow("an exploding rms among its label")
        << QList<QByteArray>{"a/f32/4/0/1.0/1/0", "a/f32/4/0/1.1/1/0", "a/f32/4/0/0.9/1/0", "a/f32/4/0/1.05/1/0",
                             "a/f32/4/0/50/50/0"}
        << QStringList{u"-"_s, u"-"_s, u"-"_s, u"-"_s, u"Z"_s} << QList<bool>{true, true, true, true, true};
    QTest::newRow("a collapsing rms is an outlier too")
        << QList<QByteArray>{"a/f32/4/0/1.0/1/0", "a/f32/4/0/1.01/1/0", "a/f32/4/0/0.99/1/0", "a/f32/4/0/1.0/1/0",
                             "a/f32/4/0/0.0/0/0"}
        << QStringList{u"-"_s, u"-"_s, u"-"_s, u"-"_s, u"Z"_s} << QList<bool>{true, true, true, true, true};
    QTest::newRow("labels are compared only with themselves")
        << QList<QByteArray>{"a/f32/4/0/1/1/0",    "a/f32/4/0/1.1/1/0",  "b/f32/4/0/50/50/0",
                             "a/f32/4/0/0.95/1/0", "a/f32/4/0/1.05/1/0", "b/f32/4/0/51/51/0"}
        << QStringList{u"-"_s, u"-"_s, u"-"_s, u"-"_s, u"-"_s, u"-"_s}
        << QList<bool>{true, true, false, true, true, false};
    QTest::newRow("equal values have no spread and no z")
        << QList<QByteArray>{"a/f32/4/0/2/2/0", "a/f32/4/0/2/2/0", "a/f32/4/0/2/2/0", "a/f32/4/0/2/2/0"}
        << QStringList{u"-"_s, u"-"_s, u"-"_s, u"-"_s} << QList<bool>{false, false, false, false};
    QTest::newRow("one differing value among equal ones is infinitely far")
        << QList<QByteArray>{"a/f32/4/0/2/2/0", "a/f32/4/0/2/2/0", "a/f32/4/0/2/2/0", "a/f32/4/0/3/3/0"}
        << QStringList{u"-"_s, u"-"_s, u"-"_s, u"Z"_s} << QList<bool>{true, true, true, true};
    QTest::newRow("flags combine") << QList<QByteArray>{"a/f16/4/0/1.0/1/0", "a/f16/4/0/1.1/1/0", "a/f16/4/0/0.9/1/0",
                                                        "a/f16/4/0/1.05/1/0", "a/f16/4/2/3000/60000/0"}
                                   << QStringList{u"-"_s, u"-"_s, u"-"_s, u"-"_s, u"NRZ"_s}
                                   << QList<bool>{true, true, true, true, true};
}

void TestTensorStatsOutliers::rules()
{
    QFETCH(QList<QByteArray>, records);
    QFETCH(QStringList, flags);
    QFETCH(QList<bool>, hasZ);
    const auto trace = load(statsTrace(records));
    QVERIFY(trace);
    QCOMPARE(trace->tensorStats.size(), std::size_t(records.size()));
    const std::vector<TensorStatsVerdict> verdicts = evaluateTensorStats(*trace);
    QCOMPARE(verdicts.size(), trace->tensorStats.size());
    for (qsizetype i = 0; i < records.size(); ++i) {
        const TensorStatsVerdict &v = verdicts[std::size_t(i)];
        QVERIFY2(
            flagString(v.flags) == flags[i],
            qPrintable(QStringLiteral("record %1: flags %2, expected %3").arg(i).arg(flagString(v.flags), flags[i])));
        QVERIFY2(v.rmsZ.has_value() == hasZ[i], qPrintable(QStringLiteral("record %1: z-score presence").arg(i)));
        QVERIFY(v.score >= 0);
        QCOMPARE(v.flags != 0, v.score >= 1.0);
    }
}

void TestTensorStatsOutliers::scoreOrdersFlags()
{
    // Non-finite outranks near-range, which outranks an rms outlier, which outranks clean.
    const auto trace =
        load(statsTrace({"a/f32/4/0/1.0/1/0", "a/f32/4/0/1.1/1/0", "a/f32/4/0/0.9/1/0", "a/f32/4/0/1.05/1/0",
                         "a/f32/4/0/50/50/0", "r/f16/4/0/1/60000/0", "n/f32/4/1/1/1/0", "c/f32/4/0/1/1/0"}));
    QVERIFY(trace);
    const auto v = evaluateTensorStats(*trace);
    QVERIFY(v[6].score > v[5].score);
    QVERIFY(v[5].score > v[4].score);
    QVERIFY(v[4].score > v[7].score);
    QVERIFY(v[4].score > v[0].score);
    QVERIFY(v[4].rmsZ && *v[4].rmsZ > 3);
    QCOMPARE(v[5].rangeFraction.value(), 60000.0 / 65504.0);
}

void TestTensorStatsOutliers::rulesAreParameters()
{
    const auto trace = load(statsTrace({"a/f16/4/0/1/20000/0"}));
    QVERIFY(trace);
    QCOMPARE(evaluateTensorStats(*trace).front().flags, std::uint8_t(NearRangeLimit));
    TensorStatsRules strict;
    strict.rangeHeadroom = 2; // only within 2x of the limit
    QCOMPARE(evaluateTensorStats(*trace, strict).front().flags, std::uint8_t(0));
}

void TestTensorStatsOutliers::nothingSizedByTheStringCount()
{
    // 60 thousand span ids and a handful of tensor records: the evidence analyses index the
    // few keys they look up, not every interned string (tables of 4 bytes a string were
    // ~20 MB at once on the 1 GB trace, for its 7 thousand tensors).
    QByteArray jsonl = statsTrace({"a/f32/10/0/1.0/1.0/0.0", "a/f32/10/0/1.1/1.0/0.0", "b/f32/10/0/1.0/1.0/0.0"});
    jsonl.truncate(jsonl.indexOf("{\"kind\":\"span_end\""));
    for (int i = 0; i < 60000; ++i)
        jsonl += "{\"kind\":\"span_start\",\"id\":\"x" + QByteArray::number(i)
                 + "\",\"parent_id\":\"s\",\"name\":\"n\","
                   "\"start_ns\":1,\"span_kind\":\"function\",\"measured\":false}\n";
    jsonl += "{\"kind\":\"tensor\",\"span_id\":\"x7\",\"tensor_id\":\"t1\",\"label\":\"w\",\"shape\":[2],"
             "\"dtype\":\"f32\",\"device\":\"cpu\",\"category\":\"parameter\"}\n";
    jsonl += "{\"kind\":\"span_end\",\"id\":\"s\",\"duration_ns\":100}\n";
    jsonl += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000}\n";
    const auto trace = load(jsonl);
    QVERIFY(trace);
    QVERIFY(trace->strings.size() > 60000);
    QCOMPARE(trace->tensors.size(), std::size_t(1));
    TestFixtures::AllocationProbe probe;
    const std::vector<TensorStatsVerdict> verdicts = evaluateTensorStats(*trace);
    const TensorEvidence evidence = analyzeTensorEvidence(*trace, nullptr);
    probe.stop();
    QCOMPARE(verdicts.size(), std::size_t(3));
    QCOMPARE(evidence.spanIndex.size(), std::size_t(1));
    QCOMPARE(evidence.spanIndex[0], std::uint32_t(trace->findSpan(std::string_view("x7"))));
    QVERIFY2(probe.largest() < 4096, qPrintable(QString::number(probe.largest())));
}

QTEST_GUILESS_MAIN(TestTensorStatsOutliers)
#include "tst_tensorstatsoutliers.moc"
