// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/cliargs.h"

namespace TraceInspector {

// Each returns the process exit code (ExitCode) and writes its own diagnostics.
int runCheck(const CliArgs &args);
int runNormalize(const CliArgs &args);
int runSummary(const CliArgs &args);
int runDiff(const CliArgs &args);

/// Prints "error: <message>" as one line on standard error.
void printError(const std::string &message);

} // namespace TraceInspector
