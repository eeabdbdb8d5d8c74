// SPDX-License-Identifier: MIT
// TRACE_FORMAT.md §5.6: number classification and serde_json's float conversion, bit for bit.
// Expected values are written as the spec's one operation on literals (the compiler rounds
// each literal correctly), never by another parser.
#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "core/compat/serdenumber.h"
#include "core/compat/floatformat.h"

using namespace TraceInspector;

class tst_SerdeNumber : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void floats_data();
    void floats();
    void integers_data();
    void integers();
    void errors_data();
    void errors();
    void notCorrectlyRounded();
    void randomLayoutsMatchTheFormula();
};

Q_DECLARE_METATYPE(std::uint64_t)
Q_DECLARE_METATYPE(std::int64_t)

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

SerdeNumber scan(const std::string &text, NumberScan *result = nullptr)
{
    SerdeNumber n;
    const NumberScan r = scanSerdeNumber(text.data(), text.data() + text.size(), n);
    if (result)
        *result = r;
    return n;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

void tst_SerdeNumber::floats_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::addColumn<QString>("written"); // §11.4 text of the value

    auto row = [](const char *text, double expected, const char *written) {
        QTest::newRow(text) << QString::fromLatin1(text) << expected << QString::fromLatin1(written);
    };
    // §5.6 examples.
    row("0.9157037119440723", 9157037119440723.0 / 1e16, "0.9157037119440724");
    row("1.5e-300", 15.0 / 1e301, "1.4999999999999998e-300");
    row("5e200", 5.0 * 1e200, "4.9999999999999995e+200");
    row("4.911899340741448e161", 4911899340741448.0 * 1e146, "4.911899340741447e+161");
    row("2.2250738585072011e-308", static_cast<double>(22250738585072011ull) / 1e308 / 1e16, "2.2250738585072014e-308");
    row("123456789012345678901234567890", static_cast<double>(12345678901234567890ull) * 1e10,
        "1.2345678901234568e+29");
    row("2e-324", 2.0 / 1e308 / 1e16, "0.0");
    row("4.9e-324", 49.0 / 1e308 / 1e17, "5e-324");
    row("1e-400", 1.0 / 1e308 / 1e92, "0.0");
    row("-1e-400", -(1.0 / 1e308 / 1e92), "-0.0");
    // Step 1: the integer significand freezes at u64; later digits scale by ten.
    row("18446744073709551615.0", static_cast<double>(kU64Max), "1.8446744073709552e+19");
    row("18446744073709551616", 1844674407370955161.0 * 1e1, "1.8446744073709552e+19");
    row("-18446744073709551616", -(1844674407370955161.0 * 1e1), "-1.8446744073709552e+19");
    // Step 2: a fraction digit is still absorbed after the integer part froze...
    row("18446744073709551616.5", static_cast<double>(kU64Max), "1.8446744073709552e+19");
    // ...and fraction digits that do not fit are cut off, not rounded.
    row("0.12345678901234567890999", static_cast<double>(12345678901234567890ull) / 1e20, "0.12345678901234568");
    row("18446744073709551615.9", static_cast<double>(kU64Max), "1.8446744073709552e+19");
    row("1844674407370955161.59", static_cast<double>(kU64Max) / 1e1, "1.8446744073709553e+18");
    row("0.00000000000000000000000000001234", 1234.0 / 1e32, "1.234e-29");
    row("0.000", 0.0, "0.0");
    row("0.001", 1.0 / 1e3, "0.001");
    row("-0.0", -0.0, "-0.0");
    row("-0", -0.0, "-0.0");
    // Step 3: exponents; leading zeros and `E` allowed, huge negative exponents give zero.
    row("1e007", 1.0 * 1e7, "10000000.0");
    row("1E+2", 1.0 * 1e2, "100.0");
    row("123.456e-2", 123456.0 / 1e5, "1.23456");
    row("0e99999999999", 0.0, "0.0");
    row("0.0e99999", 0.0, "0.0");
    row("0e309", 0.0, "0.0");
    row("7e-99999999999", 0.0, "0.0");
    row("-7e-99999999999", -0.0, "-0.0");
    row("1e-2147483648", 0.0, "0.0");
    row("1.5e-2147483647", 15.0 / 1e308 / 1e308, "0.0");
    // Step 4: the edges of the power table.
    row("1e308", 1.0 * 1e308, "1e+308");
    row("1e-308", 1.0 / 1e308, "1e-308");
    row("1e-309", 1.0 / 1e308 / 1e1, "1e-309");
    row("1e22", 1.0 * 1e22, "1e+22");
    row("1e23", 1.0 * 1e23, "1e+23");
    row("9007199254740993e0", static_cast<double>(9007199254740993ull), "9007199254740992.0");
    row("17976931348623157e292", 17976931348623157.0 * 1e292, "1.7976931348623157e+308");
}

void tst_SerdeNumber::floats()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    QFETCH(QString, written);
    NumberScan r;
    const SerdeNumber n = scan(text.toStdString(), &r);
    QCOMPARE(int(r.error), int(NumberError::None));
    QCOMPARE(int(n.kind), int(SerdeNumber::Kind::Float));
    QVERIFY2(sameBits(n.floatValue, expected),
             qPrintable(QStringLiteral("%1 != %2")
                            .arg(QString::fromStdString(formatJsonFloat(n.floatValue)),
                                 QString::fromStdString(formatJsonFloat(expected)))));
    QCOMPARE(QString::fromStdString(formatJsonFloat(n.floatValue)), written);
}

void tst_SerdeNumber::integers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<std::uint64_t>("unsignedValue");
    QTest::addColumn<std::int64_t>("negativeValue");
    QTest::addColumn<double>("floatValue");
    const int u = int(SerdeNumber::Kind::Unsigned), i = int(SerdeNumber::Kind::Negative),
              f = int(SerdeNumber::Kind::Float);
    QTest::newRow("0") << "0" << u << std::uint64_t(0) << std::int64_t(0) << 0.0;
    QTest::newRow("u64 max") << "18446744073709551615" << u << kU64Max << std::int64_t(0) << 0.0;
    QTest::newRow("-1") << "-1" << i << std::uint64_t(0) << std::int64_t(-1) << 0.0;
    QTest::newRow("-2^63 stays an integer")
        << "-9223372036854775808" << i << std::uint64_t(0) << std::numeric_limits<std::int64_t>::min() << 0.0;
    QTest::newRow("below -2^63 is a float") << "-9223372036854775809" << f << std::uint64_t(0) << std::int64_t(0)
                                            << -static_cast<double>(9223372036854775809ull);
    QTest::newRow("-(2^64-1) is a float")
        << "-18446744073709551615" << f << std::uint64_t(0) << std::int64_t(0) << -static_cast<double>(kU64Max);
    QTest::newRow("-0 is a float") << "-0" << f << std::uint64_t(0) << std::int64_t(0) << -0.0;
}

void tst_SerdeNumber::integers()
{
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(std::uint64_t, unsignedValue);
    QFETCH(std::int64_t, negativeValue);
    QFETCH(double, floatValue);
    const std::string s = text.toStdString();
    SerdeNumber n;
    const NumberScan r = scanSerdeNumber(s.data(), s.data() + s.size(), n);
    QCOMPARE(int(r.error), int(NumberError::None));
    QCOMPARE(r.at, s.data() + s.size()); // the whole text is the number
    QCOMPARE(int(n.kind), kind);
    if (kind == int(SerdeNumber::Kind::Unsigned))
        QCOMPARE(n.unsignedValue, unsignedValue);
    else if (kind == int(SerdeNumber::Kind::Negative))
        QCOMPARE(n.negativeValue, negativeValue);
    else
        QVERIFY(sameBits(n.floatValue, floatValue));
}

void tst_SerdeNumber::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("error");
    QTest::addColumn<int>("column"); // 1-based; the text's length for EOF
    const int invalid = int(NumberError::InvalidNumber), eof = int(NumberError::Eof),
              range = int(NumberError::OutOfRange);
    // §5.6 grammar (§5.7 `invalid number`: the offending byte).
    QTest::newRow("01") << "01" << invalid << 2;
    QTest::newRow("-01") << "-01" << invalid << 3;
    QTest::newRow("00.5") << "00.5" << invalid << 2;
    QTest::newRow("1.x") << "1.x" << invalid << 3;
    QTest::newRow("1.e5") << "1.e5" << invalid << 3;
    QTest::newRow("1ex") << "1ex" << invalid << 3;
    QTest::newRow("1e+x") << "1e+x" << invalid << 4;
    QTest::newRow("-a") << "-a" << invalid << 2;
    QTest::newRow("123456789012345678901.x") << "123456789012345678901.x" << invalid << 23;
    // §5.7 `EOF while parsing a value`.
    QTest::newRow("1.") << "1." << eof << 2;
    QTest::newRow("1e") << "1e" << eof << 2;
    QTest::newRow("1e+") << "1e+" << eof << 3;
    QTest::newRow("-") << "-" << eof << 1;
    QTest::newRow("123456789012345678901.") << "123456789012345678901." << eof << 22;
    // `number out of range`: the number's last byte...
    QTest::newRow("1e400") << "1e400" << range << 5;
    QTest::newRow("1.8e308") << "1.8e308" << range << 7;
    QTest::newRow("-1.8e308") << "-1.8e308" << range << 8;
    QTest::newRow("1e309") << "1e309" << range << 5;
    QTest::newRow("10e308") << "10e308" << range << 6;
    QTest::newRow("17976931348623158e292") << "17976931348623158e292" << range << 21;
    QTest::newRow("310-digit integer") << QString(QStringLiteral("1") + QString(309, QLatin1Char('0'))) << range << 310;
    QTest::newRow("1e2147483647") << "1e2147483647" << range << 12;
    // ...or, when the exponent digits overflow i32, the digit that did it (later ones unread).
    QTest::newRow("1e2147483648") << "1e2147483648" << range << 12;
    QTest::newRow("2.5e+99999999990000") << "2.5e+99999999990000" << range << 15;
    QTest::newRow("1e99999999999") << "1e99999999999" << range << 12;
}

void tst_SerdeNumber::errors()
{
    QFETCH(QString, text);
    QFETCH(int, error);
    QFETCH(int, column);
    const std::string s = text.toStdString();
    NumberScan r;
    scan(s, &r);
    QCOMPARE(int(r.error), error);
    if (error != int(NumberError::Eof))
        QCOMPARE(int(r.at - s.data()) + 1, column);
    else
        QCOMPARE(int(s.size()), column);
}

// §5.6: the conversion is not correctly rounded; a correctly rounding parser disagrees for a
// share of 17-digit decimals. This pins that the reader really is serde_json's method.
void tst_SerdeNumber::notCorrectlyRounded()
{
    std::mt19937_64 rng(7);
    int differing = 0;
    const int total = 2000;
    for (int k = 0; k < total; ++k) {
        std::uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (!std::isfinite(d) || d == 0)
            continue;
        const std::string text = formatJsonFloat(std::fabs(d));
        const SerdeNumber n = scan(text);
        differing += sameBits(n.floatValue, std::strtod(text.c_str(), nullptr)) ? 0 : 1;
    }
    QVERIFY2(differing > total / 20, qPrintable(QString::number(differing)));
    QVERIFY2(differing < total / 2, qPrintable(QString::number(differing)));
}

// The digits of S × 10^E laid out as plain integers, with a decimal point anywhere, or with an
// exponent, all read as the one §5.6 operation on S and E (S < 2^64, no truncation).
void tst_SerdeNumber::randomLayoutsMatchTheFormula()
{
    std::mt19937_64 rng(11);
    for (int k = 0; k < 20000; ++k) {
        const int digits = 1 + int(rng() % 19);
        std::uint64_t s = 1 + rng() % 9;
        for (int i = 1; i < digits; ++i)
            s = s * 10 + rng() % 10;
        const int e = int(rng() % 661) - 330;
        double expected = static_cast<double>(s);
        bool outOfRange = false;
        {
            // The spec's step 4, literally.
            int ex = e;
            for (;;) {
                if (std::abs(ex) <= 308) {
                    char power[8];
                    std::snprintf(power, sizeof power, "1e%d", std::abs(ex));
                    const double p = std::strtod(power, nullptr); // correctly rounded, as P[k] must be
                    if (ex >= 0) {
                        expected *= p;
                        outOfRange = std::isinf(expected);
                    } else {
                        expected /= p;
                    }
                    break;
                }
                if (expected == 0)
                    break;
                if (ex > 0) {
                    outOfRange = true;
                    break;
                }
                expected /= 1e308;
                ex += 308;
            }
        }
        const std::string digitsText = std::to_string(s);
        const int point = int(rng() % (digitsText.size() + 1)); // fraction digits
        std::string text;
        int exponent = e + point;
        if (point == 0) {
            text = digitsText;
        } else if (point == int(digitsText.size())) {
            text = std::string("0.").append(digitsText);
        } else {
            text = digitsText;
            text.insert(digitsText.size() - std::size_t(point), 1, '.');
        }
        if (exponent != 0 || rng() % 2) {
            text.push_back(rng() % 2 ? 'e' : 'E');
            if (exponent >= 0 && rng() % 2)
                text.push_back('+');
            text.append(std::to_string(exponent));
        }
        if (point == 0 && exponent == 0 && text.find_first_of("eE") == std::string::npos)
            continue; // a plain integer, not a float
        NumberScan r;
        const SerdeNumber n = scan(text, &r);
        if (outOfRange) {
            QVERIFY2(r.error == NumberError::OutOfRange, text.c_str());
            continue;
        }
        QVERIFY2(r.error == NumberError::None, text.c_str());
        QVERIFY2(sameBits(n.floatValue, expected), text.c_str());
    }
}

QTEST_GUILESS_MAIN(tst_SerdeNumber)
#include "tst_serdenumber.moc"
