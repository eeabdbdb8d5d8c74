// SPDX-License-Identifier: MIT
#include "core/io/inputerror.h"

#include <cerrno>
#include <cstring>

namespace TraceInspector {

std::string osErrorText(int err)
{
    return std::string(std::strerror(err)) + " (os error " + std::to_string(err) + ")";
}

std::string inputErrorMessage(const InputError &error, const std::string &path)
{
    switch (error.kind) {
    case InputError::Kind::None: return {};
    case InputError::Kind::OpenFailed: return "open trace file " + path + ": " + osErrorText(error.osError);
    case InputError::Kind::IsDirectory: return "open trace file " + path + ": " + osErrorText(EISDIR);
    case InputError::Kind::IsDevice:
        return "open trace file " + path + ": it is a device, not a file or a pipe (a device may never end)";
    case InputError::Kind::ReadFailed: return "read trace JSONL from " + path + ": " + osErrorText(error.osError);
    case InputError::Kind::Changed:
        return "read trace JSONL from " + path + ": the file changed while it was read ("
               + std::to_string(error.sizeAtOpen) + " bytes when opened, " + std::to_string(error.sizeAfter)
               + " bytes at the end)";
    case InputError::Kind::LineTooLong:
        return "read trace JSONL line " + std::to_string(error.line) + " from " + path + ": the line is longer than "
               + std::to_string(error.limit) + " bytes, the limit for a pipe or other stream";
    }
    return {};
}

} // namespace TraceInspector
