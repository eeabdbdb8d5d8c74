// SPDX-License-Identifier: MIT
#include <QTest>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "core/compat/floatformat.h"

using namespace TraceInspector;

class tst_FloatFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void layout_data();
    void layout();
    void nonFinite_data();
    void nonFinite();
    void roundTripsRandomBits();
    void writeMatchesAppend();
};

void tst_FloatFormat::layout_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");

    // Zeros keep their sign.
    QTest::newRow("zero") << 0.0 << QStringLiteral("0.0");
    QTest::newRow("negative zero") << -0.0 << QStringLiteral("-0.0");
    // Integers in the fixed range carry ".0".
    QTest::newRow("one") << 1.0 << QStringLiteral("1.0");
    QTest::newRow("three") << 3.0 << QStringLiteral("3.0");
    QTest::newRow("minus one") << -1.0 << QStringLiteral("-1.0");
    QTest::newRow("6.5") << 6.5 << QStringLiteral("6.5");
    QTest::newRow("0.42") << 0.42 << QStringLiteral("0.42");
    QTest::newRow("0.8125") << 0.8125 << QStringLiteral("0.8125");
    QTest::newRow("0.03125") << 0.03125 << QStringLiteral("0.03125");
    QTest::newRow("-0.0078125") << -0.0078125 << QStringLiteral("-0.0078125");
    QTest::newRow("0.1+0.2") << 0.1 + 0.2 << QStringLiteral("0.30000000000000004");
    QTest::newRow("123.456") << 123.456 << QStringLiteral("123.456");
    QTest::newRow("0.000123") << 0.000123 << QStringLiteral("0.000123");
    QTest::newRow("1e10") << 1e10 << QStringLiteral("10000000000.0");
    QTest::newRow("12340000000") << 1234e7 << QStringLiteral("12340000000.0");
    QTest::newRow("max u53") << 9007199254740992.0 << QStringLiteral("9007199254740992.0");
    QTest::newRow("1.5e15") << 1.5e15 << QStringLiteral("1500000000000000.0");
    QTest::newRow("1234567.125") << 1234567.125 << QStringLiteral("1234567.125");
    // Upper boundary: X = 15 is fixed, X = 16 scientific with an explicit plus.
    QTest::newRow("1e15 (X=15)") << 1e15 << QStringLiteral("1000000000000000.0");
    QTest::newRow("largest below 1e16 (X=15)") << 9999999999999998.0 << QStringLiteral("9999999999999998.0");
    QTest::newRow("fraction at X=15") << 1000000000000000.1 << QStringLiteral("1000000000000000.1");
    QTest::newRow("1e16 (X=16)") << 1e16 << QStringLiteral("1e+16");
    QTest::newRow("-1e16") << -1e16 << QStringLiteral("-1e+16");
    QTest::newRow("1.5e16") << 1.5e16 << QStringLiteral("1.5e+16");
    QTest::newRow("123456789012345680") << 123456789012345680.0 << QStringLiteral("1.2345678901234568e+17");
    QTest::newRow("1.2345678901234568e22") << 1.2345678901234568e22 << QStringLiteral("1.2345678901234568e+22");
    QTest::newRow("2.5e300") << 2.5e300 << QStringLiteral("2.5e+300");
    QTest::newRow("1e100") << 1e100 << QStringLiteral("1e+100");
    QTest::newRow("max double") << std::numeric_limits<double>::max() << QStringLiteral("1.7976931348623157e+308");
    // Lower boundary: X = -5 is fixed, X = -6 scientific.
    QTest::newRow("1e-5 (X=-5)") << 1e-5 << QStringLiteral("0.00001");
    QTest::newRow("-1e-5") << -1e-5 << QStringLiteral("-0.00001");
    QTest::newRow("9.99e-5 (X=-5)") << 9.99e-5 << QStringLiteral("0.0000999");
    QTest::newRow("1.2345e-5 (X=-5)") << 1.2345e-5 << QStringLiteral("0.000012345");
    QTest::newRow("9.99e-6 (X=-6)") << 9.99e-6 << QStringLiteral("9.99e-6");
    QTest::newRow("1e-6") << 1e-6 << QStringLiteral("1e-6");
    QTest::newRow("1e-7") << 1e-7 << QStringLiteral("1e-7");
    QTest::newRow("1.5e-7") << 1.5e-7 << QStringLiteral("1.5e-7");
    QTest::newRow("-1.5e-7") << -1.5e-7 << QStringLiteral("-1.5e-7");
    QTest::newRow("planck") << 6.62607015e-34 << QStringLiteral("6.62607015e-34");
    QTest::newRow("1e-100") << 1e-100 << QStringLiteral("1e-100");
    QTest::newRow("min normal") << std::numeric_limits<double>::min() << QStringLiteral("2.2250738585072014e-308");
    QTest::newRow("min subnormal") << std::numeric_limits<double>::denorm_min() << QStringLiteral("5e-324");
    QTest::newRow("1e-323") << 1e-323 << QStringLiteral("1e-323");
    QTest::newRow("1.2e-322") << 1.2e-322 << QStringLiteral("1.2e-322");
    QTest::newRow("shorter underestimate") << -4.932096661796888e-226 << QStringLiteral("-4.932096661796888e-226");
    QTest::newRow("shorter overestimate") << 3.439070283483335e+35 << QStringLiteral("3.439070283483335e+35");
}

void tst_FloatFormat::layout()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(formatJsonFloat(value)), expected);
}

void tst_FloatFormat::nonFinite_data()
{
    QTest::addColumn<double>("value");
    QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("-nan") << -std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("inf") << std::numeric_limits<double>::infinity();
    QTest::newRow("-inf") << -std::numeric_limits<double>::infinity();
}

void tst_FloatFormat::nonFinite()
{
    QFETCH(double, value);
    QCOMPARE(QString::fromStdString(formatJsonFloat(value)), QStringLiteral("null"));
}

// Every layout must read back to the same bits, and stay within the documented size.
void tst_FloatFormat::roundTripsRandomBits()
{
    std::mt19937_64 rng(20260804);
    for (int i = 0; i < 200000; ++i) {
        std::uint64_t bits = rng();
        double v;
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v))
            continue;
        const std::string s = formatJsonFloat(v);
        QVERIFY(int(s.size()) < kJsonFloatMaxChars);
        double back = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), back);
        QVERIFY2(res.ec == std::errc() && res.ptr == s.data() + s.size(), s.c_str());
        std::uint64_t backBits;
        std::memcpy(&backBits, &back, sizeof back);
        QVERIFY2(backBits == bits, s.c_str());
        // Fixed notation always has a fraction, scientific never has a leading zero exponent.
        const auto e = s.find('e');
        if (e == std::string::npos) {
            QVERIFY2(s.find('.') != std::string::npos, s.c_str());
        } else {
            QVERIFY2(s[e + 1] == '+' || s[e + 1] == '-', s.c_str());
            QVERIFY2(s[e + 2] != '0', s.c_str());
        }
    }
}

void tst_FloatFormat::writeMatchesAppend()
{
    std::string out = "x";
    appendJsonFloat(out, 0.5);
    appendJsonFloat(out, 1e20);
    QCOMPARE(out, std::string("x0.51e+20"));
    char buf[kJsonFloatMaxChars];
    const int n = writeJsonFloat(buf, -2.5e-9);
    QCOMPARE(std::string(buf, std::size_t(n)), std::string("-2.5e-9"));
}

QTEST_GUILESS_MAIN(tst_FloatFormat)
#include "tst_floatformat.moc"
