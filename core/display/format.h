// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <QString>

namespace TraceInspector {

struct Trace;

// Human-readable text for durations, times, sizes and shapes, shared by all models.
// Output is locale-independent ("." as decimal point) so that it is testable.

/// A duration in ns with three significant digits in the largest fitting unit:
/// `0 ns`, `999 ns`, `1.00 µs`, `12.3 µs`, `123 ms`, `1.23 s`; seconds never switch to a
/// larger unit (`12346 s`).
QString formatDuration(std::uint64_t ns);

/// A point in time in ns since the run started, with more precision than a duration:
/// integer `ns` below 1 µs, else three decimals in the largest fitting unit
/// (`2.100 µs`, `51.200 µs`, `1.234 s`).
QString formatTimestamp(std::uint64_t ns);

/// The unit users pick for times; Auto chooses per value.
enum class TimeUnit : std::uint8_t { Auto, Seconds, Milliseconds, Microseconds, Nanoseconds };

/// `s`, `ms`, `µs`, `ns`; empty for Auto.
QString timeUnitSymbol(TimeUnit unit);

/// A point in time in ns since the run started, exact to the nanosecond so that neighbours
/// never read alike: every decimal down to 1 ns, grouped by three with narrow no-break spaces
/// (`13.131 852 417 s`, `2.100 µs`). Auto picks the largest unit the value reaches (`ns`
/// below 1 µs); a fixed unit is used as is (`0.000 002 100 s`). Integer parts of five or
/// more digits are grouped too (`13 131 852 417 ns`). \a withUnit false leaves out the
/// unit (for columns whose header names it; only meaningful with a fixed unit).
QString formatTimePoint(std::uint64_t ns, TimeUnit unit = TimeUnit::Auto, bool withUnit = true);

/// The longest text formatTimePoint() gives for any time up to \a maxNs (in Auto, a smaller
/// value in a smaller unit can be longer): what a time column must be wide enough for.
QString widestTimePoint(std::uint64_t maxNs, TimeUnit unit = TimeUnit::Auto, bool withUnit = true);

/// A duration for tables: Auto gives formatDuration() (three significant digits); a fixed
/// unit gives the exact value in that unit like formatTimePoint().
QString formatDurationIn(std::uint64_t ns, TimeUnit unit, bool withUnit = true);

/// The measured time (§7.3 `total_ns`) in one wording everywhere: `measured 50.0 µs`, or
/// `measured time unknown (no measured span)` / `(measured spans never ended)` when the
/// trace measures nothing — unknown, never zero.
QString measuredTimeText(const Trace &trace, std::uint64_t totalNs);
/// The same from counts (a million spans are counted once, not at every refresh).
QString measuredTimeText(std::size_t measuredSpans, std::size_t closedMeasuredSpans, std::uint64_t totalNs);
struct MeasuredSpanCount {
    std::size_t measured = 0;
    std::size_t closed = 0; // of the measured ones
};
MeasuredSpanCount countMeasuredSpans(const Trace &trace);

/// A byte count in binary units with three significant digits: `0 B`, `1023 B`,
/// `1.00 KiB`, `384 KiB`, `1.50 GiB`, up to EiB. Values from 1000 to 1023 of a unit
/// stay in that unit (`1023 KiB`).
QString formatBytes(std::uint64_t bytes);

/// A fraction (1.0 = 100 %) as a percentage with one decimal: `12.3%`, `0%`, `<0.1%`;
/// `n/a` for NaN or negative values.
QString formatPercent(double fraction);

/// A rate in bytes per ns with three significant digits and the unit: `0.512 B/ns`,
/// `12.3 B/ns`, `1,234 B/ns` (1 B/ns = 1 GB/s); `n/a` for NaN or negative values.
QString formatBytesPerNs(double rate);

/// A tensor shape: `[2, 128, 768]`; `[]` for a scalar.
QString formatShape(std::span<const std::uint64_t> dims);

/// An integer with `,` thousands separators: `1,234,567`.
QString formatCount(std::uint64_t value);
/// \a n as the count that picks a plural form in tr(text, nullptr, n): clamped to int.
int numerusCount(std::uint64_t n);

/// Case-insensitive substring test of UTF-8 text against the filter text users type.
/// An ASCII needle is matched byte-wise (UTF-8 continuation bytes never equal ASCII),
/// which avoids a QString conversion per record; other needles use QString folding.
class TextFilter
{
public:
    TextFilter() = default;
    /// Leading and trailing whitespace of \a needle is ignored.
    explicit TextFilter(const QString &needle);

    bool isEmpty() const { return m_needle.isEmpty(); }
    const QString &text() const { return m_needle; }
    /// True for every text when the filter is empty.
    bool matches(std::string_view utf8) const;

private:
    QString m_needle;
    std::string m_asciiLower; // set when the needle is ASCII
    bool m_ascii = true;
};

} // namespace TraceInspector
