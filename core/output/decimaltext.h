// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace TraceInspector {

/// The most characters writeDecimal() writes.
inline constexpr std::size_t kMaxDecimalDigits = 20;

namespace DecimalDetail {

constexpr std::array<char, 200> makePairs()
{
    std::array<char, 200> t{};
    for (int i = 0; i < 100; ++i) {
        t[std::size_t(2 * i)] = char('0' + i / 10);
        t[std::size_t(2 * i + 1)] = char('0' + i % 10);
    }
    return t;
}
inline constexpr std::array<char, 200> kPairs = makePairs();

constexpr std::array<std::uint64_t, 20> makePowers()
{
    std::array<std::uint64_t, 20> t{};
    std::uint64_t p = 1;
    for (std::size_t i = 0; i < t.size(); ++i, p *= 10)
        t[i] = p;
    return t;
}
inline constexpr std::array<std::uint64_t, 20> kPowers = makePowers(); // 10^0 .. 10^19

} // namespace DecimalDetail

/// Number of decimal digits of \a v (1 for 0).
inline unsigned decimalDigits(std::uint64_t v)
{
    // log10(2) ~ 1233 / 4096: from the bit length b, t = floor(b log10 2) is the digit count
    // or one less (t <= 19). `| 1` makes 0 a one-digit number and changes no comparison
    // with 10^t (1, or even).
    const auto bits = static_cast<unsigned>(64 - std::countl_zero(v | 1));
    const unsigned t = (bits * 1233) >> 12;
    return t + ((v | 1) >= DecimalDetail::kPowers[t] ? 1 : 0);
}

namespace DecimalDetail {

inline char *putPair(char *p, unsigned pair)
{
    std::memcpy(p, kPairs.data() + 2 * pair, 2);
    return p + 2;
}

/// Exactly 8 digits, leading zeros included.
inline char *putEight(char *p, std::uint32_t v)
{
    const std::uint32_t high = v / 10000;
    const std::uint32_t low = v % 10000;
    putPair(p, high / 100);
    putPair(p + 2, high % 100);
    putPair(p + 4, low / 100);
    putPair(p + 6, low % 100);
    return p + 8;
}

/// \a v < 10^8 without leading zeros.
inline char *putUpToEight(char *out, std::uint32_t v)
{
    char *const end = out + decimalDigits(v);
    char *p = end;
    while (v >= 100) {
        p -= 2;
        putPair(p, v % 100);
        v /= 100;
    }
    if (v >= 10)
        putPair(p - 2, v);
    else
        p[-1] = char('0' + v);
    return end;
}

} // namespace DecimalDetail

/// Writes the decimal text of \a v (std::to_chars' text: no sign, no leading zeros) at
/// \a out, which has room for kMaxDecimalDigits, and returns the end of what it wrote.
///
/// Why not std::to_chars + std::string::append: the memory profile's JSON is mostly numbers
/// (~16 M of them for a 1 GB trace); writing them straight into a text being laid out saves
/// the length loop and a short copy per number. Large values (timestamps) are cut into
/// 8-digit pieces so that most of the work is 32-bit arithmetic.
inline char *writeDecimal(char *out, std::uint64_t v)
{
    using namespace DecimalDetail;
    constexpr std::uint64_t kEight = 100000000;
    if (v < kEight)
        return putUpToEight(out, static_cast<std::uint32_t>(v));
    const std::uint64_t high = v / kEight;
    const auto low = static_cast<std::uint32_t>(v % kEight);
    if (high < kEight)
        return putEight(putUpToEight(out, static_cast<std::uint32_t>(high)), low);
    char *p = putUpToEight(out, static_cast<std::uint32_t>(high / kEight)); // < 1845
    p = putEight(p, static_cast<std::uint32_t>(high % kEight));
    return putEight(p, low);
}

} // namespace TraceInspector
