// SPDX-License-Identifier: MIT
#include "ui/memorychart/chartunits.h"

#include <algorithm>
#include <cmath>

namespace TraceInspector {

ChartUnit ChartUnit::time(const TimeWindow &window, TimeUnit chosen)
{
    switch (chosen) {
    case TimeUnit::Seconds: return {1e9, timeUnitSymbol(chosen)};
    case TimeUnit::Milliseconds: return {1e6, timeUnitSymbol(chosen)};
    case TimeUnit::Microseconds: return {1e3, timeUnitSymbol(chosen)};
    case TimeUnit::Nanoseconds: return {1, timeUnitSymbol(chosen)};
    case TimeUnit::Auto: break;
    }
    const std::uint64_t m = window.end;
    if (m >= 10'000'000'000ull)
        return {1e9, QStringLiteral("s")};
    if (m >= 10'000'000ull)
        return {1e6, QStringLiteral("ms")};
    if (m >= 10'000ull)
        return {1e3, QStringLiteral("\u00B5s")};
    return {1, QStringLiteral("ns")};
}

ChartUnit ChartUnit::bytes(std::uint64_t max)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int i = 0;
    double f = 1;
    while (i < 6 && double(max) >= f * 1024.0 * 0.98) {
        f *= 1024.0;
        ++i;
    }
    return {f, QString::fromLatin1(names[i])};
}

double ChartUnit::niceStep(double span, int ticks)
{
    const double raw = std::max(span, 1e-12) / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / magnitude;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
}

double ChartUnit::roundStepAtMost(double top, int intervals)
{
    double magnitude = std::pow(10.0, std::floor(std::log10(std::max(top, 1e-12) / intervals)));
    for (;; magnitude *= 10)
        for (const double m : {1.0, 2.0, 5.0})
            if (std::ceil(top / (m * magnitude) - 1e-9) <= intervals)
                return m * magnitude;
}

int ChartUnit::decimalsFor(double step)
{
    return std::clamp(-int(std::floor(std::log10(step) + 1e-9)), 0, 9);
}

} // namespace TraceInspector
