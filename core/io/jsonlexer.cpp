// SPDX-License-Identifier: MIT
#include "core/io/jsonlexer.h"

#include "core/compat/rustformat.h"
#include "core/compat/floatformat.h"
#include "core/model/pagerelease.h"

#include <cstring>

namespace TraceInspector {

bool JsonLexer::failColumn(std::size_t column, std::string_view text)
{
    m_cause.assign(text);
    return failWithCause(column);
}

bool JsonLexer::failColumnTaking(std::size_t column, std::string &&text)
{
    m_cause = std::move(text);
    return failWithCause(column);
}

bool JsonLexer::failWithCause(std::size_t column)
{
    m_failed = true;
    m_column = static_cast<std::uint32_t>(column);
    m_cause += " at line 1 column ";
    m_cause += std::to_string(column);
    return false;
}

bool JsonLexer::failEof(std::string_view what)
{
    std::string text = "EOF while parsing ";
    text += what;
    return failColumn(static_cast<std::size_t>(m_end - m_begin), text);
}

// serde_json's decode_hex_escape: four bytes are taken (or the line ends); any of them not a
// hex digit makes the escape invalid, reported at the fourth.
bool JsonLexer::hexEscape(const char *&p, std::uint32_t &value)
{
    if (m_end - p < 4)
        return failEof("a string");
    value = 0;
    bool ok = true;
    for (int i = 0; i < 4; ++i) {
        const char h = p[i];
        value <<= 4;
        if (h >= '0' && h <= '9')
            value |= static_cast<std::uint32_t>(h - '0');
        else if (h >= 'a' && h <= 'f')
            value |= static_cast<std::uint32_t>(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
            value |= static_cast<std::uint32_t>(h - 'A' + 10);
        else
            ok = false;
    }
    p += 4;
    return ok || failAt(p - 1, "invalid escape");
}

namespace {

/// Where JsonLexer::unescape() writes a string's bytes.
struct ScratchSink {
    std::string &text;
    void put(char c) { text.push_back(c); }
    void append(const char *from, const char *to) { text.append(from, to); }
};
/// Over the string's own bytes: each escape is longer than what it stands for, so the
/// writing never overtakes the reading.
struct InPlaceSink {
    char *at;
    void put(char c) { *at++ = c; }
    void append(const char *from, const char *to)
    {
        const auto n = static_cast<std::size_t>(to - from);
        std::memmove(at, from, n);
        at += n;
    }
};
struct SkipSink {
    void put(char) {}
    void append(const char *, const char *) {}
};

} // namespace

bool JsonLexer::parseStringSlow(const char *start, const char *p, std::string_view &out, Unescape mode)
{
    switch (mode) {
    case Unescape::ToScratch: {
        // Room for the rest of the line at once: unescaping never lengthens a string, and
        // doubling would hold the old and the new copy of a long one together. A large
        // block's room not written to takes no memory (reset() gives a large one back).
        m_scratch.reserve(static_cast<std::size_t>(m_end - start));
        m_scratch.assign(start, p);
        ScratchSink sink{m_scratch};
        if (!unescape(p, sink))
            return false;
        out = m_scratch;
        return true;
    }
    case Unescape::InPlace: {
        // The bytes before p hold no escape: they stay where they are.
        InPlaceSink sink{const_cast<char *>(p)};
        if (!unescape(p, sink))
            return false;
        out = std::string_view(start, static_cast<std::size_t>(sink.at - start));
        return true;
    }
    case Unescape::Skip: break;
    }
    SkipSink sink;
    out = {};
    return unescape(p, sink);
}

// The string from \a p on, up to and past its closing quote, with every escape and control
// character checked exactly as serde_json does.
template<typename Sink>
bool JsonLexer::unescape(const char *p, Sink &sink)
{
    for (;;) {
        if (p >= m_end)
            return failEof("a string");
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"') {
            m_p = p + 1;
            return true;
        }
        if (c < 0x20)
            return failAt(p, "control character (\\u0000-\\u001F) found while parsing a string");
        if (c != '\\') {
            const char *run = p;
            while (p < m_end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20)
                ++p;
            sink.append(run, p);
            continue;
        }
        ++p; // the backslash
        if (p >= m_end)
            return failEof("a string");
        switch (*p++) {
        case '"': sink.put('"'); break;
        case '\\': sink.put('\\'); break;
        case '/': sink.put('/'); break;
        case 'b': sink.put('\b'); break;
        case 'f': sink.put('\f'); break;
        case 'n': sink.put('\n'); break;
        case 'r': sink.put('\r'); break;
        case 't': sink.put('\t'); break;
        case 'u': {
            std::uint32_t cp = 0;
            if (!hexEscape(p, cp))
                return false;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return failAt(p - 1, "lone leading surrogate in hex escape");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                // A leading surrogate must be followed by `\u` and a trailing one. The byte
                // that breaks the pair is consumed before the error is reported.
                if (p >= m_end)
                    return failEof("a string");
                if (*p != '\\')
                    return failAt(p, "unexpected end of hex escape");
                ++p;
                if (p >= m_end)
                    return failEof("a string");
                if (*p != 'u')
                    return failAt(p, "unexpected end of hex escape");
                ++p;
                std::uint32_t low = 0;
                if (!hexEscape(p, low))
                    return false;
                if (low < 0xDC00 || low > 0xDFFF)
                    return failAt(p - 1, "lone leading surrogate in hex escape");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            char buf[4];
            std::size_t n = 0;
            if (cp < 0x80) {
                buf[n++] = static_cast<char>(cp);
            } else if (cp < 0x800) {
                buf[n++] = static_cast<char>(0xC0 | (cp >> 6));
                buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                buf[n++] = static_cast<char>(0xE0 | (cp >> 12));
                buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
            } else {
                buf[n++] = static_cast<char>(0xF0 | (cp >> 18));
                buf[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
                buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
            }
            sink.append(buf, buf + n);
            break;
        }
        default: return failAt(p - 1, "invalid escape");
        }
    }
}

bool JsonLexer::parseNumber(SerdeNumber &out)
{
    const NumberScan scan = scanSerdeNumber(m_p, m_end, out);
    switch (scan.error) {
    case NumberError::None: m_p = scan.at; return true;
    case NumberError::InvalidNumber: return failAt(scan.at, "invalid number");
    case NumberError::Eof: return failEof("a value");
    case NumberError::OutOfRange: return failAt(scan.at, "number out of range");
    }
    return false;
}

bool JsonLexer::parseIdent(std::string_view word)
{
    for (std::size_t i = 1; i < word.size(); ++i) {
        if (m_p + i >= m_end)
            return failEof("a value");
        if (m_p[i] != word[i])
            return failAt(m_p + i, "expected ident");
    }
    m_p += word.size();
    return true;
}

bool JsonLexer::skipValue(int depth)
{
    if (m_p >= m_end)
        return failEof("a value");
    switch (*m_p) {
    case '"': {
        std::string_view s;
        return parseString(s, Unescape::Skip);
    }
    case 'n': return parseIdent("null");
    case 't': return parseIdent("true");
    case 'f': return parseIdent("false");
    case '[': return enterContainer(depth) && elements([&](std::size_t) { return skipValue(depth + 1); });
    case '{':
        return enterContainer(depth)
               && members(true, [&](std::string_view) { return colon() && skipValue(depth + 1); });
    default:
        if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9')) {
            SerdeNumber n;
            return parseNumber(n);
        }
        return failAt(m_p, "expected value");
    }
}

std::string JsonLexer::describeNumber(const SerdeNumber &n)
{
    switch (n.kind) {
    case SerdeNumber::Kind::Unsigned: return "integer `" + std::to_string(n.unsignedValue) + "`";
    case SerdeNumber::Kind::Negative: return "integer `" + std::to_string(n.negativeValue) + "`";
    case SerdeNumber::Kind::Float: break;
    }
    return "floating point `" + formatJsonFloat(n.floatValue) + "`";
}

bool JsonLexer::describeValue(std::string &what, int depth, std::size_t room)
{
    if (m_p >= m_end)
        return failEof("a value");
    switch (*m_p) {
    case '"': {
        std::string_view s;
        // Unescaped over its own bytes (when the line is writable): a scratch copy of a
        // 200 MB value would be alive next to the line and the message.
        if (!parseValueString(s))
            return false;
        // The escaped bytes past the unescaped text are never read again.
        if (disposable(s))
            releasePages(s.data() + s.size(), m_p - 1);
        // At its final size: the escaping can make the text longer (`\n` is one byte in s).
        what.reserve(what.size() + rustDebugCharsLength(s) + 9 + room);
        what += "string \"";
        if (disposable(s))
            appendReleasing(what, s, appendRustDebugChars); // the pages behind the copy go back
        else
            appendRustDebugChars(what, s);
        what += '"';
        return true;
    }
    case 'n': what += "null"; return parseIdent("null");
    case 't': what += "boolean `true`"; return parseIdent("true");
    case 'f': what += "boolean `false`"; return parseIdent("false");
    case '[': what += "sequence"; return skipValue(depth);
    case '{': what += "map"; return skipValue(depth);
    default:
        if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9')) {
            SerdeNumber n;
            if (!parseNumber(n))
                return false;
            what += describeNumber(n);
            return true;
        }
        return failAt(m_p, "expected value");
    }
}

} // namespace TraceInspector
