// SPDX-License-Identifier: MIT
#include "core/io/tracesource.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TraceInspector {
namespace {

constexpr int kPollIntervalMs = 100;

std::int64_t mtimeNs(const struct stat &st)
{
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

bool cancelled(const WaitControl &wait)
{
    return wait.cancel && wait.cancel->load(std::memory_order_relaxed);
}

} // namespace

TraceSource TraceSource::open(const std::string &path)
{
    TraceSource s;
    s.m_path = path;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, with no
    // way to cancel. O_NOCTTY: a terminal named as the trace must not become ours.
    s.m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (s.m_fd < 0) {
        s.m_error.kind = InputError::Kind::OpenFailed;
        s.m_error.osError = errno;
        return s;
    }
    s.m_ownsFd = true;
    s.classify();
    return s;
}

TraceSource TraceSource::fromDescriptor(int fd, const std::string &displayPath)
{
    TraceSource s;
    s.m_path = displayPath;
    s.m_fd = fd;
    s.classify();
    // A regular file redirected to standard input may have been read partly already;
    // positional reads would start over at 0, so read it from where it stands.
    if (s.m_kind == Kind::RegularFile && !s.m_error && ::lseek(fd, 0, SEEK_CUR) != 0)
        s.m_kind = Kind::Stream;
    return s;
}

void TraceSource::classify()
{
    struct stat st {};
    if (::fstat(m_fd, &st) != 0) {
        m_error.kind = InputError::Kind::OpenFailed;
        m_error.osError = errno;
        return;
    }
    m_identity = FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
    if (S_ISDIR(st.st_mode)) {
        m_error.kind = InputError::Kind::IsDirectory;
        return;
    }
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
        m_error.kind = InputError::Kind::IsDevice;
        return;
    }
    m_fifo = S_ISFIFO(st.st_mode);
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        m_kind = Kind::RegularFile;
        m_size = static_cast<std::uint64_t>(st.st_size);
        m_mtimeNs = mtimeNs(st);
        if (m_ownsFd) {
            const int flags = ::fcntl(m_fd, F_GETFL);
            if (flags >= 0)
                ::fcntl(m_fd, F_SETFL, flags & ~O_NONBLOCK);
        }
    } else {
        // Pipes, FIFOs, sockets and size-less files (procfs) are read to their end once.
        m_kind = Kind::Stream;
    }
}

TraceSource::TraceSource(TraceSource &&other) noexcept
{
    *this = std::move(other);
}

TraceSource &TraceSource::operator=(TraceSource &&other) noexcept
{
    if (this != &other) {
        if (m_ownsFd && m_fd >= 0)
            ::close(m_fd);
        m_path = std::move(other.m_path);
        m_error = other.m_error;
        m_fd = std::exchange(other.m_fd, -1);
        m_ownsFd = std::exchange(other.m_ownsFd, false);
        m_fifo = other.m_fifo;
        m_peekedAll = other.m_peekedAll;
        m_kind = other.m_kind;
        m_size = other.m_size;
        m_mtimeNs = other.m_mtimeNs;
        m_identity = other.m_identity;
        m_consumed = other.m_consumed;
        m_fromFd = other.m_fromFd;
        m_pending = std::move(other.m_pending);
        m_pendingPos = other.m_pendingPos;
    }
    return *this;
}

TraceSource::~TraceSource()
{
    if (m_ownsFd && m_fd >= 0)
        ::close(m_fd);
}

bool TraceSource::unchangedSinceOpen(std::uint64_t *sizeNow) const
{
    struct stat st {};
    if (::fstat(m_fd, &st) != 0)
        return false;
    *sizeNow = static_cast<std::uint64_t>(st.st_size);
    return *sizeNow == m_size && mtimeNs(st) == m_mtimeNs;
}

std::int64_t TraceSource::readFromDescriptor(char *buffer, std::size_t length, const WaitControl &wait, bool mayWait)
{
    std::uint64_t waitedMs = 0;
    for (;;) {
        if (cancelled(wait))
            return -1;
        // Wait in poll(), never in read(): poll() can time out and look at the cancel flag.
        // A FIFO opened with O_NONBLOCK reports nothing here until a writer has opened it
        // and written or closed it, so "no writer yet" is a wait, not an empty input.
        pollfd p{m_fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, mayWait ? kPollIntervalMs : 0);
        if (ready == 0 && !mayWait) {
            errno = EAGAIN;
            return -2;
        }
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            m_error.kind = InputError::Kind::ReadFailed;
            m_error.osError = errno;
            return -1;
        }
        if (ready == 0) {
            waitedMs += kPollIntervalMs;
            if (wait.waiting)
                wait.waiting(waitedMs, m_fromFd);
            continue;
        }
        const ssize_t n = ::read(m_fd, buffer, length);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            m_error.kind = InputError::Kind::ReadFailed;
            m_error.osError = errno;
            return -1;
        }
        m_fromFd += static_cast<std::uint64_t>(n);
        return n;
    }
}

bool TraceSource::peek(std::size_t maxBytes, std::string &head, const WaitControl &wait)
{
    head.clear();
    if (!isOpen())
        return false;
    if (m_kind == Kind::RegularFile) {
        head.resize(static_cast<std::size_t>(std::min<std::uint64_t>(maxBytes, m_size)));
        std::size_t got = 0;
        while (got < head.size()) {
            const ssize_t n = ::pread(m_fd, head.data() + got, head.size() - got, static_cast<off_t>(got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                m_error.kind = InputError::Kind::ReadFailed;
                m_error.osError = errno;
                return false;
            }
            if (n == 0)
                break;
            got += static_cast<std::size_t>(n);
        }
        head.resize(got);
        m_peekedAll = got >= m_size;
        return true;
    }
    // A stream: read until maxBytes or its end and keep the bytes for readSome().
    const std::size_t have = m_pending.size() - m_pendingPos;
    if (m_pendingPos > 0) {
        m_pending.erase(0, m_pendingPos);
        m_pendingPos = 0;
    }
    if (have < maxBytes && !m_peekedAll) {
        m_pending.resize(maxBytes);
        std::size_t got = have;
        while (got < maxBytes) {
            // Once a whole line came, take what is there now: a producer that pauses must
            // not hold the first look at its output hostage.
            const bool haveLine = std::memchr(m_pending.data(), '\n', got) != nullptr;
            const std::int64_t n = readFromDescriptor(m_pending.data() + got, maxBytes - got, wait, !haveLine);
            if (n == -2)
                break;
            if (n < 0) {
                m_pending.resize(got);
                return false;
            }
            if (n == 0) {
                m_peekedAll = true;
                break;
            }
            got += static_cast<std::size_t>(n);
        }
        m_pending.resize(got);
    }
    head.assign(m_pending, 0, std::min(maxBytes, m_pending.size()));
    return true;
}

std::int64_t TraceSource::readSome(char *buffer, std::size_t length, const WaitControl &wait)
{
    if (!isOpen())
        return -1;
    if (m_pendingPos < m_pending.size()) {
        const std::size_t n = std::min(length, m_pending.size() - m_pendingPos);
        std::memcpy(buffer, m_pending.data() + m_pendingPos, n);
        m_pendingPos += n;
        if (m_pendingPos == m_pending.size()) {
            std::string().swap(m_pending);
            m_pendingPos = 0;
        }
        m_consumed += n;
        return static_cast<std::int64_t>(n);
    }
    if (m_peekedAll && m_kind == Kind::Stream)
        return 0; // peek() already met the end
    const std::int64_t n = readFromDescriptor(buffer, length, wait, true);
    if (n > 0)
        m_consumed += static_cast<std::uint64_t>(n);
    return n;
}

} // namespace TraceInspector
