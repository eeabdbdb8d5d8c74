// SPDX-License-Identifier: MIT
#include "core/io/fileidentity.h"

#include <sys/stat.h>

namespace TraceInspector {
namespace {

FileIdentity identityOf(const struct stat &st)
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

} // namespace

std::optional<FileIdentity> identityOfPath(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return identityOf(st);
}

std::optional<FileIdentity> identityOfFd(int fd)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return std::nullopt;
    return identityOf(st);
}

} // namespace TraceInspector
