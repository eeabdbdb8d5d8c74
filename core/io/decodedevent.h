// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "core/model/records.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

/// The `kind` discriminator values, in the order serde lists them.
enum class EventKind : std::uint8_t {
    Meta,
    SpanStart,
    SpanEnd,
    Op,
    Tensor,
    TensorStats,
    Memory,
    DeviceMemory,
    DeviceInterval,
    Gradient,
    Edge,
    Terminal
};

/// One decoded line. Only the member matching `kind` is meaningful; the others keep
/// their storage between lines so decoding allocates nothing in the steady state.
struct DecodedEvent {
    EventKind kind = EventKind::Meta;
    TraceMeta meta;
    Span span; // span_start
    StringId spanEndId = kNoString;
    std::uint64_t spanEndDurationNs = 0;
    Op op;
    Tensor tensor;
    TensorStats tensorStats;
    MemoryEvent memory;
    DeviceMemorySample deviceMemory;
    DeviceInterval deviceInterval;
    Gradient gradient;
    Edge edge;
    Terminal terminal;
};

/// Why a line could not be decoded: serde-style cause text (§5) and where.
struct DecodeFailure {
    std::string cause;
    std::uint32_t column = 0; // 1-based within the decoded (trimmed) text; 0 = unknown
    bool invalidUtf8 = false; // E-LINE-READ rather than E-LINE-PARSE
};

} // namespace TraceInspector
