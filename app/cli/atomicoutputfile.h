// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <string>

namespace TraceInspector {

/// Replaces a file atomically: output goes to a temporary file in the target's directory,
/// which commit() flushes, fsyncs and renames over the target. Until then the target is
/// untouched; the temporary file is removed on discard(), destruction, or SIGINT/SIGTERM/
/// SIGHUP. The new file gets the existing target's permissions, or 0666 minus the umask.
/// A target that exists but is not a regular file (a device such as /dev/null, a FIFO) is
/// written directly instead, since it cannot be replaced.
class AtomicOutputFile
{
public:
    explicit AtomicOutputFile(std::string target);
    ~AtomicOutputFile();

    AtomicOutputFile(const AtomicOutputFile &) = delete;
    AtomicOutputFile &operator=(const AtomicOutputFile &) = delete;

    /// Creates the temporary file. On failure returns false and sets \a error.
    bool open(std::string *error);
    std::FILE *file() const { return m_file; }
    /// Flushes, fsyncs and renames the temporary file onto the target. On failure the
    /// temporary file is removed, the target is untouched, and \a error says why.
    bool commit(std::string *error);
    void discard();

private:
    std::string m_target;
    std::string m_temp;
    std::FILE *m_file = nullptr;
    bool m_direct = false;
};

/// True when \a a and \a b name the same existing file (same device and inode, so also
/// through symlinks, hard links and different spellings of the path).
bool isSameFile(const std::string &a, const std::string &b);

} // namespace TraceInspector
