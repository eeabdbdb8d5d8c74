// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// serde_json's text for strings and integers: what upstream writes, byte for byte.
namespace TraceInspector {

/// Appends \a text to \a out as a JSON string literal (with the quotes), escaping exactly as
/// upstream does (TRACE_FORMAT.md §11.3): `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other
/// U+0000–U+001F as `\u00xx` (lowercase hex), everything else (including `/`, U+007F,
/// non-ASCII and invalid UTF-8 bytes) raw.
void appendJsonString(std::string &out, std::string_view text);
/// appendJsonString() without the quotes. Each byte is escaped on its own, so a text may be
/// escaped in pieces cut anywhere.
void appendJsonStringBody(std::string &out, std::string_view text);

/// Appends the decimal text of \a value to \a out.
void appendJsonU64(std::string &out, std::uint64_t value);
void appendJsonI64(std::string &out, std::int64_t value);

} // namespace TraceInspector
