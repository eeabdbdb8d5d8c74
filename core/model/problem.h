// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace TraceInspector {

enum class Severity : std::uint8_t { Error, Warning };

/// What a problem refers to, so a view can select it.
enum class RelatedKind : std::uint8_t {
    None,
    Span,
    Op,
    Tensor,
    Storage,
    Gradient,
    Edge,
    DeviceMemory,
    DeviceInterval,
    Meta,
    Terminal,
    TensorStats
};

/// One problem found by the tolerant load: a decode failure (E-LINE-*), a hard-rule
/// violation (E-*), a run-metadata validity failure or a health finding (H-*, W-*, HW-*).
struct Problem {
    std::uint64_t line = 0;   // 1-based physical line; 0 = whole file / not tied to a line
    std::uint32_t column = 0; // 1-based; 0 = unknown
    Severity severity = Severity::Error;
    std::string ruleId;  // e.g. "E-SPAN-END-UNKNOWN", "H-ROOT-COUNT"
    std::string code;    // upstream code for health findings ("root_count"), else empty
    std::string message; // exact upstream text where the spec gives one
    RelatedKind relatedKind = RelatedKind::None;
    std::string relatedId;                   // span id, tensor id, storage id... as text
    std::uint64_t relatedIndex = UINT64_MAX; // index into the Trace array of relatedKind, when known
};

inline const char *severityName(Severity s)
{
    return s == Severity::Error ? "error" : "warning";
}

} // namespace TraceInspector
