// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace TraceInspector {

/// Whether [data, data + length) is valid UTF-8 as Rust's str::from_utf8 defines it (no
/// overlong forms, surrogates or values past U+10FFFF). Every line is checked before it is
/// parsed (§5.1), so runs of ASCII, nearly all of a trace, are skipped 16 bytes at a time.
/// Reads no byte outside the range.
bool isUtf8(const char *data, std::size_t length);

} // namespace TraceInspector
