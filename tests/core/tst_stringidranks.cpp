// SPDX-License-Identifier: MIT
// StringIdRanks gives the memory analysis its storage keys and the span id index its spans:
// a wrong rank would give two storages one key (their allocations and frees mixed up) or an
// id another's span, so every id of a set is checked against a plain count.
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/analysis/stringidranks.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(std::vector<StringId>)

namespace {

/// \a count ids under \a stringCount, drawn with repeats.
std::vector<StringId> drawn(std::size_t count, std::size_t stringCount, unsigned seed)
{
    std::mt19937 random(seed);
    std::vector<StringId> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(static_cast<StringId>(random() % stringCount));
    return out;
}

} // namespace

class TestStringIdRanks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ranks_data()
    {
        QTest::addColumn<std::size_t>("stringCount");
        QTest::addColumn<std::vector<StringId>>("ids"); // inserted in this order, repeats allowed
        QTest::newRow("empty set") << std::size_t(100) << std::vector<StringId>{};
        QTest::newRow("no strings") << std::size_t(0) << std::vector<StringId>{};
        QTest::newRow("the reserved id 0") << std::size_t(3) << std::vector<StringId>{0};
        QTest::newRow("every id") << std::size_t(130) << [] {
            std::vector<StringId> all(130);
            for (StringId i = 0; i < 130; ++i)
                all[i] = i;
            return all;
        }();
        QTest::newRow("word edges") << std::size_t(200)
                                    << std::vector<StringId>{63, 64, 127, 128, 0, 199, 64, 63, 1, 191, 192};
        QTest::newRow("out of order, repeated") << std::size_t(10000) << drawn(3000, 10000, 7);
        QTest::newRow("sparse in many words") << std::size_t(1 << 20) << drawn(500, 1 << 20, 11);
    }

    void ranks()
    {
        QFETCH(std::size_t, stringCount);
        QFETCH(std::vector<StringId>, ids);
        StringIdRanks set(stringCount);
        for (const StringId id : ids)
            set.insert(id);
        set.finish();

        std::vector<StringId> distinct = ids;
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        QCOMPARE(set.size(), std::uint32_t(distinct.size()));
        // Every id under the string count: in the set exactly when inserted, and the rank of a
        // member is the number of members below it.
        std::size_t below = 0;
        for (StringId id = 0; id < stringCount; ++id) {
            const bool member = below < distinct.size() && distinct[below] == id;
            QCOMPARE(set.contains(id), member);
            if (member) {
                QCOMPARE(set.rankOf(id), std::uint32_t(below));
                ++below;
            }
        }
        // Ids past the string count are in no set.
        QVERIFY(!set.contains(static_cast<StringId>(stringCount + 64)));
        QVERIFY(!set.contains(static_cast<StringId>(stringCount + 1000)));
    }

    void defaultSetHoldsNothing()
    {
        StringIdRanks set;
        set.finish();
        QCOMPARE(set.size(), 0u);
        QVERIFY(!set.contains(0));
        QVERIFY(!set.contains(12345));
    }
};

QTEST_GUILESS_MAIN(TestStringIdRanks)
#include "tst_stringidranks.moc"
