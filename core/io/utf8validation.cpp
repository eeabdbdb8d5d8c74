// SPDX-License-Identifier: MIT
#include "core/io/utf8validation.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace TraceInspector {
namespace {

/// Pointer to the first byte >= 0x80 in [p, end), or end; [begin, end) is readable.
const unsigned char *skipAscii(const unsigned char *begin, const unsigned char *p, const unsigned char *end)
{
#if defined(__SSE2__)
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const int high = _mm_movemask_epi8(v);
        if (high)
            return p + __builtin_ctz(static_cast<unsigned>(high));
        p += 16;
    }
    // The last bytes of a line (a line is ~140 bytes: 8 on average) in one load of the 16
    // that end it rather than byte by byte; the bits of the bytes before p are dropped.
    if (p < end && end - begin >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(end - 16));
        const auto high = static_cast<unsigned>(_mm_movemask_epi8(v)) >> (p - (end - 16));
        return high ? p + __builtin_ctz(high) : end;
    }
#else
    (void)begin;
    while (end - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, sizeof w);
        if (w & 0x8080808080808080ull)
            break;
        p += 8;
    }
#endif
    while (p < end && *p < 0x80)
        ++p;
    return p;
}

bool continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

} // namespace

bool isUtf8(const char *data, std::size_t length)
{
    auto p = reinterpret_cast<const unsigned char *>(data);
    const unsigned char *const begin = p;
    const unsigned char *const end = p + length;
    for (;;) {
        p = skipAscii(begin, p, end);
        if (p == end)
            return true;
        const unsigned char c = *p;
        // The second byte's range carries the rules against overlong forms, surrogates
        // and values past U+10FFFF (RFC 3629 §4, as Rust's from_utf8 checks them).
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        std::size_t size;
        if (c >= 0xC2 && c <= 0xDF) {
            size = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            size = 3;
            if (c == 0xE0)
                low = 0xA0;
            else if (c == 0xED)
                high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            size = 4;
            if (c == 0xF0)
                low = 0x90;
            else if (c == 0xF4)
                high = 0x8F;
        } else {
            return false; // a continuation byte, C0/C1 or F5..FF
        }
        if (static_cast<std::size_t>(end - p) < size || p[1] < low || p[1] > high)
            return false;
        for (std::size_t k = 2; k < size; ++k)
            if (!continuation(p[k]))
                return false;
        p += size;
    }
}

std::size_t utf8SequenceWidth(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
}

std::size_t wholeCharactersPrefix(const char *data, std::size_t length)
{
    // A character is at most 4 bytes: look back over at most 3 continuation bytes.
    std::size_t lead = length;
    while (lead > 0 && length - lead < 4 && (static_cast<unsigned char>(data[lead - 1]) & 0xC0) == 0x80)
        --lead;
    if (lead > 0 && utf8SequenceWidth(data[lead - 1]) > length - (lead - 1))
        return lead - 1;
    return length;
}

} // namespace TraceInspector
