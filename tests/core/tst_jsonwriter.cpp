// SPDX-License-Identifier: MIT
#include <QTest>

#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compat/jsonstring.h"
#include "core/output/jsonwriter.h"

using namespace TraceInspector;

class tst_JsonWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void escaping_data();
    void escaping();
    void everyByteRoundTrips();
    void needsEscapeAtEveryLengthAndPosition();
    void randomStringsRoundTrip();
    void structure();
    void emptyContainers();
    void numbers();
    void jsonLines();
    void callbackSinkChunks();
    void longStringKeepsBufferSize();
    void fileSink();
    void failingSinkIsSticky();
    void takeBuffer();
};

static std::string jsonQuoted(std::string_view s)
{
    std::string out;
    appendJsonString(out, s);
    return out;
}

void tst_JsonWriter::escaping_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("empty") << QByteArray("") << QByteArray(R"("")");
    QTest::newRow("plain") << QByteArray("span-root") << QByteArray(R"("span-root")");
    QTest::newRow("quote") << QByteArray("a\"b") << QByteArray(R"("a\"b")");
    QTest::newRow("backslash") << QByteArray("a\\b") << QByteArray(R"("a\\b")");
    QTest::newRow("backspace") << QByteArray("\b") << QByteArray(R"("\b")");
    QTest::newRow("formfeed") << QByteArray("\f") << QByteArray(R"("\f")");
    QTest::newRow("newline") << QByteArray("\n") << QByteArray(R"("\n")");
    QTest::newRow("return") << QByteArray("\r") << QByteArray(R"("\r")");
    QTest::newRow("tab") << QByteArray("\t") << QByteArray(R"("\t")");
    QTest::newRow("nul") << QByteArray("a\0b", 3) << QByteArray(R"("a\u0000b")");
    QTest::newRow("0x01") << QByteArray("\x01") << QByteArray(R"("\u0001")");
    QTest::newRow("vertical tab") << QByteArray("\x0b") << QByteArray(R"("\u000b")");
    QTest::newRow("0x1f lowercase hex") << QByteArray("\x1f") << QByteArray(R"("\u001f")");
    QTest::newRow("0x1a") << QByteArray("\x1a") << QByteArray(R"("\u001a")");
    QTest::newRow("space raw") << QByteArray(" ") << QByteArray(R"(" ")");
    QTest::newRow("slash raw") << QByteArray("a/b") << QByteArray(R"("a/b")");
    QTest::newRow("DEL raw") << QByteArray("\x7f") << QByteArray("\"\x7f\"");
    QTest::newRow("non-ASCII raw") << QByteArray("héllo ✓") << QByteArray("\"héllo ✓\"");
    QTest::newRow("U+2028 raw") << QByteArray("\xe2\x80\xa8") << QByteArray("\"\xe2\x80\xa8\"");
    QTest::newRow("BOM raw") << QByteArray("\xef\xbb\xbf") << QByteArray("\"\xef\xbb\xbf\"");
    QTest::newRow("invalid UTF-8 passed through") << QByteArray("\xff\xfe") << QByteArray("\"\xff\xfe\"");
    // Longer than one 8-byte block, escapes at block edges.
    QTest::newRow("long clean") << QByteArray("encoder.layer.0.attention.self.query.weight")
                                << QByteArray(R"("encoder.layer.0.attention.self.query.weight")");
    QTest::newRow("escape at byte 7") << QByteArray("0123456\"89") << QByteArray(R"("0123456\"89")");
    QTest::newRow("escape at byte 8") << QByteArray("01234567\n9") << QByteArray(R"("01234567\n9")");
    QTest::newRow("escape last of 16") << QByteArray("0123456789abcde\\") << QByteArray(R"("0123456789abcde\\")");
    QTest::newRow("high bytes around quote") << QByteArray("\xc3\xa9\xc3\xa9\"\xc3\xa9\xc3\xa9\xc3\xa9")
                                             << QByteArray("\"\xc3\xa9\xc3\xa9\\\"\xc3\xa9\xc3\xa9\xc3\xa9\"");
    QTest::newRow("all escapes") << QByteArray("\"\\\b\f\n\r\t\x02") << QByteArray(R"("\"\\\b\f\n\r\t\u0002")");
    // Short texts, whose bytes jsonStringNeedsEscape() gathers into one word: an escape at
    // the first, middle and last byte of each size class.
    QTest::newRow("escape first of 2") << QByteArray("\na") << QByteArray(R"("\na")");
    QTest::newRow("escape last of 2") << QByteArray("a\x01") << QByteArray(R"("a\u0001")");
    QTest::newRow("escape first of 3") << QByteArray("\"bc") << QByteArray(R"("\"bc")");
    QTest::newRow("escape last of 3") << QByteArray("ab\x1f") << QByteArray(R"("ab\u001f")");
    QTest::newRow("escape first of 4") << QByteArray("\tbcd") << QByteArray(R"("\tbcd")");
    QTest::newRow("escape last of 5") << QByteArray("abcd\\") << QByteArray(R"("abcd\\")");
    QTest::newRow("escape byte 4 of 7") << QByteArray("abcd\"fg") << QByteArray(R"("abcd\"fg")");
    QTest::newRow("escape last of 7") << QByteArray("abcdef\r") << QByteArray(R"("abcdef\r")");
    QTest::newRow("escape last of 9") << QByteArray("01234567\b") << QByteArray(R"("01234567\b")");
    QTest::newRow("escape byte 9 of 17") << QByteArray("012345678\f0123456") << QByteArray(R"("012345678\f0123456")");
    QTest::newRow("DEL and high bytes, 3") << QByteArray("\xc3\xa9\x7f") << QByteArray("\"\xc3\xa9\x7f\"");
    QTest::newRow("U+2028 among 6") << QByteArray("ab\xe2\x80\xa8"
                                                  "c")
                                    << QByteArray("\"ab\xe2\x80\xa8"
                                                  "c\"");
}

void tst_JsonWriter::escaping()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    const std::string_view text(input.constData(), std::size_t(input.size()));
    const std::string out = jsonQuoted(text);
    QCOMPARE(QByteArray::fromStdString(out), expected);
    // The shortcut of writers that copy a text needing no escapes between quotes.
    QCOMPARE(jsonStringNeedsEscape(text), expected != "\"" + input + "\"");
}

void tst_JsonWriter::everyByteRoundTrips()
{
    for (int c = 0; c < 0x80; ++c) {
        const std::string in(1, char(c));
        const std::string out = jsonQuoted(in);
        QCOMPARE(nlohmann::json::parse(out).get<std::string>(), in);
        const bool escaped = c < 0x20 || c == '"' || c == '\\';
        QCOMPARE(out.size() > 3, escaped);
    }
}

// Every byte value at every position of texts of 0 to 24 bytes, among plain ASCII and among
// high bytes (which must not be mistaken for control characters).
void tst_JsonWriter::needsEscapeAtEveryLengthAndPosition()
{
    for (const char background : {'x', '\xff', '\x80'}) {
        for (std::size_t length = 0; length <= 24; ++length) {
            std::string text(length, background);
            QVERIFY(!jsonStringNeedsEscape(text));
            for (std::size_t at = 0; at < length; ++at) {
                for (int b = 0; b < 256; ++b) {
                    text[at] = char(b);
                    const bool escaped = b < 0x20 || b == '"' || b == '\\';
                    if (jsonStringNeedsEscape(text) != escaped)
                        QFAIL(qPrintable(QStringLiteral("byte %1 at %2 of %3").arg(b).arg(at).arg(length)));
                }
                text[at] = background;
            }
        }
    }
}

void tst_JsonWriter::randomStringsRoundTrip()
{
    std::mt19937 rng(7);
    const std::string alphabet = std::string("ab\"\\/\b\f\n\r\t\x01\x1f\x7f ", 15) + "\xc3\xa9\xe2\x80\xa8";
    for (int i = 0; i < 2000; ++i) {
        std::string s;
        const int len = int(rng() % 40);
        for (int j = 0; j < len; ++j) {
            // Whole UTF-8 sequences only, so nlohmann accepts the result.
            const std::uint32_t pick = rng() % 17;
            if (pick < 15)
                s.push_back(alphabet[pick]);
            else if (pick == 15)
                s += "\xc3\xa9";
            else
                s += "\xe2\x80\xa8";
        }
        JsonWriter w;
        w.beginObject().key(s).string(s).endObject();
        const auto j = nlohmann::json::parse(w.buffer());
        QCOMPARE(j.size(), std::size_t(1));
        QCOMPARE(j.begin().key(), s);
        QCOMPARE(j.begin().value().get<std::string>(), s);
    }
}

void tst_JsonWriter::structure()
{
    JsonWriter w;
    w.beginObject()
        .key("a")
        .u64(1)
        .key("b")
        .beginArray()
        .u64(1)
        .string("x")
        .beginObject()
        .key("k")
        .null()
        .endObject()
        .beginArray()
        .endArray()
        .endArray()
        .key("c")
        .beginObject()
        .key("d")
        .boolean(true)
        .key("e")
        .boolean(false)
        .endObject()
        .key("f")
        .rawValue(R"({"pre":[1,2]})")
        .key("g")
        .f64(0.5)
        .endObject();
    QCOMPARE(w.depth(), 0);
    QCOMPARE(w.buffer(),
             std::string(R"({"a":1,"b":[1,"x",{"k":null},[]],"c":{"d":true,"e":false},"f":{"pre":[1,2]},"g":0.5})"));
    QVERIFY(w.ok());
}

void tst_JsonWriter::emptyContainers()
{
    JsonWriter w;
    w.beginArray().beginObject().endObject().beginArray().endArray().beginObject().endObject().endArray();
    QCOMPARE(w.buffer(), std::string("[{},[],{}]"));
}

void tst_JsonWriter::numbers()
{
    JsonWriter w;
    w.beginArray()
        .u64(0)
        .u64(std::numeric_limits<std::uint64_t>::max())
        .i64(std::numeric_limits<std::int64_t>::min())
        .i64(-1)
        .f64(1.0)
        .f64(-0.0)
        .f64(1e16)
        .f64(std::numeric_limits<double>::quiet_NaN())
        .endArray();
    QCOMPARE(w.buffer(), std::string("[0,18446744073709551615,-9223372036854775808,-1,1.0,-0.0,1e+16,null]"));
}

void tst_JsonWriter::jsonLines()
{
    JsonWriter w;
    w.beginObject().key("kind").string("a").endObject().endLine();
    w.beginObject().key("kind").string("b").endObject().endLine();
    w.u64(3).endLine();
    QCOMPARE(w.buffer(), std::string("{\"kind\":\"a\"}\n{\"kind\":\"b\"}\n3\n"));
    QCOMPARE(w.bytesWritten(), std::uint64_t(w.buffer().size()));
}

void tst_JsonWriter::callbackSinkChunks()
{
    std::string received;
    int calls = 0;
    std::size_t largestPending = 0;
    std::string expected;
    {
        JsonWriter w(
            [&](std::string_view chunk) {
                ++calls;
                received.append(chunk);
                return true;
            },
            64);
        for (int i = 0; i < 1000; ++i) {
            w.beginObject().key("i").u64(std::uint64_t(i)).key("s").string("value\n").endObject().endLine();
            largestPending = std::max(largestPending, w.buffer().size());
            expected += "{\"i\":" + std::to_string(i) + ",\"s\":\"value\\n\"}\n";
        }
        QVERIFY(w.flush());
        QCOMPARE(w.bytesWritten(), std::uint64_t(expected.size()));
        QVERIFY(w.buffer().empty());
    }
    QCOMPARE(received, expected);
    QVERIFY(calls > 100);              // really streamed
    QVERIFY(largestPending < 64 + 64); // never held much more than the threshold
}

// A message quoting a long value goes out in pieces: the buffer keeps the room it was made
// with even when every byte escapes to six (`\u0001`), and the text is appendJsonString()'s.
void tst_JsonWriter::longStringKeepsBufferSize()
{
    constexpr std::size_t kThreshold = std::size_t(64) << 10;
    std::string value(std::size_t(1) << 20, '\x01');
    value.replace(1000, 5, "a\"b\\c");
    value.back() = 'z';
    std::string received;
    std::size_t capacity = 0;
    {
        JsonWriter w(
            [&](std::string_view chunk) {
                received.append(chunk);
                return true;
            },
            kThreshold);
        const std::size_t reserved = w.buffer().capacity();
        w.beginObject().key("message").string(value).endObject().endLine();
        capacity = w.buffer().capacity();
        QVERIFY(w.flush());
        QCOMPARE(capacity, reserved);
    }
    std::string expected = "{\"message\":";
    appendJsonString(expected, value);
    expected += "}\n";
    QCOMPARE(received.size(), expected.size());
    QVERIFY(received == expected);
}

void tst_JsonWriter::fileSink()
{
    std::FILE *f = std::tmpfile();
    QVERIFY(f);
    {
        JsonWriter w(f, 16);
        for (int i = 0; i < 100; ++i)
            w.beginArray().u64(std::uint64_t(i)).string("é").endArray().endLine();
        QVERIFY(w.flush());
        QVERIFY(w.ok());
        QVERIFY(w.errorString().empty());
    }
    std::rewind(f);
    std::string text;
    char buf[256];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    std::fclose(f);
    std::string expected;
    for (int i = 0; i < 100; ++i)
        expected += "[" + std::to_string(i) + ",\"é\"]\n";
    QCOMPARE(text, expected);
}

void tst_JsonWriter::failingSinkIsSticky()
{
    int calls = 0;
    JsonWriter w(
        [&](std::string_view) {
            ++calls;
            return false;
        },
        8);
    for (int i = 0; i < 100; ++i)
        w.beginArray().string("0123456789").endArray().endLine();
    QVERIFY(!w.ok());
    QVERIFY(!w.flush());
    QVERIFY(!w.errorString().empty());
    QCOMPARE(calls, 1);              // never retried after the first failure
    QVERIFY(w.buffer().size() < 64); // and the data does not pile up

    // A read-only stream makes fwrite fail with a real errno.
    std::FILE *ro = std::fopen("/dev/null", "r");
    QVERIFY(ro);
    {
        JsonWriter fw(ro, 4);
        fw.string("abcdefgh").endLine();
        QVERIFY(!fw.flush());
        QVERIFY(fw.errorCode() != 0);
        QVERIFY(!fw.errorString().empty());
    }
    std::fclose(ro);
}

void tst_JsonWriter::takeBuffer()
{
    JsonWriter w;
    w.beginArray().u64(1).endArray();
    QCOMPARE(w.takeBuffer(), std::string("[1]"));
    QVERIFY(w.buffer().empty());
    QCOMPARE(w.bytesWritten(), std::uint64_t(3));
    // No sink: flush keeps everything.
    w.u64(2);
    QVERIFY(w.flush());
    QCOMPARE(w.buffer(), std::string("2"));
}

QTEST_GUILESS_MAIN(tst_JsonWriter)
#include "tst_jsonwriter.moc"
