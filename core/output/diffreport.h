// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>

namespace TraceInspector {

class JsonWriter;
class SpanTree;
struct Trace;
struct TraceDiff;

/// The two runs a diff report is about, with the names to show for them.
struct DiffReportInput {
    const std::string &baselineFile;
    const Trace &baseline;
    const SpanTree &baselineTree;
    const std::string &candidateFile;
    const Trace &candidate;
    const SpanTree &candidateTree;
    const TraceDiff &diff;
    std::size_t top = 10; ///< rows per ranked list
};

/// `candle-trace diff`'s readable report: the match summary, the measured totals, then the
/// top regressions and improvements by span path (self time) and by op group (total time),
/// and the largest subtrees only one run has.
std::string diffReportText(const DiffReportInput &in);

/// The same as one JSON object (README, "candle-trace diff --json"), every duration in ns.
void writeDiffReportJson(JsonWriter &w, const DiffReportInput &in);

} // namespace TraceInspector
