// SPDX-License-Identifier: MIT
#include <QTest>

#include <random>

#include "core/timeline/timelineruler.h"

using namespace TraceInspector;

class tst_TimelineRuler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void label_data();
    void label();
    void scale_data();
    void scale();
    void neighboursAlwaysDiffer_data();
    void neighboursAlwaysDiffer();
    void rangeLabel_data();
    void rangeLabel();
    void durationLabel_data();
    void durationLabel();
};

namespace {

// Thin spaces group the fraction; tests spell them as '_'.
QString readable(const std::string &label)
{
    return QString::fromStdString(label).replace(QChar(0x2009), u'_').replace(QChar(0x2013), u'-');
}

/// Parses a label back to ns (inverse of formatRulerLabel for exact labels).
std::uint64_t parseLabel(const std::string &label)
{
    QString s = QString::fromStdString(label).remove(QChar(0x2009));
    const qsizetype space = s.lastIndexOf(u' ');
    const QString unit = s.mid(space + 1);
    s.truncate(space);
    const std::uint64_t per = unit == u"s"                        ? 1000000000
                              : unit == u"ms"                     ? 1000000
                              : unit == QStringLiteral("\u00B5s") ? 1000
                                                                  : 1;
    const qsizetype dot = s.indexOf(u'.');
    std::uint64_t whole = (dot < 0 ? s : s.left(dot)).toULongLong();
    std::uint64_t frac = 0;
    if (dot >= 0) {
        QString f = s.mid(dot + 1);
        std::uint64_t scale = per;
        for (QChar c : f) {
            scale /= 10;
            frac += std::uint64_t(c.digitValue()) * scale;
        }
    }
    return whole * per + frac;
}

} // namespace

void tst_TimelineRuler::label_data()
{
    QTest::addColumn<quint64>("ns");
    QTest::addColumn<int>("unit");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("expected");
    QTest::newRow("0 ns") << quint64(0) << int(RulerUnit::Nanoseconds) << 0 << QStringLiteral("0 ns");
    QTest::newRow("ns") << quint64(750) << int(RulerUnit::Nanoseconds) << 0 << QStringLiteral("750 ns");
    QTest::newRow("µs whole") << quint64(51000) << int(RulerUnit::Microseconds) << 0 << QStringLiteral("51 \u00B5s");
    QTest::newRow("µs to 10 ns") << quint64(51230) << int(RulerUnit::Microseconds) << 2
                                 << QStringLiteral("51.23 \u00B5s");
    QTest::newRow("ms to 1 ns") << quint64(12300004) << int(RulerUnit::Milliseconds) << 6
                                << QStringLiteral("12.300_004 ms");
    QTest::newRow("late in 13 s to 1 ns")
        << quint64(12345678912) << int(RulerUnit::Seconds) << 9 << QStringLiteral("12.345_678_912 s");
    QTest::newRow("late in 13 s to 10 ns")
        << quint64(12345678910) << int(RulerUnit::Seconds) << 8 << QStringLiteral("12.345_678_91 s");
    QTest::newRow("seconds whole") << quint64(13000000000) << int(RulerUnit::Seconds) << 0 << QStringLiteral("13 s");
    QTest::newRow("leading zeros kept") << quint64(1000000005) << int(RulerUnit::Seconds) << 9
                                        << QStringLiteral("1.000_000_005 s");
}

void tst_TimelineRuler::label()
{
    QFETCH(quint64, ns);
    QFETCH(int, unit);
    QFETCH(int, decimals);
    QFETCH(QString, expected);
    const std::string text = formatRulerLabel(ns, RulerUnit(unit), decimals);
    QCOMPARE(readable(text), expected);
    QCOMPARE(rulerLabelLength(ns, RulerUnit(unit), decimals), std::size_t(QString::fromStdString(text).size()));
}

void tst_TimelineRuler::scale_data()
{
    QTest::addColumn<quint64>("begin");
    QTest::addColumn<quint64>("end");
    QTest::addColumn<double>("width");
    QTest::addColumn<quint64>("step");
    QTest::addColumn<QString>("labels"); // first three labels

    QTest::newRow("whole 13 s run") << quint64(0) << quint64(13000000000) << 1300.0 << quint64(1000000000)
                                    << QStringLiteral("0 s|1 s|2 s");
    QTest::newRow("one micro-batch, 20 ms at 12 s") << quint64(12000000000) << quint64(12020000000) << 1000.0
                                                    << quint64(2000000) << QStringLiteral("12.000 s|12.002 s|12.004 s");
    QTest::newRow("one op, 1 µs at 12.345 s") << quint64(12345678000) << quint64(12345679000) << 1000.0 << quint64(200)
                                              << QStringLiteral("12.345_678_0 s|12.345_678_2 s|12.345_678_4 s");
    QTest::newRow("100 ns late in 13 s") << quint64(12999999900) << quint64(13000000000) << 1000.0 << quint64(20)
                                         << QStringLiteral("12.999_999_90 s|12.999_999_92 s|12.999_999_94 s");
    QTest::newRow("20 ns late in 13 s, single ns")
        << quint64(12999999980) << quint64(13000000000) << 1600.0 << quint64(2)
        << QStringLiteral("12.999_999_980 s|12.999_999_982 s|12.999_999_984 s");
    QTest::newRow("microseconds near 0") << quint64(0) << quint64(500000) << 1000.0 << quint64(50000)
                                         << QStringLiteral("0 \u00B5s|50 \u00B5s|100 \u00B5s");
    QTest::newRow("nanoseconds near 0") << quint64(0) << quint64(100) << 1000.0 << quint64(10)
                                        << QStringLiteral("0 ns|10 ns|20 ns");
}

void tst_TimelineRuler::scale()
{
    QFETCH(quint64, begin);
    QFETCH(quint64, end);
    QFETCH(double, width);
    QFETCH(quint64, step);
    QFETCH(QString, labels);
    const RulerScale s = computeRulerScale({begin, end}, width, 7.0);
    QCOMPARE(s.stepNs, step);
    QVERIFY(s.ticks.size() >= 3);
    QStringList got;
    for (std::size_t i = 0; i < 3; ++i)
        got << readable(formatRulerLabel(s.ticks[i] - s.origin, s.unit, s.decimals));
    QCOMPARE(got.join(u'|'), labels);
    QVERIFY(s.minorStepNs > 0 && s.stepNs % s.minorStepNs == 0);
}

void tst_TimelineRuler::neighboursAlwaysDiffer_data()
{
    QTest::addColumn<quint64>("runLength");
    QTest::addColumn<quint64>("origin");
    QTest::newRow("13 s run") << quint64(13000000000) << quint64(0);
    QTest::newRow("2 ms run") << quint64(2000000) << quint64(0);
    QTest::newRow("device clock origin 1.7e18") << quint64(13000000000) << quint64(1700000000000000000);
}

void tst_TimelineRuler::neighboursAlwaysDiffer()
{
    QFETCH(quint64, runLength);
    QFETCH(quint64, origin);
    std::mt19937_64 rng(42);
    for (int round = 0; round < 2000; ++round) {
        const std::uint64_t length = 1 + rng() % (rng() % 2 ? runLength : 1000);
        const std::uint64_t begin = origin + rng() % (runLength - std::min<std::uint64_t>(length, runLength - 1));
        const double width = 200 + double(rng() % 1800);
        const double charWidth = 5 + double(rng() % 5);
        const RulerScale s = computeRulerScale({begin, begin + length}, width, charWidth, origin);
        QVERIFY(s.stepNs > 0);
        std::string previous;
        for (std::size_t i = 0; i < s.ticks.size(); ++i) {
            const std::uint64_t t = s.ticks[i];
            QVERIFY(t >= begin && t < begin + length);
            QCOMPARE(t % s.stepNs, origin % s.stepNs);
            const std::string label = formatRulerLabel(t - origin, s.unit, s.decimals);
            // Exact: the label reads back as the tick's time, so it never rounds a digit away.
            QCOMPARE(parseLabel(label), t - origin);
            QVERIFY(label != previous);
            // Labels fit between ticks.
            QVERIFY(double(s.stepNs) * width / double(length)
                    >= double(QString::fromStdString(label).size()) * charWidth);
            previous = label;
        }
    }
}

void tst_TimelineRuler::rangeLabel_data()
{
    QTest::addColumn<quint64>("begin");
    QTest::addColumn<quint64>("end");
    QTest::addColumn<QString>("expected");
    QTest::newRow("issue example") << quint64(12300000) << quint64(14910000)
                                   << QStringLiteral("12.300-14.910 ms, 2.61 ms");
    QTest::newRow("ns") << quint64(100) << quint64(350) << QStringLiteral("100-350 ns, 250 ns");
    QTest::newRow("short range late in a run keeps ns")
        << quint64(12345678901) << quint64(12345679153) << QStringLiteral("12.345_678_901-12.345_679_153 s, 252 ns");
    QTest::newRow("seconds") << quint64(1000000000) << quint64(13000000000) << QStringLiteral("1.000-13.000 s, 12.0 s");
}

void tst_TimelineRuler::rangeLabel()
{
    QFETCH(quint64, begin);
    QFETCH(quint64, end);
    QFETCH(QString, expected);
    QCOMPARE(readable(formatRangeLabel({begin, end})), expected);
}

void tst_TimelineRuler::durationLabel_data()
{
    QTest::addColumn<quint64>("ns");
    QTest::addColumn<QString>("expected");
    QTest::newRow("0") << quint64(0) << QStringLiteral("0 ns");
    QTest::newRow("999") << quint64(999) << QStringLiteral("999 ns");
    QTest::newRow("1 µs") << quint64(1000) << QStringLiteral("1.00 \u00B5s");
    QTest::newRow("9.999 µs rounds to 10.0") << quint64(9999) << QStringLiteral("10.0 \u00B5s");
    QTest::newRow("999.9 µs rounds to 1.00 ms") << quint64(999900) << QStringLiteral("1.00 ms");
    QTest::newRow("2.61 ms") << quint64(2610000) << QStringLiteral("2.61 ms");
    QTest::newRow("13 s") << quint64(13000000000) << QStringLiteral("13.0 s");
}

void tst_TimelineRuler::durationLabel()
{
    QFETCH(quint64, ns);
    QFETCH(QString, expected);
    QCOMPARE(readable(formatDurationLabel(ns)), expected);
}

QTEST_GUILESS_MAIN(tst_TimelineRuler)
#include "tst_timelineruler.moc"
