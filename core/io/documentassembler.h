// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/decodedevent.h"
#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {

/// Folds decoded events, in file order, into a Trace while checking the stream rules of
/// TRACE_FORMAT.md §6 — tolerantly: every violation becomes a Problem, the offending
/// record is left out where keeping it would be ambiguous, and the walk goes on.
/// The first violation in record order is remembered separately, because that is what
/// upstream's strict loader reports (when no line failed to decode).
class DocumentAssembler
{
public:
    explicit DocumentAssembler(Trace &trace);

    /// \a event was decoded from physical \a line; record indices are counted here.
    void add(DecodedEvent &event, std::uint32_t line);
    /// A line that failed to decode still occupies a record index.
    void skipUndecodable() { ++m_index; }
    /// Post-walk rules (§6.1 step 2) and span sorting. Call once.
    void finish();

    std::vector<Problem> &problems() { return m_problems; }
    const std::optional<Problem> &firstStreamError() const { return m_firstStreamError; }
    const std::optional<Problem> &firstPostWalkError() const { return m_firstPostWalkError; }

private:
    void report(std::uint32_t line, std::string rule, std::string message, RelatedKind kind = RelatedKind::None,
                std::string relatedId = {});
    void reportPostWalk(std::uint32_t line, std::string rule, std::string message, RelatedKind kind = RelatedKind::None);
    std::optional<std::uint64_t> dtypeSizeOf(StringId dtype);
    std::uint32_t &spanSlot(StringId id);
    bool tensorStatsValid(const TensorStats &s) const;

    Trace &m_trace;
    std::vector<Problem> m_problems;
    std::optional<Problem> m_firstStreamError;
    std::optional<Problem> m_firstPostWalkError;
    std::uint64_t m_index = 0;
    bool m_terminalSeen = false;
    std::uint64_t m_tensorStatsSeen = 0;
    std::uint32_t m_firstTensorStatsLine = 0;
    std::uint64_t m_latestHostEvidence = 0;
    std::vector<std::uint32_t> m_spanById;  // StringId -> span index + 1 (0 = unknown)
    std::vector<std::int8_t> m_dtypeSizes;  // StringId -> -2 unknown yet, -1 none, else bytes
};

} // namespace TraceInspector
