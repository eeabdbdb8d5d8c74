// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {

struct ReadOptions {
    std::size_t chunkBytes = std::size_t(4) << 20; // read block size per thread
    unsigned maxThreads = 2; // larger files are split into this many segments, one thread each
    std::uint64_t parallelThresholdBytes = std::uint64_t(16) << 20; // below it one thread is faster
};

/// Progress callback: bytes consumed so far and total file bytes. Called at most once per
/// chunk, from the calling thread.
using ProgressSink = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Result of reading and assembling one trace file (TRACE_FORMAT.md §2–§6).
///
/// The reader always works tolerantly: it decodes every line, keeps every record it can
/// accept, and collects every decode failure and hard-rule violation in `problems` (line
/// order). `strictError` is what upstream's strict loader would report: the first failing
/// line if any line failed to read or decode, else the first stream-rule violation in
/// record order, else the first failing post-walk rule (§6.1). Health findings are not
/// part of this result (see analyzeHealth()).
struct ReadResult {
    std::shared_ptr<Trace> trace;     // null only when the file could not be opened
    std::vector<Problem> problems;    // E-* problems, sorted by line
    std::optional<Problem> strictError;
    bool cancelled = false;

    bool accepted() const { return trace && !strictError && !cancelled; }
};

class TraceReader
{
public:
    /// Reads \a path. \a cancel, when given, is polled once per chunk; a cancelled read
    /// returns with `cancelled` set and a partial trace.
    static ReadResult readFile(const std::string &path, const ReadOptions &options = {},
                               const ProgressSink &progress = {}, const std::atomic<bool> *cancel = nullptr);

    /// Reads an in-memory JSONL text as if it were the file \a displayPath (tests, stdin).
    static ReadResult readBytes(std::string_view bytes, const std::string &displayPath);
};

} // namespace TraceInspector
