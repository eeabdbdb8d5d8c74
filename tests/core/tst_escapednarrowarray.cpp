// SPDX-License-Identifier: MIT
#include <QtTest>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/model/escapednarrowarray.h"

using namespace TraceInspector;

using Writes = std::vector<std::pair<std::size_t, std::uint64_t>>;
Q_DECLARE_METATYPE(Writes)

class TestEscapedNarrowArray : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Writes (index, value) in the given order into an array of `size`; every value reads
    // back as the last one written there (0 where none was), and only the values that do not
    // fit 16 bits are kept aside.
    void values_data()
    {
        QTest::addColumn<std::size_t>("size");
        QTest::addColumn<Writes>("writes");
        QTest::addColumn<std::size_t>("escaped");
        QTest::newRow("empty") << std::size_t(0) << Writes{} << std::size_t(0);
        QTest::newRow("unwritten are zero") << std::size_t(3) << Writes{{1, 7}} << std::size_t(0);
        QTest::newRow("around the edge") << std::size_t(5)
                                         << Writes{{0, 65534}, {1, 65535}, {2, 65536}, {3, 0}, {4, UINT32_MAX}}
                                         << std::size_t(3);
        QTest::newRow("out of order") << std::size_t(4) << Writes{{3, 100000}, {0, 70000}, {2, 1}, {1, 65535}}
                                      << std::size_t(3);
        QTest::newRow("escaped, then written narrow")
            << std::size_t(2) << Writes{{0, 99999}, {0, 5}, {1, 6}} << std::size_t(0);
        QTest::newRow("escaped twice") << std::size_t(2) << Writes{{1, 99999}, {0, 1}, {1, 123456}} << std::size_t(1);
        QTest::newRow("narrow, then escaped") << std::size_t(2) << Writes{{1, 4}, {1, 80000}} << std::size_t(1);
        Writes scattered;
        std::mt19937_64 random(7);
        std::size_t large = 0;
        std::vector<bool> isLarge(50000, false);
        for (std::size_t i = 0; i < 50000; ++i) {
            const bool big = random() % 100 == 0;
            large += big;
            isLarge[i] = big;
            scattered.emplace_back(i, big ? (std::uint64_t(1) << 16) + random() % 1000000 : random() % 65535);
        }
        std::shuffle(scattered.begin(), scattered.end(), random);
        QTest::newRow("a few large values scattered") << std::size_t(50000) << scattered << large;
    }

    void values()
    {
        QFETCH(std::size_t, size);
        QFETCH(Writes, writes);
        QFETCH(std::size_t, escaped);
        EscapedNarrowArray<std::uint16_t, std::uint32_t> a(size);
        std::vector<std::uint32_t> expected(size, 0);
        for (const auto &[i, v] : writes) {
            a.set(i, std::uint32_t(v));
            expected[i] = std::uint32_t(v);
        }
        a.finish();
        QCOMPARE(a.size(), size);
        QCOMPARE(a.empty(), size == 0);
        for (std::size_t i = 0; i < size; ++i) {
            if (a[i] != expected[i])
                QFAIL(qPrintable(QStringLiteral("value %1: %2 instead of %3").arg(i).arg(a[i]).arg(expected[i])));
        }
        QCOMPARE(a.escapedCount(), escaped);
    }

    // 32-bit values of 64: busy times of several seconds beside microseconds.
    void wideValues()
    {
        EscapedNarrowArray<std::uint32_t, std::uint64_t> a;
        a.resize(4);
        a.set(0, UINT32_MAX - 1);
        a.set(1, UINT32_MAX);
        a.set(2, UINT64_MAX);
        a.set(3, 12);
        a.finish();
        QCOMPARE(a[0], std::uint64_t(UINT32_MAX - 1));
        QCOMPARE(a[1], std::uint64_t(UINT32_MAX));
        QCOMPARE(a[2], UINT64_MAX);
        QCOMPARE(a[3], std::uint64_t(12));
        QCOMPARE(a.escapedCount(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestEscapedNarrowArray)
#include "tst_escapednarrowarray.moc"
