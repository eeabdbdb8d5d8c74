// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "core/compat/jsonstring.h"

namespace TraceInspector {

/// Streaming writer for compact JSON text (no whitespace), the form of every record in a
/// normalized trace. Commas and colons are inserted automatically; the caller is trusted
/// to nest begin/end calls correctly and to give a key before every object member value.
///
/// Output accumulates in an internal buffer. With a sink (a FILE* or a callback), the
/// buffer is handed to the sink whenever it grows past the flush threshold, so documents
/// of any size are written in bounded memory; without a sink everything stays in
/// buffer(). A sink failure is sticky: later output is discarded, ok() turns false and
/// errorString() says why. The destructor flushes what is left (errors there are lost:
/// call flush() and check its result when it matters).
///
/// Several top-level values can be written one after another, each terminated by
/// endLine() (JSON Lines).
class JsonWriter
{
public:
    /// Receives one chunk of output; returns false when it could not be written.
    using SinkFunction = std::function<bool(std::string_view chunk)>;
    static constexpr std::size_t kDefaultFlushThreshold = std::size_t(1) << 20;

    /// In-memory writer: nothing is flushed anywhere; read the text with buffer().
    JsonWriter();
    /// Writes to \a file (not closed by the writer; the writer never calls fflush()).
    explicit JsonWriter(std::FILE *file, std::size_t flushThreshold = kDefaultFlushThreshold);
    explicit JsonWriter(SinkFunction sink, std::size_t flushThreshold = kDefaultFlushThreshold);
    ~JsonWriter();

    JsonWriter(const JsonWriter &) = delete;
    JsonWriter &operator=(const JsonWriter &) = delete;

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    /// An object member name; the next call writes its value.
    JsonWriter &key(std::string_view name);

    JsonWriter &string(std::string_view value);
    JsonWriter &u64(std::uint64_t value);
    JsonWriter &i64(std::int64_t value);
    /// A float in upstream's layout (§11.4); NaN and infinities are written as `null`.
    JsonWriter &f64(double value);
    JsonWriter &boolean(bool value);
    JsonWriter &null();
    /// An already serialized JSON value, written as given (after a comma if needed).
    JsonWriter &rawValue(std::string_view json);

    /// Ends a top-level value with `\n` and flushes if the buffer is past the threshold.
    JsonWriter &endLine();

    /// Appends \a text verbatim, with no comma handling: for fast emitters that lay out
    /// whole records themselves (follow with endLine() or maybeFlush()).
    void raw(std::string_view text) { m_buf.append(text); }
    /// Direct access to the pending output, for the same fast emitters.
    std::string &buffer() { return m_buf; }
    const std::string &buffer() const { return m_buf; }
    /// Moves the pending output out (in-memory use).
    std::string takeBuffer();
    /// Writes \a text, already formatted elsewhere (whole lines or array elements, with
    /// their commas), after what is buffered: straight to the sink, or to the buffer without
    /// one. The comma state is left as it was. Returns ok().
    bool writeThrough(std::string_view text);

    /// Hands the buffer to the sink if it is larger than the flush threshold.
    void maybeFlush()
    {
        if (m_buf.size() >= m_threshold && hasSink())
            flush();
    }
    /// Hands everything buffered to the sink. Returns ok(). Without a sink, does nothing.
    bool flush();

    bool hasSink() const { return m_file != nullptr || bool(m_sink); }
    bool ok() const { return !m_failed; }
    /// errno of the first failed write, or 0 (also 0 for a failing callback sink).
    int errorCode() const { return m_errno; }
    /// Human-readable reason of the first failed write, empty while ok().
    const std::string &errorString() const { return m_error; }
    /// Bytes produced so far, flushed or not.
    std::uint64_t bytesWritten() const { return m_flushed + m_buf.size(); }
    /// Nesting depth of open objects and arrays.
    int depth() const { return m_depth; }

private:
    void deliver(std::string_view text);
    void separate()
    {
        if (m_needComma)
            m_buf.push_back(',');
    }

    std::string m_buf;
    std::FILE *m_file = nullptr;
    SinkFunction m_sink;
    std::size_t m_threshold = kDefaultFlushThreshold;
    std::uint64_t m_flushed = 0;
    int m_depth = 0;
    int m_errno = 0;
    bool m_needComma = false;
    bool m_failed = false;
    std::string m_error;
};

} // namespace TraceInspector
