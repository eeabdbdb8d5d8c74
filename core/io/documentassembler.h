// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/decodedevent.h"
#include "core/io/decodedsegment.h"
#include "core/model/problem.h"
#include "core/model/problemlimiter.h"

namespace TraceInspector {

/// Applies the stream rules of TRACE_FORMAT.md §6 to the decoded records of a whole file,
/// in file order, and turns them into the assembled document — tolerantly: every
/// violation becomes a Problem, the offending record is left out where keeping it would
/// be ambiguous (duplicate span_start, unknown or repeated span_end, invalid
/// tensor_stats, a second meta or terminal), and the walk goes on.
///
/// The first violation of the walk and the first post-walk failure are kept apart,
/// because upstream's strict loader reports the former before the latter.
class DocumentAssembler
{
public:
    /// \a trace holds the merged records of \a segment (its tables and arrays).
    DocumentAssembler(DecodedSegment &segment, Trace &trace);

    /// Walks the records, then runs the post-walk rules (§6.1 step 2) and sorts the spans.
    void run();

    /// The stored problems (walk, then post-walk); see omittedProblems() for the rest.
    std::vector<Problem> &problems() { return m_problems; }
    /// The first errors, moved out: a message can hold a whole long value.
    std::optional<Problem> takeFirstStreamError() { return std::move(m_firstStreamError); }
    /// A long unsupported schema's message is made whole here, from the schema, which the
    /// meta then keeps only in part (TraceMeta::schemaBytesNotKept): call it only for the
    /// strict error.
    std::optional<Problem> takeFirstPostWalkError();
    std::vector<OmittedProblems> omittedProblems() const { return m_limiter.omitted(); }

private:
    void walk();
    /// Leaves out the spans whose start the walk found a duplicate of (m_droppedSpans).
    void dropDuplicateSpans();
    void postWalk();
    /// Puts the spans in id order; \a byId, when given, is that order already.
    void sortSpans(std::vector<std::uint32_t> *byId = nullptr);
    /// Span indices in id order by comparison sort (the fallback of sortSpans()).
    std::vector<std::uint32_t> comparisonOrder() const;
    std::uint32_t lineOf(std::uint8_t code, std::uint64_t index) const;
    /// True when a problem of \a rule is to be reported in full; false when it was counted.
    bool listed(const char *rule);
    /// report() of "<before><id>` at index <index>" with the id as related id, holding a long
    /// id as few times as it can. \a disposable: \a id lies in writable memory that is never
    /// read again, whose pages may be given back once copied (releasePages()).
    void reportSpanId(std::uint32_t line, const char *rule, std::string_view before, std::string_view id,
                      std::uint64_t index, bool disposable = false);
    void report(std::uint32_t line, const char *rule, std::string message, RelatedKind kind = RelatedKind::None,
                std::string relatedId = {});
    void reportPostWalk(std::uint32_t line, const char *rule, std::string message,
                        RelatedKind kind = RelatedKind::None);
    /// E-SCHEMA-UNSUPPORTED, whose message quotes the schema whole (it may be 200 MB).
    void reportUnsupportedSchema();
    /// The whole E-SCHEMA-UNSUPPORTED message, of \a length bytes, moving the schema out of the
    /// meta.
    std::string takeSchemaMessage(std::size_t length);

    DecodedSegment &m_segment;
    Trace &m_trace;
    std::vector<Problem> m_problems;
    std::optional<Problem> m_firstStreamError;
    std::optional<Problem> m_firstPostWalkError;
    /// Set when m_firstPostWalkError is E-SCHEMA-UNSUPPORTED with its message cut as listed:
    /// the length of the whole one, which is made when it is taken (takeFirstPostWalkError()).
    std::optional<std::size_t> m_deferredSchemaMessageLength;
    std::uint64_t m_cursor[DecodedSegment::kOrderCodes] = {}; // next record of each order code
    std::vector<std::uint32_t> m_droppedSpans;                // by the walk, left out after it
    ProblemLimiter m_limiter; // ten million unknown span_ends must not mean ten million Problems
};

} // namespace TraceInspector
