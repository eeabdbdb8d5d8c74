// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace TraceInspector {

// Pure time ↔ pixel ↔ bucket maths for the memory chart (and any other time axis).
// Times are u64 nanoseconds; windows are half-open [begin, end). Bucket boundaries use
// exact 128-bit integer arithmetic so that every timestamp falls into exactly one bucket
// whatever the zoom level.

__extension__ using TimeU128 = unsigned __int128;

struct TimeWindow {
    std::uint64_t begin = 0;
    std::uint64_t end = 0; // exclusive

    std::uint64_t length() const { return end > begin ? end - begin : 0; }
    bool isEmpty() const { return end <= begin; }
    bool contains(std::uint64_t t) const { return t >= begin && t < end; }
    friend bool operator==(const TimeWindow &, const TimeWindow &) = default;
};

/// Start of bucket \a b (0 ≤ b ≤ buckets; b == buckets gives window.end) when \a window is
/// split into \a buckets equal parts.
inline std::uint64_t bucketStart(const TimeWindow &window, int buckets, int b)
{
    if (buckets <= 0 || window.isEmpty())
        return window.begin;
    b = std::clamp(b, 0, buckets);
    return window.begin + static_cast<std::uint64_t>(TimeU128(window.length()) * TimeU128(b) / TimeU128(buckets));
}

/// The bucket holding \a t (the inverse of bucketStart()), or -1 outside the window.
inline int bucketIndex(const TimeWindow &window, int buckets, std::uint64_t t)
{
    if (buckets <= 0 || !window.contains(t))
        return -1;
    // The largest k with floor(len*k/n) <= d is floor((n*(d+1) - 1) / len).
    const TimeU128 d = t - window.begin;
    const TimeU128 k = (TimeU128(buckets) * (d + 1) - 1) / TimeU128(window.length());
    return static_cast<int>(std::min<TimeU128>(k, TimeU128(buckets - 1)));
}

/// Horizontal position of \a t in a view \a width pixels wide showing \a window. Times
/// outside the window map outside [0, width].
inline double timeToX(const TimeWindow &window, double width, std::uint64_t t)
{
    if (window.isEmpty())
        return 0;
    const double offset = t >= window.begin ? double(t - window.begin) : -double(window.begin - t);
    return offset / double(window.length()) * width;
}

/// The time at pixel \a x, clamped into [begin, end].
inline std::uint64_t xToTime(const TimeWindow &window, double width, double x)
{
    if (window.isEmpty() || width <= 0 || !(x > 0))
        return window.begin;
    if (x >= width)
        return window.end;
    const double t = std::floor(x / width * double(window.length()));
    const auto offset = static_cast<std::uint64_t>(std::min(t, double(window.length())));
    return window.begin + std::min(offset, window.length());
}

/// \a window scaled by \a factor (< 1 zooms in) keeping \a anchor at the same relative
/// position, then shifted into \a limits. The length stays within [minLength, limits length].
inline TimeWindow zoomWindow(const TimeWindow &window, std::uint64_t anchor, double factor, const TimeWindow &limits,
                             std::uint64_t minLength = 1)
{
    if (limits.isEmpty())
        return limits;
    const std::uint64_t limitLength = limits.length();
    const std::uint64_t minLen = std::clamp<std::uint64_t>(minLength, 1, limitLength);
    const double wanted =
        std::isfinite(factor) && factor > 0 ? std::round(double(window.length()) * factor) : double(limitLength);
    const std::uint64_t length =
        wanted >= double(limitLength)
            ? limitLength
            : std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max(wanted, 0.0)), minLen, limitLength);
    anchor = std::clamp(anchor, window.begin, std::max(window.begin, window.end));
    const double ratio = window.isEmpty() ? 0.5 : double(anchor - window.begin) / double(window.length());
    const auto left =
        std::min(length, static_cast<std::uint64_t>(std::floor(double(length) * std::clamp(ratio, 0.0, 1.0))));
    std::uint64_t begin = anchor >= limits.begin && anchor - limits.begin >= left ? anchor - left : limits.begin;
    if (begin > limits.end - length)
        begin = limits.end - length;
    return {begin, begin + length};
}

/// \a window moved by \a deltaNs (negative = earlier), kept inside \a limits.
inline TimeWindow panWindow(const TimeWindow &window, std::int64_t deltaNs, const TimeWindow &limits)
{
    if (limits.isEmpty())
        return limits;
    const std::uint64_t length = std::min(window.length(), limits.length());
    std::uint64_t begin = std::clamp(window.begin, limits.begin, limits.end - length);
    if (deltaNs < 0) {
        const std::uint64_t back = deltaNs == INT64_MIN ? std::uint64_t(INT64_MAX) + 1 : std::uint64_t(-deltaNs);
        begin = begin - limits.begin > back ? begin - back : limits.begin;
    } else {
        const auto fwd = std::uint64_t(deltaNs);
        begin = UINT64_MAX - begin > fwd ? begin + fwd : UINT64_MAX;
    }
    begin = std::clamp(begin, limits.begin, limits.end - length);
    return {begin, begin + length};
}

/// The window covered by pixels [x0, x1] (any order) of a view \a width wide showing
/// \a window, at least one nanosecond long when \a window is not empty.
inline TimeWindow windowBetween(const TimeWindow &window, double width, double x0, double x1)
{
    if (x1 < x0)
        std::swap(x0, x1);
    const std::uint64_t a = xToTime(window, width, x0);
    std::uint64_t b = xToTime(window, width, x1);
    if (b <= a)
        b = std::min(window.end, a + 1);
    if (b <= a)
        return {window.end > 0 ? window.end - 1 : 0, window.end};
    return {a, b};
}

} // namespace TraceInspector
