// SPDX-License-Identifier: MIT
#include "core/output/jsonwriter.h"

#include <array>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>

#include "core/output/floatformat.h"

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
    out.push_back('"');
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

JsonWriter::JsonWriter() = default;

JsonWriter::JsonWriter(std::FILE *file, std::size_t flushThreshold)
    : m_file(file)
    , m_threshold(flushThreshold)
{
    m_buf.reserve(flushThreshold + 4096);
}

JsonWriter::JsonWriter(SinkFunction sink, std::size_t flushThreshold)
    : m_sink(std::move(sink))
    , m_threshold(flushThreshold)
{
    m_buf.reserve(flushThreshold + 4096);
}

JsonWriter::~JsonWriter()
{
    flush();
}

JsonWriter &JsonWriter::beginObject()
{
    separate();
    m_buf.push_back('{');
    m_needComma = false;
    ++m_depth;
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    assert(m_depth > 0);
    m_buf.push_back('}');
    m_needComma = true;
    --m_depth;
    maybeFlush();
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    separate();
    m_buf.push_back('[');
    m_needComma = false;
    ++m_depth;
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    assert(m_depth > 0);
    m_buf.push_back(']');
    m_needComma = true;
    --m_depth;
    maybeFlush();
    return *this;
}

JsonWriter &JsonWriter::key(std::string_view name)
{
    separate();
    appendJsonString(m_buf, name);
    m_buf.push_back(':');
    m_needComma = false;
    return *this;
}

JsonWriter &JsonWriter::string(std::string_view value)
{
    separate();
    appendJsonString(m_buf, value);
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::u64(std::uint64_t value)
{
    separate();
    appendJsonU64(m_buf, value);
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::i64(std::int64_t value)
{
    separate();
    appendJsonI64(m_buf, value);
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::f64(double value)
{
    separate();
    appendJsonFloat(m_buf, value);
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::boolean(bool value)
{
    separate();
    m_buf.append(value ? std::string_view("true") : std::string_view("false"));
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::null()
{
    separate();
    m_buf.append("null", 4);
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::rawValue(std::string_view json)
{
    separate();
    m_buf.append(json);
    m_needComma = true;
    return *this;
}

JsonWriter &JsonWriter::endLine()
{
    assert(m_depth == 0);
    m_buf.push_back('\n');
    m_needComma = false;
    maybeFlush();
    return *this;
}

std::string JsonWriter::takeBuffer()
{
    m_flushed += m_buf.size();
    std::string out = std::move(m_buf);
    m_buf.clear();
    if (m_depth == 0)
        m_needComma = false;
    return out;
}

bool JsonWriter::flush()
{
    if (!hasSink() || m_buf.empty())
        return ok();
    if (!m_failed) {
        if (m_file) {
            errno = 0;
            const std::size_t n = std::fwrite(m_buf.data(), 1, m_buf.size(), m_file);
            if (n != m_buf.size()) {
                m_failed = true;
                m_errno = errno != 0 ? errno : EIO;
                m_error = std::strerror(m_errno);
            }
        } else if (!m_sink(std::string_view(m_buf))) {
            m_failed = true;
            m_error = "the output sink refused the data";
        }
    }
    // After a failure the data is dropped, so a broken sink never makes memory grow.
    m_flushed += m_buf.size();
    m_buf.clear();
    return ok();
}

} // namespace TraceInspector
