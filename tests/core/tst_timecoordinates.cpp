// SPDX-License-Identifier: MIT
#include <QTest>

#include <random>

#include "core/analysis/timecoordinates.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(TraceInspector::TimeWindow)

namespace TraceInspector {
// For readable QCOMPARE failures.
char *toString(const TimeWindow &w)
{
    return QTest::toString(QByteArray("[") + QByteArray::number(quint64(w.begin)) + ", "
                           + QByteArray::number(quint64(w.end)) + ")");
}
} // namespace TraceInspector

namespace {
constexpr std::uint64_t kMax = UINT64_MAX;
}

class TstTimeCoordinates : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bucketStart_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<int>("bucket");
        QTest::addColumn<quint64>("expected");
        QTest::newRow("first") << TimeWindow{100, 200} << 10 << 0 << quint64(100);
        QTest::newRow("middle") << TimeWindow{100, 200} << 10 << 5 << quint64(150);
        QTest::newRow("end") << TimeWindow{100, 200} << 10 << 10 << quint64(200);
        QTest::newRow("uneven floors") << TimeWindow{0, 3} << 2 << 1 << quint64(1);
        QTest::newRow("more buckets than ns") << TimeWindow{0, 3} << 10 << 4 << quint64(1);
        QTest::newRow("clamped below") << TimeWindow{5, 9} << 4 << -3 << quint64(5);
        QTest::newRow("clamped above") << TimeWindow{5, 9} << 4 << 7 << quint64(9);
        QTest::newRow("huge window no overflow")
            << TimeWindow{0, kMax} << 1000 << 999 << quint64(18428297329635842063ull);
        QTest::newRow("empty window") << TimeWindow{7, 7} << 4 << 2 << quint64(7);
        QTest::newRow("no buckets") << TimeWindow{7, 9} << 0 << 0 << quint64(7);
    }
    void bucketStart()
    {
        QFETCH(TimeWindow, window);
        QFETCH(int, buckets);
        QFETCH(int, bucket);
        QFETCH(quint64, expected);
        QCOMPARE(quint64(TraceInspector::bucketStart(window, buckets, bucket)), expected);
    }

    void bucketIndex_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<quint64>("time");
        QTest::addColumn<int>("expected");
        QTest::newRow("start") << TimeWindow{100, 200} << 10 << quint64(100) << 0;
        QTest::newRow("just before boundary") << TimeWindow{100, 200} << 10 << quint64(109) << 0;
        QTest::newRow("on boundary") << TimeWindow{100, 200} << 10 << quint64(110) << 1;
        QTest::newRow("last ns") << TimeWindow{100, 200} << 10 << quint64(199) << 9;
        QTest::newRow("end is outside") << TimeWindow{100, 200} << 10 << quint64(200) << -1;
        QTest::newRow("before is outside") << TimeWindow{100, 200} << 10 << quint64(99) << -1;
        QTest::newRow("uneven: start(1)=1") << TimeWindow{0, 3} << 2 << quint64(1) << 1;
        QTest::newRow("uneven: 2 in bucket 1") << TimeWindow{0, 3} << 2 << quint64(2) << 1;
        QTest::newRow("more buckets than ns: last wins") << TimeWindow{0, 3} << 10 << quint64(1) << 6;
        QTest::newRow("huge window") << TimeWindow{0, kMax} << 1000 << quint64(kMax - 1) << 999;
        QTest::newRow("empty window") << TimeWindow{5, 5} << 3 << quint64(5) << -1;
    }
    void bucketIndex()
    {
        QFETCH(TimeWindow, window);
        QFETCH(int, buckets);
        QFETCH(quint64, time);
        QFETCH(int, expected);
        QCOMPARE(TraceInspector::bucketIndex(window, buckets, time), expected);
    }

    void bucketIndexInvertsBucketStart()
    {
        std::mt19937_64 rng(42);
        for (int round = 0; round < 2000; ++round) {
            std::uint64_t begin = rng() >> (rng() % 64);
            if (begin == kMax)
                --begin;
            const std::uint64_t len = 1 + (rng() >> (rng() % 64)) % (kMax - begin);
            const TimeWindow w{begin, begin + len};
            const int buckets = 1 + int(rng() % 3000);
            for (int k = 0; k < 8; ++k) {
                const std::uint64_t t = w.begin + rng() % len;
                const int b = TraceInspector::bucketIndex(w, buckets, t);
                QVERIFY(b >= 0 && b < buckets);
                QVERIFY(TraceInspector::bucketStart(w, buckets, b) <= t);
                QVERIFY(t < TraceInspector::bucketStart(w, buckets, b + 1));
            }
        }
    }

    void timeToX_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<double>("width");
        QTest::addColumn<quint64>("time");
        QTest::addColumn<double>("expected");
        QTest::newRow("left edge") << TimeWindow{1000, 2000} << 500.0 << quint64(1000) << 0.0;
        QTest::newRow("middle") << TimeWindow{1000, 2000} << 500.0 << quint64(1500) << 250.0;
        QTest::newRow("right edge") << TimeWindow{1000, 2000} << 500.0 << quint64(2000) << 500.0;
        QTest::newRow("before the window is negative") << TimeWindow{1000, 2000} << 500.0 << quint64(800) << -100.0;
        QTest::newRow("after the window") << TimeWindow{1000, 2000} << 500.0 << quint64(3000) << 1000.0;
        QTest::newRow("empty window") << TimeWindow{5, 5} << 500.0 << quint64(5) << 0.0;
    }
    void timeToX()
    {
        QFETCH(TimeWindow, window);
        QFETCH(double, width);
        QFETCH(quint64, time);
        QFETCH(double, expected);
        QCOMPARE(TraceInspector::timeToX(window, width, time), expected);
    }

    void xToTime_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("x");
        QTest::addColumn<quint64>("expected");
        QTest::newRow("left") << TimeWindow{1000, 2000} << 500.0 << 0.0 << quint64(1000);
        QTest::newRow("middle") << TimeWindow{1000, 2000} << 500.0 << 250.0 << quint64(1500);
        QTest::newRow("fraction floors") << TimeWindow{1000, 2000} << 500.0 << 0.9 << quint64(1001);
        QTest::newRow("right") << TimeWindow{1000, 2000} << 500.0 << 500.0 << quint64(2000);
        QTest::newRow("clamped left") << TimeWindow{1000, 2000} << 500.0 << -20.0 << quint64(1000);
        QTest::newRow("clamped right") << TimeWindow{1000, 2000} << 500.0 << 900.0 << quint64(2000);
        QTest::newRow("nan") << TimeWindow{1000, 2000} << 500.0 << std::nan("") << quint64(1000);
        QTest::newRow("zero width") << TimeWindow{1000, 2000} << 0.0 << 10.0 << quint64(1000);
    }
    void xToTime()
    {
        QFETCH(TimeWindow, window);
        QFETCH(double, width);
        QFETCH(double, x);
        QFETCH(quint64, expected);
        QCOMPARE(quint64(TraceInspector::xToTime(window, width, x)), expected);
    }

    void zoomWindow_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<quint64>("anchor");
        QTest::addColumn<double>("factor");
        QTest::addColumn<TimeWindow>("limits");
        QTest::addColumn<quint64>("minLength");
        QTest::addColumn<TimeWindow>("expected");
        QTest::newRow("in around the centre")
            << TimeWindow{0, 1000} << quint64(500) << 0.5 << TimeWindow{0, 1000} << quint64(1) << TimeWindow{250, 750};
        QTest::newRow("in keeps the anchor's place")
            << TimeWindow{0, 1000} << quint64(100) << 0.5 << TimeWindow{0, 1000} << quint64(1) << TimeWindow{50, 550};
        QTest::newRow("in at the left edge")
            << TimeWindow{0, 1000} << quint64(0) << 0.1 << TimeWindow{0, 1000} << quint64(1) << TimeWindow{0, 100};
        QTest::newRow("in at the right edge") << TimeWindow{0, 1000} << quint64(1000) << 0.1 << TimeWindow{0, 1000}
                                              << quint64(1) << TimeWindow{900, 1000};
        QTest::newRow("out is clamped to the limits") << TimeWindow{200, 400} << quint64(300) << 100.0
                                                      << TimeWindow{0, 1000} << quint64(1) << TimeWindow{0, 1000};
        QTest::newRow("out near an edge shifts inside") << TimeWindow{800, 1000} << quint64(900) << 2.0
                                                        << TimeWindow{0, 1000} << quint64(1) << TimeWindow{600, 1000};
        QTest::newRow("not below the minimum length")
            << TimeWindow{0, 100} << quint64(50) << 0.001 << TimeWindow{0, 1000} << quint64(10) << TimeWindow{45, 55};
        QTest::newRow("minimum longer than the limits")
            << TimeWindow{0, 5} << quint64(2) << 0.5 << TimeWindow{0, 5} << quint64(10) << TimeWindow{0, 5};
        QTest::newRow("bad factor resets") << TimeWindow{10, 20} << quint64(15) << std::nan("") << TimeWindow{0, 100}
                                           << quint64(1) << TimeWindow{0, 100};
        QTest::newRow("near u64 max") << TimeWindow{kMax - 1000, kMax} << quint64(kMax) << 0.5
                                      << TimeWindow{kMax - 1000, kMax} << quint64(1) << TimeWindow{kMax - 500, kMax};
        QTest::newRow("empty limits") << TimeWindow{0, 10} << quint64(5) << 0.5 << TimeWindow{3, 3} << quint64(1)
                                      << TimeWindow{3, 3};
    }
    void zoomWindow()
    {
        QFETCH(TimeWindow, window);
        QFETCH(quint64, anchor);
        QFETCH(double, factor);
        QFETCH(TimeWindow, limits);
        QFETCH(quint64, minLength);
        QFETCH(TimeWindow, expected);
        QCOMPARE(TraceInspector::zoomWindow(window, anchor, factor, limits, minLength), expected);
    }

    void windowBetween_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<double>("x0");
        QTest::addColumn<double>("x1");
        QTest::addColumn<TimeWindow>("expected");
        QTest::newRow("band") << TimeWindow{0, 1000} << 100.0 << 300.0 << TimeWindow{200, 600};
        QTest::newRow("reversed band") << TimeWindow{0, 1000} << 300.0 << 100.0 << TimeWindow{200, 600};
        QTest::newRow("band past the edges") << TimeWindow{0, 1000} << -50.0 << 900.0 << TimeWindow{0, 1000};
        QTest::newRow("zero-width band is one ns") << TimeWindow{0, 1000} << 100.0 << 100.0 << TimeWindow{200, 201};
        QTest::newRow("zero-width band at the end") << TimeWindow{0, 1000} << 500.0 << 500.0 << TimeWindow{999, 1000};
    }
    void windowBetween()
    {
        QFETCH(TimeWindow, window);
        QFETCH(double, x0);
        QFETCH(double, x1);
        QFETCH(TimeWindow, expected);
        QCOMPARE(TraceInspector::windowBetween(window, 500.0, x0, x1), expected);
    }

    void panWindow_data()
    {
        QTest::addColumn<TimeWindow>("window");
        QTest::addColumn<qint64>("delta");
        QTest::addColumn<TimeWindow>("limits");
        QTest::addColumn<TimeWindow>("expected");
        QTest::newRow("later") << TimeWindow{100, 200} << qint64(50) << TimeWindow{0, 1000} << TimeWindow{150, 250};
        QTest::newRow("earlier") << TimeWindow{100, 200} << qint64(-50) << TimeWindow{0, 1000} << TimeWindow{50, 150};
        QTest::newRow("stops at the start")
            << TimeWindow{100, 200} << qint64(-500) << TimeWindow{0, 1000} << TimeWindow{0, 100};
        QTest::newRow("stops at the end")
            << TimeWindow{900, 1000} << qint64(500) << TimeWindow{0, 1000} << TimeWindow{900, 1000};
        QTest::newRow("most negative delta")
            << TimeWindow{100, 200} << std::numeric_limits<qint64>::min() << TimeWindow{0, 1000} << TimeWindow{0, 100};
        QTest::newRow("window larger than limits")
            << TimeWindow{0, 5000} << qint64(10) << TimeWindow{0, 1000} << TimeWindow{0, 1000};
        QTest::newRow("window before the limits")
            << TimeWindow{0, 10} << qint64(-3) << TimeWindow{100, 1000} << TimeWindow{100, 110};
    }
    void panWindow()
    {
        QFETCH(TimeWindow, window);
        QFETCH(qint64, delta);
        QFETCH(TimeWindow, limits);
        QFETCH(TimeWindow, expected);
        QCOMPARE(TraceInspector::panWindow(window, delta, limits), expected);
    }
};

QTEST_GUILESS_MAIN(TstTimeCoordinates)
#include "tst_timecoordinates.moc"
