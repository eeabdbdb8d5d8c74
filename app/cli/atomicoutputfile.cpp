// SPDX-License-Identifier: MIT
#include "app/cli/atomicoutputfile.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TraceInspector {

namespace {

// The temporary file to remove if a signal ends the process mid-write. A fixed buffer,
// because the handler may only use async-signal-safe calls.
char g_pendingTemp[PATH_MAX + 1];
volatile std::sig_atomic_t g_havePendingTemp = 0;

extern "C" void removePendingTempAndDie(int sig)
{
    if (g_havePendingTemp)
        ::unlink(g_pendingTemp);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void setPendingTemp(const std::string &path)
{
    if (path.size() > PATH_MAX)
        return;
    std::memcpy(g_pendingTemp, path.c_str(), path.size() + 1);
    g_havePendingTemp = 1;
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        std::signal(sig, removePendingTempAndDie);
}

void clearPendingTemp()
{
    g_havePendingTemp = 0;
}

std::string errnoText(int err)
{
    return std::strerror(err);
}

void splitPath(const std::string &path, std::string *dir, std::string *name)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) {
        *dir = ".";
        *name = path;
    } else {
        *dir = slash == 0 ? "/" : path.substr(0, slash);
        *name = path.substr(slash + 1);
    }
}

} // namespace

AtomicOutputFile::AtomicOutputFile(std::string target)
    : m_target(std::move(target))
{
}

AtomicOutputFile::~AtomicOutputFile()
{
    discard();
}

bool AtomicOutputFile::open(std::string *error)
{
    std::string dir, name;
    splitPath(m_target, &dir, &name);
    if (name.empty()) {
        *error = "write " + m_target + ": " + errnoText(EISDIR);
        return false;
    }
    struct stat targetStat {};
    const bool targetExists = ::stat(m_target.c_str(), &targetStat) == 0;
    if (targetExists && S_ISDIR(targetStat.st_mode)) {
        *error = "write " + m_target + ": " + errnoText(EISDIR);
        return false;
    }

    if (targetExists && !S_ISREG(targetStat.st_mode)) {
        // A device or FIFO (`-o /dev/null`, a named pipe) cannot be replaced by rename,
        // and must not be: write to it directly.
        m_file = std::fopen(m_target.c_str(), "wb");
        if (!m_file) {
            *error = "open " + m_target + ": " + errnoText(errno);
            return false;
        }
        m_direct = true;
        return true;
    }

    std::string pattern = (dir == "/" ? std::string() : dir) + "/." + name + ".tmp-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) {
        *error = "create temporary file in " + dir + ": " + errnoText(errno);
        return false;
    }
    m_temp = buf.data();
    setPendingTemp(m_temp);

    mode_t mode;
    if (targetExists) {
        mode = targetStat.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    ::fchmod(fd, mode); // best effort: a failure leaves mkstemp's private 0600

    m_file = ::fdopen(fd, "wb");
    if (!m_file) {
        const int err = errno;
        ::close(fd);
        discard();
        *error = "open temporary file " + m_temp + ": " + errnoText(err);
        return false;
    }
    return true;
}

bool AtomicOutputFile::commit(std::string *error)
{
    if (!m_file) {
        *error = "write " + m_target + ": no open output";
        return false;
    }
    int err = 0;
    if (std::fflush(m_file) != 0 || std::ferror(m_file))
        err = errno != 0 ? errno : EIO;
    if (err == 0 && !m_direct && ::fsync(::fileno(m_file)) != 0)
        err = errno;
    const int closeResult = std::fclose(m_file);
    m_file = nullptr;
    if (err == 0 && closeResult != 0)
        err = errno;
    if (err != 0) {
        *error = "write " + (m_direct ? m_target : m_temp) + ": " + errnoText(err);
        discard();
        return false;
    }
    if (m_direct)
        return true;
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0) {
        err = errno;
        *error = "rename " + m_temp + " to " + m_target + ": " + errnoText(err);
        discard();
        return false;
    }
    clearPendingTemp();
    m_temp.clear();

    // Make the rename itself durable.
    std::string dir, name;
    splitPath(m_target, &dir, &name);
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return true;
}

void AtomicOutputFile::discard()
{
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
    }
    if (!m_temp.empty()) {
        ::unlink(m_temp.c_str());
        clearPendingTemp();
        m_temp.clear();
    }
}

bool isSameFile(const std::string &a, const std::string &b)
{
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

} // namespace TraceInspector
