// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstdint>

#include "core/analysis/timecoordinates.h"
#include "core/display/format.h"

namespace TraceInspector {

/// The unit an axis is labelled in: values are divided by \a factor.
struct ChartUnit {
    double factor = 1;
    QString name;

    /// The time unit for \a window: the one chosen, or (Auto) the one its end reads best in.
    static ChartUnit time(const TimeWindow &window, TimeUnit chosen);
    /// The binary byte unit (B, KiB, …) that \a max reads best in.
    static ChartUnit bytes(std::uint64_t max);
    /// A round tick step (1, 2 or 5 × 10^k) giving about \a ticks intervals over \a span.
    static double niceStep(double span, int ticks);
    /// The smallest round step (1, 2 or 5 × 10^k) that covers [0, top] in at most \a intervals.
    static double roundStepAtMost(double top, int intervals);
    /// Decimals a label needs to tell ticks \a step apart.
    static int decimalsFor(double step);
};

} // namespace TraceInspector
