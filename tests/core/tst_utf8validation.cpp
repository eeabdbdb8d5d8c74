// SPDX-License-Identifier: MIT
#include <QTest>

#include <cstring>
#include <memory>
#include <string>

#include "core/io/utf8validation.h"
#include "core/output/textescape.h"

using namespace TraceInspector;

/// The reader's line check (core/io) against the output writer's scalar decoder
/// (core/output/textescape.h), an independent implementation of the same definition.
class TestUtf8Validation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void knownSequences_data();
    void knownSequences();
    void everySequenceUpToThreeBytes();
    void fourByteSequences();
    void positionInLine_data();
    void positionInLine();
    void invalidByteAfterCharacter();
};

namespace {

bool check(const std::string &s)
{
    return isUtf8(s.data(), s.size());
}

} // namespace

void TestUtf8Validation::knownSequences_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("valid");
    QTest::newRow("empty") << QByteArray() << true;
    QTest::newRow("ascii") << QByteArray("{\"kind\":\"op\"}") << true;
    QTest::newRow("two bytes") << QByteArray("\xC2\xB5s") << true;
    QTest::newRow("three bytes") << QByteArray("\xE2\x82\xAC") << true;
    QTest::newRow("four bytes") << QByteArray("\xF0\x9F\x98\x80") << true;
    QTest::newRow("last code point") << QByteArray("\xF4\x8F\xBF\xBF") << true;
    QTest::newRow("past U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << false;
    QTest::newRow("F5 lead") << QByteArray("\xF5\x80\x80\x80") << false;
    QTest::newRow("overlong two") << QByteArray("\xC0\xAF") << false;
    QTest::newRow("overlong C1") << QByteArray("\xC1\xBF") << false;
    QTest::newRow("overlong three") << QByteArray("\xE0\x9F\xBF") << false;
    QTest::newRow("overlong four") << QByteArray("\xF0\x8F\xBF\xBF") << false;
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << false;
    QTest::newRow("last before surrogates") << QByteArray("\xED\x9F\xBF") << true;
    QTest::newRow("lone continuation") << QByteArray("a\x80") << false;
    QTest::newRow("truncated at end") << QByteArray("abc\xE2\x82") << false;
    QTest::newRow("truncated by ascii") << QByteArray("\xE2\x82z") << false;
    QTest::newRow("ff") << QByteArray("\xFF") << false;
}

void TestUtf8Validation::knownSequences()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, valid);
    const std::string s(bytes.constData(), std::size_t(bytes.size()));
    QCOMPARE(check(s), valid);
    QCOMPARE(check(s), isValidUtf8(s));
}

void TestUtf8Validation::everySequenceUpToThreeBytes()
{
    // Every string of one, two and three bytes, after 17 ASCII bytes so the 16-byte
    // stride has passed once and ends mid-sequence.
    const std::string prefix(17, 'x');
    int mismatches = 0;
    std::string s;
    for (int len = 1; len <= 3; ++len) {
        const std::uint32_t count = 1u << (8 * len);
        for (std::uint32_t v = 0; v < count; ++v) {
            s = prefix;
            for (int k = len - 1; k >= 0; --k)
                s.push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
            if (check(s) != isValidUtf8(s) && ++mismatches <= 5)
                qWarning("mismatch: %s", QByteArray::fromStdString(s).toHex().constData());
        }
    }
    QCOMPARE(mismatches, 0);
}

void TestUtf8Validation::fourByteSequences()
{
    // Every lead and second byte with the third and fourth drawn from the boundary values
    // of each byte class (ASCII, continuation ends, leads).
    const unsigned char edges[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                   0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xF0, 0xF4, 0xFF};
    int mismatches = 0;
    std::string s;
    for (int b0 = 0; b0 < 256; ++b0)
        for (int b1 = 0; b1 < 256; ++b1)
            for (unsigned char b2 : edges)
                for (unsigned char b3 : edges) {
                    s = {static_cast<char>(b0), static_cast<char>(b1), static_cast<char>(b2), static_cast<char>(b3)};
                    if (check(s) != isValidUtf8(s))
                        ++mismatches;
                }
    QCOMPARE(mismatches, 0);
}

void TestUtf8Validation::positionInLine_data()
{
    QTest::addColumn<QByteArray>("sequence");
    QTest::addColumn<bool>("valid");
    QTest::newRow("valid") << QByteArray("\xE2\x82\xAC") << true;
    QTest::newRow("invalid") << QByteArray("\xED\xA0\x80") << false;
    QTest::newRow("truncated") << QByteArray("\xF0\x9F\x98") << false;
}

void TestUtf8Validation::positionInLine()
{
    // At every offset around the 16-byte stride, with ASCII before and after; a copy of
    // exactly the line's bytes, so a read past the end shows under ASan.
    QFETCH(QByteArray, sequence);
    QFETCH(bool, valid);
    for (int before = 0; before < 40; ++before) {
        for (int after = 0; after < 20; ++after) {
            const std::string s =
                std::string(std::size_t(before), 'a') + sequence.toStdString() + std::string(std::size_t(after), 'b');
            const std::unique_ptr<char[]> exact(new char[s.size()]);
            std::memcpy(exact.get(), s.data(), s.size());
            QVERIFY2(isUtf8(exact.get(), s.size()) == valid, qPrintable(QStringLiteral("offset %1").arg(before)));
        }
    }
}

// The last bytes of a line are checked in one load that overlaps bytes already checked,
// a character among them: a bad byte after it is found wherever it lies.
void TestUtf8Validation::invalidByteAfterCharacter()
{
    for (int before = 0; before < 40; ++before) {
        for (int gap = 0; gap < 18; ++gap) {
            for (int after = 0; after < 18; ++after) {
                const std::string s = std::string(std::size_t(before), 'a') + "\xE2\x82\xAC"
                                      + std::string(std::size_t(gap), 'b') + "\x80"
                                      + std::string(std::size_t(after), 'c');
                const std::unique_ptr<char[]> exact(new char[s.size()]);
                std::memcpy(exact.get(), s.data(), s.size());
                QVERIFY2(!isUtf8(exact.get(), s.size()),
                         qPrintable(QStringLiteral("%1 %2 %3").arg(before).arg(gap).arg(after)));
                QVERIFY(isUtf8(exact.get(), s.size() - std::size_t(after) - 1));
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestUtf8Validation)
#include "tst_utf8validation.moc"
