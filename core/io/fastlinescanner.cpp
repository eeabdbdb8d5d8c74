// SPDX-License-Identifier: MIT
#include "core/io/fastlinescanner.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/compat/serdenumber.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace TraceInspector {
namespace {

bool startsWith(const char *p, const char *end, std::string_view prefix)
{
    return static_cast<std::size_t>(end - p) >= prefix.size() && std::memcmp(p, prefix.data(), prefix.size()) == 0;
}

/// memcmp(a, b, n) == 0 for the short keys of a record, without a library call per member
/// (that call was a tenth of the fast path's time).
bool sameKey(const char *a, const char *b, std::size_t n)
{
    auto same8 = [](const char *x, const char *y) {
        std::uint64_t u;
        std::uint64_t v;
        std::memcpy(&u, x, 8);
        std::memcpy(&v, y, 8);
        return u == v;
    };
    if (n >= 8) {
        for (; n > 8; a += 8, b += 8, n -= 8) {
            if (!same8(a, b))
                return false;
        }
        // The last 8 bytes in one compare, overlapping ones compared already (keys are
        // 10-20 bytes: this was a byte loop over their last few).
        return same8(a + n - 8, b + n - 8);
    }
    if (n >= 4) {
        std::uint32_t u[2];
        std::uint32_t v[2];
        std::memcpy(&u[0], a, 4);
        std::memcpy(&u[1], a + n - 4, 4);
        std::memcpy(&v[0], b, 4);
        std::memcpy(&v[1], b + n - 4, 4);
        return u[0] == v[0] && u[1] == v[1];
    }
    for (; n > 0; ++a, ++b, --n) {
        if (*a != *b)
            return false;
    }
    return true;
}

/// A string without escapes or control characters, the cursor on its opening quote. Such
/// a string is its own text (§5.4); anything else is for the exact decoder.
bool plainString(const char *&p, const char *end, std::string_view &out)
{
    if (p >= end || *p != '"')
        return false;
    const char *start = ++p;
#if defined(__SSE2__)
    // 16 bytes a load (an 8-byte SWAR scan did not pay for ids of 7 bytes; this is a load,
    // three compares and a bit scan): the first quote, backslash or control character
    // decides, if it lies before the end. The padding (kDecoderPadding) makes the bytes
    // past the end readable.
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control = _mm_set1_epi8(0x1F);
    for (; p < end; p += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                             _mm_cmpeq_epi8(_mm_min_epu8(v, control), v));
        const int mask = _mm_movemask_epi8(special);
        if (mask == 0)
            continue;
        const char *at = p + __builtin_ctz(static_cast<unsigned>(mask));
        if (at >= end || *at != '"')
            return false;
        out = std::string_view(start, static_cast<std::size_t>(at - start));
        p = at + 1;
        return true;
    }
    return false;
#else
    while (p < end) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"') {
            out = std::string_view(start, static_cast<std::size_t>(p - start));
            ++p;
            return true;
        }
        if (c == '\\' || c < 0x20)
            return false;
        ++p;
    }
    return false;
#endif
}

#if defined(__SSE2__)
/// The value of the first \a k (1-8) bytes of \a w (the first in its lowest byte), all
/// digits: they move to the end of 8 bytes behind '0's, and the 8 digits are read in three
/// multiplications (as fast_float's parse_eight_digits_unrolled does).
std::uint64_t digitsValue(std::uint64_t w, unsigned k)
{
    if (k < 8) {
        const unsigned shift = 8 * (8 - k);
        w = (w << shift) | (0x3030303030303030ull >> (64 - shift));
    }
    w -= 0x3030303030303030ull;
    w = w * 10 + (w >> 8);
    w = ((w & 0x000000FF000000FFull) * 0x000F424000000064ull
         + ((w >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)
        >> 32;
    return static_cast<std::uint32_t>(w);
}
#endif

/// `0` or a digit run without a leading zero, at most 19 digits (always below 2^64), not
/// followed by another digit, a fraction or an exponent: an unsigned integer whose value
/// needs no range check.
bool plainUnsigned(const char *&p, const char *end, std::uint64_t &out)
{
    if (p >= end || *p < '0' || *p > '9')
        return false;
    std::uint64_t v = 0;
    if (*p == '0') {
        ++p;
    } else {
#if defined(__SSE2__)
        // The digit run from one 16-byte load, and its value 8 digits at a time (timestamps
        // have 10): the line's padding (kDecoderPadding) makes the bytes past its end
        // readable, and digits there do not count.
        static constexpr std::uint64_t kPowers[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const __m128i values = _mm_sub_epi8(bytes, _mm_set1_epi8('0'));
        const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(values, _mm_set1_epi8(9)), values);
        const auto others = static_cast<unsigned>(~_mm_movemask_epi8(digit));
        const auto run = static_cast<unsigned>(
            std::min<std::size_t>(static_cast<unsigned>(__builtin_ctz(others)), static_cast<std::size_t>(end - p)));
        if (run < 16) {
            std::uint64_t low;
            std::memcpy(&low, p, 8);
            if (run <= 8) {
                v = digitsValue(low, run);
            } else {
                std::uint64_t high;
                std::memcpy(&high, p + 8, 8);
                v = digitsValue(low, 8) * kPowers[run - 8] + digitsValue(high, run - 8);
            }
            p += run;
        } else {
            const char *start = p;
            while (p < end && *p >= '0' && *p <= '9' && p - start < 19) {
                v = v * 10 + static_cast<std::uint64_t>(*p - '0');
                ++p;
            }
        }
#else
        const char *start = p;
        while (p < end && *p >= '0' && *p <= '9' && p - start < 19) {
            v = v * 10 + static_cast<std::uint64_t>(*p - '0');
            ++p;
        }
#endif
    }
    if (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E'))
        return false;
    out = v;
    return true;
}

} // namespace

bool FastLineScanner::scan(const char *begin, const char *end)
{
    constexpr std::string_view kPrefix = "{\"kind\":\"";
    if (!startsWith(begin, end, kPrefix))
        return false;
    const char *name = begin + kPrefix.size();
    const char *p = name;
    while (p < end && *p != '"' && *p != '\\')
        ++p;
    if (p >= end || *p != '"')
        return false;
    const int kind = eventKindFromName(std::string_view(name, static_cast<std::size_t>(p - name)));
    ++p;
    // Meta and terminal are one line each; the exact decoder reads them.
    if (kind < 0 || kind == static_cast<int>(EventKind::Meta) || kind == static_cast<int>(EventKind::Terminal))
        return false;
    m_kind = static_cast<EventKind>(kind);
    if (m_kind == EventKind::Edge) {
        constexpr std::string_view kCall = ",\"edge_kind\":\"call\"";
        constexpr std::string_view kData = ",\"edge_kind\":\"data\"";
        if (startsWith(p, end, kCall)) {
            m_edgeKind = EdgeKind::Call;
            p += kCall.size();
        } else if (startsWith(p, end, kData)) {
            m_edgeKind = EdgeKind::Data;
            p += kData.size();
        } else {
            return false;
        }
        m_spec = &edgeVariantSpec(m_edgeKind);
    } else {
        m_spec = &eventSpec(m_kind);
    }
    return members(p, end);
}

bool FastLineScanner::members(const char *p, const char *end)
{
    const StructSpec &spec = *m_spec;
    m_count = 0;
    m_dims.clear();
    m_ids.clear();
    std::uint32_t seen = 0;
    int guess = 0; // writers keep declaration order: try the next field first
    for (;;) {
        if (p >= end)
            return false;
        if (*p == '}')
            return p + 1 == end && (spec.requiredMask & ~seen) == 0;
        if (*p != ',')
            return false;
        ++p;
        int idx = -1;
        // The key writers put here is `"<next field>":`; compare it whole before scanning.
        if (guess < spec.count()) {
            const std::string_view name = spec.fields[static_cast<std::size_t>(guess)].name;
            if (static_cast<std::size_t>(end - p) > name.size() + 2 && p[0] == '"'
                && sameKey(p + 1, name.data(), name.size()) && p[name.size() + 1] == '"' && p[name.size() + 2] == ':') {
                idx = guess;
                p += name.size() + 3;
            }
        }
        if (idx < 0) {
            std::string_view key;
            if (!plainString(p, end, key) || p >= end || *p != ':')
                return false;
            ++p;
            idx = spec.find(key);
        }
        if (idx < 0 || (seen & (1u << idx)) || m_count == kMaxMembers)
            return false; // unknown keys, tags and duplicates have rules of their own
        seen |= 1u << idx;
        guess = idx + 1;
        Member &m = m_members[m_count++];
        m = Member{};
        m.field = static_cast<std::uint8_t>(idx);
        if (!value(spec.fields[static_cast<std::size_t>(idx)], m, p, end))
            return false;
    }
}

bool FastLineScanner::value(const FieldSpec &field, Member &m, const char *&p, const char *end)
{
    if (field.presence == Presence::Optional && startsWith(p, end, "null")) {
        m.null = true;
        p += 4;
        return true;
    }
    switch (field.type) {
    case WireType::String: return plainString(p, end, m.text);
    case WireType::U64:
    case WireType::Usize: return plainUnsigned(p, end, m.u);
    case WireType::F64: {
        if (p >= end || (*p != '-' && (*p < '0' || *p > '9')))
            return false;
        // The exact decoder's own number reader: the float algorithm of §5.6 in one place.
        SerdeNumber n;
        const NumberScan s = scanSerdeNumber(p, end, n);
        if (s.error != NumberError::None)
            return false;
        m.f = n.toDouble();
        p = s.at;
        return true;
    }
    case WireType::Bool:
        if (startsWith(p, end, "true")) {
            m.b = true;
            p += 4;
            return true;
        }
        if (startsWith(p, end, "false")) {
            m.b = false;
            p += 5;
            return true;
        }
        return false;
    case WireType::Enum: {
        std::string_view s;
        if (!plainString(p, end, s))
            return false;
        m.index = enumSpec(static_cast<WireEnum>(field.sub)).lookup(s);
        return m.index >= 0;
    }
    case WireType::Shape:
    case WireType::StringIds: {
        const bool shape = field.type == WireType::Shape;
        if (p >= end || *p != '[')
            return false;
        ++p;
        m.first = static_cast<std::uint32_t>(shape ? m_dims.size() : m_ids.size());
        if (p < end && *p == ']') {
            ++p;
            return true;
        }
        for (;;) {
            if (shape) {
                std::uint64_t d = 0;
                if (!plainUnsigned(p, end, d))
                    return false;
                m_dims.push_back(d);
            } else {
                std::string_view s;
                if (!plainString(p, end, s))
                    return false;
                m_ids.push_back(s);
            }
            ++m.count;
            if (p >= end)
                return false;
            if (*p == ']') {
                ++p;
                return true;
            }
            if (*p != ',')
                return false;
            ++p;
        }
    }
    case WireType::Strings:
    case WireType::StringMap:
    case WireType::Struct:
    case WireType::StructList: return false; // only meta has these
    }
    return false;
}

} // namespace TraceInspector
