// SPDX-License-Identifier: MIT
#include <QtTest>

#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/problemlimiter.h"

using namespace TraceInspector;

// shortJoin() builds a message as shorten() would leave the whole one, without the whole one
// (health findings quoting a 200 MB id): both must give the same bytes, also where the cut
// falls inside a UTF-8 character or a part ends at the cut.
class TstProblemLimiter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shortJoinIsShortenOfTheJoin_data()
    {
        QTest::addColumn<int>("length"); // of the middle part
        QTest::addColumn<QByteArray>("character");
        const std::size_t max = ProblemLimiter::kMaxMessageBytes;
        for (const char *c : {"i", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}) {
            const auto width = static_cast<int>(std::strlen(c));
            std::set<int> lengths;
            for (const std::size_t around :
                 {std::size_t(0), max - 30, max - 23, max - 22, max - 21, max - 20, max, 3 * max}) {
                for (int extra = 0; extra < 4; ++extra)
                    lengths.insert(static_cast<int>(around) + extra * width);
            }
            for (const int length : lengths)
                QTest::addRow("%d bytes of %d-byte characters", length, width) << length << QByteArray(c);
        }
    }
    void shortJoinIsShortenOfTheJoin()
    {
        QFETCH(int, length);
        QFETCH(QByteArray, character);
        std::string middle;
        while (middle.size() < static_cast<std::size_t>(length))
            middle += character.toStdString();
        const std::vector<std::string_view> splits{"", "span `", "x"};
        for (const std::string_view head : splits) {
            const std::string_view tail = "` was not closed";
            std::string whole = std::string(head) + middle + std::string(tail);
            const std::string joined = ProblemLimiter::shortJoin({head, middle, tail});
            ProblemLimiter::shorten(whole);
            QCOMPARE(joined, whole);
        }
    }

    // A stored problem's related id longer than a message is dropped, and its block with it.
    void longRelatedIdIsDropped()
    {
        ProblemLimiter limiter;
        std::vector<Problem> out;
        Problem p;
        p.ruleId = "H-SPAN-UNCLOSED";
        p.message = "span";
        p.relatedId.assign(ProblemLimiter::kMaxMessageBytes + 1, 'i');
        QVERIFY(limiter.storeShortened(std::move(p), out));
        QCOMPARE(out.size(), std::size_t(1));
        QVERIFY(out[0].relatedId.empty());
        QCOMPARE(out[0].relatedId.capacity(), std::string().capacity());
    }
};

QTEST_GUILESS_MAIN(TstProblemLimiter)
#include "tst_problemlimiter.moc"
