// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/io/decodedevent.h"

namespace TraceInspector {

// The wire schema of every record and nested structure (TRACE_FORMAT.md §4, §5.2), written
// once: member names, JSON types, presence rules and declaration order. The declaration
// order is the member order of the normalized output (§11.2) and the element order of the
// array form (§5.2). The line decoder checks input against these tables; which C++ member
// receives a field is the decoder's per-kind mapping.

/// JSON shape a member takes, which also fixes the `expected …` text of its type errors.
enum class WireType : std::uint8_t {
    String,     // `a string`
    U64,        // `u64`
    Usize,      // `usize`
    F64,        // `f64`
    Bool,       // `a boolean`
    Shape,      // array of usize, `a sequence`
    StringIds,  // array of strings, interned (op inputs)
    Strings,    // array of strings, kept as text (meta labels)
    StringMap,  // object of strings (`tags`), `a map`
    Enum,       // string or single-key map, `string or map`
    Struct,     // nested structure, `struct T`
    StructList, // array of nested structures
};

/// §4 presence: required (absent ⇒ `missing field`), optional (absent or null ⇒ none),
/// defaulted (absent ⇒ default; null is a type error).
enum class Presence : std::uint8_t { Required, Optional, Defaulted };

/// Enumerations that appear as members (§4.13).
enum class WireEnum : std::uint8_t {
    ExecutionPhase,
    ExecutionStep,
    TimingMode,
    SpanKind,
    MemoryAction,
    MemoryCategory,
    GradientState,
    RunOutcome,
    CoverageLevel,
    MeasurementScope,
    GradientFamilyExpectation,
};

/// Structures nested in the meta record.
enum class WireStruct : std::uint8_t {
    CaptureContract,
    ComparisonIdentity,
    GradientContract,
    ExpectedGradient,
    GradientFamilyContract,
};

struct FieldSpec {
    std::string_view name;
    WireType type = WireType::String;
    Presence presence = Presence::Required;
    std::uint8_t sub = 0; // WireEnum for Enum, WireStruct for Struct / StructList
};

struct StructSpec {
    std::string_view typeName; // as serde names it in messages: `struct OpEvent`
    std::span<const FieldSpec> fields;
    std::uint32_t requiredMask = 0; // bit i: fields[i] is required

    constexpr int count() const { return static_cast<int>(fields.size()); }
    /// Index of the member called \a key, or -1.
    int find(std::string_view key) const
    {
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (fields[i].name.size() == key.size() && fields[i].name == key)
                return static_cast<int>(i);
        }
        return -1;
    }
};

struct EnumSpec {
    std::string_view typeName;
    /// C++ enumerator value of a wire string, or -1 (exact, case-sensitive match).
    int (*lookup)(std::string_view text);
};

/// Schema of a record kind. Meta is the flattened form (`schema` first, then TraceRunMeta);
/// edge has no table of its own (see edgeVariantSpec()).
const StructSpec &eventSpec(EventKind kind);
/// The fields of one edge variant, after the `edge_kind` tag.
const StructSpec &edgeVariantSpec(EdgeKind kind);
const StructSpec &structSpec(WireStruct s);
const EnumSpec &enumSpec(WireEnum e);

/// The `kind` tag value of \a kind, and the kind a tag names (or -1).
std::string_view eventKindName(EventKind kind);
int eventKindFromName(std::string_view name);
/// serde's list of every kind, for the unknown-variant message of the tag.
std::string_view eventKindExpectation();

} // namespace TraceInspector
