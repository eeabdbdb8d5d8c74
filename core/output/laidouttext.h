// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/compat/jsonstring.h"
#include "core/output/decimaltext.h"

namespace TraceInspector {

/// Writes one element's text through a pointer into a block's buffer: room for a bound the
/// caller computed is made once, and the buffer is cut back to what was written when the
/// object goes. The memory profile's JSON has millions of elements of a dozen short pieces
/// each; one std::string append per piece (a capacity check and a short copy each) had been
/// most of its formatting time.
class LaidOutText
{
public:
    /// Room for the text of a number.
    static constexpr std::size_t kNumberBound = kMaxDecimalDigits;
    /// Room for \a text as a JSON string: every byte may become `\u00xx`, plus the quotes.
    static constexpr std::size_t jsonStringBound(std::string_view text) { return 6 * text.size() + 2; }

    LaidOutText(std::string &out, std::size_t bound)
        : m_out(out)
    {
        const std::size_t at = out.size();
        out.resize(at + bound);
        m_p = out.data() + at;
    }
    ~LaidOutText() { m_out.resize(std::size_t(m_p - m_out.data())); }
    LaidOutText(const LaidOutText &) = delete;
    LaidOutText &operator=(const LaidOutText &) = delete;

    void put(char c) { *m_p++ = c; }
    void put(std::string_view text)
    {
        std::memcpy(m_p, text.data(), text.size());
        m_p += text.size();
    }
    void decimal(std::uint64_t v) { m_p = writeDecimal(m_p, v); }
    /// \a text as appendJsonString() writes it.
    void jsonString(std::string_view text)
    {
        for (const char c : text) {
            const auto u = static_cast<unsigned char>(c);
            if (u < 0x20 || c == '"' || c == '\\')
                return escaped(text);
        }
        put('"');
        put(text);
        put('"');
    }

private:
    // Rare: names with quotes, backslashes or control characters.
    void escaped(std::string_view text)
    {
        std::string quoted;
        appendJsonString(quoted, text);
        put(quoted);
    }

    std::string &m_out;
    char *m_p = nullptr;
};

} // namespace TraceInspector
