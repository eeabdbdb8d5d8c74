// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/problem.h"

namespace TraceInspector {

/// Problems of one rule that were counted but not stored (see ProblemLimiter).
struct OmittedProblems {
    std::string ruleId;
    Severity severity = Severity::Error;
    std::uint64_t count = 0;

    bool operator==(const OmittedProblems &) const = default;
};

/// Bounds the memory a problem list can take on hostile input: a file of ten million
/// garbage lines, or of ten million unclosed spans, would otherwise hold one Problem per
/// line. Each rule keeps its first kMaxPerRule problems (in the order they are offered)
/// and at most kMaxTextBytesPerRule bytes of their text; the rest are only counted.
///
/// Once a rule stops storing it never resumes, so what a rule keeps is always a prefix of
/// its problems. That makes limiting composable: segments of a file read in parallel each
/// limit their own problems, and re-offering their stored problems in file order to the
/// limiter of the whole file (then adding their omitted counts) keeps exactly what one
/// sequential pass would have kept.
class ProblemLimiter
{
public:
    static constexpr std::uint64_t kMaxPerRule = 10000;
    static constexpr std::size_t kMaxTextBytesPerRule = std::size_t(4) << 20;
    /// Longer message texts are cut in a stored problem (never in a strict error).
    static constexpr std::size_t kMaxMessageBytes = std::size_t(64) << 10;

    /// Counts one problem; true when it is to be stored. \a textBytes is the size of its
    /// (already shortened) message and related id.
    bool admit(std::string_view ruleId, Severity severity, std::size_t textBytes);
    /// False when a problem of \a ruleId would only be counted (its rule stores no more),
    /// so that its text need not be built. Counts nothing.
    bool wouldStore(std::string_view ruleId, Severity severity) const;
    /// Counts \a count problems that are not offered for storage (omitted elsewhere).
    void addOmitted(std::string_view ruleId, Severity severity, std::uint64_t count);

    /// Per rule, how many were counted but not stored; in the order rules first appeared.
    std::vector<OmittedProblems> omitted() const;
    std::uint64_t omittedCount() const;

    /// Offers \a problem, shortening its texts first; appends it to \a out when admitted.
    bool store(Problem &&problem, std::vector<Problem> &out);
    /// store() of a copy of \a problem, of whose message only the bytes kept are copied.
    bool storeCopy(Problem &problem, std::vector<Problem> &out);
    /// store() of a problem whose message is already as shorten() leaves it (shortJoin()).
    bool storeShortened(Problem &&problem, std::vector<Problem> &out);

    /// Cuts \a text to kMaxMessageBytes (at a UTF-8 character boundary) and says how much
    /// was left out. Returns whether it changed the text.
    static bool shorten(std::string &text);
    /// The concatenation of \a parts as shorten() leaves it, built without the whole: a
    /// message quoting a 200 MB id copies only the bytes it keeps.
    static std::string shortJoin(std::initializer_list<std::string_view> parts);
    /// shorten() of a text of \a length bytes of which \a head holds the first ones, at least
    /// kMaxMessageBytes + 1 of them when \a length is more than kMaxMessageBytes: a message
    /// too long to be built whole.
    static std::string shortenedFrom(std::string head, std::size_t length);
    /// Whether a stored problem keeps \a id as its related id: a longer one than a message is
    /// dropped (a cut id would name no record; the line still locates it), so callers need
    /// not copy it.
    static bool keepsRelatedId(std::string_view id) { return id.size() <= kMaxMessageBytes; }
    /// Length of the longest prefix of \a text of at most \a limit bytes that splits no UTF-8
    /// character.
    static std::size_t wholeCharacterPrefix(std::string_view text, std::size_t limit);

private:
    struct RuleState {
        std::string ruleId;
        Severity severity = Severity::Error;
        std::uint64_t seen = 0;
        std::uint64_t stored = 0;
        std::size_t textBytes = 0;
        bool exhausted = false;
    };
    RuleState &stateOf(std::string_view ruleId, Severity severity);

    std::vector<RuleState> m_rules;
    std::size_t m_last = 0;
};

/// Adds the omitted counts of \a more to \a into (same rule and severity are summed).
void mergeOmitted(std::vector<OmittedProblems> &into, const std::vector<OmittedProblems> &more);

} // namespace TraceInspector
