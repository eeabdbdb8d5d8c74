// SPDX-License-Identifier: MIT
#include <QTest>

#include <cmath>
#include <limits>
#include <string>

#include "core/compat/rustformat.h"

using namespace TraceInspector;
using namespace Qt::Literals::StringLiterals;

namespace {

std::string_view view(const QByteArray &b)
{
    return {b.constData(), std::size_t(b.size())};
}

} // namespace

class TestRustFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void debugString_data();
    void debugString();
    void debugFloat_data();
    void debugFloat();
    void debugOptionalFloat();
    void trim_data();
    void trim();
};

void TestRustFormat::debugString_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray("span-root") << QByteArray(R"("span-root")");
    QTest::newRow("empty") << QByteArray() << QByteArray(R"("")");
    QTest::newRow("quote and backslash") << QByteArray(R"(a"b\c)") << QByteArray(R"("a\"b\\c")");
    QTest::newRow("apostrophe kept") << QByteArray("it's") << QByteArray(R"("it's")");
    QTest::newRow("tab cr lf") << QByteArray("a\tb\rc\nd") << QByteArray(R"("a\tb\rc\nd")");
    QTest::newRow("nul") << QByteArray("a\0b", 3) << QByteArray(R"("a\0b")");
    QTest::newRow("other C0 control") << QByteArray("\x01\x1b") << QByteArray(R"("\u{1}\u{1b}")");
    QTest::newRow("DEL") << QByteArray("\x7f") << QByteArray(R"("\u{7f}")");
    QTest::newRow("C1 NEL") << QByteArray("\xc2\x85") << QByteArray(R"("\u{85}")");
    QTest::newRow("no-break space") << QByteArray("a\xc2\xa0") << QByteArray(R"("a\u{a0}")");
    QTest::newRow("soft hyphen Cf") << QByteArray("\xc2\xad") << QByteArray(R"("\u{ad}")");
    QTest::newRow("zero width space") << QByteArray("\xe2\x80\x8b") << QByteArray(R"("\u{200b}")");
    QTest::newRow("zero width joiner") << QByteArray("\xe2\x80\x8d") << QByteArray(R"("\u{200d}")");
    QTest::newRow("line separator") << QByteArray("\xe2\x80\xa8") << QByteArray(R"("\u{2028}")");
    QTest::newRow("ideographic space") << QByteArray("\xe3\x80\x80") << QByteArray(R"("\u{3000}")");
    QTest::newRow("BOM") << QByteArray("\xef\xbb\xbf") << QByteArray(R"("\u{feff}")");
    QTest::newRow("private use") << QByteArray("\xee\x80\x80") << QByteArray(R"("\u{e000}")");
    QTest::newRow("unassigned U+0378") << QByteArray("\xcd\xb8") << QByteArray(R"("\u{378}")");
    QTest::newRow("noncharacter U+10FFFF") << QByteArray("\xf4\x8f\xbf\xbf") << QByteArray(R"("\u{10ffff}")");
    QTest::newRow("tag char") << QByteArray("\xf3\xa0\x81\x81") << QByteArray(R"("\u{e0041}")");
    // <str as Debug> escapes Grapheme_Extend chars wherever they occur.
    QTest::newRow("combining acute after e") << QByteArray("e\xcc\x81") << QByteArray(R"("e\u{301}")");
    QTest::newRow("combining acute first") << QByteArray("\xcc\x81x") << QByteArray(R"("\u{301}x")");
    QTest::newRow("ZWNJ (Other_Grapheme_Extend)") << QByteArray("\xe2\x80\x8c") << QByteArray(R"("\u{200c}")");
    QTest::newRow("printable non-ASCII") << QByteArray("caf\xc3\xa9 \xe6\xbc\xa2 \xce\xb1")
                                         << QByteArray("\"caf\xc3\xa9 \xe6\xbc\xa2 \xce\xb1\"");
    QTest::newRow("emoji") << QByteArray("\xf0\x9f\x98\x80") << QByteArray("\"\xf0\x9f\x98\x80\"");
    QTest::newRow("invalid byte") << QByteArray("a\xff") << QByteArray("\"a\xef\xbf\xbd\"");
    QTest::newRow("truncated sequence") << QByteArray("\xe2\x80") << QByteArray("\"\xef\xbf\xbd\"");
    QTest::newRow("surrogate encoding") << QByteArray("\xed\xa0\x80")
                                        << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
}

void TestRustFormat::debugString()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    const std::string out = rustDebugString(view(input));
    QCOMPARE(QByteArray::fromStdString(out), expected);
    std::string appended = "x=";
    appendRustDebugString(appended, view(input));
    QByteArray withPrefix = expected;
    withPrefix.prepend("x=");
    QCOMPARE(QByteArray::fromStdString(appended), withPrefix);
}

void TestRustFormat::debugFloat_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("zero") << 0.0 << u"0.0"_s;
    QTest::newRow("negative zero") << -0.0 << u"-0.0"_s;
    QTest::newRow("one") << 1.0 << u"1.0"_s;
    QTest::newRow("minus one") << -1.0 << u"-1.0"_s;
    QTest::newRow("half") << 0.5 << u"0.5"_s;
    QTest::newRow("tenth") << 0.1 << u"0.1"_s;
    QTest::newRow("0.1+0.2") << 0.30000000000000004 << u"0.30000000000000004"_s;
    QTest::newRow("1e-4 is fixed") << 0.0001 << u"0.0001"_s;
    QTest::newRow("below 1e-4") << 0.00009999 << u"9.999e-5"_s;
    QTest::newRow("1e-7") << 1e-7 << u"1e-7"_s;
    QTest::newRow("1.5e-7") << 1.5e-7 << u"1.5e-7"_s;
    QTest::newRow("-2.5e-5") << -2.5e-5 << u"-2.5e-5"_s;
    QTest::newRow("1e15") << 1e15 << u"1000000000000000.0"_s;
    QTest::newRow("just below 1e16") << 9999999999999998.0 << u"9999999999999998.0"_s;
    QTest::newRow("1e16") << 1e16 << u"1e16"_s;
    QTest::newRow("1.5e16") << 1.5e16 << u"1.5e16"_s;
    QTest::newRow("1.2345678901234568e22") << 1.2345678901234568e22 << u"1.2345678901234568e22"_s;
    QTest::newRow("123456.789") << 123456.789 << u"123456.789"_s;
    QTest::newRow("max") << std::numeric_limits<double>::max() << u"1.7976931348623157e308"_s;
    QTest::newRow("min subnormal") << std::numeric_limits<double>::denorm_min() << u"5e-324"_s;
    QTest::newRow("planck") << 6.62607015e-34 << u"6.62607015e-34"_s;
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << u"NaN"_s;
    QTest::newRow("-NaN") << -std::numeric_limits<double>::quiet_NaN() << u"NaN"_s;
    QTest::newRow("inf") << std::numeric_limits<double>::infinity() << u"inf"_s;
    QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << u"-inf"_s;
}

void TestRustFormat::debugFloat()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(rustDebugFloat(value)), expected);
}

void TestRustFormat::debugOptionalFloat()
{
    QCOMPARE(rustDebugOptionalFloat(false, 3.0), std::string("None"));
    QCOMPARE(rustDebugOptionalFloat(true, 0.0), std::string("Some(0.0)"));
    QCOMPARE(rustDebugOptionalFloat(true, -0.0), std::string("Some(-0.0)"));
    QCOMPARE(rustDebugOptionalFloat(true, 1e-7), std::string("Some(1e-7)"));
    QCOMPARE(rustDebugOptionalFloat(true, 1.0), std::string("Some(1.0)"));
}

void TestRustFormat::trim_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("trimmed");
    QTest::newRow("empty") << QByteArray() << QByteArray();
    QTest::newRow("ascii spaces") << QByteArray("  a b  ") << QByteArray("a b");
    QTest::newRow("ascii controls") << QByteArray("\t\n\x0b\x0c\r a\r\n") << QByteArray("a");
    QTest::newRow("NEL NBSP") << QByteArray("\xc2\x85\xc2\xa0x\xc2\xa0") << QByteArray("x");
    QTest::newRow("ogham, en quad, hair space")
        << QByteArray("\xe1\x9a\x80\xe2\x80\x80\xe2\x80\x8ax") << QByteArray("x");
    QTest::newRow("line/paragraph separators") << QByteArray("\xe2\x80\xa8x\xe2\x80\xa9") << QByteArray("x");
    QTest::newRow("narrow nbsp, math space, ideographic")
        << QByteArray("\xe2\x80\xafx\xe2\x81\x9f\xe3\x80\x80") << QByteArray("x");
    QTest::newRow("only whitespace") << QByteArray(" \xe3\x80\x80\t") << QByteArray();
    QTest::newRow("BOM is not whitespace") << QByteArray("\xef\xbb\xbf ") << QByteArray("\xef\xbb\xbf");
    QTest::newRow("ZWSP is not whitespace") << QByteArray(" \xe2\x80\x8b") << QByteArray("\xe2\x80\x8b");
    QTest::newRow("Mongolian vowel separator is not") << QByteArray("\xe1\xa0\x8e") << QByteArray("\xe1\xa0\x8e");
    QTest::newRow("inner whitespace kept") << QByteArray("a\xe3\x80\x80"
                                                         "b")
                                           << QByteArray("a\xe3\x80\x80"
                                                         "b");
    QTest::newRow("invalid byte is not whitespace") << QByteArray(" \xff ") << QByteArray("\xff");
    QTest::newRow("stray continuation byte") << QByteArray("\x80 ") << QByteArray("\x80");
    QTest::newRow("printable ends") << QByteArray("{ \t}") << QByteArray("{ \t}");
    QTest::newRow("printable front, space back") << QByteArray("~a ") << QByteArray("~a");
    QTest::newRow("space front, printable back") << QByteArray(" a!") << QByteArray("a!");
    QTest::newRow("DEL is not whitespace") << QByteArray("\x7f \x7f") << QByteArray("\x7f \x7f");
    QTest::newRow("one printable") << QByteArray("}") << QByteArray("}");
}

void TestRustFormat::trim()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, trimmed);
    const std::string_view out = rustTrim(view(input));
    QCOMPARE(QByteArray(out.data(), qsizetype(out.size())), trimmed);
    QCOMPARE(isRustBlank(view(input)), trimmed.isEmpty());
}

QTEST_GUILESS_MAIN(TestRustFormat)
#include "tst_rustformat.moc"
