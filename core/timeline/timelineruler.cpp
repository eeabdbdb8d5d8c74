// SPDX-License-Identifier: MIT
#include "core/timeline/timelineruler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace TraceInspector {
namespace {

constexpr std::array<std::uint64_t, 4> kUnitNs{1, 1000, 1000000, 1000000000};
constexpr std::array<const char *, 4> kUnitSuffix{" ns", " \u00B5s", " ms", " s"};
constexpr std::array<int, 4> kUnitExponent{0, 3, 6, 9};
constexpr char kThinSpace[] = "\u2009";

std::uint64_t unitNs(RulerUnit unit)
{
    return kUnitNs[std::size_t(unit)];
}

int exponentOf(std::uint64_t powerOfTen)
{
    int e = 0;
    while (powerOfTen >= 10) {
        powerOfTen /= 10;
        ++e;
    }
    return e;
}

/// Largest power of ten dividing \a step (steps are 1, 2 or 5 × 10^k).
int stepExponent(std::uint64_t step)
{
    int e = 0;
    while (step > 0 && step % 10 == 0) {
        step /= 10;
        ++e;
    }
    return e;
}

} // namespace

RulerUnit rulerUnit(std::uint64_t maxOffsetNs)
{
    if (maxOffsetNs >= kUnitNs[3])
        return RulerUnit::Seconds;
    if (maxOffsetNs >= kUnitNs[2])
        return RulerUnit::Milliseconds;
    if (maxOffsetNs >= kUnitNs[1])
        return RulerUnit::Microseconds;
    return RulerUnit::Nanoseconds;
}

int rulerDecimals(std::uint64_t stepNs, RulerUnit unit)
{
    return std::max(0, kUnitExponent[std::size_t(unit)] - stepExponent(stepNs));
}

std::string formatRulerLabel(std::uint64_t offsetNs, RulerUnit unit, int decimals)
{
    const std::uint64_t per = unitNs(unit);
    std::string out = std::to_string(offsetNs / per);
    const int unitDigits = exponentOf(per);
    decimals = std::clamp(decimals, 0, unitDigits);
    if (decimals > 0) {
        std::string frac = std::to_string(offsetNs % per);
        frac.insert(0, std::size_t(unitDigits) - frac.size(), '0');
        frac.resize(std::size_t(decimals));
        out += '.';
        for (int i = 0; i < decimals; ++i) {
            if (i > 0 && i % 3 == 0)
                out += kThinSpace;
            out += frac[std::size_t(i)];
        }
    }
    out += kUnitSuffix[std::size_t(unit)];
    return out;
}

std::size_t rulerLabelLength(std::uint64_t offsetNs, RulerUnit unit, int decimals)
{
    std::size_t n = std::to_string(offsetNs / unitNs(unit)).size();
    if (decimals > 0)
        n += 1 + std::size_t(decimals) + std::size_t((decimals - 1) / 3);
    return n + (unit == RulerUnit::Seconds ? 2 : 3);
}

RulerScale computeRulerScale(const TimeWindow &window, double widthPx, double charWidthPx, std::uint64_t origin,
                             double gapPx)
{
    RulerScale scale;
    scale.origin = origin;
    if (window.isEmpty() || !(widthPx > 0))
        return scale;
    const std::uint64_t maxOffset = window.end > origin ? window.end - origin : 0;
    scale.unit = rulerUnit(maxOffset);
    const double pxPerNs = widthPx / double(window.length());
    charWidthPx = std::max(charWidthPx, 0.0);
    // Finest 1-2-5 step whose widest label fits.
    static constexpr std::array<std::uint64_t, 3> kMantissa{1, 2, 5};
    std::uint64_t step = 0;
    for (std::uint64_t power = 1;; power *= 10) {
        for (std::uint64_t m : kMantissa) {
            const std::uint64_t candidate = m * power;
            const int decimals = rulerDecimals(candidate, scale.unit);
            const double labelPx = double(rulerLabelLength(maxOffset, scale.unit, decimals)) * charWidthPx + gapPx;
            if (double(candidate) * pxPerNs >= labelPx) {
                step = candidate;
                break;
            }
        }
        if (step != 0 || power > UINT64_MAX / 100)
            break;
    }
    if (step == 0)
        step = std::uint64_t(10000000000000000000ULL); // 10^19: one tick at most
    scale.stepNs = step;
    scale.decimals = rulerDecimals(step, scale.unit);
    // Minor ticks stay on the 1-2-5 grid: 5 per 1 or 5 × 10^k step, 4 per 2 × 10^k.
    std::uint64_t mantissa = step;
    while (mantissa >= 10 && mantissa % 10 == 0)
        mantissa /= 10;
    scale.minorStepNs = step;
    for (std::uint64_t divisions : {mantissa == 2 ? std::uint64_t(4) : std::uint64_t(5), std::uint64_t(2)}) {
        if (step % divisions == 0) {
            scale.minorStepNs = step / divisions;
            break;
        }
    }
    // Labelled ticks: multiples of the step after the origin, inside the window.
    const std::uint64_t from = std::max(window.begin, origin);
    const std::uint64_t firstOffset = (from - origin + step - 1) / step * step;
    for (std::uint64_t offset = firstOffset;; offset += step) {
        if (offset > UINT64_MAX - origin)
            break;
        const std::uint64_t t = origin + offset;
        if (t >= window.end)
            break;
        scale.ticks.push_back(t);
        if (offset > UINT64_MAX - step)
            break;
    }
    return scale;
}

std::string formatDurationLabel(std::uint64_t ns)
{
    if (ns < 1000)
        return std::to_string(ns) + " ns";
    std::size_t unit = 1;
    while (unit + 1 < kUnitNs.size() && ns >= kUnitNs[unit + 1])
        ++unit;
    double v = double(ns) / double(kUnitNs[unit]);
    int decimals = v < 10 ? 2 : (v < 100 ? 1 : 0);
    const double scaleFactor = std::pow(10.0, decimals);
    double rounded = std::round(v * scaleFactor) / scaleFactor;
    if (rounded >= 1000 && unit + 1 < kUnitNs.size()) {
        ++unit;
        v = double(ns) / double(kUnitNs[unit]);
        decimals = 2;
        rounded = std::round(v * 100) / 100;
    } else if (decimals > 0 && rounded >= std::pow(10.0, 3 - decimals)) {
        --decimals; // 9.999 rounds to 10.00: keep three significant digits
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, rounded);
    return std::string(buffer) + kUnitSuffix[unit];
}

std::string formatRangeLabel(const TimeWindow &range, std::uint64_t origin)
{
    const std::uint64_t b = range.begin > origin ? range.begin - origin : 0;
    const std::uint64_t e = range.end > origin ? range.end - origin : 0;
    const RulerUnit unit = rulerUnit(e);
    const std::uint64_t length = range.length();
    // Resolution: three significant digits of the length.
    std::uint64_t resolution = 1;
    while (resolution <= UINT64_MAX / 10 && resolution * 1000 <= length)
        resolution *= 10;
    int decimals = rulerDecimals(resolution, unit);
    if (unit != RulerUnit::Nanoseconds)
        decimals = std::max(decimals, 3);
    // Never print digits the exact value does not have: round to the shown decimals.
    const int unitDigits = exponentOf(unitNs(unit));
    decimals = std::min(decimals, unitDigits);
    std::uint64_t shownStep = 1;
    for (int i = 0; i < unitDigits - decimals; ++i)
        shownStep *= 10;
    auto rounded = [shownStep](std::uint64_t v) {
        return v / shownStep * shownStep + (v % shownStep >= shownStep / 2 && shownStep > 1 ? shownStep : 0);
    };
    std::string first = formatRulerLabel(rounded(b), unit, decimals);
    first.resize(first.size() - std::string_view(kUnitSuffix[std::size_t(unit)]).size());
    return first + "\u2013" + formatRulerLabel(rounded(e), unit, decimals) + ", " + formatDurationLabel(length);
}

} // namespace TraceInspector
