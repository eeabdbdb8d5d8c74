// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <optional>

#include "core/model/problem.h"
#include "core/model/problemlimiter.h"
#include "core/model/trace.h"

namespace TraceInspector {

struct SpanEndRecord {
    StringId id = kNoString;
    std::uint64_t durationNs = 0;
    std::uint32_t line = 0;
};

/// What one reading thread decoded from a contiguous byte range of the file, before the
/// stream rules ran. Records sit in per-kind arrays in stream order; `order` remembers
/// the interleaving so the rules of §6 can later walk the records in file order.
struct DecodedSegment {
    /// Codes of `order` beyond the EventKind values.
    static constexpr std::uint8_t kUndecodable = 12;
    static constexpr std::uint8_t kInvalidTensorStats = 13;

    std::unique_ptr<Trace> trace = std::make_unique<Trace>(); // local tables; spans = span_start records
    std::vector<SpanEndRecord> spanEnds;
    std::vector<std::pair<TraceMeta, std::uint32_t>> metas; // with their lines
    std::vector<Terminal> terminals;
    std::vector<std::uint32_t> invalidTensorStatsLines;
    std::vector<std::uint8_t> order; // one code per non-blank line
    std::vector<Problem> decodeProblems; // the ones decodeLimiter stored, in line order
    ProblemLimiter decodeLimiter;        // a file of garbage lines must not hold a Problem per line
    std::optional<Problem> firstDecodeProblem; // always kept with its full text: the strict error
    std::uint64_t lines = 0;            // physical lines in the segment
    std::uint64_t latestHostEvidence = 0; // over ops, memory and device_memory (§6.3)
    std::uint64_t firstLine = 0;        // 0-based line offset of the segment in the file
};

} // namespace TraceInspector
