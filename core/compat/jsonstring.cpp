// SPDX-License-Identifier: MIT
#include "core/compat/jsonstring.h"

#include <array>
#include <charconv>
#include <cstring>

namespace TraceInspector {

namespace {

// For each byte: 0 = written raw, else the character after the backslash ('u' = \u00xx).
constexpr std::array<char, 256> makeEscapeTable()
{
    std::array<char, 256> t{};
    for (int c = 0; c < 0x20; ++c)
        t[std::size_t(c)] = 'u';
    t['"'] = '"';
    t['\\'] = '\\';
    t['\b'] = 'b';
    t['\f'] = 'f';
    t['\n'] = 'n';
    t['\r'] = 'r';
    t['\t'] = 't';
    return t;
}
constexpr std::array<char, 256> kEscape = makeEscapeTable();

constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHighs = 0x8080808080808080ull;

// True when any of the 8 bytes in \a w needs escaping (< 0x20, '"' or '\\'). Exact for
// the "any" question, which is all the block skip needs.
inline bool blockNeedsEscape(std::uint64_t w)
{
    const std::uint64_t control = (w - kOnes * 0x20) & ~w;
    const std::uint64_t q = w ^ (kOnes * 0x22);
    const std::uint64_t quote = (q - kOnes) & ~q;
    const std::uint64_t b = w ^ (kOnes * 0x5C);
    const std::uint64_t backslash = (b - kOnes) & ~b;
    return ((control | quote | backslash) & kHighs) != 0;
}

} // namespace

void appendJsonString(std::string &out, std::string_view text)
{
    out.push_back('"');
    appendJsonStringBody(out, text);
    out.push_back('"');
}

void appendJsonStringBody(std::string &out, std::string_view text)
{
    const char *p = text.data();
    const char *const end = p + text.size();
    const char *run = p; // start of the pending raw run
    while (p != end) {
        if (end - p >= 8) {
            std::uint64_t w;
            std::memcpy(&w, p, 8);
            if (!blockNeedsEscape(w)) {
                p += 8;
                continue;
            }
        }
        const auto c = static_cast<unsigned char>(*p);
        const char esc = kEscape[c];
        if (esc == 0) {
            ++p;
            continue;
        }
        out.append(run, std::size_t(p - run));
        if (esc == 'u') {
            static constexpr char kHex[] = "0123456789abcdef";
            const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
            out.append(u, 6);
        } else {
            const char e[2] = {'\\', esc};
            out.append(e, 2);
        }
        ++p;
        run = p;
    }
    out.append(run, std::size_t(end - run));
}

void appendJsonU64(std::string &out, std::uint64_t value)
{
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, std::size_t(res.ptr - buf));
}

void appendJsonI64(std::string &out, std::int64_t value)
{
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, std::size_t(res.ptr - buf));
}

} // namespace TraceInspector
