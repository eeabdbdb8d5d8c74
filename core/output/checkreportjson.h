// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace TraceInspector {

class JsonWriter;
struct ReadResult;
struct HealthReport;
struct TraceSummary;

/// Problems by stage and severity, omitted ones included: the totals a report states.
struct ProblemCounts {
    std::uint64_t loadErrors = 0;
    std::uint64_t loadWarnings = 0;
    std::uint64_t healthErrors = 0;
    std::uint64_t healthWarnings = 0;
    std::uint64_t errors() const { return loadErrors + healthErrors; }
    std::uint64_t warnings() const { return loadWarnings + healthWarnings; }
};

ProblemCounts countProblems(const ReadResult &read, const HealthReport &health);

/// Upstream's message for a rejected trace, empty for an accepted one.
const std::string &rejectionMessage(const ReadResult &read);

/// What `candle-trace check --json` reports on: one read trace (tolerant load, strict
/// verdict), its health and its summary. \a file is the name as given (any bytes).
struct CheckReport {
    const std::string &file;
    const ReadResult &read;
    const HealthReport &health;
    const TraceSummary &summary;
};

/// Writes the `check --json` document (README, "check --json") and its line end.
void writeCheckReportJson(JsonWriter &w, const CheckReport &report);

} // namespace TraceInspector
