// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace TraceInspector {

// Text helpers that reproduce Rust standard-library behaviour, so messages built here match
// upstream byte for byte (TRACE_FORMAT.md §6.2, §9, §10.4).

/// Rust `format!("{:?}", s)` for a `&str`: the text in double quotes; `"` and `\` escaped with
/// a backslash; `\t` `\r` `\n` `\0` as such; every char that is not printable (general
/// category Cc, Cf, Cs, Co, Cn, Zl, Zp, or Zs other than U+0020) and every Grapheme_Extend
/// char (anywhere in the string, as `<str as Debug>` does — unlike `str::escape_debug`, which
/// escapes them only at the start) as `\u{hex}` with lowercase hex; `'` and printable
/// non-ASCII kept as is. The tables come from Unicode 14.0, so a char assigned in a later
/// Unicode version is escaped where a newer Rust would print it. Invalid UTF-8 is never
/// produced by the reader; should it occur, each bad sequence is written as U+FFFD (as
/// after String::from_utf8_lossy).
std::string rustDebugString(std::string_view s);
/// Appends rustDebugString(s) to \a out (avoids a temporary in message building).
void appendRustDebugString(std::string &out, std::string_view s);
/// appendRustDebugString() without the quotes: a long string can be escaped piece by piece
/// (each piece made of whole UTF-8 characters).
void appendRustDebugChars(std::string &out, std::string_view s);
/// The number of bytes appendRustDebugChars() appends for \a s: a message quoting a 200 MB
/// value is made at its final size, without a reallocation that holds it twice.
std::size_t rustDebugCharsLength(std::string_view s);

/// Rust `format!("{:?}", v)` for an f64: shortest round-trip digits; fixed notation with at
/// least one fractional digit (`1.0`, `0.5`, `-0.0`) when v is 0 or 1e-4 <= |v| < 1e16,
/// otherwise `<d>[.<ddd>]e<exp>` without `+` (`1e-7`, `1.5e16`); `NaN`, `inf`, `-inf`.
std::string rustDebugFloat(double v);

/// Rust `{:?}` for an `Option<f64>`: `None` or `Some(<rustDebugFloat(v)>)`.
std::string rustDebugOptionalFloat(bool has, double v);

/// Rust `char::is_whitespace` (Unicode White_Space) for a code point.
bool isRustWhitespace(char32_t c);
/// Rust `str::trim`: \a s without leading and trailing White_Space chars (UTF-8 aware;
/// U+00A0, U+2028, U+3000 are whitespace, U+FEFF is not).
std::string_view rustTrim(std::string_view s);
/// True when rustTrim(s) is empty.
bool isRustBlank(std::string_view s);

} // namespace TraceInspector
