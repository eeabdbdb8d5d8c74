// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/io/compression.h"
#include "core/io/tracereader.h"
#include "core/io/tracesource.h"

namespace TraceInspector {

/// A trace file read for one CLI command.
struct TraceInput {
    ReadResult result;
    /// Non-empty when FILE could not be read completely (exit 2), e.g.
    /// "open trace file run.jsonl: No such file or directory".
    std::string inputError;
    /// What the first bytes say about the file, for a hint after a rejection.
    Compression compression = Compression::None;

    bool opened() const { return inputError.empty() && result.trace; }
};

/// Opens \a path without blocking; "-" is standard input.
TraceSource openTraceInput(const std::string &path);

/// Reads \a source tolerantly (see TraceReader). While a pipe or FIFO delivers nothing for
/// a second, says once on standard error that it is waiting.
TraceInput readTraceInput(TraceSource &source);

/// The CLI's wording of an input failure, without "error: ".
std::string inputFailureText(const InputError &error, const std::string &path);

/// "note: FILE looks gzip-compressed; ..." for a rejected compressed file (empty when not).
std::string compressionHint(Compression c, const std::string &path);

} // namespace TraceInspector
