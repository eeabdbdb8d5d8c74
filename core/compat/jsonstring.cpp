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
            if (!JsonStringDetail::wordNeedsEscape(w)) {
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
