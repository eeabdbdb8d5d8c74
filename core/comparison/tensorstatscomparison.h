// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/comparison/comparisonresult.h"
#include "core/comparison/runfacts.h"

namespace TraceInspector {

/// upstream's tensor-statistics comparison by label (docs/COMPARISON.md §7): per label the
/// mean rms and abs_max over every event of the cohort, their candidate/baseline ratios,
/// non-finite counts, event and run coverage.
TensorStatsComparison compareTensorStats(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate);

} // namespace TraceInspector
