// SPDX-License-Identifier: MIT
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/model/blockpackedu32.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

constexpr std::size_t kBlock = BlockPackedU32::kBlockSize;

/// Offsets into a grouped list: each entry adds up to \a maxStep items.
std::vector<std::uint32_t> offsets(std::size_t count, std::uint32_t maxStep, unsigned seed)
{
    std::mt19937 random(seed);
    std::vector<std::uint32_t> out{0};
    for (std::size_t i = 1; i < count; ++i)
        out.push_back(out.back() + std::uint32_t(random() % (maxStep + 1)));
    return out;
}

} // namespace

class TestBlockPackedU32 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void values_data()
    {
        QTest::addColumn<std::vector<std::uint32_t>>("values");
        QTest::addColumn<bool>("narrow"); // every block fits 16 bits
        QTest::newRow("empty") << std::vector<std::uint32_t>{} << true;
        QTest::newRow("one") << std::vector<std::uint32_t>{0} << true;
        QTest::newRow("extremes") << std::vector<std::uint32_t>{UINT32_MAX, 0, 65536, 1} << false;
        QTest::newRow("offsets") << offsets(10 * kBlock + 3, 40, 1) << true;
        std::vector<std::uint32_t> fan = offsets(4 * kBlock, 3, 2);
        for (std::size_t i = kBlock + 10; i < fan.size(); ++i)
            fan[i] += 100000; // a span with 100000 children in the second block
        QTest::newRow("one wide block") << fan << false;
        std::vector<std::uint32_t> edge(2 * kBlock, 7);
        edge[kBlock - 1] = 7 + 65535; // spans exactly 2^16 - 1: still narrow
        QTest::newRow("span of 2^16 - 1") << edge << true;
        QTest::newRow("not sorted") << std::vector<std::uint32_t>{5, 3, 9, 3, 70000, 2} << false;
    }

    void values()
    {
        QFETCH(std::vector<std::uint32_t>, values);
        QFETCH(bool, narrow);
        const BlockPackedU32 a(values);
        QCOMPARE(a.size(), values.size());
        QCOMPARE(a.empty(), values.empty());
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (a[i] != values[i])
                QFAIL(qPrintable(QStringLiteral("value %1: %2 instead of %3").arg(i).arg(a[i]).arg(values[i])));
        }
        if (!values.empty())
            QCOMPARE(a.back(), values.back());
        // 2 bytes for each value of a narrow block, 4 for each of a wide one (no more than a
        // plain array), and a small header a block.
        const std::size_t blocks = (values.size() + kBlock - 1) / kBlock;
        std::size_t valueBytes = 0;
        for (std::size_t first = 0; first < values.size(); first += kBlock) {
            const auto begin = values.begin() + std::ptrdiff_t(first);
            const auto end = values.begin() + std::ptrdiff_t(std::min(values.size(), first + kBlock));
            const auto [lo, hi] = std::minmax_element(begin, end);
            valueBytes += std::size_t(end - begin) * (*hi - *lo > UINT16_MAX ? 4 : 2);
        }
        QCOMPARE(valueBytes == values.size() * 2, narrow);
        QVERIFY2(a.memoryUsage() >= valueBytes && a.memoryUsage() <= valueBytes + blocks * 16,
                 qPrintable(QStringLiteral("%1 bytes for %2 of values").arg(a.memoryUsage()).arg(valueBytes)));
    }
};

QTEST_GUILESS_MAIN(TestBlockPackedU32)
#include "tst_blockpackedu32.moc"
