// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace TraceInspector {

/// Formats \a value the way upstream's serde_json 1.0.151 (zmij) writes an f64
/// (TRACE_FORMAT.md §11.4): shortest round-trip digits; fixed notation with a mandatory
/// fraction (`1.0`, `0.00001`) when the decimal exponent X of the leading digit satisfies
/// -5 <= X <= 15, else `d[.ddd]e-X` / `d[.ddd]e+X`; zeros keep their sign (`-0.0`);
/// NaN and infinities give `null`.
std::string formatJsonFloat(double value);

/// Appends the formatJsonFloat() text of \a value to \a out (no allocation beyond \a out).
void appendJsonFloat(std::string &out, double value);

/// Writes the formatJsonFloat() text into \a buf (at least kJsonFloatMaxChars bytes) and
/// returns the number of characters written.
inline constexpr int kJsonFloatMaxChars = 32;
int writeJsonFloat(char *buf, double value);

} // namespace TraceInspector
