// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/cliargs.h"

namespace TraceInspector {

/// `candle-trace compare --baseline INPUT... --candidate INPUT... [--unverified-traces] [--json]`
/// (docs/COMPARISON.md): upstream's replicated comparison. Exit 0 with the report (whatever
/// the verdict), 1 when an input fails verification or cannot be read (upstream's message
/// chain after "error: "), 2 when standard output cannot be written.
int runCompare(const CliArgs &args);

} // namespace TraceInspector
