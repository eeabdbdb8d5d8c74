// SPDX-License-Identifier: MIT
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/compat/floatformat.h"
#include "core/compat/jsonstring.h"
#include "core/output/decimaltext.h"

namespace TraceInspector {

/// Writes one element's text through a pointer into a block's buffer: room for a bound the
/// caller computed is made once, and the buffer is cut back to what was written when the
/// object goes. The memory profile's JSON has millions of elements of a dozen short pieces
/// each; one std::string append per piece (a capacity check and a short copy each) had been
/// most of its formatting time.
///
/// A text whose size is not known in advance (a block of normalized records) asks for room
/// piece by piece instead: room() grows the buffer in steps of a few pages, each zeroed by
/// std::string while in cache and written over right after.
class LaidOutText
{
public:
    /// Room for the text of a number.
    static constexpr std::size_t kNumberBound = kMaxDecimalDigits;
    /// Room for the text of a float (writeJsonFloat()).
    static constexpr std::size_t kFloatBound = kJsonFloatMaxChars;
    /// Room for \a text as a JSON string: every byte may become `\u00xx`, plus the quotes.
    static constexpr std::size_t jsonStringBound(std::string_view text) { return 6 * text.size() + 2; }

    LaidOutText(std::string &out, std::size_t bound)
        : m_out(out)
    {
        const std::size_t at = out.size();
        out.resize(at + bound);
        m_p = out.data() + at;
        m_end = out.data() + out.size();
    }
    ~LaidOutText() { m_out.resize(std::size_t(m_p - m_out.data())); }
    LaidOutText(const LaidOutText &) = delete;
    LaidOutText &operator=(const LaidOutText &) = delete;

    /// Makes sure that \a n more characters fit.
    void room(std::size_t n)
    {
        if (roomLeft() < n)
            grow(n);
    }
    /// How many more characters fit.
    std::size_t roomLeft() const { return std::size_t(m_end - m_p); }

    void put(char c)
    {
        assert(m_p < m_end);
        *m_p++ = c;
    }
    void put(std::string_view text)
    {
        assert(std::size_t(m_end - m_p) >= text.size());
        std::memcpy(m_p, text.data(), text.size());
        m_p += text.size();
    }
    void decimal(std::uint64_t v)
    {
        assert(std::size_t(m_end - m_p) >= kNumberBound);
        m_p = writeDecimal(m_p, v);
    }
    /// writeJsonFloat()'s text of \a v.
    void jsonFloat(double v)
    {
        assert(std::size_t(m_end - m_p) >= kFloatBound);
        m_p += writeJsonFloat(m_p, v);
    }
    /// \a text as appendJsonString() writes it. Leaves at least the room that writing it
    /// unescaped, in text.size() + 2 characters, would leave; the room for the escaped text
    /// is made here (callers may ask only for the unescaped size).
    void jsonString(std::string_view text)
    {
        if (jsonStringNeedsEscape(text))
            return escaped(text);
        put('"');
        put(text);
        put('"');
    }

private:
    // Out of line, so that the common paths stay small enough to inline at every piece.
    void grow(std::size_t n);
    void escaped(std::string_view text);

    std::string &m_out;
    char *m_p = nullptr;
    char *m_end = nullptr;
};

} // namespace TraceInspector
