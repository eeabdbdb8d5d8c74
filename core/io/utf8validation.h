// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace TraceInspector {

/// Whether [data, data + length) is valid UTF-8 as Rust's str::from_utf8 defines it (no
/// overlong forms, surrogates or values past U+10FFFF). Every line is checked before it is
/// parsed (§5.1), so runs of ASCII, nearly all of a trace, are skipped 16 bytes at a time.
/// Reads no byte outside the range.
bool isUtf8(const char *data, std::size_t length);

/// The number of bytes of the sequence that lead byte \a c starts (1 for ASCII and for a byte
/// no sequence starts with). Says nothing of validity.
std::size_t utf8SequenceWidth(char c);

/// The length of the longest prefix of [data, data + length) that does not end inside a
/// character: \a length, or the offset of a last lead byte whose sequence runs past the end.
/// For bytes that arrive in pieces or are cut off; says nothing of validity.
std::size_t wholeCharactersPrefix(const char *data, std::size_t length);

} // namespace TraceInspector
