// SPDX-License-Identifier: MIT
#include <QTest>

#include <stdexcept>
#include <string>

#include "core/output/orderedblocks.h"

using namespace TraceInspector;

class tst_OrderedBlocks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameTextAsSerial_data();
    void sameTextAsSerial();
    void failedEmitStops();
    void exceptionReachesCaller();
};

namespace {

// Items of uneven length, so that blocks take uneven time and finish out of order.
void formatItems(std::size_t begin, std::size_t end, std::string &out)
{
    for (std::size_t i = begin; i < end; ++i)
        out += std::to_string(i) + std::string(i % 97, 'x') + '\n';
}

} // namespace

void tst_OrderedBlocks::sameTextAsSerial_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("blockItems");
    QTest::addColumn<int>("threads");
    QTest::newRow("nothing") << 0 << 4 << 4;
    QTest::newRow("one item") << 1 << 4 << 4;
    QTest::newRow("one block") << 4 << 4 << 4;
    QTest::newRow("partial last block") << 1001 << 7 << 3;
    QTest::newRow("block of one item") << 500 << 1 << 8;
    QTest::newRow("more threads than blocks") << 10 << 4 << 16;
    QTest::newRow("serial") << 1000 << 9 << 1;
    QTest::newRow("one worker per core") << 20000 << 13 << 0;
}

void tst_OrderedBlocks::sameTextAsSerial()
{
    QFETCH(int, count);
    QFETCH(int, blockItems);
    QFETCH(int, threads);
    std::string expected;
    formatItems(0, std::size_t(count), expected);
    std::string got;
    std::size_t calls = 0;
    const bool ok = OrderedBlockFormatter::run(
        std::size_t(count), std::size_t(blockItems), formatItems,
        [&](std::string_view text) {
            ++calls;
            got.append(text);
            return true;
        },
        unsigned(threads));
    QVERIFY(ok);
    QCOMPARE(got, expected);
    QCOMPARE(calls, (std::size_t(count) + std::size_t(blockItems) - 1) / std::size_t(blockItems));
}

void tst_OrderedBlocks::failedEmitStops()
{
    for (const unsigned threads : {1u, 2u, 4u}) {
        std::string got;
        int calls = 0;
        const bool ok = OrderedBlockFormatter::run(
            1000, 10, formatItems,
            [&](std::string_view text) {
                got.append(text);
                return ++calls < 3;
            },
            threads);
        QVERIFY(!ok);
        QCOMPARE(calls, 3);
        std::string expected;
        formatItems(0, 30, expected);
        QCOMPARE(got, expected);
    }
}

void tst_OrderedBlocks::exceptionReachesCaller()
{
    for (const unsigned threads : {1u, 2u, 4u}) {
        bool thrown = false;
        try {
            OrderedBlockFormatter::run(
                1000, 10,
                [](std::size_t begin, std::size_t end, std::string &out) {
                    if (begin == 500)
                        throw std::runtime_error("format");
                    formatItems(begin, end, out);
                },
                [](std::string_view) { return true; }, threads);
        } catch (const std::runtime_error &e) {
            thrown = std::string(e.what()) == "format";
        }
        QVERIFY(thrown);
        thrown = false;
        try {
            OrderedBlockFormatter::run(
                1000, 10, formatItems,
                [](std::string_view text) {
                    if (text.starts_with("50"))
                        throw std::runtime_error("emit");
                    return true;
                },
                threads);
        } catch (const std::runtime_error &e) {
            thrown = std::string(e.what()) == "emit";
        }
        QVERIFY(thrown);
    }
}

QTEST_GUILESS_MAIN(tst_OrderedBlocks)
#include "tst_orderedblocks.moc"
