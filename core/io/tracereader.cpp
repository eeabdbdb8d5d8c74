// SPDX-License-Identifier: MIT
#include "core/io/tracereader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "core/io/documentassembler.h"
#include "core/io/segmentmerger.h"
#include "core/io/segmentscanner.h"

namespace TraceInspector {
namespace {

/// Rust's io::Error text, e.g. "No such file or directory (os error 2)".
std::string osErrorText(int err)
{
    return std::string(std::strerror(err)) + " (os error " + std::to_string(err) + ")";
}

ReadResult fileFailure(const std::string &rule, const std::string &message)
{
    ReadResult r;
    Problem p;
    p.ruleId = rule;
    p.message = message;
    r.strictError = p;
    r.problems.push_back(std::move(p));
    return r;
}

/// Reads [begin, end) of \a fd in chunks and scans it. Returns 0 or an errno value.
int scanRange(int fd, std::uint64_t begin, std::uint64_t end, std::uint64_t reserveBytes, std::size_t chunk,
              DecodedSegment &segment, std::atomic<std::uint64_t> &done, const std::atomic<bool> *cancel,
              const std::function<void()> &onChunk)
{
    SegmentScanner scanner(segment);
    std::vector<char> buffer(chunk + kDecoderPadding);
    std::size_t filled = 0;
    std::uint64_t offset = begin;
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return 0;
        if (buffer.size() - kDecoderPadding - filled < chunk / 2)
            buffer.resize(buffer.size() * 2); // a line longer than half a chunk
        const std::size_t want = static_cast<std::size_t>(
            std::min<std::uint64_t>(buffer.size() - kDecoderPadding - filled, end - offset));
        ssize_t n = 0;
        if (want > 0) {
            n = ::pread(fd, buffer.data() + filled, want, static_cast<off_t>(offset));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return errno;
            }
        }
        const bool eof = n == 0;
        filled += static_cast<std::size_t>(n);
        offset += static_cast<std::uint64_t>(n);
        std::memset(buffer.data() + filled, 0, kDecoderPadding);
        const std::size_t used = scanner.scan(buffer.data(), filled, eof);
        std::memmove(buffer.data(), buffer.data() + used, filled - used);
        filled -= used;
        if (offset - begin == static_cast<std::uint64_t>(n))
            scanner.reserveFor(reserveBytes, used);
        done.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
        if (onChunk)
            onChunk();
        if (eof)
            return 0;
    }
}

/// Split points just after a newline, so every segment holds whole lines.
std::vector<std::uint64_t> splitPoints(int fd, std::uint64_t size, unsigned parts)
{
    std::vector<std::uint64_t> points{0};
    char window[4096];
    for (unsigned k = 1; k < parts; ++k) {
        std::uint64_t pos = std::max(points.back(), size * k / parts);
        bool found = false;
        while (!found && pos < size) {
            const ssize_t n = ::pread(fd, window, sizeof window, static_cast<off_t>(pos));
            if (n <= 0)
                break;
            if (const void *nl = std::memchr(window, '\n', static_cast<std::size_t>(n))) {
                pos += static_cast<std::uint64_t>(static_cast<const char *>(nl) - window) + 1;
                found = true;
            } else {
                pos += static_cast<std::uint64_t>(n);
            }
        }
        if (!found)
            break;
        points.push_back(pos);
    }
    points.push_back(size);
    return points;
}

/// Merges the segments, runs the stream rules and composes the result.
ReadResult assemble(std::vector<DecodedSegment> &segments, const std::string &path, std::uint64_t fileBytes, bool cancelled)
{
    DecodedSegment &all = segments.front();
    for (std::size_t k = 1; k < segments.size(); ++k)
        appendSegment(all, segments[k]);
    std::shared_ptr<Trace> trace(std::move(all.trace));
    trace->path = path;
    trace->fileBytes = fileBytes;
    trace->lineCount = all.lines;
    DocumentAssembler assembler(all, *trace);
    assembler.run();

    ReadResult result;
    result.cancelled = cancelled;
    std::optional<Problem> firstDecode;
    for (Problem &p : all.decodeProblems) {
        const char *verb = p.ruleId == "E-LINE-READ" ? "read" : "parse";
        p.message = std::string(verb) + " trace JSONL line " + std::to_string(p.line) + " from " + path + ": " + p.message;
        if (!firstDecode)
            firstDecode = p;
    }
    std::vector<Problem> &problems = assembler.problems();
    problems.insert(problems.end(), std::make_move_iterator(all.decodeProblems.begin()),
                    std::make_move_iterator(all.decodeProblems.end()));
    std::stable_sort(problems.begin(), problems.end(), [](const Problem &a, const Problem &b) { return a.line < b.line; });
    if (const std::uint64_t unstored = all.unstoredDecodeProblems + assembler.unstoredProblems()) {
        Problem p;
        p.severity = Severity::Warning;
        p.ruleId = "I-PROBLEM-LIMIT";
        p.message = std::to_string(unstored) + " further problems were found but not listed (at most "
            + std::to_string(DecodedSegment::kMaxStoredProblems) + " of each kind are kept)";
        problems.push_back(std::move(p));
    }
    // §1: all lines are decoded before any stream rule, so a decode failure always wins.
    if (firstDecode)
        result.strictError = std::move(firstDecode);
    else if (assembler.firstStreamError())
        result.strictError = assembler.firstStreamError();
    else if (assembler.firstPostWalkError())
        result.strictError = assembler.firstPostWalkError();
    result.problems = std::move(problems);
    result.trace = std::move(trace);
    return result;
}

} // namespace

ReadResult TraceReader::readFile(const std::string &path, const ReadOptions &options, const ProgressSink &progress,
                                 const std::atomic<bool> *cancel)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fileFailure("E-FILE-OPEN", "open trace file " + path + ": " + osErrorText(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        const int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
        ::close(fd);
        return fileFailure("E-FILE-OPEN", "open trace file " + path + ": " + osErrorText(err));
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    const auto total = static_cast<std::uint64_t>(st.st_size);
    unsigned parts = 1;
    if (total >= options.parallelThresholdBytes)
        parts = std::clamp(std::thread::hardware_concurrency(), 1u, std::max(1u, options.maxThreads));
    const std::vector<std::uint64_t> points = splitPoints(fd, total, parts);
    std::vector<DecodedSegment> segments(points.size() - 1);
    std::vector<int> errors(segments.size(), 0);
    std::atomic<std::uint64_t> done{0};
    const std::size_t chunk = std::max<std::size_t>(options.chunkBytes, 1 << 16);

    // Segment 0 runs on the calling thread, which also reports progress for all.
    std::vector<std::thread> workers;
    for (std::size_t k = 1; k < segments.size(); ++k) {
        workers.emplace_back([&, k] {
            errors[k] = scanRange(fd, points[k], points[k + 1], points[k + 1] - points[k], chunk, segments[k], done,
                                  cancel, {});
        });
    }
    std::function<void()> report;
    if (progress)
        report = [&] { progress(done.load(std::memory_order_relaxed), total); };
    // Segment 0 receives the others when they are merged, so it reserves for the whole file.
    errors[0] = scanRange(fd, points[0], points[1], total, chunk, segments[0], done, cancel, report);
    for (std::thread &w : workers)
        w.join();
    ::close(fd);
    for (int err : errors) {
        if (err)
            return fileFailure("E-LINE-READ", "read trace JSONL from " + path + ": " + osErrorText(err));
    }
    if (progress)
        progress(total, total);
    const bool cancelled = cancel && cancel->load();
    return assemble(segments, path, total, cancelled);
}

ReadResult TraceReader::readBytes(std::string_view bytes, const std::string &displayPath)
{
    std::vector<DecodedSegment> segments(1);
    {
        SegmentScanner scanner(segments[0]);
        std::vector<char> buffer(bytes.begin(), bytes.end());
        buffer.resize(buffer.size() + kDecoderPadding, 0);
        scanner.scan(buffer.data(), bytes.size(), true);
    }
    return assemble(segments, displayPath, bytes.size(), false);
}

} // namespace TraceInspector
