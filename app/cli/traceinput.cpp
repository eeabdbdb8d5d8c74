// SPDX-License-Identifier: MIT
#include "app/cli/traceinput.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TraceInspector {

namespace {

std::string openFailure(const std::string &path, int err)
{
    return "open trace file " + path + ": " + std::strerror(err);
}

} // namespace

TraceInput readTraceInput(const std::string &path)
{
    TraceInput in;
    if (path == "-") {
        std::string text;
        char buf[1 << 16];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0)
            text.append(buf, n);
        if (std::ferror(stdin)) {
            in.openError = "read standard input: " + std::string(std::strerror(errno != 0 ? errno : EIO));
            return in;
        }
        in.result = TraceReader::readBytes(text, path);
        return in;
    }

    // Probe first so the OS reason can be reported; the reader only says that it failed.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        in.openError = openFailure(path, errno);
        return in;
    }
    struct stat st {};
    const bool isDir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    ::close(fd);
    if (isDir) {
        in.openError = openFailure(path, EISDIR);
        return in;
    }

    in.result = TraceReader::readFile(path);
    if (!in.result.trace) {
        in.openError = in.result.strictError ? in.result.strictError->message : "open trace file " + path;
    }
    return in;
}

} // namespace TraceInspector
