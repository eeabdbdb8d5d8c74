// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace TraceInspector {

struct Trace;

/// What to look for and where.
struct SearchQuery {
    enum Scope : std::uint8_t {
        SpanNames = 1,
        SpanIds = 2,
        OpNames = 4,
        TensorIds = 8,
        AllScopes = SpanNames | SpanIds | OpNames | TensorIds,
    };
    std::string text;           ///< UTF-8; a substring, or an ECMAScript regex when `regex`
    bool caseSensitive = false; ///< case folding is ASCII-only (as in std::regex::icase)
    bool regex = false;
    std::uint8_t scopes = AllScopes;
};

/// One record that matched, in the order matches are visited.
struct SearchMatch {
    enum class Kind : std::uint8_t { Span, Op, Tensor };
    std::uint64_t timeNs = 0; ///< host time used for ordering (a tensor: its span's start)
    std::uint32_t index = 0;  ///< into Trace::spans, Trace::ops or Trace::tensors
    Kind kind = Kind::Span;
    std::uint8_t fields = 0; ///< the SearchQuery::Scope bits that matched
    friend bool operator==(const SearchMatch &, const SearchMatch &) = default;
};

struct SearchResult {
    std::vector<SearchMatch> matches; ///< ordered by time, then kind, then index
    std::string error;                ///< set when the query is invalid (bad regex); no matches
    bool cancelled = false;
};

/// Finds spans (by name or id), ops (by op name) and tensors (by tensor id).
///
/// Names and ids are interned, so each distinct string is tested once however many records
/// use it; the records are then walked comparing ids. Matches come ordered by host time
/// (span start, op timestamp, a tensor's span start; tensors of unknown spans last), then
/// spans before ops before tensors, then by index, which is the order next/previous walk.
class TraceSearch
{
public:
    /// An empty query text matches nothing. \a cancel is polled now and then.
    static SearchResult run(const Trace &trace, const SearchQuery &query, const std::atomic<bool> *cancel = nullptr);
};

} // namespace TraceInspector
