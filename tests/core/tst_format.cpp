// SPDX-License-Identifier: MIT
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

#include "core/display/format.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"

using namespace TraceInspector;

class tst_Format : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void duration_data();
    void duration();
    void timestamp_data();
    void timestamp();
    void bytes_data();
    void bytes();
    void percent_data();
    void percent();
    void shape_data();
    void shape();
    void count_data();
    void count();
    void textFilter_data();
    void textFilter();
    void timePoint_data();
    void timePoint();
    void timePointTellsNeighboursApart();
    void widestTimePoint();
    void durationIn_data();
    void durationIn();
    void measuredTime_data();
    void measuredTime();
};

void tst_Format::duration_data()
{
    QTest::addColumn<quint64>("ns");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << quint64(0) << QStringLiteral("0 ns");
    QTest::newRow("below 1 us") << quint64(999) << QStringLiteral("999 ns");
    QTest::newRow("1 us") << quint64(1000) << QStringLiteral("1.00 \u00B5s");
    QTest::newRow("three digits") << quint64(1234) << QStringLiteral("1.23 \u00B5s");
    QTest::newRow("rounds up to 10") << quint64(9999) << QStringLiteral("10.0 \u00B5s");
    QTest::newRow("tens") << quint64(12345) << QStringLiteral("12.3 \u00B5s");
    QTest::newRow("rounds up to 100") << quint64(99960) << QStringLiteral("100 \u00B5s");
    QTest::newRow("hundreds") << quint64(999499) << QStringLiteral("999 \u00B5s");
    QTest::newRow("carries to ms") << quint64(999500) << QStringLiteral("1.00 ms");
    QTest::newRow("ms") << quint64(1500000) << QStringLiteral("1.50 ms");
    QTest::newRow("example span") << quint64(50000) << QStringLiteral("50.0 \u00B5s");
    QTest::newRow("1 s") << quint64(1000000000) << QStringLiteral("1.00 s");
    QTest::newRow("many seconds") << quint64(12345678901234) << QStringLiteral("12346 s");
    QTest::newRow("u64 max") << std::numeric_limits<quint64>::max() << QStringLiteral("18446744074 s");
}

void tst_Format::duration()
{
    QFETCH(quint64, ns);
    QFETCH(QString, expected);
    QCOMPARE(formatDuration(ns), expected);
}

void tst_Format::timestamp_data()
{
    QTest::addColumn<quint64>("ns");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << quint64(0) << QStringLiteral("0 ns");
    QTest::newRow("ns") << quint64(999) << QStringLiteral("999 ns");
    QTest::newRow("1 us") << quint64(1000) << QStringLiteral("1.000 \u00B5s");
    QTest::newRow("us") << quint64(2100) << QStringLiteral("2.100 \u00B5s");
    QTest::newRow("tens of us") << quint64(51200) << QStringLiteral("51.200 \u00B5s");
    QTest::newRow("just below 1 ms") << quint64(999999) << QStringLiteral("999.999 \u00B5s");
    QTest::newRow("rounds to ms") << quint64(1234567) << QStringLiteral("1.235 ms");
    QTest::newRow("carries to s") << quint64(999999999) << QStringLiteral("1.000 s");
    QTest::newRow("s") << quint64(61234567890) << QStringLiteral("61.235 s");
    QTest::newRow("u64 max") << std::numeric_limits<quint64>::max() << QStringLiteral("18446744073.710 s");
}

void tst_Format::timestamp()
{
    QFETCH(quint64, ns);
    QFETCH(QString, expected);
    QCOMPARE(formatTimestamp(ns), expected);
}

void tst_Format::bytes_data()
{
    QTest::addColumn<quint64>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << quint64(0) << QStringLiteral("0 B");
    QTest::newRow("below KiB") << quint64(1023) << QStringLiteral("1023 B");
    QTest::newRow("1 KiB") << quint64(1024) << QStringLiteral("1.00 KiB");
    QTest::newRow("bf16 activation") << quint64(393216) << QStringLiteral("384 KiB");
    QTest::newRow("1022 KiB stays") << quint64(1022 * 1024) << QStringLiteral("1022 KiB");
    QTest::newRow("carries to MiB") << quint64(1048575) << QStringLiteral("1.00 MiB");
    QTest::newRow("1.5 GiB") << quint64(3) * (quint64(1) << 29) << QStringLiteral("1.50 GiB");
    QTest::newRow("u64 max") << std::numeric_limits<quint64>::max() << QStringLiteral("16.0 EiB");
}

void tst_Format::bytes()
{
    QFETCH(quint64, bytes);
    QFETCH(QString, expected);
    QCOMPARE(formatBytes(bytes), expected);
}

void tst_Format::percent_data()
{
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0%");
    QTest::newRow("tiny") << 0.0001 << QStringLiteral("<0.1%");
    QTest::newRow("one decimal") << 0.123 << QStringLiteral("12.3%");
    QTest::newRow("all") << 1.0 << QStringLiteral("100.0%");
    QTest::newRow("more than all") << 2.5 << QStringLiteral("250.0%");
    QTest::newRow("nan") << std::nan("") << QStringLiteral("n/a");
    QTest::newRow("negative") << -0.1 << QStringLiteral("n/a");
}

void tst_Format::percent()
{
    QFETCH(double, fraction);
    QFETCH(QString, expected);
    QCOMPARE(formatPercent(fraction), expected);
}

void tst_Format::shape_data()
{
    QTest::addColumn<QList<quint64>>("dims");
    QTest::addColumn<QString>("expected");
    QTest::newRow("scalar") << QList<quint64>{} << QStringLiteral("[]");
    QTest::newRow("vector") << QList<quint64>{7} << QStringLiteral("[7]");
    QTest::newRow("activation") << QList<quint64>{2, 128, 768} << QStringLiteral("[2, 128, 768]");
    QTest::newRow("zero dim") << QList<quint64>{0, 3} << QStringLiteral("[0, 3]");
}

void tst_Format::shape()
{
    QFETCH(QList<quint64>, dims);
    QFETCH(QString, expected);
    const std::vector<std::uint64_t> v(dims.begin(), dims.end());
    QCOMPARE(formatShape(v), expected);
}

void tst_Format::count_data()
{
    QTest::addColumn<quint64>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << quint64(0) << QStringLiteral("0");
    QTest::newRow("three digits") << quint64(999) << QStringLiteral("999");
    QTest::newRow("thousand") << quint64(1000) << QStringLiteral("1,000");
    QTest::newRow("million") << quint64(1234567) << QStringLiteral("1,234,567");
}

void tst_Format::count()
{
    QFETCH(quint64, value);
    QFETCH(QString, expected);
    QCOMPARE(formatCount(value), expected);
}

void tst_Format::textFilter_data()
{
    QTest::addColumn<QString>("needle");
    QTest::addColumn<QString>("haystack");
    QTest::addColumn<bool>("matches");
    QTest::newRow("empty matches all") << QString() << QStringLiteral("anything") << true;
    QTest::newRow("blank is empty") << QStringLiteral("   ") << QStringLiteral("x") << true;
    QTest::newRow("case-insensitive") << QStringLiteral("MatMul") << QStringLiteral("aten::matmul") << true;
    QTest::newRow("trimmed") << QStringLiteral("  soft ") << QStringLiteral("log_softmax") << true;
    QTest::newRow("no match") << QStringLiteral("conv") << QStringLiteral("matmul") << false;
    QTest::newRow("longer than text") << QStringLiteral("matmul2") << QStringLiteral("matmul") << false;
    QTest::newRow("empty text") << QStringLiteral("a") << QString() << false;
    QTest::newRow("ascii needle in utf-8 text") << QStringLiteral("fe") << QStringLiteral("caf\u00E9 fe") << true;
    QTest::newRow("non-ascii needle folds") << QStringLiteral("CAF\u00C9") << QStringLiteral("le caf\u00E9") << true;
    QTest::newRow("non-ascii mismatch") << QStringLiteral("\u00E9t\u00E9") << QStringLiteral("ete") << false;
}

void tst_Format::textFilter()
{
    QFETCH(QString, needle);
    QFETCH(QString, haystack);
    QFETCH(bool, matches);
    const QByteArray utf8 = haystack.toUtf8();
    QCOMPARE(TextFilter(needle).matches(std::string_view(utf8.constData(), std::size_t(utf8.size()))), matches);
}

namespace {
// Narrow no-break space, the digit group separator.
QString g(const char *text)
{
    return QString::fromUtf8(text).replace(u'_', QChar(0x202F));
}
} // namespace

void tst_Format::timePoint_data()
{
    QTest::addColumn<quint64>("ns");
    QTest::addColumn<TimeUnit>("unit");
    QTest::addColumn<bool>("withUnit");
    QTest::addColumn<QString>("expected");
    QTest::newRow("auto ns") << quint64(999) << TimeUnit::Auto << true << QStringLiteral("999 ns");
    QTest::newRow("auto zero") << quint64(0) << TimeUnit::Auto << true << QStringLiteral("0 ns");
    QTest::newRow("auto us") << quint64(2100) << TimeUnit::Auto << true << QStringLiteral("2.100 \u00B5s");
    QTest::newRow("auto ms") << quint64(1234567) << TimeUnit::Auto << true << g("1.234_567 ms");
    QTest::newRow("auto s, the issue's example")
        << quint64(13131852417) << TimeUnit::Auto << true << g("13.131_852_417 s");
    QTest::newRow("auto never rounds up") << quint64(999999999) << TimeUnit::Auto << true << g("999.999_999 ms");
    QTest::newRow("auto unit always shown")
        << quint64(2100) << TimeUnit::Auto << false << QStringLiteral("2.100 \u00B5s");
    QTest::newRow("fixed s, small") << quint64(2100) << TimeUnit::Seconds << true << g("0.000_002_100 s");
    QTest::newRow("fixed ms") << quint64(13131852417) << TimeUnit::Milliseconds << true << g("13_131.852_417 ms");
    QTest::newRow("fixed us without unit")
        << quint64(51200) << TimeUnit::Microseconds << false << QStringLiteral("51.200");
    QTest::newRow("fixed ns grouped") << quint64(13131852417) << TimeUnit::Nanoseconds << true
                                      << g("13_131_852_417 ns");
    QTest::newRow("four digits stay together")
        << quint64(1234) << TimeUnit::Nanoseconds << true << QStringLiteral("1234 ns");
    QTest::newRow("u64 max") << std::numeric_limits<quint64>::max() << TimeUnit::Auto << true
                             << g("18_446_744_073.709_551_615 s");
}

void tst_Format::timePoint()
{
    QFETCH(quint64, ns);
    QFETCH(TimeUnit, unit);
    QFETCH(bool, withUnit);
    QFETCH(QString, expected);
    QCOMPARE(formatTimePoint(ns, unit, withUnit), expected);
}

void tst_Format::timePointTellsNeighboursApart()
{
    // Ops 1 ns apart late in a run read differently (the three-decimal form said "13.132 s").
    for (const TimeUnit unit : {TimeUnit::Auto, TimeUnit::Seconds, TimeUnit::Milliseconds})
        QVERIFY(formatTimePoint(13131852417, unit) != formatTimePoint(13131852418, unit));
}

void tst_Format::widestTimePoint()
{
    // Up to 25.5 s the seconds form is the longest; up to 2 ms a value just under 1 ms is.
    QCOMPARE(TraceInspector::widestTimePoint(25527748201), g("25.527_748_201 s"));
    QCOMPARE(TraceInspector::widestTimePoint(2000000), g("2.000_000 ms"));
    QCOMPARE(TraceInspector::widestTimePoint(1500000000), g("1.500_000_000 s"));
    QCOMPARE(TraceInspector::widestTimePoint(500), QStringLiteral("500 ns"));
    QCOMPARE(TraceInspector::widestTimePoint(123456789, TimeUnit::Seconds, false), g("0.123_456_789"));
}

void tst_Format::durationIn_data()
{
    QTest::addColumn<quint64>("ns");
    QTest::addColumn<TimeUnit>("unit");
    QTest::addColumn<QString>("expected");
    QTest::newRow("auto is compact") << quint64(11500) << TimeUnit::Auto << QStringLiteral("11.5 \u00B5s");
    QTest::newRow("fixed us is exact") << quint64(11500) << TimeUnit::Microseconds << QStringLiteral("11.500 \u00B5s");
    QTest::newRow("fixed ms") << quint64(11500) << TimeUnit::Milliseconds << g("0.011_500 ms");
}

void tst_Format::durationIn()
{
    QFETCH(quint64, ns);
    QFETCH(TimeUnit, unit);
    QFETCH(QString, expected);
    QCOMPARE(formatDurationIn(ns, unit), expected);
}

void tst_Format::measuredTime_data()
{
    QTest::addColumn<QByteArray>("spans"); // one `span_start` json object per line, `|` ends it
    QTest::addColumn<quint64>("total");
    QTest::addColumn<QString>("expected");
    const QByteArray closed =
        R"({"kind":"span_start","id":"a","name":"a","start_ns":0,"span_kind":"function","measured":true})"
        "\n"
        R"({"kind":"span_end","id":"a","duration_ns":50000})";
    const QByteArray open =
        R"({"kind":"span_start","id":"a","name":"a","start_ns":0,"span_kind":"function","measured":true})";
    const QByteArray unmeasured =
        R"({"kind":"span_start","id":"a","name":"a","start_ns":0,"span_kind":"function","measured":false})";
    QTest::newRow("measured") << closed << quint64(50000) << QStringLiteral("measured 50.0 \u00B5s");
    QTest::newRow("no measured span") << unmeasured << quint64(0)
                                      << QStringLiteral("measured time unknown (no measured span)");
    QTest::newRow("no span at all") << QByteArray() << quint64(0)
                                    << QStringLiteral("measured time unknown (no measured span)");
    QTest::newRow("never ended") << open << quint64(0)
                                 << QStringLiteral("measured time unknown (measured spans never ended)");
}

void tst_Format::measuredTime()
{
    QFETCH(QByteArray, spans);
    QFETCH(quint64, total);
    QFETCH(QString, expected);
    const QByteArray text =
        R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}})"
        "\n"
        + spans
        + "\n"
          R"({"kind":"terminal","outcome":"complete","timestamp_ns":100000})"
          "\n";
    const ReadResult r =
        TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), "m.jsonl");
    QVERIFY(r.trace);
    QCOMPARE(measuredTimeText(*r.trace, total), expected);
}

QTEST_GUILESS_MAIN(tst_Format)
#include "tst_format.moc"
