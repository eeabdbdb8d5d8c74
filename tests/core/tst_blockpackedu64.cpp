// SPDX-License-Identifier: MIT
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/model/blockpackedu64.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(std::vector<std::uint64_t>)

namespace {

constexpr std::size_t kBlock = BlockPackedU64::kBlockSize;

BlockPackedU64 packed(const std::vector<std::uint64_t> &values, std::size_t reserve)
{
    BlockPackedU64 out;
    out.reserve(reserve);
    for (const std::uint64_t v : values)
        out.push_back(v);
    out.finish();
    return out;
}

/// Non-decreasing times from \a start with steps up to \a maxStep, repeats included.
std::vector<std::uint64_t> times(std::size_t count, std::uint64_t start, std::uint64_t maxStep, unsigned seed)
{
    std::mt19937_64 random(seed);
    std::vector<std::uint64_t> out;
    std::uint64_t t = start;
    for (std::size_t i = 0; i < count; ++i) {
        if (random() % 4 != 0) // a quarter repeat the previous time
            t += random() % (maxStep + 1);
        out.push_back(t);
    }
    return out;
}

} // namespace

class TestBlockPackedU64 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void values_data()
    {
        QTest::addColumn<std::vector<std::uint64_t>>("values");
        QTest::addColumn<int>("reserve");
        QTest::newRow("empty") << std::vector<std::uint64_t>{} << 0;
        QTest::newRow("one") << std::vector<std::uint64_t>{42} << 0;
        QTest::newRow("extremes in one block") << std::vector<std::uint64_t>{0, UINT64_MAX, 1, UINT64_MAX - 1} << 4;
        std::vector<std::uint64_t> blockEdge(kBlock + 1, 7);
        blockEdge[kBlock] = UINT64_MAX; // a second block of one wide-of-zero value
        QTest::newRow("a block and one") << blockEdge << 0;
        QTest::newRow("dense times") << times(5 * kBlock + 17, 1'700'000'000'000'000'000ull, 5000, 1) << 100;
        QTest::newRow("sparse times") << times(3 * kBlock, 1000, 40'000'000'000ull, 2) << int(3 * kBlock);
        std::mt19937_64 random(3);
        std::vector<std::uint64_t> sizes;
        for (std::size_t i = 0; i < 4 * kBlock + 3; ++i)
            sizes.push_back(i % 1500 == 0 ? (std::uint64_t(5) << 32) + random() % 999 : random() % (1u << 26));
        QTest::newRow("sizes, some above 4 GiB") << sizes << 0;
        std::vector<std::uint64_t> crossing;
        for (std::size_t i = 0; i < 2 * kBlock; ++i)
            crossing.push_back(std::uint64_t(UINT32_MAX) - kBlock + i); // spans 2^32 - 1 exactly: narrow
        QTest::newRow("span just below 2^32") << crossing << 0;
    }

    void values()
    {
        QFETCH(std::vector<std::uint64_t>, values);
        QFETCH(int, reserve);
        const BlockPackedU64 a = packed(values, std::size_t(reserve));
        QCOMPARE(a.size(), values.size());
        QCOMPARE(a.empty(), values.empty());
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (a[i] != values[i])
                QFAIL(qPrintable(QStringLiteral("value %1: %2 instead of %3").arg(i).arg(a[i]).arg(values[i])));
        }
        if (!values.empty()) {
            QCOMPARE(a.front(), values.front());
            QCOMPARE(a.back(), values.back());
        }
        // A second finish() packs nothing more: the partial last block was packed by the first.
        BlockPackedU64 again = a;
        again.finish();
        QCOMPARE(again.size(), values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (again[i] != values[i])
                QFAIL(qPrintable(QStringLiteral("after a second finish(), value %1: %2 instead of %3")
                                     .arg(i)
                                     .arg(again[i])
                                     .arg(values[i])));
        }
    }

    void bounds_data()
    {
        QTest::addColumn<std::vector<std::uint64_t>>("values");
        QTest::newRow("empty") << std::vector<std::uint64_t>{};
        QTest::newRow("all equal across blocks") << std::vector<std::uint64_t>(3 * kBlock, 9);
        std::vector<std::uint64_t> steps(2 * kBlock, 5);
        std::fill(steps.begin() + kBlock - 3, steps.end(), 6); // a run over the block boundary
        QTest::newRow("run across a boundary") << steps;
        QTest::newRow("dense times") << times(4 * kBlock + 5, 10'000, 3, 4);
        QTest::newRow("sparse times") << times(4 * kBlock + 5, 0, 1ull << 40, 5);
    }

    void bounds()
    {
        QFETCH(std::vector<std::uint64_t>, values);
        const BlockPackedU64 a = packed(values, 0);
        std::vector<std::uint64_t> probes = {0, 1, UINT64_MAX};
        for (const std::uint64_t v : values) {
            probes.push_back(v);
            probes.push_back(v - 1);
            probes.push_back(v + 1);
        }
        for (const std::uint64_t p : probes) {
            const auto lower = std::size_t(std::lower_bound(values.begin(), values.end(), p) - values.begin());
            const auto upper = std::size_t(std::upper_bound(values.begin(), values.end(), p) - values.begin());
            if (a.lowerBound(p) != lower || a.upperBound(p) != upper)
                QFAIL(qPrintable(QStringLiteral("probe %1: bounds %2, %3 instead of %4, %5")
                                     .arg(p)
                                     .arg(a.lowerBound(p))
                                     .arg(a.upperBound(p))
                                     .arg(lower)
                                     .arg(upper)));
        }
    }

    void halfTheMemoryWhenClose()
    {
        const std::vector<std::uint64_t> values = times(200 * kBlock, 1'700'000'000'000'000'000ull, 100'000, 6);
        const BlockPackedU64 a = packed(values, 0);
        // 4 bytes a value and a block header, the room beyond the values given back.
        QVERIFY2(a.memoryUsage() <= values.size() * 4 + 200 * 16 + 4096, qPrintable(QString::number(a.memoryUsage())));
        // A reserve larger than what is pushed is given back too.
        const BlockPackedU64 b = packed(values, 4 * values.size());
        QVERIFY2(b.memoryUsage() <= values.size() * 4 + 200 * 16 + 4096, qPrintable(QString::number(b.memoryUsage())));
    }

    void moveKeepsValues()
    {
        const std::vector<std::uint64_t> values = times(3 * kBlock + 1, 0, 1ull << 34, 7);
        BlockPackedU64 a = packed(values, 0);
        BlockPackedU64 b = std::move(a);
        for (std::size_t i = 0; i < values.size(); ++i)
            QCOMPARE(b[i], values[i]);
    }
};

QTEST_GUILESS_MAIN(TestBlockPackedU64)
#include "tst_blockpackedu64.moc"
