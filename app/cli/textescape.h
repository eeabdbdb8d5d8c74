// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace TraceInspector {

/// Appends \a text with line breaks and other control characters escaped (`\n`, `\r`,
/// `\t`, `\u{1b}`), so that a file name or message never splits a one-per-line format.
void appendOneLine(std::string &out, std::string_view text);
std::string oneLine(std::string_view text);

bool isValidUtf8(std::string_view text);
/// \a text with every byte that is not part of valid UTF-8 replaced by U+FFFD, so that it
/// can stand in JSON (whose text must be UTF-8).
std::string utf8Lossy(std::string_view text);
/// Lowercase hex of the bytes of \a text.
std::string hexBytes(std::string_view text);

} // namespace TraceInspector
