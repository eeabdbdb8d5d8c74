// SPDX-License-Identifier: MIT
#include "core/io/tracereader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

#include "core/io/documentassembler.h"
#include "core/io/readpieces.h"
#include "core/io/readrange.h"
#include "core/io/segmentmerger.h"
#include "core/io/segmentscanner.h"
#include "core/io/usablecores.h"
#include "core/io/utf8validation.h"
#include "core/model/hugepages.h"

namespace TraceInspector {
namespace {

constexpr std::size_t kMinChunkBytes = 64;
constexpr std::size_t kLineEndWindowBytes = std::size_t(256) << 10;
// Below this much scanned input the record mix says too little to size the arrays by: the
// start of a file is denser in parameters than the rest. 4 MiB (a 4 MiB chunk's first
// scan); sized by the first 1 MiB, the arrays of a 1 GB trace reserved 27 MB more.
constexpr std::uint64_t kMinReserveSample = std::uint64_t(4) << 20;

ReadResult inputFailure(const InputError &error, const std::string &path)
{
    ReadResult r;
    r.inputError = error;
    Problem p;
    const bool opening = error.kind == InputError::Kind::OpenFailed || error.kind == InputError::Kind::IsDirectory
                         || error.kind == InputError::Kind::IsDevice;
    p.ruleId = opening ? "E-FILE-OPEN" : "E-LINE-READ";
    p.line = error.kind == InputError::Kind::LineTooLong ? error.line : 0;
    p.message = inputErrorMessage(error, path);
    r.strictError = p;
    r.problems.push_back(std::move(p));
    return r;
}

/// A read buffer that is not zeroed when allocated: every byte the scanner looks at was
/// read into it or is padding set explicitly, and zeroing 4 MB per segment costs more than
/// reading a small file. Its storage comes from malloc(), so that growing it for a long line
/// is a realloc(): glibc moves the pages of a large (mapped) block with mremap() instead of
/// copying them, and the old and the new block are never alive together.
class ReadBuffer
{
public:
    explicit ReadBuffer(std::size_t size) { m_block = {allocate(size), size, 0}; }
    char *data() { return m_block.data.get(); }
    std::size_t size() const { return m_block.size; }
    /// Resizes the buffer to \a size bytes, keeping as many of its first bytes as fit.
    void resize(std::size_t size)
    {
        auto *moved = static_cast<char *>(std::realloc(m_block.data.get(), size));
        if (!moved)
            throw std::bad_alloc();
        (void)m_block.data.release();
        m_block.data.reset(moved);
        m_block.size = size;
    }
    /// Replaces the buffer by one of \a size bytes holding the \a keep bytes at \a from.
    void replace(const char *from, std::size_t keep, std::size_t size)
    {
        StringTable::Bytes other = allocate(size);
        std::memcpy(other.get(), from, keep);
        m_block = {std::move(other), size, 0};
    }
    /// The storage, for StringTable::offerBlock(), with \a used bytes holding data; empty
    /// once the table took it.
    StringTable::AdoptableBlock &block(std::size_t used)
    {
        m_block.used = used;
        return m_block;
    }

private:
    /// A block of whole huge pages for a buffer of 4 MB or more: in 4 KiB pages, the first
    /// read into each segment's buffer took a thousand page faults.
    static StringTable::Bytes allocate(std::size_t size)
    {
        const std::size_t bytes = hugeBlockBytes(size);
        StringTable::Bytes block = StringTable::allocateBytes(bytes);
        adviseHugePages(block.get(), bytes);
        // The first read writes it all: its pages faulted in by one call, not one by one.
        populateForWrite(block.get(), 0, bytes);
        return block;
    }

    StringTable::AdoptableBlock m_block;
};

/// Adds \a added freshly read bytes to the \a filled pending ones, pads them and scans the
/// complete lines. The pending bytes hold no LF (the last scan took every complete line), so
/// without one in the new bytes there is nothing to scan yet: rescanning a 300 MB line
/// arriving from a pipe 64 KB at a time would take quadratic time.
std::size_t scanNew(SegmentScanner &scanner, ReadBuffer &buffer, std::size_t &filled, std::size_t added, bool eof)
{
    const bool newLine = std::memchr(buffer.data() + filled, '\n', added) != nullptr;
    filled += added;
    std::memset(buffer.data() + filled, 0, kDecoderPadding);
    return newLine || eof ? scanner.scan(buffer.data(), filled, eof) : 0;
}

/// scanNew() for a buffer that may have grown for a long line, then drops the bytes scanned.
/// A buffer grown beyond twice its base size is offered to the string table: when the long
/// line's bulk is one string (a 200 MB name), the table takes the buffer over instead of
/// copying the string, and the bytes not scanned yet move to a new buffer of the base size.
void scanAndShift(SegmentScanner &scanner, StringTable &strings, ReadBuffer &buffer, std::size_t baseSize,
                  std::size_t &filled, std::size_t added, bool eof)
{
    const bool offer = buffer.size() > 2 * baseSize;
    if (offer)
        strings.offerBlock(&buffer.block(filled + added + kDecoderPadding));
    const char *const scanned = buffer.data();
    const std::size_t used = scanNew(scanner, buffer, filled, added, eof);
    if (offer)
        strings.offerBlock(nullptr);
    if (!buffer.data()) // taken: the rest of the bytes are still readable in the table's block
        buffer.replace(scanned + used, filled - used, std::max(baseSize, filled - used + kDecoderPadding));
    else
        std::memmove(buffer.data(), buffer.data() + used, filled - used);
    filled -= used;
}

/// Checks that bytes arriving piece by piece are valid UTF-8 as a whole, holding back the
/// start of a character cut by a piece's end.
class Utf8Stream
{
public:
    void feed(const char *p, std::size_t n)
    {
        if (!m_valid)
            return;
        if (m_carried > 0) {
            const std::size_t take = std::min(n, utf8SequenceWidth(m_carry[0]) - m_carried);
            std::memcpy(m_carry + m_carried, p, take);
            m_carried += take;
            p += take;
            n -= take;
            if (m_carried < utf8SequenceWidth(m_carry[0]))
                return;
            m_valid = isUtf8(m_carry, m_carried);
            m_carried = 0;
            if (!m_valid)
                return;
        }
        const std::size_t complete = wholeCharactersPrefix(p, n);
        m_valid = isUtf8(p, complete);
        m_carried = n - complete;
        std::memcpy(m_carry, p + complete, m_carried);
    }
    /// True when everything fed was valid UTF-8 and no character was left unfinished.
    bool valid() const { return m_valid && m_carried == 0; }

private:
    char m_carry[4] = {};
    std::size_t m_carried = 0;
    bool m_valid = true;
};

struct LineEnd {
    std::uint64_t offset = 0; // just past the LF, or the end of the range
    bool complete = false;    // every byte up to it was read
    bool validUtf8 = false;   // the line (without its LF) is valid UTF-8, counting \a head
};

/// Finds the end of the line of which \a head (\a headBytes) was read and that goes on at
/// \a from, looking through \a window, and checks the line's UTF-8 on the way: a line too
/// long to hold may be decided without reading it into memory.
LineEnd findLineEnd(int fd, std::uint64_t from, std::uint64_t end, ReadBuffer &window, const char *head,
                    std::size_t headBytes)
{
    Utf8Stream utf8;
    utf8.feed(head, headBytes);
    std::uint64_t pos = from;
    while (pos < end) {
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(window.size(), end - pos));
        const ssize_t n = ::pread(fd, window.data(), want, static_cast<off_t>(pos));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return {end, false, false}; // the real read will meet the error or the early end again
        const auto got = static_cast<std::size_t>(n);
        if (const void *nl = std::memchr(window.data(), '\n', got)) {
            const auto before = static_cast<std::size_t>(static_cast<const char *>(nl) - window.data());
            utf8.feed(window.data(), before);
            return {pos + before + 1, true, utf8.valid()};
        }
        utf8.feed(window.data(), got);
        pos += got;
    }
    return {end, true, utf8.valid()};
}

/// Reads \a range of a regular file in chunks and scans it, claiming each chunk before it
/// reads it: another thread may take over the range's unread back part meanwhile.
RangeOutcome scanRange(int fd, ReadRange &range, std::uint64_t reserveBytes, std::size_t chunk, DecodedSegment &segment,
                       std::atomic<std::uint64_t> &done, const std::atomic<bool> *cancel,
                       const std::function<void()> &onChunk)
{
    SegmentScanner scanner(segment);
    const std::uint64_t begin = range.begin();
    // A small file needs no 4 MB buffer.
    chunk = static_cast<std::size_t>(
        std::min<std::uint64_t>(chunk, std::max<std::uint64_t>(range.end() - begin, kMinChunkBytes)));
    const std::size_t baseSize = chunk + kDecoderPadding;
    ReadBuffer buffer(baseSize);
    std::unique_ptr<ReadBuffer> window; // for findLineEnd, made on the first long line
    std::size_t filled = 0;
    std::uint64_t offset = begin;
    bool reserved = false;
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        if (buffer.size() - kDecoderPadding - filled < chunk / 2) {
            // The pending bytes start a line longer than half a chunk. Make room for all of
            // it at once: its length is known, and one resize moves the bytes read so far
            // once.
            // A small window: it stays allocated beside the line while the segment is read.
            if (!window)
                window = std::make_unique<ReadBuffer>(std::min<std::size_t>(chunk, kLineEndWindowBytes));
            // The range never ends inside a line, so its end now is as good as its end later.
            const LineEnd lineEnd = findLineEnd(fd, offset, range.end(), *window, buffer.data(), filled);
            if (lineEnd.complete && scanner.fileLongLine(buffer.data(), filled, lineEnd.validUtf8)) {
                // Decided by its first bytes (a million `[`): the rest is never held.
                done.fetch_add(lineEnd.offset - offset, std::memory_order_relaxed);
                offset = lineEnd.offset;
                filled = 0;
                continue;
            }
            buffer.resize(filled + static_cast<std::size_t>(lineEnd.offset - offset) + chunk + kDecoderPadding);
        } else if (buffer.size() > 2 * baseSize && filled <= chunk / 2) {
            buffer.resize(baseSize); // the long line is done
        }
        const auto want = static_cast<std::size_t>(range.claim(offset, buffer.size() - kDecoderPadding - filled));
        ssize_t n = 0;
        if (want > 0) {
            n = ::pread(fd, buffer.data() + filled, want, static_cast<off_t>(offset));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return {errno, false};
            }
        }
        const bool eof = n == 0;
        scanAndShift(scanner, segment.trace->strings, buffer, baseSize, filled, static_cast<std::size_t>(n), eof);
        offset += static_cast<std::uint64_t>(n);
        // The sample is what was scanned, not what was read: the start of a 200 MB line
        // pending in the buffer says nothing about the record mix, and sizing the arrays
        // and the string table by the few lines before it reserved megabytes for nothing.
        if (!reserved && (offset - begin - filled >= kMinReserveSample || eof)) {
            scanner.reserveFor(reserveBytes, range.end() - begin, offset - begin - filled);
            reserved = true;
        } else if (reserved && !eof) {
            scanner.adviseTails(offset - begin - filled, range.end() - offset + filled);
        }
        done.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
        if (onChunk)
            onChunk();
        if (eof) {
            scanner.releaseTails();
            return {0, want > 0};
        }
    }
}

/// Reads a stream front to back and scans it. Returns false with \a error set when the
/// input failed; a cancelled read returns true.
bool scanStream(TraceSource &source, const ReadOptions &options, std::size_t chunk, DecodedSegment &segment,
                std::atomic<std::uint64_t> &done, const std::atomic<bool> *cancel, const std::function<void()> &onChunk,
                InputError &error)
{
    SegmentScanner scanner(segment);
    const std::size_t baseSize = chunk + kDecoderPadding;
    const std::uint64_t maxLine = std::max<std::uint64_t>(options.maxStreamLineBytes, chunk);
    ReadBuffer buffer(baseSize);
    std::size_t filled = 0;
    const WaitControl wait{cancel, options.waiting};
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return true;
        if (buffer.size() - kDecoderPadding - filled < chunk / 2) {
            // A long line: nothing tells how long it will get, so double (up to the limit).
            // The realloc() moves the bytes held without a second copy of them, and the
            // room not read into yet takes no memory.
            const std::uint64_t cap = maxLine + chunk + kDecoderPadding;
            buffer.resize(static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size() * 2, cap)));
        } else if (buffer.size() > 2 * baseSize && filled <= chunk / 2) {
            buffer.resize(baseSize);
        }
        const std::int64_t n = source.readSome(buffer.data() + filled, buffer.size() - kDecoderPadding - filled, wait);
        if (n < 0) {
            if (!source.error())
                return true; // cancelled while waiting
            error = source.error();
            return false;
        }
        const bool eof = n == 0;
        scanAndShift(scanner, segment.trace->strings, buffer, baseSize, filled, static_cast<std::size_t>(n), eof);
        if (filled > maxLine) {
            error.kind = InputError::Kind::LineTooLong;
            error.line = segment.lines + 1;
            error.limit = maxLine;
            return false;
        }
        done.fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
        if (onChunk)
            onChunk();
        if (eof)
            return true;
    }
}

/// Split points just after a newline, so every segment holds whole lines.
std::vector<std::uint64_t> splitPoints(int fd, std::uint64_t size, unsigned parts)
{
    std::vector<std::uint64_t> points{0};
    for (unsigned k = 1; k < parts; ++k) {
        const std::optional<std::uint64_t> at = afterNextNewline(fd, std::max(points.back(), size * k / parts), size);
        if (!at || *at >= size)
            break;
        points.push_back(*at);
    }
    points.push_back(size);
    return points;
}

void prefixDecodeMessage(Problem &p, const std::string &path)
{
    const char *verb = p.ruleId == "E-LINE-READ" ? "read" : "parse";
    // In place: a long message has room for this in front (StructReader::unknownVariant()).
    p.message.insert(0, std::string(verb) + " trace JSONL line " + std::to_string(p.line) + " from " + path + ": ");
}

/// Merges the segments, runs the stream rules and composes the result.
ReadResult assemble(std::vector<DecodedSegment> &segments, const std::string &path, std::uint64_t fileBytes,
                    bool cancelled)
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
    std::optional<Problem> firstDecode = std::move(all.firstDecodeProblem);
    if (firstDecode)
        prefixDecodeMessage(*firstDecode, path);
    for (Problem &p : all.decodeProblems)
        prefixDecodeMessage(p, path);
    std::vector<Problem> &problems = assembler.problems();
    problems.insert(problems.end(), std::make_move_iterator(all.decodeProblems.begin()),
                    std::make_move_iterator(all.decodeProblems.end()));
    std::stable_sort(problems.begin(), problems.end(),
                     [](const Problem &a, const Problem &b) { return a.line < b.line; });
    result.omittedProblems = all.decodeLimiter.omitted();
    mergeOmitted(result.omittedProblems, assembler.omittedProblems());
    // §1: all lines are decoded before any stream rule, so a decode failure always wins.
    if (firstDecode)
        result.strictError = std::move(firstDecode);
    else if (std::optional<Problem> stream = assembler.takeFirstStreamError())
        result.strictError = std::move(stream);
    else
        result.strictError = assembler.takeFirstPostWalkError();
    result.problems = std::move(problems);
    result.trace = std::move(trace);
    return result;
}

ReadResult readStream(TraceSource &source, const ReadOptions &options, const ProgressSink &progress,
                      const std::atomic<bool> *cancel, std::size_t chunk)
{
    const bool regular = source.kind() == TraceSource::Kind::RegularFile;
    const std::uint64_t total = regular ? source.sizeAtOpen() : 0;
    std::vector<DecodedSegment> segments(1);
    std::atomic<std::uint64_t> done{0};
    std::function<void()> report;
    if (progress)
        report = [&] { progress(done.load(std::memory_order_relaxed), total); };
    InputError error;
    if (!scanStream(source, options, chunk, segments[0], done, cancel, report, error))
        return inputFailure(error, source.path());
    const bool cancelled = cancel && cancel->load();
    if (regular && !cancelled) {
        std::uint64_t sizeNow = 0;
        if (!source.unchangedSinceOpen(&sizeNow) || done.load() != total) {
            InputError changed;
            changed.kind = InputError::Kind::Changed;
            changed.sizeAtOpen = total;
            changed.sizeAfter = sizeNow;
            return inputFailure(changed, source.path());
        }
    }
    if (progress)
        progress(done.load(), regular ? total : done.load());
    return assemble(segments, source.path(), done.load(), cancelled);
}

} // namespace

unsigned ReadOptions::segmentsFor(std::uint64_t bytes) const
{
    if (bytes < parallelThresholdBytes)
        return 1;
    const std::uint64_t bySize = minSegmentBytes ? std::max<std::uint64_t>(2, bytes / minSegmentBytes) : UINT64_MAX;
    const unsigned machine = cores ? cores : usableCores();
    return static_cast<unsigned>(std::min<std::uint64_t>({bySize, std::max(1u, machine), std::max(1u, maxThreads)}));
}

std::uint64_t ReadResult::problemCount() const
{
    std::uint64_t n = problems.size();
    for (const OmittedProblems &o : omittedProblems)
        n += o.count;
    return n;
}

ReadResult TraceReader::read(TraceSource &source, const ReadOptions &options, const ProgressSink &progress,
                             const std::atomic<bool> *cancel)
{
    if (!source.isOpen())
        return inputFailure(source.error(), source.path());
    const std::size_t chunk = std::max(options.chunkBytes, kMinChunkBytes);
    if (source.kind() == TraceSource::Kind::Stream || options.readAsStream)
        return readStream(source, options, progress, cancel, chunk);

    const int fd = source.descriptor();
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    const std::uint64_t total = source.sizeAtOpen();
    const std::vector<std::uint64_t> points = splitPoints(fd, total, options.segmentsFor(total));
    ReadPieces pieces(fd, total >= options.takeOverFromFileBytes ? options.minTakeOverBytes : UINT64_MAX, cancel);
    for (std::size_t k = 0; k + 1 < points.size(); ++k)
        pieces.add(ReadRange(points[k], points[k + 1]));
    // Piece 0's segment receives the others when they are merged, so it reserves for the
    // whole file.
    pieces.at(0)->reserveBytes = total;
    std::atomic<std::uint64_t> done{0};
    // Each thread reads its piece, then takes over the back part of the piece with the most
    // left to read, while that is worth it.
    auto readPieces = [&](ReadPiece *piece, const std::function<void()> &onChunk) {
        for (; piece; piece = pieces.finishAndTakeOver(piece)) {
            piece->outcome =
                scanRange(fd, piece->range, piece->reserveBytes, chunk, piece->segment, done, cancel, onChunk);
        }
    };

    // Piece 0 is read on the calling thread, which also reports progress for all.
    std::vector<std::thread> workers;
    for (std::size_t k = 1; k + 1 < points.size(); ++k)
        workers.emplace_back([&, k] { readPieces(pieces.at(k), {}); });
    std::function<void()> report;
    if (progress)
        report = [&] { progress(done.load(std::memory_order_relaxed), total); };
    readPieces(pieces.at(0), report);
    for (std::thread &w : workers)
        w.join();
    std::vector<RangeOutcome> outcomes;
    std::vector<DecodedSegment> segments = pieces.takeSegmentsInFileOrder(outcomes);
    for (const RangeOutcome &o : outcomes) {
        if (o.osError) {
            InputError e;
            e.kind = InputError::Kind::ReadFailed;
            e.osError = o.osError;
            return inputFailure(e, source.path());
        }
    }
    const bool cancelled = cancel && cancel->load();
    if (!cancelled) {
        // A file that shrank mid-read ends early inside a segment; one that grew or was
        // rewritten shows in its size or modification time. Either way the segments no
        // longer describe one file, and their problems would be invented.
        const bool endedEarly =
            std::any_of(outcomes.begin(), outcomes.end(), [](const RangeOutcome &o) { return o.endedEarly; });
        std::uint64_t sizeNow = 0;
        const bool unchanged = source.unchangedSinceOpen(&sizeNow);
        // A pseudo-file (sysfs) may promise more than it has while staying unchanged; read
        // whole by one segment, what it gave is all there is.
        if (!unchanged || (endedEarly && segments.size() > 1)) {
            InputError changed;
            changed.kind = InputError::Kind::Changed;
            changed.sizeAtOpen = total;
            changed.sizeAfter = sizeNow;
            return inputFailure(changed, source.path());
        }
    }
    if (progress)
        progress(total, total);
    return assemble(segments, source.path(), done.load(), cancelled);
}

ReadResult TraceReader::readFile(const std::string &path, const ReadOptions &options, const ProgressSink &progress,
                                 const std::atomic<bool> *cancel)
{
    TraceSource source = TraceSource::open(path);
    return read(source, options, progress, cancel);
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
