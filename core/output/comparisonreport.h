// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/comparison/comparisonresult.h"

namespace TraceInspector {

/// The report exactly as upstream's `compare` prints it: serde_json's pretty JSON of the
/// `candle-graph/comparison/5` object, then a newline (docs/COMPARISON.md §6).
std::string comparisonReportJson(const ReplicatedComparison &comparison);

/// A readable summary of the same report: verdict, reasons, both cohorts' statistics, the
/// delta and its interval, and the tensor statistics that drifted most.
std::string comparisonReportText(const ReplicatedComparison &comparison);

} // namespace TraceInspector
