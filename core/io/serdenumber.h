// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace TraceInspector {

/// A JSON number classified the way serde_json 1.0.150 (default features) does it
/// (TRACE_FORMAT.md §5.6): unsigned integers up to 2^64-1 stay exact, negative integers down
/// to -2^63 stay exact, everything else (fraction, exponent, `-0`, more digits) is an f64.
struct SerdeNumber {
    enum class Kind : std::uint8_t { Unsigned, Negative, Float };
    Kind kind = Kind::Unsigned;
    std::uint64_t unsignedValue = 0;
    std::int64_t negativeValue = 0;
    double floatValue = 0;

    /// The value an f64 member receives (integers rounded to nearest, ties to even).
    double toDouble() const
    {
        switch (kind) {
        case Kind::Unsigned: return static_cast<double>(unsignedValue);
        case Kind::Negative: return static_cast<double>(negativeValue);
        case Kind::Float: return floatValue;
        }
        return floatValue;
    }
};

/// Why a number could not be scanned. The column of the error is the byte at `at`
/// (InvalidNumber, OutOfRange) or the end of the line (Eof: `EOF while parsing a value`).
enum class NumberError : std::uint8_t { None, InvalidNumber, Eof, OutOfRange };

struct NumberScan {
    NumberError error = NumberError::None;
    const char *at = nullptr; // on success: the first byte after the number; else see NumberError
};

/// Scans the number starting at \a p (a '-' or a digit) within [p, end) with serde_json's
/// grammar, error positions and value conversion. Never reads at or beyond \a end.
NumberScan scanSerdeNumber(const char *p, const char *end, SerdeNumber &out);

/// serde_json's f64 conversion of significand × 10^exponent without the `float_roundtrip`
/// feature (§5.6 step 4): the significand rounded to an f64, then one multiplication or
/// division by a correctly rounded power of ten (repeated division by 1e308 below 1e-308).
/// Not correctly rounded, on purpose. Returns false when the result would be infinite
/// (`number out of range`).
bool serdeFloatFromParts(std::uint64_t significand, std::int32_t exponent, double &out);

} // namespace TraceInspector
