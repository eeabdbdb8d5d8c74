// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace TraceInspector {

/// Why an input could not be read, or not completely. Typed, so that the CLI and the GUI
/// word their own messages without parsing the reader's.
struct InputError {
    enum class Kind : std::uint8_t {
        None,
        OpenFailed, ///< open() or fstat() failed; osError says why (ENOENT, EACCES, ELOOP...)
        IsDirectory,
        IsDevice,    ///< a character or block device (/dev/zero, a terminal): endless or interactive
        ReadFailed,  ///< read() failed; osError says why
        Changed,     ///< the regular file changed (size or modification time) while it was read
        LineTooLong, ///< a line of a stream grew past ReadOptions::maxStreamLineBytes
    };
    Kind kind = Kind::None;
    int osError = 0;
    std::uint64_t sizeAtOpen = 0; ///< Changed: bytes when opened
    std::uint64_t sizeAfter = 0;  ///< Changed: bytes when the read ended
    std::uint64_t line = 0;       ///< LineTooLong: the 1-based line
    std::uint64_t limit = 0;      ///< LineTooLong: the limit in bytes

    explicit operator bool() const { return kind != Kind::None; }
};

/// The reader's own text for \a error on \a path, in upstream's style where upstream has
/// one (TRACE_FORMAT.md §2): "open trace file P: No such file or directory (os error 2)".
std::string inputErrorMessage(const InputError &error, const std::string &path);

/// strerror(\a err) followed by " (os error N)", as Rust's io::Error prints it.
std::string osErrorText(int err);

} // namespace TraceInspector
