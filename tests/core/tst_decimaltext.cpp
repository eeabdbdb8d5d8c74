// SPDX-License-Identifier: MIT
#include <QTest>

#include <charconv>
#include <random>
#include <string>

#include "core/output/decimaltext.h"

using namespace TraceInspector;

namespace {

std::string viaToChars(std::uint64_t v)
{
    char buf[kMaxDecimalDigits];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

/// writeDecimal()'s text, written into a buffer with guards on both sides: it must write
/// exactly the digits and nothing before or after them.
std::string viaWriteDecimal(std::uint64_t v)
{
    char buf[kMaxDecimalDigits + 2];
    std::memset(buf, '#', sizeof buf);
    char *const end = writeDecimal(buf + 1, v);
    const auto length = static_cast<std::size_t>(end - (buf + 1));
    if (buf[0] != '#' || length > kMaxDecimalDigits)
        return "overrun";
    for (std::size_t i = 1 + length; i < sizeof buf; ++i)
        if (buf[i] != '#')
            return "overrun";
    return std::string(buf + 1, length);
}

} // namespace

class TstDecimalText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void powersOfTenAndNeighbours();
    void everyBitLength();
    void random();
};

// Every digit-count boundary: 10^k - 1, 10^k, 10^k + 1, and the ends of the range.
void TstDecimalText::powersOfTenAndNeighbours()
{
    std::vector<std::uint64_t> values{0, 1, 2, 9, UINT64_MAX, UINT64_MAX - 1};
    for (std::uint64_t p = 10, k = 1; k <= 19; ++k, p *= 10)
        values.insert(values.end(), {p - 1, p, p + 1});
    for (const std::uint64_t v : values) {
        QCOMPARE(viaWriteDecimal(v), viaToChars(v));
        QCOMPARE(std::size_t(decimalDigits(v)), viaToChars(v).size());
    }
}

// The digit count is guessed from the bit length: both ends of every bit length.
void TstDecimalText::everyBitLength()
{
    for (unsigned b = 1; b <= 64; ++b) {
        const std::uint64_t low = std::uint64_t(1) << (b - 1);
        const std::uint64_t high = b == 64 ? UINT64_MAX : (std::uint64_t(1) << b) - 1;
        for (const std::uint64_t v : {low, low + 1, high - 1, high}) {
            QCOMPARE(viaWriteDecimal(v), viaToChars(v));
            QCOMPARE(std::size_t(decimalDigits(v)), viaToChars(v).size());
        }
    }
}

void TstDecimalText::random()
{
    std::mt19937_64 rng(13);
    for (int i = 0; i < 200000; ++i) {
        // Uniform over digit counts rather than over values (most u64 have 19-20 digits).
        const std::uint64_t v = rng() >> (rng() % 64);
        QCOMPARE(viaWriteDecimal(v), viaToChars(v));
    }
}

QTEST_APPLESS_MAIN(TstDecimalText)
#include "tst_decimaltext.moc"
