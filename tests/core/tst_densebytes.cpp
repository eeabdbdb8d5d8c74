// SPDX-License-Identifier: MIT
#include <QtTest>

#include "core/analysis/densebytes.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(std::optional<std::uint64_t>)

namespace {

std::vector<std::uint64_t> dims(const QString &text)
{
    std::vector<std::uint64_t> out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out.push_back(part.trimmed().toULongLong());
    return out;
}

constexpr std::uint64_t kMax = UINT64_MAX;

} // namespace

class TstDenseBytes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dtypeSize_data()
    {
        QTest::addColumn<QByteArray>("dtype");
        QTest::addColumn<std::optional<std::uint64_t>>("expected");
        const auto row = [](const char *name, QByteArray dtype, std::optional<std::uint64_t> size) {
            QTest::newRow(name) << dtype << size;
        };
        row("u8", "u8", 1);
        row("i8", "i8", 1);
        row("bool", "bool", 1);
        row("f8", "f8", 1);
        row("u16", "u16", 2);
        row("i16", "i16", 2);
        row("f16", "f16", 2);
        row("bf16", "bf16", 2);
        row("u32", "u32", 4);
        row("i32", "i32", 4);
        row("f32", "f32", 4);
        row("u64", "u64", 8);
        row("i64", "i64", 8);
        row("f64", "f64", 8);
        row("upper case", "BF16", 2);
        row("mixed case", "Bool", 1);
        row("ascii spaces", " \t f32 \n\r", 4);
        row("vertical tab and form feed",
            "\x0b\x0c"
            "f32",
            4);
        row("nbsp",
            "\xc2\xa0"
            "f16\xc2\xa0",
            2);
        row("next line U+0085",
            "\xc2\x85"
            "u8",
            1);
        row("ideographic space",
            "\xe3\x80\x80"
            "i64"
            "\xe3\x80\x80",
            8);
        row("en quad and line separator",
            "\xe2\x80\x80"
            "f64"
            "\xe2\x80\xa8",
            8);
        row("hair space U+200A",
            "\xe2\x80\x8a"
            "u32",
            4);
        row("narrow nbsp U+202F", "u16\xe2\x80\xaf", 2);
        row("medium math space U+205F",
            "\xe2\x81\x9f"
            "i8",
            1);
        row("ogham space U+1680",
            "\xe1\x9a\x80"
            "u64",
            8);
        row("paragraph separator U+2029", "bool\xe2\x80\xa9", 1);
        row("zero width space is not whitespace",
            "\xe2\x80\x8b"
            "f32",
            std::nullopt);
        row("BOM is not whitespace",
            "\xef\xbb\xbf"
            "f32",
            std::nullopt);
        row("inner space", "f 32", std::nullopt);
        row("f8e4m3", "f8e4m3", std::nullopt);
        row("complex64", "complex64", std::nullopt);
        row("F32x", "F32x", std::nullopt);
        row("empty", "", std::nullopt);
        row("only spaces", "   ", std::nullopt);
        row("non-ascii upper not folded",
            "\xc3\x9f"
            "16",
            std::nullopt);
        row("float32 spelled out", "float32", std::nullopt);
    }
    void dtypeSize()
    {
        QFETCH(QByteArray, dtype);
        QFETCH(std::optional<std::uint64_t>, expected);
        QCOMPARE(TraceInspector::dtypeSize(std::string_view(dtype.constData(), std::size_t(dtype.size()))), expected);
    }

    void elemCount_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<quint64>("expected");
        QTest::newRow("scalar") << QString() << quint64(1);
        QTest::newRow("vector") << QStringLiteral("7") << quint64(7);
        QTest::newRow("bert activation") << QStringLiteral("2,128,768") << quint64(196608);
        QTest::newRow("zero dim") << QStringLiteral("4,0,5") << quint64(0);
        QTest::newRow("saturates") << QStringLiteral("4294967296,4294967296") << quint64(kMax);
        QTest::newRow("saturated then zero") << QStringLiteral("18446744073709551615,2,0") << quint64(0);
        QTest::newRow("exactly max") << QStringLiteral("18446744073709551615,1") << quint64(kMax);
        QTest::newRow("just below overflow") << QStringLiteral("4294967295,4294967297") << quint64(kMax);
        QTest::newRow("just above overflow") << QStringLiteral("4294967296,4294967297") << quint64(kMax);
        QTest::newRow("large fits") << QStringLiteral("4294967296,4294967295") << quint64(18446744069414584320ull);
    }
    void elemCount()
    {
        QFETCH(QString, shape);
        QFETCH(quint64, expected);
        const std::vector<std::uint64_t> d = dims(shape);
        QCOMPARE(quint64(TraceInspector::elemCount(d)), expected);
    }

    void denseBytes_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QByteArray>("dtype");
        QTest::addColumn<std::optional<std::uint64_t>>("expected");
        QTest::newRow("spec example") << QStringLiteral("2,128,768") << QByteArray("bf16")
                                      << std::optional<std::uint64_t>(393216);
        QTest::newRow("scalar f32") << QString() << QByteArray("f32") << std::optional<std::uint64_t>(4);
        QTest::newRow("zero dim") << QStringLiteral("0") << QByteArray("f64") << std::optional<std::uint64_t>(0);
        QTest::newRow("unknown dtype") << QStringLiteral("2,2") << QByteArray("f8e4m3")
                                       << std::optional<std::uint64_t>();
        QTest::newRow("unknown dtype zero dim")
            << QStringLiteral("0") << QByteArray("q4") << std::optional<std::uint64_t>();
        QTest::newRow("product saturates")
            << QStringLiteral("4294967296,4294967296") << QByteArray("u8") << std::optional<std::uint64_t>(kMax);
        QTest::newRow("size multiply saturates")
            << QStringLiteral("4611686018427387904") << QByteArray("f32") << std::optional<std::uint64_t>(kMax);
        QTest::newRow("size multiply fits") << QStringLiteral("4611686018427387903") << QByteArray("f32")
                                            << std::optional<std::uint64_t>(18446744073709551612ull);
        QTest::newRow("case and spaces") << QStringLiteral("3") << QByteArray(" I64 ")
                                         << std::optional<std::uint64_t>(24);
    }
    void denseBytes()
    {
        QFETCH(QString, shape);
        QFETCH(QByteArray, dtype);
        QFETCH(std::optional<std::uint64_t>, expected);
        const std::vector<std::uint64_t> d = dims(shape);
        QCOMPARE(TraceInspector::denseBytes(d, std::string_view(dtype.constData(), std::size_t(dtype.size()))),
                 expected);
    }
};

QTEST_GUILESS_MAIN(TstDenseBytes)
#include "tst_densebytes.moc"
