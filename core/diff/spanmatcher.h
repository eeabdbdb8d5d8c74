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
/// from the roots at once, so it is linear in the spans and needs no path strings; a span
/// without a partner leaves its whole subtree unmatched.
struct SpanMatch {
    static constexpr std::uint32_t kNone = UINT32_MAX;
    /// Per baseline span: its candidate partner, or kNone.
    std::vector<std::uint32_t> candidateOf;
    /// Per candidate span: its baseline partner, or kNone.
    std::vector<std::uint32_t> baselineOf;
    std::uint64_t matched = 0;
    std::uint64_t baselineOnly = 0;
    std::uint64_t candidateOnly = 0;

    static SpanMatch compute(const Trace &baseline, const SpanTree &baselineTree, const Trace &candidate,
                             const SpanTree &candidateTree);
};

/// The path of span \a index as matching sees it: names joined by '/', with `[k]` after a
/// name that is the k-th (k > 0) of its name among its siblings.
std::string spanPath(const Trace &trace, const SpanTree &tree, std::uint32_t index);

} // namespace TraceInspector
