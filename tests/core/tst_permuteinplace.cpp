// SPDX-License-Identifier: MIT
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/model/permuteinplace.h"
#include "core/model/records.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

namespace {

std::vector<Span> numberedSpans(std::size_t n)
{
    std::vector<Span> spans(n);
    for (std::size_t i = 0; i < n; ++i) {
        spans[i].id = static_cast<StringId>(i + 1);
        spans[i].startNs = i * 7;
        spans[i].startLine = static_cast<std::uint32_t>(i);
    }
    return spans;
}

std::vector<std::uint32_t> identity(std::size_t n)
{
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0U);
    return order;
}

std::vector<std::uint32_t> shuffled(std::size_t n, unsigned seed)
{
    std::vector<std::uint32_t> order = identity(n);
    std::mt19937 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

/// Cycles of length \a length one after the other (the last one shorter), fixed points between.
std::vector<std::uint32_t> cyclesOf(std::size_t n, std::size_t length)
{
    std::vector<std::uint32_t> order = identity(n);
    for (std::size_t begin = 0; begin < n; begin += length + 1) {
        const std::size_t end = std::min(n, begin + length);
        std::rotate(order.begin() + static_cast<std::ptrdiff_t>(begin),
                    order.begin() + static_cast<std::ptrdiff_t>(begin) + 1,
                    order.begin() + static_cast<std::ptrdiff_t>(end));
    }
    return order;
}

} // namespace

/// permuteInPlace() follows many cycles at once, and walkers may share one: every item must
/// still land where the permutation says, as the one-cycle-at-a-time reference puts it.
class TstPermuteInPlace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesGather_data()
    {
        QTest::addColumn<std::vector<std::uint32_t>>("order");
        QTest::newRow("empty") << std::vector<std::uint32_t>{};
        QTest::newRow("one") << identity(1);
        QTest::newRow("swap") << std::vector<std::uint32_t>{1, 0};
        QTest::newRow("identity") << identity(1000);
        QTest::newRow("reversed") << [] {
            std::vector<std::uint32_t> o = identity(1001);
            std::reverse(o.begin(), o.end());
            return o;
        }();
        QTest::newRow("one big cycle") << [] {
            std::vector<std::uint32_t> o = identity(5000);
            std::rotate(o.begin(), o.begin() + 1, o.end());
            return o;
        }();
        QTest::newRow("one big cycle, backwards") << [] {
            std::vector<std::uint32_t> o = identity(5000);
            std::rotate(o.begin(), o.end() - 1, o.end());
            return o;
        }();
        QTest::newRow("many 2-cycles") << cyclesOf(10000, 2);
        QTest::newRow("3-cycles with fixed points") << cyclesOf(10000, 3);
        QTest::newRow("17-cycles") << cyclesOf(10000, 17);
        QTest::newRow("fewer items than walkers") << shuffled(7, 1);
        QTest::newRow("as many as walkers") << shuffled(16, 2);
        for (unsigned seed = 0; seed < 8; ++seed)
            QTest::newRow(qPrintable(QStringLiteral("random %1").arg(seed))) << shuffled(100 + seed * 977, seed);
        QTest::newRow("random large") << shuffled(300000, 99);
    }
    void matchesGather()
    {
        QFETCH(std::vector<std::uint32_t>, order);
        const std::vector<Span> before = numberedSpans(order.size());
        std::vector<Span> expected(order.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            expected[i] = before[order[i]];

        std::vector<Span> spans = before;
        std::vector<std::uint32_t> used = order;
        permuteInPlace(spans, used);
        std::vector<Span> reference = before;
        std::vector<std::uint32_t> referenceOrder = order;
        permuteInPlaceOneByOne(reference, referenceOrder);
        for (std::size_t i = 0; i < order.size(); ++i) {
            QCOMPARE(spans[i].id, expected[i].id);
            QCOMPARE(spans[i].startNs, expected[i].startNs);
            QCOMPARE(spans[i].startLine, expected[i].startLine);
            QCOMPARE(reference[i].id, expected[i].id);
        }
    }
};

QTEST_GUILESS_MAIN(TstPermuteInPlace)
#include "tst_permuteinplace.moc"
