// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace TraceInspector {

/// Exit codes of candle-trace.
enum ExitCode : int {
    ExitOk = 0,
    ExitRejected = 1, // the trace is rejected by the strict (upstream) rules
    ExitUsage = 2,    // usage error, unreadable input or unwritable output
};

enum class CliCommand { None, Help, Version, Check, Normalize, Summary, Diff, Compare };

struct CliArgs {
    CliCommand command = CliCommand::None;
    std::string file;                    // input trace; "-" = standard input
    std::string output;                  // normalize -o; "-" = standard output
    std::string candidate;               // diff: the second trace (file is the baseline)
    std::size_t top = 10;                // diff --top N
    bool all = false;                    // check --all
    bool json = false;                   // check --json, diff --json
    bool force = false;                  // normalize --force: replace a read-only OUT or another user's
    std::vector<std::string> baselines;  // compare --baseline INPUT...
    std::vector<std::string> candidates; // compare --candidate INPUT...
    bool unverifiedTraces = false;       // compare --unverified-traces: INPUTs are raw traces
};

/// Result of parsing argv: the arguments, or a usage error message (without "error: ").
struct CliParse {
    CliArgs args;
    std::string error;
    bool ok() const { return error.empty(); }
};

CliParse parseCliArgs(int argc, const char *const *argv);

/// The --help text.
std::string usageText();

} // namespace TraceInspector
