// SPDX-License-Identifier: MIT
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/analysis/radixorder.h"

using namespace TraceInspector;

class tst_RadixOrder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesStableSort_data();
    void matchesStableSort();
};

namespace {

std::vector<std::uint32_t> stableOrder(const std::vector<std::uint64_t> &keys)
{
    std::vector<std::uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(),
                     [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    return order;
}

} // namespace

void tst_RadixOrder::matchesStableSort_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("shape");
    // Below and above the size where the radix passes start; keys in order (one read, no
    // passes), in order but for one pair, reversed, random with ties, and ns timestamps.
    // Nearly in order (insertion within its budget), with ties among the displaced keys; and
    // in order for most of the way, then far from it, so that the insertion gives up halfway
    // (inside one key's moves) and the radix passes go on from where it stopped. Keys in a
    // narrow range far above zero (the digits start at the minimum), and keys spanning all
    // 64 bits, both extremes included.
    for (const int count : {0, 1, 100, 5000, 70000}) {
        for (const char *shape :
             {"sorted", "sorted with ties", "one pair swapped", "reversed", "random", "wide", "jittered",
              "jittered with ties", "sorted then reversed", "sorted then random", "narrow far from zero", "extremes"})
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(count).arg(QLatin1String(shape))))
                << count << QString::fromLatin1(shape);
    }
}

void tst_RadixOrder::matchesStableSort()
{
    QFETCH(int, count);
    QFETCH(QString, shape);
    std::mt19937_64 rng(7);
    std::vector<std::uint64_t> keys(std::size_t(count), 0);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (shape == u"sorted")
            keys[i] = 1'000'000'000'000ULL + i * 13;
        else if (shape == u"sorted with ties")
            keys[i] = i / 3;
        else if (shape == u"one pair swapped")
            keys[i] = i;
        else if (shape == u"reversed")
            keys[i] = std::uint64_t(count) - i;
        else if (shape == u"random")
            keys[i] = rng() % 97;
        else if (shape == u"jittered")
            keys[i] = 1'000'000'000ULL + i * 1000 + rng() % 4000; // up to ~4 places out
        else if (shape == u"jittered with ties")
            keys[i] = (i + rng() % 5) / 2;
        else if (shape == u"sorted then reversed")
            keys[i] = i < keys.size() * 3 / 4 ? i : keys.size() * 2 - i;
        else if (shape == u"sorted then random")
            keys[i] = i < keys.size() * 3 / 4 ? i : rng() % (keys.size() + 1);
        else if (shape == u"narrow far from zero") // digits over the range above the minimum,
            // which crosses a carry into bit 24: the low 24 bits of the keys alone are out of order
            keys[i] = (std::uint64_t(1) << 63) + (std::uint64_t(1) << 24) - (std::uint64_t(1) << 22)
                      + rng() % (std::uint64_t(1) << 23);
        else if (shape == u"extremes") // a range of all 64 bits
            keys[i] = i % 3 == 0 ? UINT64_MAX - rng() % 3 : i % 3 == 1 ? rng() % 3 : rng();
        else
            keys[i] = rng();
    }
    if (shape == u"one pair swapped" && count > 1)
        std::swap(keys[keys.size() / 2], keys[keys.size() / 2 + 1]);
    const std::vector<std::uint32_t> expected = stableOrder(keys);
    std::vector<std::uint64_t> sortedKeys;
    const std::vector<std::uint32_t> order = radixOrder(keys, &sortedKeys);
    QCOMPARE(order, expected);
    QCOMPARE(sortedKeys.size(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        QCOMPARE(sortedKeys[i], keys[expected[i]]);
    QCOMPARE(radixOrder(keys), expected);
}

QTEST_GUILESS_MAIN(tst_RadixOrder)
#include "tst_radixorder.moc"
