// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/io/decodedevent.h"

namespace TraceInspector {

struct Trace;

/// Decodes one trimmed JSONL line into a DecodedEvent with upstream's (serde's) acceptance
/// rules (TRACE_FORMAT.md §3–§5), including which error wins when a line has several
/// (syntax anywhere, then the first semantic error in member order, then trailing text).
/// Strings are interned into the trace's tables. One decoder per thread.
class LineDecoder
{
public:
    virtual ~LineDecoder();
    /// Decodes the trimmed line [data, data + length).
    virtual bool decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure) = 0;
};

/// Spare bytes the readers keep after each buffer (zeroed), so no scan can run off its end.
inline constexpr std::size_t kDecoderPadding = 64;

/// Which decoders read a line. The fast path (fastlinescanner.h) reads lines of the usual
/// shape and leaves every other line to the exact decoder; ExactOnly exists for the test
/// that proves both give the same results (tst_fastpath).
enum class DecoderPath : std::uint8_t { FastThenExact, ExactOnly };

std::unique_ptr<LineDecoder> makeLineDecoder(Trace &trace, DecoderPath path = DecoderPath::FastThenExact);

} // namespace TraceInspector
