// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>

#include "core/io/decodedevent.h"

namespace TraceInspector {

struct Trace;

/// Decodes one trimmed JSONL line into a DecodedEvent with upstream's (serde's) acceptance
/// rules (TRACE_FORMAT.md §3–§5). Strings are interned into the trace's tables.
///
/// Two builds of the implementation exist (AVX2 and portable); makeLineDecoder() picks the
/// one the CPU supports.
class LineDecoder
{
public:
    virtual ~LineDecoder();
    /// \a data must stay readable for at least kDecoderPadding bytes past \a length.
    virtual bool decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure) = 0;
};

inline constexpr std::size_t kDecoderPadding = 64;

std::unique_ptr<LineDecoder> makeLineDecoder(Trace &trace);

} // namespace TraceInspector
