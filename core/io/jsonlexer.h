// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/compat/serdenumber.h"

namespace TraceInspector {

/// The scan phase of TRACE_FORMAT.md §5.1 for one trimmed line: JSON syntax exactly as
/// serde_json reads it, with its error texts and columns (§5.7). The first scan error ends
/// the line; every reader returns false once it happened, with cause() holding
/// `<text> at line 1 column <C>`.
///
/// Columns: serde_json reports either the byte it was looking at (failAt) or the last byte
/// it consumed (failAfterConsumed); at the end of the line both are the line length (failEof).
class JsonLexer
{
public:
    /// serde_json's recursion limit: the 128th nested container is refused.
    static constexpr int kMaxDepth = 128;
    /// The unescape buffer a line leaves is kept for the next one up to this size.
    static constexpr std::size_t kKeptScratchBytes = std::size_t(1) << 20;

    void reset(const char *begin, const char *end)
    {
        m_begin = begin;
        m_end = end;
        m_p = begin;
        m_failed = false;
        if (m_scratch.capacity() > kKeptScratchBytes)
            std::string().swap(m_scratch); // not held on for the rest of the read
    }

    // --- cursor ------------------------------------------------------------------
    const char *pos() const { return m_p; }
    void setPos(const char *p) { m_p = p; }
    const char *begin() const { return m_begin; }
    const char *end() const { return m_end; }
    bool atEnd() const { return m_p >= m_end; }
    char peek() const { return *m_p; } // only when !atEnd()
    void advance() { ++m_p; }
    /// JSON whitespace only: space, tab, CR, LF (no Unicode spaces).
    void skipWs()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }
    /// Consumes `null` when it stands at the cursor.
    bool takeNull()
    {
        if (m_end - m_p >= 4 && m_p[0] == 'n' && m_p[1] == 'u' && m_p[2] == 'l' && m_p[3] == 'l') {
            m_p += 4;
            return true;
        }
        return false;
    }

    // --- errors (always return false) ----------------------------------------------
    bool failed() const { return m_failed; }
    const std::string &cause() const { return m_cause; }
    /// Moves the cause out (it may quote a 200 MB value); cause() is empty afterwards.
    std::string takeCause() { return std::move(m_cause); }
    std::uint32_t column() const { return m_column; }
    /// Error about the byte at \a byte.
    bool failAt(const char *byte, std::string_view text)
    {
        return failColumn(static_cast<std::size_t>(byte - m_begin) + 1, text);
    }
    /// Error positioned at the last consumed byte (serde_json's `error`/`fix_position`).
    bool failAfterConsumed(std::string_view text) { return failColumn(static_cast<std::size_t>(m_p - m_begin), text); }
    /// The same for a text built for the error, which becomes the cause without a copy.
    bool failAfterConsumedTaking(std::string &&text)
    {
        return failColumnTaking(static_cast<std::size_t>(m_p - m_begin), std::move(text));
    }
    /// `EOF while parsing <what>` at the end of the line.
    bool failEof(std::string_view what);
    bool failColumn(std::size_t column, std::string_view text);
    bool failColumnTaking(std::size_t column, std::string &&text);

    // --- values ----------------------------------------------------------------------
    /// Reads the string at the cursor (on its opening quote). \a out views the line when
    /// the string has no escapes, else an internal buffer valid until the next string.
    bool parseString(std::string_view &out) { return parseString(out, Unescape::ToScratch); }
    /// parseString() for a value the caller keeps: with writableLines(), a string with
    /// escapes is unescaped over its own bytes in the line (never longer than they are), so
    /// \a out views the line either way and a 200 MB value is held once, not twice.
    bool parseValueString(std::string_view &out)
    {
        return parseString(out, m_writable ? Unescape::InPlace : Unescape::ToScratch);
    }
    /// Lines given to reset() may be overwritten by parseValueString(): the caller's buffer
    /// is writable and reads no line again after the lexer. Off by default.
    void setWritableLines(bool writable) { m_writable = writable; }
    /// Whether \a s (a string just read) lies in a writable line, which is never read again:
    /// its bytes may be given back once copied (appendReleasing()).
    bool disposable(std::string_view s) const
    {
        const auto at = reinterpret_cast<std::uintptr_t>(s.data());
        return m_writable && at >= reinterpret_cast<std::uintptr_t>(m_begin)
               && at + s.size() <= reinterpret_cast<std::uintptr_t>(m_end);
    }
    /// Reads the number at the cursor (a '-' or a digit).
    bool parseNumber(SerdeNumber &out);
    /// `true`/`false`/`null` after their first byte: the rest must match exactly.
    bool parseIdent(std::string_view word);
    /// After `"key"` of an object member: `:` and the whitespace up to the value.
    bool colon()
    {
        skipWs();
        if (m_p >= m_end)
            return failEof("an object");
        if (*m_p != ':')
            return failAt(m_p, "expected `:`");
        ++m_p;
        skipWs();
        if (m_p >= m_end)
            return failEof("a value");
        return true;
    }
    /// Reads any value completely (unknown members, surplus elements): every syntax,
    /// escape and number error counts. \a depth is the nesting level a container here opens.
    bool skipValue(int depth);
    /// Reads any value and appends to \a what its description as serde's `Unexpected` gives
    /// it in type errors: `null`, ``boolean `true` ``, ``integer `5` ``, ``floating point `1.5` ``,
    /// `string "x"`, `sequence`, `map`. The string may be 200 MB: \a what is then made at its
    /// final size plus \a room at once, and a disposable() string gives its pages back as it is
    /// copied, so that the line and the message do not both hold it.
    bool describeValue(std::string &what, int depth, std::size_t room = 0);
    /// `Unexpected` text of a number.
    static std::string describeNumber(const SerdeNumber &n);
    /// Checks the recursion limit for a container opening at the cursor.
    bool enterContainer(int depth)
    {
        if (depth >= kMaxDepth)
            return failAt(m_p, "recursion limit exceeded");
        ++m_p;
        return true;
    }

    /// Walks the members of an object whose `{` was consumed. \a first: no member was read
    /// yet. For each member \a onKey(key, cursor-after-key) is called right after the key
    /// (before the colon, so key-level errors win); it must call colon() and then consume
    /// the value. Consumes the closing `}`.
    template<typename OnKey>
    bool members(bool first, OnKey &&onKey)
    {
        for (;;) {
            skipWs();
            if (m_p >= m_end)
                return failEof("an object");
            if (*m_p == '}') {
                ++m_p;
                return true;
            }
            if (!first) {
                if (*m_p != ',')
                    return failAt(m_p, "expected `,` or `}`");
                ++m_p;
                skipWs();
                if (m_p >= m_end)
                    return failEof("a value");
                if (*m_p == '}')
                    return failAt(m_p, "trailing comma");
            }
            first = false;
            if (*m_p != '"')
                return failAt(m_p, "key must be a string");
            std::string_view key;
            if (!parseString(key) || !onKey(key))
                return false;
        }
    }

    /// Walks the elements of an array whose `[` was consumed; \a onElement(index) is called
    /// with the cursor on each element and must consume it. Consumes the closing `]`.
    template<typename OnElement>
    bool elements(OnElement &&onElement)
    {
        return elements(0, onElement);
    }
    /// The same, for an array whose first \a index elements were already consumed.
    template<typename OnElement>
    bool elements(std::size_t index, OnElement &&onElement)
    {
        for (;;) {
            skipWs();
            if (m_p >= m_end)
                return failEof("a list");
            if (*m_p == ']') {
                ++m_p;
                return true;
            }
            if (index != 0) {
                if (*m_p != ',')
                    return failAt(m_p, "expected `,` or `]`");
                ++m_p;
                skipWs();
                if (m_p >= m_end)
                    return failEof("a value");
                if (*m_p == ']')
                    return failAt(m_p, "trailing comma");
            }
            if (!onElement(index++))
                return false;
        }
    }

private:
    /// Where a string with escapes is unescaped to; Skip checks it without writing.
    enum class Unescape : std::uint8_t { ToScratch, InPlace, Skip };
    bool parseString(std::string_view &out, Unescape mode)
    {
        const char *p = m_p + 1;
        const char *start = p;
        // Fast scan: most strings have no escapes and no control characters.
        while (p < m_end) {
            const auto c = static_cast<unsigned char>(*p);
            if (c == '"') {
                out = std::string_view(start, static_cast<std::size_t>(p - start));
                m_p = p + 1;
                return true;
            }
            if (c == '\\' || c < 0x20)
                break;
            ++p;
        }
        return parseStringSlow(start, p, out, mode);
    }
    bool failWithCause(std::size_t column); // m_cause holds the text
    bool parseStringSlow(const char *start, const char *p, std::string_view &out, Unescape mode);
    template<typename Sink>
    bool unescape(const char *p, Sink &sink);
    bool hexEscape(const char *&p, std::uint32_t &value);

    const char *m_begin = nullptr;
    const char *m_end = nullptr;
    const char *m_p = nullptr;
    bool m_failed = false;
    std::string m_cause;
    std::uint32_t m_column = 0;
    std::string m_scratch; // unescaped strings
    bool m_writable = false;
};

} // namespace TraceInspector
