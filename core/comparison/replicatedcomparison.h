// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/comparison/comparisonresult.h"
#include "core/comparison/runfacts.h"

namespace TraceInspector {

/// upstream's fail-closed replicated comparison of two cohorts of runs (`compare_documents`,
/// docs/COMPARISON.md §4–§6). Never fails: every reason the comparison cannot be trusted
/// becomes a reason text, and any reason makes it ineligible. \a inputs says where the runs
/// came from (verified bundles with their receipts, or raw traces: always ineligible).
ReplicatedComparison compareRuns(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate,
                                 ComparisonInputs inputs);

} // namespace TraceInspector
