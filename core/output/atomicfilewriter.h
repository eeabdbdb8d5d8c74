// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace TraceInspector {

/// Why an output file could not be written. Typed, so the CLI and the GUI word it their way
/// (the GUI turns ReadOnly and OtherOwner into a question).
struct OutputError {
    enum class Kind : std::uint8_t {
        None,
        IsDirectory,     ///< the target is a directory
        DanglingSymlink, ///< the target is a symlink to nothing
        ReadOnly,        ///< the target exists and is read-only (refused unless forced)
        OtherOwner,      ///< the target belongs to someone else; a replacement would change its owner
        Inspect,         ///< stat()/realpath() of the target failed (osError)
        CreateTemporary, ///< the temporary file could not be created in the directory (osError)
        Open,            ///< a device or FIFO target could not be opened (osError)
        Write,           ///< writing, flushing or syncing failed (osError)
        Rename,          ///< the temporary file could not replace the target (osError)
    };
    Kind kind = Kind::None;
    int osError = 0;
    std::string path; ///< the file the error is about (the target, or its directory)

    explicit operator bool() const { return kind != Kind::None; }
};

/// "write OUT: No space left on device" and the like, without a leading "error: ".
std::string outputErrorMessage(const OutputError &error);

/// Writes an output file by the rules candle-trace normalize and the GUI export share:
///
/// * The data goes to a temporary file named `.ct.tmp-XXXXXX` (short, so that any name the
///   file system accepts for the output works) in the directory of the file being replaced;
///   commit() flushes and fsyncs it, renames it over that file and fsyncs the directory.
///   Until then the target is untouched. On any failure, on discard(), on destruction and,
///   once installSignalCleanup() was called, on SIGINT, SIGTERM and SIGHUP, the temporary
///   file is removed.
/// * A symlink is written through: the file it finally points to is replaced and the link
///   stays a link. A symlink to nothing is refused.
/// * An existing read-only file (no write permission for this user, or no write bit at
///   all, which matters for root) is refused unless \a force is set.
/// * The replacement keeps the replaced file's permission bits, and its owner and group;
///   when they cannot be kept (another user's file) it is refused unless \a force is set.
///   A new file gets 0666 minus the umask.
/// * An existing target that is not a regular file (/dev/null, a FIFO with a reader) is
///   written directly, since it cannot be replaced; a FIFO nobody reads is refused
///   (open() would otherwise wait without end).
/// * A directory is refused.
/// * Other hard links of a replaced file keep the old content: the file is replaced, not
///   rewritten in place.
class AtomicFileWriter
{
public:
    explicit AtomicFileWriter(std::string target, bool force = false);
    ~AtomicFileWriter();

    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    /// Checks the rules and creates the temporary file (or opens the device).
    bool open();
    /// Appends \a data. A failure is sticky; error() says why.
    bool write(std::string_view data);
    /// Makes the output final (see the class comment). On failure the target is untouched.
    bool commit();
    /// Drops the output: removes the temporary file, leaves the target as it was.
    void discard();

    const OutputError &error() const { return m_error; }
    /// The file that is written or replaced: the target with its symlinks resolved.
    const std::string &resolvedTarget() const { return m_resolved; }
    std::uint64_t bytesWritten() const { return m_bytes; }

    /// What open() would refuse about \a target, without creating anything (lets a GUI
    /// ask before it starts). OutputError::Kind::None when it may be written.
    static OutputError check(const std::string &target, bool force);

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP (those not ignored at startup) that
    /// remove every temporary file still open, then end the process by the signal. For
    /// command-line programs.
    static void installSignalCleanup();

private:
    struct TargetInfo {
        std::string resolved;
        bool exists = false;
        bool direct = false;
        unsigned mode = 0;
        unsigned uid = 0;
        unsigned gid = 0;
    };
    static OutputError inspectTarget(const std::string &target, bool force, TargetInfo *info);
    bool fail(OutputError::Kind kind, int osError, const std::string &path);

    std::string m_target;
    std::string m_resolved;
    std::string m_temp;
    bool m_force = false;
    bool m_direct = false;
    int m_fd = -1;
    int m_slot = -1;
    std::uint64_t m_bytes = 0;
    OutputError m_error;
};

} // namespace TraceInspector
