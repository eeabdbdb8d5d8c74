// SPDX-License-Identifier: MIT
#include <QTest>

#include <random>
#include <string>

#include "core/compat/jsonstring.h"
#include "core/output/laidouttext.h"

using namespace TraceInspector;

namespace {

/// \a text through LaidOutText::jsonString(), appended after \a prefix with room for
/// exactly jsonStringBound(); the result and whether the room was enough.
std::string laidOut(const std::string &prefix, std::string_view text, bool &fits)
{
    std::string out = prefix;
    const std::size_t bound = LaidOutText::jsonStringBound(text);
    {
        LaidOutText t(out, bound);
        t.jsonString(text);
    }
    fits = out.size() <= prefix.size() + bound;
    return out;
}

std::string appended(const std::string &prefix, std::string_view text)
{
    std::string out = prefix;
    appendJsonString(out, text);
    return out;
}

} // namespace

class TstLaidOutText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyByteAsAppendJsonStringWrites();
    void worstCaseFillsTheBoundExactly();
    void randomNames();
    void piecesAndCut();
    void growsPieceByPiece();
    void escapedTextKeepsTheRoomAskedFor();
    void floats();
};

void TstLaidOutText::everyByteAsAppendJsonStringWrites()
{
    for (int b = 0; b < 256; ++b) {
        const std::string text = std::string("a") + char(b) + "z";
        bool fits = false;
        QCOMPARE(laidOut("x", text, fits), appended("x", text));
        QVERIFY(fits);
    }
}

// Every byte a control character: each becomes \u00xx, six bytes, plus the quotes.
void TstLaidOutText::worstCaseFillsTheBoundExactly()
{
    const std::string text(37, '\x01');
    bool fits = false;
    const std::string out = laidOut("", text, fits);
    QCOMPARE(out, appended("", text));
    QCOMPARE(out.size(), LaidOutText::jsonStringBound(text));
}

void TstLaidOutText::randomNames()
{
    std::mt19937_64 rng(5);
    const std::string alphabet = std::string("abc:/-_09\"\\\t\n\x01\x1f\x7f") + "\xc3\xa9" + '\0';
    for (int i = 0; i < 20000; ++i) {
        std::string text(rng() % 24, ' ');
        for (char &c : text)
            c = alphabet[rng() % alphabet.size()];
        bool fits = false;
        QCOMPARE(laidOut("prefix", text, fits), appended("prefix", text));
        QVERIFY(fits);
    }
}

// Text is written after what the buffer held, and the buffer is cut to what was written.
void TstLaidOutText::piecesAndCut()
{
    std::string out = "[";
    {
        LaidOutText t(out, 100);
        t.put(R"({"n":)");
        t.decimal(18446744073709551615ull);
        t.put(',');
        t.decimal(0);
        t.put('}');
    }
    QCOMPARE(out, std::string(R"([{"n":18446744073709551615,0})"));
}

// Without a bound: room() before each piece grows the buffer (in steps, and by more than a
// step for a long piece); the text is what appends would make.
void TstLaidOutText::growsPieceByPiece()
{
    std::mt19937_64 rng(11);
    std::string out = "head";
    std::string expected = "head";
    {
        LaidOutText t(out, 0);
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t v = rng() >> (rng() % 64);
            t.room(LaidOutText::kNumberBound + 1);
            t.decimal(v);
            t.put(',');
            expected += std::to_string(v) + ',';
            if (i % 5000 == 0) {
                // Longer than a growth step, with and without escapes.
                const std::string text(100000 + std::size_t(i), i % 2 ? 'a' : '\n');
                t.room(LaidOutText::jsonStringBound(text));
                t.jsonString(text);
                appendJsonString(expected, text);
            }
        }
    }
    QCOMPARE(out.size(), expected.size());
    QVERIFY(out == expected);
}

// A caller may ask for the unescaped size of a text and more room after it; escaping the
// text must leave that room, so that the pieces after it are written without a check.
void TstLaidOutText::escapedTextKeepsTheRoomAskedFor()
{
    for (const std::string &text : {std::string("\"q\""), std::string(70000, '\x01'), std::string("plain")}) {
        std::string out;
        std::string expected;
        {
            LaidOutText t(out, 0);
            t.room(text.size() + 2 + 100);
            t.jsonString(text);
            QVERIFY(t.roomLeft() >= 100);
            for (int i = 0; i < 100; ++i)
                t.put('x');
        }
        appendJsonString(expected, text);
        expected += std::string(100, 'x');
        QVERIFY(out == expected);
    }
}

void TstLaidOutText::floats()
{
    std::string out = "[";
    {
        LaidOutText t(out, 3 * LaidOutText::kFloatBound + 3);
        t.jsonFloat(1.0);
        t.put(',');
        t.jsonFloat(-2.5e-300);
        t.put(',');
        t.jsonFloat(1.2345678901234568e+22);
        t.put(']');
    }
    QCOMPARE(out, std::string("[1.0,-2.5e-300,1.2345678901234568e+22]"));
}

QTEST_APPLESS_MAIN(TstLaidOutText)
#include "tst_laidouttext.moc"
