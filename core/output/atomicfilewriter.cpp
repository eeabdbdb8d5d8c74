// SPDX-License-Identifier: MIT
#include "core/output/atomicfilewriter.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TraceInspector {

namespace {

// Temporary files a signal must remove. Fixed storage, because the handler may only use
// async-signal-safe calls; a few slots, because a GUI may export while another export ends.
constexpr int kSlots = 8;
char g_tempPaths[kSlots][PATH_MAX + 1];
std::atomic<bool> g_tempUsed[kSlots];

int claimSlot(const std::string &path)
{
    if (path.size() > PATH_MAX)
        return -1;
    for (int i = 0; i < kSlots; ++i) {
        if (g_tempUsed[i].load())
            continue;
        std::memcpy(g_tempPaths[i], path.c_str(), path.size() + 1);
        bool expected = false;
        if (g_tempUsed[i].compare_exchange_strong(expected, true))
            return i;
    }
    return -1;
}

void releaseSlot(int slot)
{
    if (slot >= 0)
        g_tempUsed[slot].store(false);
}

extern "C" void removeTemporaryFilesAndDie(int sig)
{
    for (int i = 0; i < kSlots; ++i) {
        if (g_tempUsed[i].load())
            ::unlink(g_tempPaths[i]);
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

std::string directoryOf(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

/// Creates a new temporary file in \a dir with \a mode (the kernel applies the umask).
int createTemporary(const std::string &dir, mode_t mode, std::string *path)
{
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device entropy;
    std::mt19937 rng(entropy());
    const std::string prefix = (dir == "/" ? std::string() : dir) + "/.ct.tmp-";
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string candidate = prefix;
        for (int i = 0; i < 6; ++i)
            candidate += kAlphabet[rng() % (sizeof kAlphabet - 1)];
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0) {
            *path = std::move(candidate);
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

} // namespace

std::string outputErrorMessage(const OutputError &error)
{
    const std::string reason = error.osError ? std::strerror(error.osError) : std::string();
    switch (error.kind) {
    case OutputError::Kind::None: return {};
    case OutputError::Kind::IsDirectory: return "write " + error.path + ": " + std::strerror(EISDIR);
    case OutputError::Kind::DanglingSymlink:
        return "write " + error.path + ": it is a symbolic link to a file that does not exist (give the path itself)";
    case OutputError::Kind::ReadOnly:
        return "write " + error.path + ": the file is read-only (use --force to replace it anyway)";
    case OutputError::Kind::OtherOwner:
        return "write " + error.path
               + ": the file belongs to another user or group, and a replacement would not (use --force to replace it anyway)";
    case OutputError::Kind::Inspect: return "write " + error.path + ": " + reason;
    case OutputError::Kind::CreateTemporary: return "create a temporary file in " + error.path + ": " + reason;
    case OutputError::Kind::Open:
        if (error.osError == ENXIO)
            return "open " + error.path + ": no process is reading from this FIFO (start the reader first)";
        return "open " + error.path + ": " + reason;
    case OutputError::Kind::Write: return "write " + error.path + ": " + reason;
    case OutputError::Kind::Rename: return "replace " + error.path + ": " + reason;
    }
    return {};
}

AtomicFileWriter::AtomicFileWriter(std::string target, bool force)
    : m_target(std::move(target))
    , m_force(force)
{
}

AtomicFileWriter::~AtomicFileWriter()
{
    discard();
}

void AtomicFileWriter::installSignalCleanup()
{
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        // A signal ignored by whoever started us (SIGINT for a background job of a
        // script) stays ignored: it cannot end the process, so it leaves nothing behind.
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        std::signal(sig, removeTemporaryFilesAndDie);
    }
}

bool AtomicFileWriter::fail(OutputError::Kind kind, int osError, const std::string &path)
{
    m_error.kind = kind;
    m_error.osError = osError;
    m_error.path = path;
    discard();
    return false;
}

OutputError AtomicFileWriter::inspectTarget(const std::string &target, bool force, TargetInfo *info)
{
    OutputError e;
    e.path = target;
    info->resolved = target;
    if (target.empty() || target.back() == '/') {
        e.kind = OutputError::Kind::IsDirectory;
        return e;
    }
    struct stat link {};
    const bool exists = ::lstat(target.c_str(), &link) == 0;
    if (!exists && errno != ENOENT) {
        e.kind = OutputError::Kind::Inspect;
        e.osError = errno;
        return e;
    }
    if (exists && S_ISLNK(link.st_mode)) {
        // Write through the link: replace what it points to, keep the link.
        char resolved[PATH_MAX + 1];
        if (!::realpath(target.c_str(), resolved)) {
            e.kind = errno == ENOENT ? OutputError::Kind::DanglingSymlink : OutputError::Kind::Inspect;
            e.osError = errno == ENOENT ? 0 : errno;
            return e;
        }
        info->resolved = resolved;
    }
    struct stat st {};
    info->exists = exists && ::stat(info->resolved.c_str(), &st) == 0;
    if (!info->exists)
        return e;
    info->mode = st.st_mode;
    info->uid = st.st_uid;
    info->gid = st.st_gid;
    if (S_ISDIR(st.st_mode)) {
        e.kind = OutputError::Kind::IsDirectory;
        return e;
    }
    // A device or a FIFO cannot be replaced by a rename, and must not be: it is written.
    info->direct = !S_ISREG(st.st_mode);
    if (info->direct || force)
        return e;
    const bool noWriteBit = (st.st_mode & 0222) == 0;
    if (noWriteBit || ::faccessat(AT_FDCWD, info->resolved.c_str(), W_OK, AT_EACCESS) != 0) {
        e.kind = OutputError::Kind::ReadOnly;
        return e;
    }
    // Only root can give a file away; anyone can keep a group they belong to, which the
    // replacement attempts (a failure there is caught when it is created).
    if (st.st_uid != ::geteuid() && ::geteuid() != 0)
        e.kind = OutputError::Kind::OtherOwner;
    return e;
}

OutputError AtomicFileWriter::check(const std::string &target, bool force)
{
    TargetInfo info;
    return inspectTarget(target, force, &info);
}

bool AtomicFileWriter::open()
{
    TargetInfo info;
    if (OutputError e = inspectTarget(m_target, m_force, &info)) {
        m_error = std::move(e);
        return false;
    }
    m_resolved = info.resolved;
    if (info.direct) {
        // O_NONBLOCK keeps open() from waiting for a FIFO's reader without end.
        m_fd = ::open(m_resolved.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (m_fd < 0)
            return fail(OutputError::Kind::Open, errno, m_target);
        const int flags = ::fcntl(m_fd, F_GETFL);
        if (flags >= 0)
            ::fcntl(m_fd, F_SETFL, flags & ~O_NONBLOCK);
        m_direct = true;
        return true;
    }

    const std::string dir = directoryOf(m_resolved);
    // A new file: 0666 minus the umask, applied by the kernel. A replacement starts private
    // and gets the old file's bits below, before any data is written.
    // The cleanup signals wait until the new file is registered: one arriving between its
    // creation and its registration would leave it behind (seen under ASan, where the
    // window is wide enough for a test to hit it).
    sigset_t cleanupSignals;
    sigset_t previous;
    sigemptyset(&cleanupSignals);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaddset(&cleanupSignals, sig);
    pthread_sigmask(SIG_BLOCK, &cleanupSignals, &previous);
    m_fd = createTemporary(dir, info.exists ? 0600 : 0666, &m_temp);
    const int createError = errno;
    if (m_fd >= 0)
        m_slot = claimSlot(m_temp);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (m_fd < 0)
        return fail(OutputError::Kind::CreateTemporary, createError, dir);
    if (info.exists) {
        if ((info.uid != ::geteuid() || info.gid != ::getegid()) && ::fchown(m_fd, info.uid, info.gid) != 0 && !m_force)
            return fail(OutputError::Kind::OtherOwner, 0, m_target);
        ::fchmod(m_fd, info.mode & 07777);
    }
    return true;
}

bool AtomicFileWriter::write(std::string_view data)
{
    if (m_error)
        return false;
    if (m_fd < 0)
        return fail(OutputError::Kind::Write, EBADF, m_target);
    while (!data.empty()) {
        const ssize_t n = ::write(m_fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(OutputError::Kind::Write, errno, m_target);
        }
        data.remove_prefix(static_cast<std::size_t>(n));
        m_bytes += static_cast<std::uint64_t>(n);
    }
    return true;
}

bool AtomicFileWriter::commit()
{
    if (m_error)
        return false;
    if (m_fd < 0)
        return fail(OutputError::Kind::Write, EBADF, m_target);
    if (!m_direct && ::fsync(m_fd) != 0)
        return fail(OutputError::Kind::Write, errno, m_target);
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0 && errno != EINTR)
        return fail(OutputError::Kind::Write, errno, m_target);
    if (m_direct)
        return true;
    if (::rename(m_temp.c_str(), m_resolved.c_str()) != 0)
        return fail(OutputError::Kind::Rename, errno, m_target);
    releaseSlot(m_slot);
    m_slot = -1;
    m_temp.clear();
    // Make the rename itself durable.
    const int dfd = ::open(directoryOf(m_resolved).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return true;
}

void AtomicFileWriter::discard()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temp.empty()) {
        ::unlink(m_temp.c_str());
        m_temp.clear();
    }
    releaseSlot(m_slot);
    m_slot = -1;
}

} // namespace TraceInspector
