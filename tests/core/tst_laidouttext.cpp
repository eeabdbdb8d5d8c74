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

QTEST_APPLESS_MAIN(TstLaidOutText)
#include "tst_laidouttext.moc"
