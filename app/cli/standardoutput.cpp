// SPDX-License-Identifier: MIT
#include "app/cli/standardoutput.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace TraceInspector {

namespace {

int g_error = 0;
bool g_closed[3] = {false, false, false};

} // namespace

bool StandardOutput::write(std::string_view text)
{
    while (g_error == 0 && !text.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n < 0) {
            if (errno != EINTR)
                g_error = errno;
            continue;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return g_error == 0;
}

bool StandardOutput::ok()
{
    return g_error == 0;
}

std::string StandardOutput::errorMessage()
{
    return g_error == 0 ? std::string() : "write standard output: " + std::string(std::strerror(g_error));
}

void reserveStandardDescriptors()
{
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        g_closed[fd] = true;
        // Input opened write-only and outputs opened read-only: using them fails (EBADF).
        const int got = ::open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
        if (got >= 0 && got != fd) {
            ::dup2(got, fd);
            ::close(got);
        }
    }
}

bool standardDescriptorWasClosed(int fd)
{
    return fd >= 0 && fd <= 2 && g_closed[fd];
}

} // namespace TraceInspector
