// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace TraceInspector {

/// Compressed containers a trace is commonly found in, recognized by their magic bytes.
/// The reader does not decompress: a compressed file is not JSONL, and saying so beats
/// "stream did not contain valid UTF-8".
enum class Compression { None, Gzip, Zstd, Bzip2, Xz };

Compression detectCompression(std::string_view head);
/// "gzip", "zstd"... (empty for None).
const char *compressionName(Compression c);
/// The usual command that writes the decompressed bytes to standard output: "zcat".
const char *decompressCommand(Compression c);

} // namespace TraceInspector
