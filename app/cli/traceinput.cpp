// SPDX-License-Identifier: MIT
#include "app/cli/traceinput.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "app/cli/standardoutput.h"
#include "core/output/textescape.h"

namespace TraceInspector {

namespace {

constexpr std::uint64_t kWaitNoteAfterMs = 1000;

std::string nameOf(const std::string &path)
{
    return path == "-" ? std::string("standard input") : path;
}

} // namespace

TraceSource openTraceInput(const std::string &path)
{
    if (path == "-") {
        // A closed standard input was replaced by a placeholder: report it as closed.
        return TraceSource::fromDescriptor(standardDescriptorWasClosed(STDIN_FILENO) ? -1 : STDIN_FILENO, path);
    }
    return TraceSource::open(path);
}

std::string inputFailureText(const InputError &error, const std::string &path)
{
    const std::string shown = oneLine(path);
    switch (error.kind) {
    case InputError::Kind::None: return {};
    case InputError::Kind::OpenFailed:
        if (path == "-")
            return std::string("read standard input: ") + std::strerror(error.osError);
        if (error.osError == ELOOP)
            return "open trace file " + shown + ": " + std::strerror(ELOOP) + " (a symbolic link loop)";
        return "open trace file " + shown + ": " + std::strerror(error.osError);
    case InputError::Kind::IsDirectory: return "open trace file " + shown + ": " + std::strerror(EISDIR);
    case InputError::Kind::IsDevice:
        if (path == "-" && ::isatty(STDIN_FILENO))
            return "read standard input: it is a terminal; pipe a trace into it or name a FILE";
        return "open trace file " + shown
               + ": it is a device, not a file or a pipe (a device such as /dev/zero may never end); give a regular file, "
                 "a pipe or '-'";
    case InputError::Kind::ReadFailed:
        return "read trace file " + oneLine(nameOf(path)) + ": " + std::strerror(error.osError);
    case InputError::Kind::Changed:
        return "read trace file " + shown + ": the file changed while it was read (" + std::to_string(error.sizeAtOpen)
               + " bytes when opened, " + std::to_string(error.sizeAfter)
               + " bytes at the end); nothing is reported about a file that is still being written or was truncated - "
                 "check it again once it is complete";
    case InputError::Kind::LineTooLong:
        return "read trace file " + oneLine(nameOf(path)) + ": line " + std::to_string(error.line) + " is longer than "
               + std::to_string(error.limit)
               + " bytes, the limit for a pipe or other stream (a regular file has no such limit)";
    }
    return {};
}

std::string compressionHint(Compression c, const std::string &path)
{
    if (c == Compression::None)
        return {};
    const std::string shown = oneLine(path);
    return "note: " + shown + " is " + compressionName(c) + "-compressed, not JSON lines; decompress it first, e.g. "
           + decompressCommand(c) + " " + (path == "-" ? std::string("FILE") : shown) + " | candle-trace check -";
}

TraceInput readTraceInput(TraceSource &source)
{
    TraceInput in;
    const std::string path = source.path();
    bool noted = false;
    ReadOptions options;
    // Reads of 256 KiB, not 1 MiB: each reading thread's buffer is resident until the merge.
    // With the command line's single malloc arena (malloctuning.h) check --all of the 100 MB
    // trace peaked 1.4 MiB lower (39.5 against 40.9 MiB), and the 1 GB trace's check took no
    // more CPU time (1.70 and 1.66 s against 1.72 and 1.69 s, medians of 5, alternating). The
    // window keeps 1 MiB: there, with two arenas, 256 KiB reads raised its peak by ~1.1 MiB
    // and its time to fully drawn by ~20 ms (bench_guiopen, 16 alternating pairs).
    options.chunkBytes = std::size_t(256) << 10;
    options.waiting = [&](std::uint64_t waitedMs, std::uint64_t bytesSoFar) {
        if (noted || bytesSoFar > 0 || waitedMs < kWaitNoteAfterMs)
            return;
        noted = true;
        std::fprintf(stderr, "note: waiting for data from %s (%s); interrupt to stop\n", oneLine(nameOf(path)).c_str(),
                     source.isFifo() ? "a FIFO: its writer has not written yet" : "a pipe or stream");
    };
    if (source.isOpen()) {
        std::string head;
        if (source.peek(8, head, WaitControl{nullptr, options.waiting}))
            in.compression = detectCompression(head);
    }
    in.result = TraceReader::read(source, options);
    if (in.result.inputError)
        in.inputError = inputFailureText(in.result.inputError, path);
    else if (!in.result.trace)
        in.inputError = "read trace file " + oneLine(nameOf(path)) + ": nothing was read";
    return in;
}

} // namespace TraceInspector
