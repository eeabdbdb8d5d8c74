// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

// serde_json's text for strings and integers: what upstream writes, byte for byte.
namespace TraceInspector {

/// Appends \a text to \a out as a JSON string literal (with the quotes), escaping exactly as
/// upstream does (TRACE_FORMAT.md §11.3): `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other
/// U+0000–U+001F as `\u00xx` (lowercase hex), everything else (including `/`, U+007F,
/// non-ASCII and invalid UTF-8 bytes) raw.
void appendJsonString(std::string &out, std::string_view text);
/// appendJsonString() without the quotes. Each byte is escaped on its own, so a text may be
/// escaped in pieces cut anywhere.
void appendJsonStringBody(std::string &out, std::string_view text);

namespace JsonStringDetail {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ull;

/// True when any of the 8 bytes in \a w needs escaping (< 0x20, '"' or '\\'). Exact for the
/// "any" question, which is all a scan for escapes needs.
inline bool wordNeedsEscape(std::uint64_t w)
{
    const std::uint64_t control = (w - kOnes * 0x20) & ~w;
    const std::uint64_t q = w ^ (kOnes * 0x22);
    const std::uint64_t quote = (q - kOnes) & ~q;
    const std::uint64_t b = w ^ (kOnes * 0x5C);
    const std::uint64_t backslash = (b - kOnes) & ~b;
    return ((control | quote | backslash) & (kOnes * 0x80)) != 0;
}

inline std::uint64_t load64(const char *p)
{
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

inline std::uint32_t load32(const char *p)
{
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

} // namespace JsonStringDetail

/// True when appendJsonString() escapes any byte of \a text; false when its literal is the
/// text between quotes.
///
/// Why word-wise, without a byte loop: the normalized trace writes tens of millions of short
/// ids and names (3 to 16 bytes), nearly none with escapes. Whole words are tested at once,
/// a short text's bytes are gathered into one word (overlapping loads, a byte looked at twice
/// is harmless), and no load reaches past the text.
inline bool jsonStringNeedsEscape(std::string_view text)
{
    using namespace JsonStringDetail;
    const char *p = text.data();
    std::size_t n = text.size();
    if (n >= 8) {
        for (; n > 8; p += 8, n -= 8)
            if (wordNeedsEscape(load64(p)))
                return true;
        return wordNeedsEscape(load64(p + n - 8));
    }
    if (n >= 4)
        return wordNeedsEscape(load32(p) | std::uint64_t(load32(p + n - 4)) << 32);
    if (n == 0)
        return false;
    // 1 to 3 bytes: the first, middle and last are all of them. The other five bytes are
    // 'a', which needs no escape.
    const auto byte = [](char c) { return std::uint64_t(static_cast<unsigned char>(c)); };
    return wordNeedsEscape((kOnes * 'a' & ~std::uint64_t(0xFFFFFF)) | byte(p[0]) | byte(p[n / 2]) << 8
                           | byte(p[n - 1]) << 16);
}

/// Appends the decimal text of \a value to \a out.
void appendJsonU64(std::string &out, std::uint64_t value);
void appendJsonI64(std::string &out, std::int64_t value);

} // namespace TraceInspector
