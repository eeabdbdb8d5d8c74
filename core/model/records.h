// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "core/model/enums.h"
#include "core/model/listpool.h"
#include "core/model/packedu64.h"
#include "core/model/shapetable.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

// Compact in-memory forms of the trace records (TRACE_FORMAT.md §4). Strings are
// StringIds into Trace::strings (kNoString = optional member absent), shapes are
// ShapeIds into Trace::shapes. `line` is the 1-based physical line the record came from.
// Field order follows the wire declaration order where practical; members are packed
// to keep multi-million-record traces small.

/// A span: the span_start, merged with its span_end once seen (§7.2).
struct Span {
    StringId id = kNoString;
    StringId parentId = kNoString;
    StringId name = kNoString;
    SpanKind kind = SpanKind::Function;
    ExecutionStep step = ExecutionStep::None;
    bool measured = false;
    bool closed = false;
    std::uint64_t startNs = 0;
    std::uint64_t durationNs = 0; // 0 while open
    std::uint32_t startLine = 0;
    std::uint32_t endLine = 0; // 0 while open
};

struct Op {
    std::uint64_t durationNs = 0;
    std::uint64_t timestampNs = 0;
    std::uint64_t outputDenseBytes = 0;
    std::uint64_t inputDenseBytes = 0;
    StringId spanId = kNoString;
    StringId opName = kNoString;
    StringId output = kNoString;
    StringId dtype = kNoString;
    StringId device = kNoString;
    ShapeId shape = 0;
    ListRef inputs; // into Trace::idLists
    std::uint32_t line = 0;
    bool hasOutputDenseBytes = false; // after §7.1 resolution
};

struct Tensor {
    std::uint64_t denseBytes = 0;
    StringId spanId = kNoString;
    StringId tensorId = kNoString;
    StringId label = kNoString;
    StringId dtype = kNoString;
    StringId device = kNoString;
    ShapeId shape = 0;
    bool requiresGrad = false;
    bool hasDenseBytes = false; // after §7.1 resolution
    MemoryCategory category = MemoryCategory::Other;
    std::uint32_t line = 0;
};

struct TensorStats {
    StringId spanId = kNoString;
    StringId label = kNoString;
    StringId dtype = kNoString;
    ShapeId shape = 0;
    std::uint64_t elements = 0;
    std::uint64_t nonFinite = 0;
    double rms = 0;
    double absMax = 0;
    double mean = 0;
    std::uint32_t line = 0;
};

/// 52 bytes: the two 64-bit members are PackedU64 (4-byte aligned), not std::uint64_t.
struct MemoryEvent {
    PackedU64 timestampNs = 0;
    PackedU64 bytes = 0;
    StringId storageId = kNoString;
    StringId tensorId = kNoString;
    StringId spanId = kNoString;
    StringId opName = kNoString;
    StringId device = kNoString;
    StringId dtype = kNoString;
    ShapeId shape = 0;
    MemoryAction action = MemoryAction::Alloc;
    MemoryCategory category = MemoryCategory::Other;
    std::uint32_t line = 0;
};
static_assert(sizeof(MemoryEvent) == 52);

struct DeviceMemorySample {
    enum Field : std::uint8_t { Used = 1, Free = 2, Reserved = 4, Capacity = 8 };
    std::uint64_t timestampNs = 0;
    std::uint64_t usedBytes = 0;
    std::uint64_t freeBytes = 0;
    std::uint64_t reservedBytes = 0;
    std::uint64_t capacityBytes = 0;
    StringId device = kNoString;
    std::uint8_t present = 0; // bit set of Field
    std::uint32_t line = 0;
    bool has(Field f) const { return (present & f) != 0; }
};

struct DeviceInterval {
    std::uint64_t startNs = 0;
    std::uint64_t durationNs = 0;
    StringId spanId = kNoString;
    StringId device = kNoString;
    StringId streamId = kNoString;
    StringId clockId = kNoString;
    StringId backend = kNoString;
    std::uint32_t line = 0;
};

struct Gradient {
    double norm = 0;
    StringId eventId = kNoString;
    StringId root = kNoString;
    StringId key = kNoString;
    std::uint32_t line = 0;
    GradientState state = GradientState::Present;
    bool hasNorm = false;
};

/// `edge`: for Call, from/to are span ids; for Data, tensor ids.
struct Edge {
    std::uint64_t hostDurationNs = 0; // Call only
    StringId from = kNoString;
    StringId to = kNoString;
    std::uint32_t line = 0;
    EdgeKind kind = EdgeKind::Call;
};

} // namespace TraceInspector
