// SPDX-License-Identifier: MIT
#include "core/io/tracereader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/analysis/rustformat.h"
#include "core/io/documentassembler.h"
#include "core/io/linedecoder.h"

namespace TraceInspector {
namespace {

/// Rust's io::Error text, e.g. "No such file or directory (os error 2)".
std::string osErrorText(int err)
{
    return std::string(std::strerror(err)) + " (os error " + std::to_string(err) + ")";
}

/// Splits buffers into physical lines (§2) and feeds them to the decoder and assembler.
class LineScanner
{
public:
    LineScanner(Trace &trace, std::string path)
        : m_trace(trace), m_path(std::move(path)), m_decoder(makeLineDecoder(trace)), m_assembler(trace)
    {
    }

    /// Scans the complete lines of [data, data+length); with \a final the last partial
    /// line counts as a line too. Returns the bytes consumed. The buffer must have
    /// kDecoderPadding readable bytes past \a length.
    std::size_t scan(const char *data, std::size_t length, bool final)
    {
        std::size_t pos = 0;
        while (pos < length) {
            const void *nl = std::memchr(data + pos, '\n', length - pos);
            std::size_t end;
            if (nl) {
                end = static_cast<std::size_t>(static_cast<const char *>(nl) - data);
            } else if (final) {
                end = length;
            } else {
                break;
            }
            std::size_t lineEnd = end;
            if (nl && lineEnd > pos && data[lineEnd - 1] == '\r')
                --lineEnd;
            handleLine(data + pos, lineEnd - pos);
            pos = nl ? end + 1 : end;
        }
        return pos;
    }

    ReadResult finish(std::shared_ptr<Trace> trace, bool cancelled)
    {
        m_assembler.finish();
        trace->lineCount = m_line;
        ReadResult result;
        result.cancelled = cancelled;
        std::vector<Problem> &problems = m_assembler.problems();
        problems.insert(problems.end(), std::make_move_iterator(m_decodeProblems.begin()),
                        std::make_move_iterator(m_decodeProblems.end()));
        std::stable_sort(problems.begin(), problems.end(),
                         [](const Problem &a, const Problem &b) { return a.line < b.line; });
        if (m_firstDecodeError)
            result.strictError = std::move(m_firstDecodeError);
        else if (m_assembler.firstStreamError())
            result.strictError = m_assembler.firstStreamError();
        else if (m_assembler.firstPostWalkError())
            result.strictError = m_assembler.firstPostWalkError();
        result.problems = std::move(problems);
        result.trace = std::move(trace);
        return result;
    }

private:
    void handleLine(const char *begin, std::size_t length)
    {
        ++m_line;
        const std::string_view raw(begin, length);
        const std::string_view text = rustTrim(raw);
        if (text.empty()) {
            // A blank line must still be valid UTF-8 to be skipped, but whitespace always is.
            return;
        }
        const auto line = static_cast<std::uint32_t>(std::min<std::uint64_t>(m_line, UINT32_MAX));
        if (m_decoder->decode(text.data(), text.size(), m_event, m_failure)) {
            m_assembler.add(m_event, line);
            return;
        }
        m_assembler.skipUndecodable();
        Problem p;
        p.line = m_line;
        if (m_failure.column)
            p.column = static_cast<std::uint32_t>(text.data() - raw.data()) + m_failure.column;
        p.severity = Severity::Error;
        if (m_failure.invalidUtf8) {
            p.ruleId = "E-LINE-READ";
            p.message = "read trace JSONL line " + std::to_string(m_line) + " from " + m_path + ": " + m_failure.cause;
            p.column = 0;
        } else {
            p.ruleId = "E-LINE-PARSE";
            p.message = "parse trace JSONL line " + std::to_string(m_line) + " from " + m_path + ": " + m_failure.cause;
        }
        if (!m_firstDecodeError)
            m_firstDecodeError = p;
        m_decodeProblems.push_back(std::move(p));
    }

    Trace &m_trace;
    std::string m_path;
    std::unique_ptr<LineDecoder> m_decoder;
    DocumentAssembler m_assembler;
    DecodedEvent m_event;
    DecodeFailure m_failure;
    std::uint64_t m_line = 0;
    std::vector<Problem> m_decodeProblems;
    std::optional<Problem> m_firstDecodeError;
};

ReadResult openFailure(const std::string &path, int err)
{
    ReadResult r;
    Problem p;
    p.ruleId = "E-FILE-OPEN";
    p.message = "open trace file " + path + ": " + osErrorText(err);
    r.strictError = p;
    r.problems.push_back(std::move(p));
    return r;
}

} // namespace

ReadResult TraceReader::readFile(const std::string &path, const ReadOptions &options, const ProgressSink &progress,
                                 const std::atomic<bool> *cancel)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return openFailure(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        const int err = S_ISDIR(st.st_mode) ? EISDIR : errno;
        ::close(fd);
        return openFailure(path, err);
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    auto trace = std::make_shared<Trace>();
    trace->path = path;
    const auto total = static_cast<std::uint64_t>(st.st_size);
    trace->fileBytes = total;
    LineScanner scanner(*trace, path);

    const std::size_t chunk = std::max<std::size_t>(options.chunkBytes, 1 << 16);
    std::vector<char> buffer(chunk + kDecoderPadding);
    std::size_t filled = 0; // bytes of a partial line carried over
    std::uint64_t done = 0;
    bool cancelled = false;
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            cancelled = true;
            break;
        }
        if (buffer.size() - kDecoderPadding - filled < chunk / 2)
            buffer.resize(buffer.size() * 2); // a line longer than the chunk
        const ssize_t n = ::read(fd, buffer.data() + filled, buffer.size() - kDecoderPadding - filled);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            ::close(fd);
            ReadResult r = scanner.finish(trace, false);
            Problem p;
            p.ruleId = "E-LINE-READ";
            p.message = "read trace JSONL from " + path + ": " + osErrorText(err);
            r.strictError = p;
            r.problems.insert(r.problems.begin(), std::move(p));
            return r;
        }
        const bool eof = n == 0;
        filled += static_cast<std::size_t>(n);
        done += static_cast<std::uint64_t>(n);
        std::memset(buffer.data() + filled, 0, kDecoderPadding);
        const std::size_t used = scanner.scan(buffer.data(), filled, eof);
        std::memmove(buffer.data(), buffer.data() + used, filled - used);
        filled -= used;
        if (progress)
            progress(done, total);
        if (eof)
            break;
    }
    ::close(fd);
    return scanner.finish(trace, cancelled);
}

ReadResult TraceReader::readBytes(std::string_view bytes, const std::string &displayPath)
{
    auto trace = std::make_shared<Trace>();
    trace->path = displayPath;
    trace->fileBytes = bytes.size();
    LineScanner scanner(*trace, displayPath);
    std::vector<char> buffer(bytes.begin(), bytes.end());
    buffer.resize(buffer.size() + kDecoderPadding, 0);
    scanner.scan(buffer.data(), bytes.size(), true);
    return scanner.finish(trace, false);
}

} // namespace TraceInspector
