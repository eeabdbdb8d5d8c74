// SPDX-License-Identifier: MIT
#include "core/output/jsonwriter.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>

#include "core/compat/floatformat.h"
#include "core/compat/jsonstring.h"

namespace TraceInspector {

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
    const std::size_t piece = std::max<std::size_t>(m_threshold, std::size_t(1) << 16);
    if (value.size() <= piece || !hasSink()) {
        appendJsonString(m_buf, value);
    } else {
        // A long text (a message quoting a 200 MB value) goes out in pieces: escaped whole,
        // it would be held a second time in the buffer, and the buffer's doubling a third.
        // Each piece, escaped (at most 6 bytes a byte, `\u00XX`), fits the room the buffer
        // was made with: a buffer grown past it would be a fresh block of several MB in huge
        // pages, held beside the message (bench/bench_hostile.sh, --json).
        const std::size_t step = std::max<std::size_t>(m_threshold / 6, std::size_t(1) << 12);
        m_buf.push_back('"');
        for (std::size_t at = 0; at < value.size(); at += step) {
            flush();
            appendJsonStringBody(m_buf, value.substr(at, step));
        }
        m_buf.push_back('"');
        maybeFlush();
    }
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

void JsonWriter::deliver(std::string_view text)
{
    if (!m_failed) {
        if (m_file) {
            errno = 0;
            const std::size_t n = std::fwrite(text.data(), 1, text.size(), m_file);
            if (n != text.size()) {
                m_failed = true;
                m_errno = errno != 0 ? errno : EIO;
                m_error = std::strerror(m_errno);
            }
        } else if (!m_sink(text)) {
            m_failed = true;
            m_error = "the output sink refused the data";
        }
    }
    // After a failure the data is dropped, so a broken sink never makes memory grow.
    m_flushed += text.size();
}

bool JsonWriter::flush()
{
    if (!hasSink() || m_buf.empty())
        return ok();
    deliver(m_buf);
    m_buf.clear();
    return ok();
}

bool JsonWriter::writeThrough(std::string_view text)
{
    if (!hasSink()) {
        m_buf.append(text);
        return ok();
    }
    flush();
    if (!text.empty())
        deliver(text);
    return ok();
}

} // namespace TraceInspector
