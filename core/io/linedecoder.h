// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/io/decodedevent.h"
#include "core/io/fastlinescanner.h"
#include "core/io/jsonlexer.h"
#include "core/io/structreader.h"

namespace TraceInspector {

struct Trace;

/// Spare bytes the readers keep after each buffer (zeroed), so no scan can run off its end.
inline constexpr std::size_t kDecoderPadding = 64;

/// Which decoders read a line. The fast path (fastlinescanner.h) reads lines of the usual
/// shape and leaves every other line to the exact decoder; ExactOnly exists for the test
/// that proves both give the same results (tst_fastpath).
enum class DecoderPath : std::uint8_t { FastThenExact, ExactOnly };

/// Decodes one trimmed JSONL line into a DecodedEvent with upstream's (serde's) acceptance
/// rules (TRACE_FORMAT.md §3–§5), including which error wins when a line has several
/// (syntax anywhere, then the first semantic error in member order, then trailing text).
/// Strings are interned into the trace's tables. One decoder per thread.
class LineDecoder
{
public:
    explicit LineDecoder(Trace &trace, DecoderPath path = DecoderPath::FastThenExact);
    LineDecoder(const LineDecoder &) = delete;
    LineDecoder &operator=(const LineDecoder &) = delete;

    /// Decodes the trimmed line [data, data + length).
    bool decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure);
    /// Lets decode() unescape values over their bytes in the line (JsonLexer::
    /// setWritableLines()): for a reader whose lines are in a writable buffer it reads once.
    void setWritableLines(bool writable) { m_lex.setWritableLines(writable); }
    /// The failure decode() gives a line that is not valid UTF-8, for a line checked elsewhere.
    static void failInvalidUtf8(DecodeFailure &failure);

private:
    void fileFast(DecodedEvent &out);
    template<typename M>
    void setFast(M &map);
    bool readKindTag(int &kind);
    bool decodeObject(DecodedEvent &out);
    bool decodeArray(DecodedEvent &out);
    bool decodeScalar();
    bool decodeObjectBody(DecodedEvent &out, bool first, bool kindSeen);
    bool decodeEdgeObject(Edge &edge, bool first, bool kindSeen);
    bool decodeEdgeArray(Edge &edge);
    template<typename M>
    bool decodeArrayFields(const StructSpec &spec, M &map);
    static void resetRecord(DecodedEvent &out);

    Trace &m_trace;
    StructReader m_reader;
    JsonLexer &m_lex;
    bool m_fastPath;
    FastLineScanner m_fast;
    std::vector<StringId> m_fastIds;
};

} // namespace TraceInspector
