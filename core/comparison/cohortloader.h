// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/comparison/comparisonresult.h"
#include "core/comparison/runfacts.h"

namespace TraceInspector {

/// The runs of one cohort, read from its inputs, with the receipts of verified bundles.
struct LoadedCohort {
    std::vector<RunFacts> runs;
    std::vector<VerifiedBundleInput> receipts; ///< empty for raw traces
};

/// Either both cohorts, or upstream's error chain ("verify baseline bundle 2 at b2: ...").
struct CohortLoad {
    std::optional<LoadedCohort> baseline;
    std::optional<LoadedCohort> candidate;
    std::string error;
    bool ok() const { return error.empty(); }
};

/// Reads the inputs of a comparison as upstream's `compare` command does
/// (docs/COMPARISON.md §1): each input a bundle directory that is verified, its trace.jsonl
/// read and the bundle checked again after the read; or, with \a unverifiedTraces, each a
/// raw trace file. The first failure ends the load; the baseline is read before the
/// candidate. A trace the strict rules reject is an error, as upstream's parse_trace fails.
CohortLoad loadCohorts(const std::vector<std::string> &baseline, const std::vector<std::string> &candidate,
                       bool unverifiedTraces);

/// The comparison of loaded cohorts, with the provenance their load gives.
ReplicatedComparison compareCohorts(const CohortLoad &load, bool unverifiedTraces);

} // namespace TraceInspector
