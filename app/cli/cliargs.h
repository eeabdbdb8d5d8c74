// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace TraceInspector {

/// Exit codes of candle-trace.
enum ExitCode : int {
    ExitOk = 0,
    ExitRejected = 1, // the trace is rejected by the strict (upstream) rules
    ExitUsage = 2,    // usage error, unreadable input or unwritable output
};

enum class CliCommand { None, Help, Version, Check, Normalize, Summary };

struct CliArgs {
    CliCommand command = CliCommand::None;
    std::string file;   // input trace; "-" = standard input
    std::string output; // normalize -o; "-" = standard output
    bool all = false;   // check --all
    bool json = false;  // check --json
    bool force = false; // normalize --force: replace a read-only OUT or another user's
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
