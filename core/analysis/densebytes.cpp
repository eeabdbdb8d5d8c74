// SPDX-License-Identifier: MIT
#include "core/analysis/densebytes.h"

#include <array>

namespace TraceInspector {

namespace {

using uchar = unsigned char;

bool isAsciiSpace(uchar c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20;
}

// The non-ASCII White_Space code points in UTF-8 (U+0085, U+00A0, U+1680, U+2000..U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000). Valid UTF-8 makes matching them at either end of
// the text unambiguous: none of their lead bytes is a continuation byte.
bool isTwoByteSpace(uchar b0, uchar b1)
{
    return b0 == 0xC2 && (b1 == 0x85 || b1 == 0xA0);
}

bool isThreeByteSpace(uchar b0, uchar b1, uchar b2)
{
    switch (b0) {
    case 0xE1:
        return b1 == 0x9A && b2 == 0x80;
    case 0xE2:
        if (b1 == 0x80)
            return (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF;
        return b1 == 0x81 && b2 == 0x9F;
    case 0xE3:
        return b1 == 0x80 && b2 == 0x80;
    default:
        return false;
    }
}

std::size_t leadingSpaceLength(std::string_view s)
{
    if (s.empty())
        return 0;
    const auto b = [&](std::size_t i) { return static_cast<uchar>(s[i]); };
    if (isAsciiSpace(b(0)))
        return 1;
    if (s.size() >= 2 && isTwoByteSpace(b(0), b(1)))
        return 2;
    if (s.size() >= 3 && isThreeByteSpace(b(0), b(1), b(2)))
        return 3;
    return 0;
}

std::size_t trailingSpaceLength(std::string_view s)
{
    const std::size_t n = s.size();
    if (n == 0)
        return 0;
    const auto b = [&](std::size_t i) { return static_cast<uchar>(s[i]); };
    if (isAsciiSpace(b(n - 1)))
        return 1;
    if (n >= 2 && isTwoByteSpace(b(n - 2), b(n - 1)))
        return 2;
    if (n >= 3 && isThreeByteSpace(b(n - 3), b(n - 2), b(n - 1)))
        return 3;
    return 0;
}

std::string_view trimUnicodeSpace(std::string_view s)
{
    while (const std::size_t k = leadingSpaceLength(s))
        s.remove_prefix(k);
    while (const std::size_t k = trailingSpaceLength(s))
        s.remove_suffix(k);
    return s;
}

} // namespace

std::optional<std::uint64_t> dtypeSize(std::string_view dtype)
{
    const std::string_view core = trimUnicodeSpace(dtype);
    // Every known label has 2..4 ASCII characters.
    if (core.size() < 2 || core.size() > 4)
        return std::nullopt;
    std::array<char, 4> buf{};
    for (std::size_t i = 0; i < core.size(); ++i) {
        char c = core[i];
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        buf[i] = c;
    }
    const std::string_view l(buf.data(), core.size());
    if (l == "u8" || l == "i8" || l == "bool" || l == "f8")
        return 1;
    if (l == "u16" || l == "i16" || l == "f16" || l == "bf16")
        return 2;
    if (l == "u32" || l == "i32" || l == "f32")
        return 4;
    if (l == "u64" || l == "i64" || l == "f64")
        return 8;
    return std::nullopt;
}

std::uint64_t elemCount(std::span<const std::uint64_t> shape)
{
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape)
        n = saturatingMul(n, d);
    return n;
}

std::optional<std::uint64_t> denseBytes(std::span<const std::uint64_t> shape, std::string_view dtype)
{
    const std::optional<std::uint64_t> size = dtypeSize(dtype);
    if (!size)
        return std::nullopt;
    return saturatingMul(elemCount(shape), *size);
}

} // namespace TraceInspector
