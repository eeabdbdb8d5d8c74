// SPDX-License-Identifier: MIT
#include <QtTest>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "core/model/hugepages.h"
#include "core/model/malloctuning.h"
#include "core/model/stringtable.h"

using namespace TraceInspector;

namespace {

/// The \a i-th text of a family of test strings.
std::string generatedText(const QByteArray &shape, int i)
{
    if (shape == "numbered") {
        static const char *const prefixes[] = {"s", "t", "st"};
        std::string text = prefixes[i % 3];
        text += std::to_string(i / 3);
        return text;
    }
    if (shape == "labels")
        return "model.layers." + std::to_string(i) + (i % 2 ? ".mlp" : ".self_attn");
    if (shape == "mixed")
        return i % 4 == 0 ? generatedText("labels", i) : generatedText("numbered", i);
    if (shape == "scattered")
        return "t" + std::to_string((std::uint64_t(i) * 2654435761u) % 60000000);
    if (shape == "long") {
        // Texts of a block of their own, escaped lengths and the empty string, between ids.
        static const std::size_t lengths[] = {0, 300000, 65535, 70000, 3};
        if (i % 2)
            return "s" + std::to_string(i);
        std::string text(lengths[(i / 2) % 5], static_cast<char>('a' + i % 26));
        return text.empty() ? text : text + std::to_string(i);
    }
    return {};
}

} // namespace

// The table keeps numbered ids ("t98966") in per-prefix pages and everything else in a hash
// table; these tests check that the split never shows: one id per distinct text, the texts
// back byte for byte, find() and eraseNewest() the same for both kinds.
class TstStringTable : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // As the application does: blocks of megabytes get mappings of their own, not heap
        // memory an earlier test left resident, so that what arrayEndIsNotAWholeHugePage()
        // finds resident is what the array's own advice made so.
        tuneMallocForBigTraces(kWindowArenas);
    }

    void internIsStable_data()
    {
        QTest::addColumn<QByteArrayList>("texts");
        QTest::newRow("numbered") << QByteArrayList{"t1", "t2", "s1", "st1", "t1", "st1", "s1"};
        QTest::newRow("not canonical") << QByteArrayList{"t7", "t07", "t007", "t7", "t07"};
        QTest::newRow("bare numbers") << QByteArrayList{"0", "00", "7", "07", "0", "7"};
        QTest::newRow("long prefix") << QByteArrayList{"cupti:cuda:0", "cuda:0", "cuda:1", "cupti:cuda:0", "cuda:0"};
        QTest::newRow("many digits") << QByteArrayList{"t12345678", "t123456789", "t67108863", "t67108864",
                                                       "t12345678"};
        QTest::newRow("digits inside") << QByteArrayList{
            "a1b2", "a1b02", "1a", "a1b2", "x99999999", "x099999999", "x99999999", "99999999", "999999999", "99999999"};
        QTest::newRow("prefix of 8 and 9 bytes")
            << QByteArrayList{"abcdefgh1", "abcdefghi1", "abcdefgh01", "abcdefgh1", "abcdefghi1"};
        QTest::newRow("no number") << QByteArrayList{"", "t", "rms_norm", "", "t", "f32"};
        QTest::newRow("nine prefixes") << QByteArrayList{"a1", "b1", "c1", "d1", "e1", "f1", "g1",
                                                         "h1", "i1", "j1", "a1", "i1", "j1"};
        QTest::newRow("same prefix other length") << QByteArrayList{"s1", "st1", "s", "st", "s1"};
    }
    void internIsStable()
    {
        QFETCH(QByteArrayList, texts);
        StringTable table;
        std::map<std::string, StringId> ids;
        for (const QByteArray &t : texts) {
            const std::string text = t.toStdString();
            const StringId id = table.intern(text);
            QVERIFY(id != kNoString);
            const auto [it, inserted] = ids.emplace(text, id);
            QCOMPARE(it->second, id);
            QCOMPARE(std::string(table.view(id)), text);
            QCOMPARE(table.find(text), id);
        }
        QCOMPARE(table.size(), ids.size() + 1);
        QCOMPARE(table.find("never"), kNoString);
        QCOMPARE(table.find("t999"), kNoString);
    }

    void nulBytes()
    {
        StringTable table;
        const std::string a("a\0"
                            "1",
                            3);
        const std::string b("a1");
        const StringId ia = table.intern(a);
        const StringId ib = table.intern(b);
        QVERIFY(ia != ib);
        QCOMPARE(table.view(ia), std::string_view(a));
        QCOMPARE(table.find(a), ia);
        QCOMPARE(table.find(b), ib);
    }

    void eraseNewest_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("numbered") << QByteArray("s42");
        QTest::newRow("hashed") << QByteArray("unknown-span");
    }
    void eraseNewest()
    {
        QFETCH(QByteArray, text);
        StringTable table;
        const StringId keep = table.intern("s1");
        const StringId id = table.intern(text.toStdString());
        table.eraseNewest(id);
        QCOMPARE(table.size(), std::size_t(2));
        QCOMPARE(table.find(text.toStdString()), kNoString);
        QCOMPARE(table.find("s1"), keep);
        QCOMPARE(table.intern(text.toStdString()), id); // the id is handed out again
        QCOMPARE(std::string(table.view(id)), text.toStdString());
    }

    // A long string has a block of its own, which eraseNewest() hands over on request with the
    // text where it was (the reader keeps an unknown span_end's 200 MB id so, uncopied).
    void eraseNewestHandsOverALongStringsBlock()
    {
        StringTable table;
        table.intern("s1");
        const std::string text(300000, 'u');
        const StringId id = table.intern(text);
        const char *at = table.view(id).data();
        const std::size_t before = table.memoryUsage();
        StringTable::Bytes block;
        table.eraseNewest(id, &block);
        QVERIFY(block.get() == at); // the same bytes, not a copy (QCOMPARE would compare C strings)
        QCOMPARE(std::string_view(block.get(), text.size()), std::string_view(text));
        QCOMPARE(table.memoryUsage(), before - text.size());
        QCOMPARE(table.find(text), kNoString);
        QCOMPARE(table.size(), std::size_t(2));

        // A short string shares its block: nothing is handed over.
        const StringId shortId = table.intern("unknown-span");
        StringTable::Bytes none;
        table.eraseNewest(shortId, &none);
        QVERIFY(!none);
        QCOMPARE(table.find("unknown-span"), kNoString);
    }
    void eraseNewestHandsOverATakenBuffer()
    {
        StringTable table;
        const std::size_t size = 1 << 20;
        StringTable::AdoptableBlock buffer{StringTable::allocateBytes(size), size, size};
        const char *data = buffer.data.get();
        std::memset(buffer.data.get(), 'v', size);
        table.offerBlock(&buffer);
        const StringId id = table.intern(std::string_view(data + 10, size - 20));
        table.offerBlock(nullptr);
        QVERIFY(!buffer.data); // taken over, not copied
        StringTable::Bytes block;
        table.eraseNewest(id, &block);
        QVERIFY(block.get() == data); // the same bytes, not a copy (QCOMPARE would compare C strings)
        QCOMPARE(table.memoryUsage() < size, true);
    }

    // An entry packs a text's length into 16 bits; texts of 65535 bytes or more are kept
    // aside (escaped). Every length around that edge, among short strings, reads back whole,
    // is found, can be erased as the newest and survives releaseBefore().
    void lengthsAroundTheEscape_data()
    {
        QTest::addColumn<QList<int>>("lengths");
        QTest::newRow("below") << QList<int>{65533, 65534};
        QTest::newRow("at") << QList<int>{65535};
        QTest::newRow("above") << QList<int>{65536, 65537};
        QTest::newRow("a block of its own") << QList<int>{262145, 300000};
        QTest::newRow("mixed") << QList<int>{10, 65535, 3, 65536, 70000, 65534, 5, 300000, 65535};
    }
    void lengthsAroundTheEscape()
    {
        QFETCH(QList<int>, lengths);
        StringTable table;
        std::vector<std::string> texts{""};
        for (int i = 0; i < lengths.size(); ++i) {
            // Distinct texts: a short numbered id between the long ones, NUL bytes inside.
            std::string text(std::size_t(lengths[i]), static_cast<char>('a' + i % 26));
            text[text.size() / 2] = '\0';
            QCOMPARE(table.intern(text), StringId(texts.size()));
            texts.push_back(text);
            const std::string id = "s" + std::to_string(i);
            QCOMPARE(table.intern(id), StringId(texts.size()));
            texts.push_back(id);
        }
        for (StringId id = 1; id < texts.size(); ++id) {
            QCOMPARE(table.view(id), std::string_view(texts[id]));
            QCOMPARE(table.find(texts[id]), id);
        }
        // The newest long text erased and interned again gets its id back.
        const std::string last(std::size_t(lengths.back()) + 1, 'z');
        const StringId lastId = table.intern(last);
        table.eraseNewest(lastId);
        QCOMPARE(table.find(last), kNoString);
        QCOMPARE(table.view(lastId - 1), std::string_view(texts[lastId - 1]));
        QCOMPARE(table.intern(last), lastId);
        QCOMPARE(table.view(lastId), std::string_view(last));
        texts.push_back(last);
        table.dropLookup();
        for (StringId id = 1; id < texts.size(); ++id) {
            table.releaseBefore(id);
            QCOMPARE(table.view(id), std::string_view(texts[id]));
        }
    }

    // Random numbers far apart exhaust the page budget: the rest go to the hash table, and
    // every string still has one id and is found.
    void scatteredNumbersStayConsistent()
    {
        StringTable table;
        std::mt19937 random(7);
        std::vector<std::string> texts;
        for (int i = 0; i < 20000; ++i)
            texts.push_back((i % 3 ? "t" : "st") + std::to_string(random() % 60000000));
        std::map<std::string, StringId> ids;
        for (const std::string &text : texts) {
            const StringId id = table.intern(text);
            const auto [it, inserted] = ids.emplace(text, id);
            QCOMPARE(it->second, id);
        }
        for (const auto &[text, id] : ids) {
            QCOMPARE(table.find(text), id);
            QCOMPARE(table.intern(text), id);
            QCOMPARE(std::string(table.view(id)), text);
        }
        QCOMPARE(table.size(), ids.size() + 1);
        // Bounded: well under 1 KB a string even though nearly every number has a page of its own.
        QVERIFY2(table.memoryUsage() < ids.size() * 1024, qPrintable(QString::number(table.memoryUsage())));
    }

    // Merging a segment's table interns all of its strings at once (internAllOf()): every id
    // must be the one interning them one by one in id order gives, in a table that then
    // finds them all, whatever mix of numbered, hashed, refused-page, long and escaped texts
    // the two tables hold and however many strings they share.
    void internAllOfMatchesInterningOneByOne_data()
    {
        QTest::addColumn<QByteArray>("dstShape");
        QTest::addColumn<int>("dstCount");
        QTest::addColumn<QByteArray>("srcShape");
        QTest::addColumn<int>("srcFrom");
        QTest::addColumn<int>("srcCount");
        QTest::newRow("new numbered ids") << QByteArray("numbered") << 3000 << QByteArray("numbered") << 3000 << 4000;
        QTest::newRow("shared numbered ids")
            << QByteArray("numbered") << 3000 << QByteArray("numbered") << 1000 << 4000;
        QTest::newRow("all shared") << QByteArray("mixed") << 5000 << QByteArray("mixed") << 1000 << 2000;
        QTest::newRow("labels") << QByteArray("labels") << 2000 << QByteArray("labels") << 1500 << 3000;
        QTest::newRow("labels into numbered") << QByteArray("numbered") << 2000 << QByteArray("labels") << 0 << 3000;
        QTest::newRow("mixed, past release points")
            << QByteArray("mixed") << 100000 << QByteArray("mixed") << 90000 << 200000;
        QTest::newRow("scattered numbers (pages refused)")
            << QByteArray("scattered") << 20000 << QByteArray("scattered") << 15000 << 20000;
        QTest::newRow("long and escaped texts") << QByteArray("long") << 12 << QByteArray("long") << 6 << 20;
        QTest::newRow("empty source") << QByteArray("mixed") << 100 << QByteArray("mixed") << 0 << 0;
        QTest::newRow("empty destination") << QByteArray("mixed") << 0 << QByteArray("mixed") << 0 << 5000;
    }
    void internAllOfMatchesInterningOneByOne()
    {
        QFETCH(QByteArray, dstShape);
        QFETCH(int, dstCount);
        QFETCH(QByteArray, srcShape);
        QFETCH(int, srcFrom);
        QFETCH(int, srcCount);
        StringTable dst;
        StringTable reference;
        for (int i = 0; i < dstCount; ++i) {
            const std::string text = generatedText(dstShape, i);
            QCOMPARE(dst.intern(text), reference.intern(text));
        }
        StringTable src;
        std::vector<std::string> srcTexts{""};
        for (int i = srcFrom; i < srcFrom + srcCount; ++i) {
            std::string text = generatedText(srcShape, i);
            if (src.intern(text) == srcTexts.size())
                srcTexts.push_back(std::move(text));
        }
        QCOMPARE(src.size(), srcTexts.size());
        std::vector<const char *> srcTextAt{nullptr};
        for (StringId id = 1; id < src.size(); ++id)
            srcTextAt.push_back(src.view(id).data());
        const std::size_t dstSizeBefore = dst.size();

        const HugePageArray<StringId> ids = dst.internAllOf(src);
        QCOMPARE(ids.size(), srcTexts.size());
        QCOMPARE(ids[0], kNoString);
        for (StringId id = 1; id < srcTexts.size(); ++id) {
            const StringId expected = reference.intern(srcTexts[id]);
            if (ids[id] != expected)
                QFAIL(qPrintable(QStringLiteral("string %1 got %2, one by one %3").arg(id).arg(ids[id]).arg(expected)));
        }
        QCOMPARE(dst.size(), reference.size());
        for (StringId id = 1; id < dst.size(); ++id) {
            if (dst.view(id) != reference.view(id))
                QFAIL(qPrintable(QStringLiteral("text of id %1 differs").arg(id)));
            if (dst.find(reference.view(id)) != id)
                QFAIL(qPrintable(QStringLiteral("id %1 not found by its text").arg(id)));
        }
        QCOMPARE(dst.find("never interned"), kNoString);
        QCOMPARE(src.size(), std::size_t(1)); // given back
        // The texts new here were taken over where they lay, not copied.
        for (StringId id = 1; id < srcTexts.size(); ++id) {
            if (ids[id] >= dstSizeBefore && !srcTexts[id].empty() && dst.view(ids[id]).data() != srcTextAt[id])
                QFAIL(qPrintable(QStringLiteral("text of string %1 was copied").arg(id)));
        }
        // The merged table goes on interning as one that was never merged.
        QCOMPARE(dst.intern("after the merge"), reference.intern("after the merge"));
        if (srcTexts.size() > 1)
            QCOMPARE(dst.intern(srcTexts.back()), ids[srcTexts.size() - 1]);
    }

    // A table that took over another's texts hands them on when it is merged in turn: three
    // segments merge into the first one by one, and a fourth table may take the result.
    void internAllOfHandsOnTakenOverTexts()
    {
        const auto fill = [](StringTable &table, int from, int count) {
            for (int i = from; i < from + count; ++i) {
                // Every 500th a text of a block of its own (over 256 KB).
                std::string text = i % 500 == 7
                                       ? std::string(300000, static_cast<char>('a' + i % 13)) + std::to_string(i)
                                       : (i % 3 == 0 ? "label." : "s") + std::to_string(i);
                table.intern(text);
            }
        };
        StringTable first;
        StringTable second;
        StringTable third;
        fill(first, 0, 3000);
        fill(second, 2000, 3000);
        fill(third, 4000, 3000);
        StringTable reference;
        fill(reference, 0, 7000);
        first.internAllOf(second);
        first.internAllOf(third);
        StringTable last;
        last.internAllOf(first);
        QCOMPARE(last.size(), reference.size());
        for (StringId id = 1; id < reference.size(); ++id) {
            if (last.view(id) != reference.view(id))
                QFAIL(qPrintable(QStringLiteral("text of id %1 differs").arg(id)));
        }
        QVERIFY(last.memoryUsage() >= 14 * std::size_t(300000)); // the taken-over texts count
    }

    void reserveThenIntern()
    {
        StringTable table;
        table.intern("name");
        table.reserve(100000);
        for (int i = 0; i < 50000; ++i) {
            QCOMPARE(table.intern("t" + std::to_string(i)), StringId(2 * i + 2));
            const StringId label = table.intern("label." + std::to_string(i));
            QCOMPARE(table.find("label." + std::to_string(i)), label);
        }
        QCOMPARE(table.find("t49999"), StringId(49999 * 2 + 2));
    }

    // Merging reads a table once in id order and gives it back on the way: every text not
    // released yet reads back intact (the blocks released are only those of lower ids), and
    // the memory held goes down as it goes.
    void releaseBeforeKeepsTheRest()
    {
        StringTable table;
        std::vector<std::string> texts{""};
        for (int i = 0; i < 300000; ++i) {
            std::string text = i % 5 == 0 ? "label." + std::to_string(i) : "s" + std::to_string(i);
            if (i == 1000 || i == 150000)
                text = std::string(300000, static_cast<char>('a' + i % 7)); // a block of its own
            if (i == 2000)
                text.clear();
            if (table.intern(text) == texts.size())
                texts.push_back(text);
        }
        QCOMPARE(table.size(), texts.size());
        table.dropLookup();
        const std::size_t before = table.memoryUsage();
        for (StringId id = 1; id < texts.size(); ++id) {
            QCOMPARE(std::string(table.view(id)), texts[id]);
            if (id % 4096 == 0)
                table.releaseBefore(id + 1);
        }
        QVERIFY2(table.memoryUsage() + 1000000 < before, qPrintable(QString::number(table.memoryUsage())));
        table.releaseBefore(StringId(texts.size())); // past the end: nothing to do
    }

    // Large blocks fill whole 2 MiB pages with malloc's header (hugeBlockBytes): a block of
    // any other size keeps up to 2 MiB at either end in 4 KiB pages, a page fault each.
    void largeBlocksFillWholeHugePages()
    {
        constexpr std::size_t kHuge = std::size_t(2) << 20;
        QCOMPARE(hugeBlockBytes(100), std::size_t(100));
        QCOMPARE(hugeBlockBytes(3 * kHuge), 4 * kHuge - 32);
        QCOMPARE(hugeBlockBytes(4 * kHuge - 32), 4 * kHuge - 32);
        std::vector<std::uint64_t> records;
        reserveHuge(records, 1000000);
        QVERIFY(records.capacity() >= 1000000);
        QCOMPARE((records.capacity() * sizeof(std::uint64_t) + 32) % kHuge, std::size_t(0));
        std::vector<std::uint64_t> small;
        reserveHuge(small, 1000);
        QVERIFY(small.capacity() >= 1000 && small.capacity() * sizeof(std::uint64_t) < kHuge);
    }

    // An array filled to a size known beforehand (a merged record array) has huge pages only
    // where they fill up: its last, partly filled 2 MiB is in 4 KiB pages, not resident in
    // full (with transparent huge pages on; without them every page is 4 KiB anyway).
    void arrayEndIsNotAWholeHugePage()
    {
        constexpr std::size_t kHuge = std::size_t(2) << 20;
        std::vector<std::uint64_t> records;
        reserveHuge(records, 4 * kHuge / sizeof(std::uint64_t));
        const std::size_t count = (kHuge + kHuge / 4) / sizeof(std::uint64_t); // 2.5 MiB
        adviseHugeUpTo(records, count);
        records.resize(count, 1);
        const auto first = reinterpret_cast<std::uintptr_t>(records.data()) & ~std::uintptr_t(4095);
        const auto last = reinterpret_cast<std::uintptr_t>(records.data() + records.capacity()) & ~std::uintptr_t(4095);
        std::vector<unsigned char> pages((last - first) / 4096);
        QCOMPARE(::mincore(reinterpret_cast<void *>(first), last - first, pages.data()), 0);
        std::size_t resident = 0;
        for (unsigned char p : pages)
            resident += (p & 1) * std::size_t(4096);
        // 2.5 MiB and the pages at either end, not the 4 MiB of two whole huge pages.
        QVERIFY2(resident < 3 * kHuge / 2, qPrintable(QString::number(resident)));
        QCOMPARE(records.back(), std::uint64_t(1));
    }

    // A table of tens of MB of texts spans the large (huge-page) blocks: every text reads
    // back intact across them, also while the front is given back.
    void textsAcrossLargeBlocks()
    {
        StringTable table;
        std::vector<std::string> texts{""};
        for (int i = 0; i < 1500000; ++i) {
            std::string text = "span.name." + std::to_string(i) + (i % 3 ? ".fwd" : ".backward.pass");
            if (table.intern(text) == texts.size())
                texts.push_back(std::move(text));
        }
        for (StringId id = 1; id < texts.size(); id += 7)
            QCOMPARE(table.find(texts[id]), id);
        table.dropLookup();
        for (StringId id = 1; id < texts.size(); ++id) {
            QCOMPARE(table.view(id), std::string_view(texts[id]));
            if (id % 65536 == 0)
                table.releaseBefore(id + 1);
        }
    }
};

QTEST_GUILESS_MAIN(TstStringTable)
#include "tst_stringtable.moc"
