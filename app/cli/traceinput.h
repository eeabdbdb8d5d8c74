// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/io/tracereader.h"

namespace TraceInspector {

/// A trace file read for one CLI command.
struct TraceInput {
    ReadResult result;
    /// Non-empty when FILE could not be opened or read at all (exit 2), e.g.
    /// "open trace file run.jsonl: No such file or directory".
    std::string openError;

    bool opened() const { return openError.empty() && result.trace; }
};

/// Reads \a path ("-" = all of standard input) tolerantly; see TraceReader.
TraceInput readTraceInput(const std::string &path);

} // namespace TraceInspector
