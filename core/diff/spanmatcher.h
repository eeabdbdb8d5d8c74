// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace TraceInspector {

struct Trace;
class SpanTree;

/// Which span of one run is which span of another (issue #15, "Matching").
///
/// A span is identified by its path of names from its root, each step carrying the
/// occurrence index among same-named siblings in start order: the third `microbatch` under
/// `train_step` is `train_step/microbatch[2]`, whatever its id. Matching walks both trees
/// from the roots at once, so it is linear in the spans and needs no path strings.
///
/// Semantic-label fallback: a run's capture contract may declare `required_semantic_labels`,
/// span names that occur exactly once in the run (TRACE_FORMAT.md §3.3, §10). A span left
/// without a partner by its path whose name is a label declared by either run, and which is
/// the only span of that name in each run, is matched with the other run's span of that name
/// when that one is unmatched too (a span moved under a new wrapper keeps its partner); the
/// walk then continues by path below the pair. Labels are tried in the candidate's declared
/// order, then the baseline's. Otherwise a span without a partner leaves its subtree
/// unmatched.
struct SpanMatch {
    static constexpr std::uint32_t kNone = UINT32_MAX;
    /// Per baseline span: its candidate partner, or kNone.
    std::vector<std::uint32_t> candidateOf;
    /// Per candidate span: its baseline partner, or kNone.
    std::vector<std::uint32_t> baselineOf;
    std::uint64_t matched = 0;
    /// Of `matched`, the pairs matched by a semantic label rather than by path (their
    /// descendants matched by path below them are not counted here).
    std::uint64_t matchedByLabel = 0;
    std::uint64_t baselineOnly = 0;
    std::uint64_t candidateOnly = 0;

    static SpanMatch compute(const Trace &baseline, const SpanTree &baselineTree, const Trace &candidate,
                             const SpanTree &candidateTree);
};

/// The path of span \a index as matching sees it: names joined by '/', with `[k]` after a
/// name that is the k-th (k > 0) of its name among its siblings.
std::string spanPath(const Trace &trace, const SpanTree &tree, std::uint32_t index);

} // namespace TraceInspector
