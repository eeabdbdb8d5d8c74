// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/timecoordinates.h"

namespace TraceInspector {

// Time ruler maths: tick spacing and labels that adapt to the zoom without ever losing
// precision. Labels carry as many decimals as the tick step needs, so ticks 10 ns apart
// 12.3 s into a run read `12.345 678 910 s`, `12.345 678 920 s`: neighbours always differ
// in a printed digit. All functions are pure; times are u64 ns.

enum class RulerUnit : std::uint8_t { Nanoseconds, Microseconds, Milliseconds, Seconds };

/// The ticks of a ruler for one viewport.
struct RulerScale {
    std::uint64_t stepNs = 0;      ///< distance between labelled ticks: 1, 2 or 5 × 10^k ns
    std::uint64_t minorStepNs = 0; ///< distance between unlabelled minor ticks (divides stepNs)
    RulerUnit unit = RulerUnit::Nanoseconds;
    int decimals = 0;                 ///< digits after the decimal point in every label
    std::uint64_t origin = 0;         ///< labels show time - origin
    std::vector<std::uint64_t> ticks; ///< labelled tick times inside the window, ascending
};

/// Unit of the labels for times up to \a maxOffsetNs after the origin: the largest unit not
/// above it (ns below 1 µs, µs below 1 ms, ms below 1 s, else s).
RulerUnit rulerUnit(std::uint64_t maxOffsetNs);

/// Digits after the decimal point that a \a stepNs grid needs in \a unit.
int rulerDecimals(std::uint64_t stepNs, RulerUnit unit);

/// `12.345 678 910 s`: \a offsetNs in \a unit with exactly \a decimals decimals (never
/// rounded: a tick time is a multiple of the step), the fraction grouped by three with thin
/// spaces. UTF-8 (µs uses U+00B5).
std::string formatRulerLabel(std::uint64_t offsetNs, RulerUnit unit, int decimals);

/// Number of characters (code points) formatRulerLabel() produces.
std::size_t rulerLabelLength(std::uint64_t offsetNs, RulerUnit unit, int decimals);

/// Ticks for \a window drawn \a widthPx wide, labels measuring \a charWidthPx per character:
/// the finest 1-2-5 step whose labels fit with \a gapPx between them. Labels show the time
/// after \a origin (ticks before the origin are not labelled and left out).
RulerScale computeRulerScale(const TimeWindow &window, double widthPx, double charWidthPx, std::uint64_t origin = 0,
                             double gapPx = 16);

/// The label of a time range: `12.300–14.910 ms, 2.61 ms`. Both ends in one unit with as
/// many decimals as needed to show the length to three significant digits (at least three
/// decimals above ns); the length as a duration. Times are shown after \a origin.
std::string formatRangeLabel(const TimeWindow &range, std::uint64_t origin = 0);

/// A duration with three significant digits: `0 ns`, `999 ns`, `1.00 µs`, `2.61 ms`, `13.0 s`.
std::string formatDurationLabel(std::uint64_t ns);

} // namespace TraceInspector
