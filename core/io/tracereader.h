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

#include "core/io/inputerror.h"
#include "core/io/tracesource.h"
#include "core/model/problem.h"
#include "core/model/problemlimiter.h"
#include "core/model/trace.h"

namespace TraceInspector {

struct ReadOptions {
    /// Read block size per thread. 1 MiB: the buffer fits the L2 cache the scanner reads it
    /// from, and two threads' 4 MiB buffers (6 MiB mappings each, in huge pages) were 12 MB of
    /// a 100 MB trace's 59 MB peak. The command line reads in 256 KiB (traceinput.cpp).
    std::size_t chunkBytes = std::size_t(1) << 20;
    /// A file of parallelThresholdBytes or more is read in segments, one thread each: two,
    /// and more where each gets minSegmentBytes, up to one a core and maxThreads
    /// (segmentsFor()). A segment costs ~3 MiB of the peak (its string table, read buffer and
    /// arrays' ends; the 1 GB trace in 2, 4 and 8 segments peaked at 336, 345 and 356 MiB)
    /// and its part of the merge, which runs on one thread after the scan. On 8 cores the
    /// scan of a 1 GB trace would take about as long as the merge and the walk after it
    /// (~0.2 s each), so more segments would gain little: an estimate from 2 cores.
    unsigned maxThreads = 8;
    std::uint64_t parallelThresholdBytes = std::uint64_t(16) << 20; // below it one thread is faster
    std::uint64_t minSegmentBytes = std::uint64_t(32) << 20;
    unsigned cores = 0; ///< the cores to use; 0: usableCores() (tests set more than there are)
    /// A thread that has finished its segment takes over the back half of the unread rest
    /// of another's when that rest is at least this big (ReadPieces). 8 MiB: at ~0.5 GB/s a
    /// thread, a smaller rest is done before the extra segment's merge would pay off.
    std::uint64_t minTakeOverBytes = std::uint64_t(8) << 20;
    /// Threads take over each other's rest only in files at least this big. A piece taken
    /// over is one more segment, with its own string table and array rooms: a few MB
    /// whatever its size. From 256 MiB on that is within 2 % of the file, and the threads'
    /// imbalance it evens out is worth ~0.1 s (a 1 GB read: the halves finished 6-272 ms
    /// apart); on an 80 MB file it added up to 9 % to the peak RSS for ~15 ms.
    std::uint64_t takeOverFromFileBytes = std::uint64_t(256) << 20;
    /// A line of a stream longer than this ends the read (InputError::LineTooLong): a pipe
    /// from /dev/zero would otherwise grow one line until memory runs out. A regular
    /// file's lines are bounded by its size and have no limit.
    std::uint64_t maxStreamLineBytes = std::uint64_t(256) << 20;
    /// Read even a regular file front to back with read(), as a pipe is read (tests and
    /// the fuzzer compare the two ways).
    bool readAsStream = false;
    /// Called while a stream has no data (see WaitSink).
    WaitSink waiting;

    /// How many segments, one thread each, a regular file of \a bytes is read in.
    unsigned segmentsFor(std::uint64_t bytes) const;
};

/// Progress callback: bytes consumed so far and total file bytes (0 for a stream, whose
/// size is unknown). Called at most once per chunk, from the calling thread.
using ProgressSink = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Result of reading and assembling one trace file (TRACE_FORMAT.md §2–§6).
///
/// The reader always works tolerantly: it decodes every line, keeps every record it can
/// accept, and collects decode failures and hard-rule violations in `problems` (line
/// order). Per rule only the first ProblemLimiter::kMaxPerRule are stored; the others are
/// counted in `omittedProblems`, so totals stay exact while memory stays bounded.
/// `strictError` is what upstream's strict loader would report: the first failing line if
/// any line failed to read or decode, else the first stream-rule violation in record
/// order, else the first failing post-walk rule (§6.1). Health findings are not part of
/// this result (see analyzeHealth()).
///
/// When the input could not be read completely (`inputError`), there is no trace and no
/// verdict about its content: `strictError` then holds the reader's message for it.
struct ReadResult {
    std::shared_ptr<Trace> trace;  // null when inputError is set
    std::vector<Problem> problems; // E-* problems, sorted by line
    std::vector<OmittedProblems> omittedProblems;
    std::optional<Problem> strictError;
    InputError inputError;
    bool cancelled = false;

    bool accepted() const { return trace && !strictError && !cancelled; }
    /// Stored and omitted problems together.
    std::uint64_t problemCount() const;
};

class TraceReader
{
public:
    /// Reads \a source to its end. \a cancel, when given, is polled once per chunk and
    /// while waiting for a stream's data; a cancelled read returns with `cancelled` set and
    /// a partial trace.
    static ReadResult read(TraceSource &source, const ReadOptions &options = {}, const ProgressSink &progress = {},
                           const std::atomic<bool> *cancel = nullptr);

    /// Opens \a path (TraceSource::open) and reads it.
    static ReadResult readFile(const std::string &path, const ReadOptions &options = {},
                               const ProgressSink &progress = {}, const std::atomic<bool> *cancel = nullptr);

    /// Reads an in-memory JSONL text as if it were the file \a displayPath (tests, fuzzing).
    static ReadResult readBytes(std::string_view bytes, const std::string &displayPath);
};

} // namespace TraceInspector
