// SPDX-License-Identifier: MIT
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

#include "core/analysis/format.h"

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

QTEST_GUILESS_MAIN(tst_Format)
#include "tst_format.moc"
