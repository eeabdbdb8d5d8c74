// SPDX-License-Identifier: MIT
#include "core/io/compression.h"

namespace TraceInspector {

Compression detectCompression(std::string_view head)
{
    if (head.starts_with(std::string_view("\x1f\x8b", 2)))
        return Compression::Gzip;
    if (head.starts_with(std::string_view("\x28\xb5\x2f\xfd", 4)))
        return Compression::Zstd;
    if (head.size() >= 4 && head.starts_with("BZh") && head[3] >= '1' && head[3] <= '9')
        return Compression::Bzip2;
    if (head.starts_with(std::string_view("\xfd"
                                          "7zXZ\x00",
                                          6)))
        return Compression::Xz;
    return Compression::None;
}

const char *compressionName(Compression c)
{
    switch (c) {
    case Compression::None: return "";
    case Compression::Gzip: return "gzip";
    case Compression::Zstd: return "zstd";
    case Compression::Bzip2: return "bzip2";
    case Compression::Xz: return "xz";
    }
    return "";
}

const char *decompressCommand(Compression c)
{
    switch (c) {
    case Compression::None: return "";
    case Compression::Gzip: return "zcat";
    case Compression::Zstd: return "zstdcat";
    case Compression::Bzip2: return "bzcat";
    case Compression::Xz: return "xzcat";
    }
    return "";
}

} // namespace TraceInspector
