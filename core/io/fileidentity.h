// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace TraceInspector {

/// Which file an open descriptor or a path refers to: device and inode, so two names are
/// the same file through symlinks, hard links, `.` and `..` and any spelling of the path.
struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;

    bool operator==(const FileIdentity &) const = default;
};

/// The identity of what \a path names after following symlinks, or nothing when it
/// does not exist or cannot be examined.
std::optional<FileIdentity> identityOfPath(const std::string &path);
/// The identity of the open descriptor \a fd (standard input included).
std::optional<FileIdentity> identityOfFd(int fd);

} // namespace TraceInspector
