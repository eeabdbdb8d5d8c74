// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <optional>

#include "core/model/problem.h"
#include "core/model/problemlimiter.h"
#include "core/model/trace.h"

namespace TraceInspector {

// 16 bytes: a file of millions of span_ends keeps one per line until the walk.
struct SpanEndRecord {
    std::uint64_t durationNs = 0;
    StringId id = kNoString;
    std::uint32_t line = 0;
};
static_assert(sizeof(SpanEndRecord) == 16);

struct DuplicateSpanStart {
    StringId id = kNoString;
    std::uint32_t line = 0;
};

/// Ids of span_ends that were not interned (DecodedSegment::unresolvedEnds), in order. Only
/// a prefix keeps its text: at most ProblemLimiter::kMaxPerRule of them, and no more than
/// the problem list could store (every stored problem holds the id, cut at
/// kMaxMessageBytes, and a rule stores at most kMaxTextBytesPerRule) — the unknown
/// span_ends past those are only counted, so their ids are never shown.
struct UnresolvedEnds {
    /// A kept id that is held by its own block instead of being copied into `text`.
    struct Held {
        std::uint64_t k = 0; // its index among the kept ids
        std::string_view id;
        StringTable::Bytes block;
    };

    std::uint64_t count = 0;
    std::string text;                // the kept ids, one after the other (but the held ones)
    std::vector<std::uint64_t> ends; // end offset in `text` of each kept id
    std::vector<Held> held;          // in order of k; few: each holds more than 256 KB
    std::uint64_t shownBytes = 0;    // sum of the kept ids' lengths, each cut at kMaxMessageBytes

    std::uint64_t kept() const { return ends.size(); }
    std::string_view at(std::uint64_t k) const
    {
        if (k >= kept())
            return {}; // not reached: only kept ids can be listed (see above)
        if (!held.empty()) {
            const auto h =
                std::lower_bound(held.begin(), held.end(), k, [](const Held &a, std::uint64_t b) { return a.k < b; });
            if (h != held.end() && h->k == k)
                return h->id;
        }
        const std::uint64_t begin = k ? ends[k - 1] : 0;
        return std::string_view(text).substr(begin, ends[k] - begin);
    }
    /// Whether a further unknown id could still be listed (see above).
    bool keepsMore() const
    {
        return kept() == count && kept() < ProblemLimiter::kMaxPerRule
               && shownBytes <= ProblemLimiter::kMaxTextBytesPerRule;
    }
    void add(std::string_view id, bool keep)
    {
        ++count;
        if (!keep)
            return;
        text.append(id);
        ends.push_back(text.size());
        shownBytes += std::min<std::uint64_t>(id.size(), ProblemLimiter::kMaxMessageBytes);
    }
    /// add() of a kept \a id that lies in \a block (StringTable::eraseNewest()): the block
    /// is kept instead of a copy of the id, which a 200 MB id line would make while the
    /// line's block is still alive.
    void addHeld(std::string_view id, StringTable::Bytes block)
    {
        ++count;
        held.push_back({kept(), id, std::move(block)});
        ends.push_back(text.size());
        shownBytes += std::min<std::uint64_t>(id.size(), ProblemLimiter::kMaxMessageBytes);
    }
    /// add() of \a from's kept id \a k (merging segments): a held id's block moves here
    /// with it rather than being copied, which would hold a 200 MB id twice. \a from must
    /// not read id \a k again.
    void addFrom(UnresolvedEnds &from, std::uint64_t k, bool keep)
    {
        if (keep) {
            const auto h = std::lower_bound(from.held.begin(), from.held.end(), k,
                                            [](const Held &a, std::uint64_t b) { return a.k < b; });
            if (h != from.held.end() && h->k == k && h->block) {
                addHeld(h->id, std::move(h->block));
                return;
            }
        }
        add(from.at(k), keep);
    }
};

/// What one reading thread decoded from a contiguous byte range of the file, before the
/// stream rules ran. Records sit in per-kind arrays in stream order; `order` remembers
/// the interleaving so the rules of §6 can later walk the records in file order.
struct DecodedSegment {
    /// Codes of `order` beyond the EventKind values.
    static constexpr std::uint8_t kUndecodable = 12;
    static constexpr std::uint8_t kInvalidTensorStats = 13;
    static constexpr std::uint8_t kDuplicateSpanStart = 14; // its id started a span earlier in the segment
    static constexpr std::size_t kOrderCodes = 15;

    std::unique_ptr<Trace> trace = std::make_unique<Trace>(); // local tables; spans = span_start records
    std::vector<SpanEndRecord> spanEnds;
    /// span_starts whose id an earlier span_start of the segment had: left out of the
    /// trace by the walk anyway, so only what its message needs is kept.
    std::vector<DuplicateSpanStart> duplicateStarts;
    /// The span_ends whose id no earlier line of the segment named: their record in
    /// `spanEnds` has id kNoString and the id is not interned (it names an unknown span,
    /// unless an earlier segment started it: the merge looks their texts up there).
    /// Texts are kept for all of them in a later segment, and in the first segment (whose
    /// ones are unknown for sure) only for the first ones, which the messages may need.
    UnresolvedEnds unresolvedEnds;
    bool startsFile = true;                                 // the first segment: no line comes before it
    std::vector<std::pair<TraceMeta, std::uint32_t>> metas; // with their lines
    std::vector<Terminal> terminals;
    std::vector<std::uint32_t> invalidTensorStatsLines;
    std::vector<std::uint8_t> order;           // one code per non-blank line
    std::vector<Problem> decodeProblems;       // the ones decodeLimiter stored, in line order
    ProblemLimiter decodeLimiter;              // a file of garbage lines must not hold a Problem per line
    std::optional<Problem> firstDecodeProblem; // always kept with its full text: the strict error
    std::uint64_t lines = 0;                   // physical lines in the segment
    std::uint64_t latestHostEvidence = 0;      // over ops, memory and device_memory (§6.3)
    std::uint64_t firstLine = 0;               // 0-based line offset of the segment in the file
};

} // namespace TraceInspector
