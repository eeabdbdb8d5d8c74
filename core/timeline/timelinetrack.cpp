// SPDX-License-Identifier: MIT
#include "core/timeline/timelinetrack.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace TraceInspector {
namespace {

struct PixelMapping {
    std::uint64_t begin;
    double scale; // pixels per ns

    double x(std::uint64_t t) const { return t >= begin ? double(t - begin) * scale : -double(begin - t) * scale; }
    /// Smallest time whose x is at least \a x.
    std::uint64_t timeAt(double x) const
    {
        const double offset = std::ceil(x / scale);
        if (offset >= 0)
            return offset >= double(std::numeric_limits<std::uint64_t>::max() - begin)
                       ? std::numeric_limits<std::uint64_t>::max()
                       : begin + std::uint64_t(offset);
        const double back = -offset;
        return back >= double(begin) ? 0 : begin - std::uint64_t(back);
    }
};

/// First index in [from, to) whose key is not below \a t, for keys ascending over the indices.
/// A loop over indices rather than std::lower_bound because the compact track computes its keys
/// (start offset plus block base, start plus length) and has no array of them to iterate.
template<typename KeyOf>
std::size_t firstIndexNotBelow(std::size_t from, std::size_t to, std::uint64_t t, KeyOf keyOf)
{
    std::size_t count = to - from;
    while (count > 0) {
        const std::size_t half = count / 2;
        if (keyOf(from + half) < t) {
            from += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return from;
}

} // namespace

void TimelineTrack::reserve(std::size_t n)
{
    m_wideStart.reserve(n);
    m_wideEnd.reserve(n);
    m_appended.reserve(n);
}

void TimelineTrack::append(std::uint64_t start, std::uint64_t end, std::uint32_t payload)
{
    m_wideStart.push_back(start);
    m_wideEnd.push_back(std::max(start, end));
    m_appended.push_back(payload);
}

void TimelineTrack::finish()
{
    const std::vector<std::uint64_t> starts = std::move(m_wideStart);
    const std::vector<std::uint64_t> ends = std::move(m_wideEnd);
    const std::vector<std::uint32_t> payloads = std::move(m_appended);
    m_appended = {};
    assign(payloads.size(), [&](std::size_t i) { return TimelineSlice{starts[i], ends[i], payloads[i]}; });
}

std::uint64_t TimelineTrack::lastEnd() const
{
    if (m_payload.empty())
        return 0;
    return hasOverlaps() ? m_maxEnd.back() : end(m_payload.size() - 1);
}

std::size_t TimelineTrack::lowerBoundEnd(std::uint64_t t, std::size_t from, std::size_t to) const
{
    if (hasOverlaps())
        return std::size_t(
            std::lower_bound(m_maxEnd.begin() + std::ptrdiff_t(from), m_maxEnd.begin() + std::ptrdiff_t(to), t)
            - m_maxEnd.begin());
    return firstIndexNotBelow(from, to, t, [this](std::size_t i) { return end(i); });
}

std::size_t TimelineTrack::lowerBoundStartPlain(std::uint64_t t, std::size_t from, std::size_t to) const
{
    return firstIndexNotBelow(from, to, t, [this](std::size_t i) { return start(i); });
}

std::pair<std::size_t, std::size_t> TimelineTrack::visibleRange(const TimeWindow &window) const
{
    const std::size_t n = m_payload.size();
    const std::size_t first = lowerBoundEnd(window.begin, 0, n);
    const std::size_t last = lowerBoundStartPlain(window.end, first, n);
    return {first, std::max(first, last)};
}

void TimelineTrack::marks(const TimeWindow &window, double width, std::vector<TimelineMark> &out,
                          double mergeWidth) const
{
    if (window.isEmpty() || !(width > 0) || m_payload.empty())
        return;
    mergeWidth = std::max(mergeWidth, 1e-9);
    if (hasOverlaps())
        marksOverlapping(window, width, out, mergeWidth);
    else
        marksDisjoint(window, width, out, mergeWidth);
}

void TimelineTrack::marksDisjoint(const TimeWindow &window, double width, std::vector<TimelineMark> &out,
                                  double mergeWidth) const
{
    const auto [first, last] = visibleRange(window);
    walkDisjoint(window, width, first, last, out, mergeWidth, std::numeric_limits<double>::infinity());
}

std::size_t TimelineTrack::lowerBoundStart(std::uint64_t t, std::size_t from, std::size_t to) const
{
    if (from >= to)
        return to;
    // Gallop over the coarse index from the block after `from`: the boundary is usually a
    // few blocks away.
    const std::size_t coarseEnd = std::min(m_coarse.size(), (to + kCoarse - 1) / kCoarse);
    std::size_t lo = from / kCoarse + 1; // coarse entries before lo start at or before `from`
    std::size_t step = 1;
    while (lo + step <= coarseEnd && m_coarse[lo + step - 1] < t) {
        lo += step;
        step *= 2;
    }
    const std::size_t hi = std::min(lo + step - 1, coarseEnd);
    const auto c = std::size_t(
        std::lower_bound(m_coarse.begin() + std::ptrdiff_t(std::min(lo, hi)), m_coarse.begin() + std::ptrdiff_t(hi), t)
        - m_coarse.begin());
    // start(c * kCoarse) >= t (or c == coarseEnd) and start((c - 1) * kCoarse) < t.
    const std::size_t blockBegin = std::max(from, c > 0 ? (c - 1) * kCoarse : 0);
    const std::size_t blockEnd = c < coarseEnd ? std::min(to, c * kCoarse) : to;
    return lowerBoundStartPlain(t, std::min(blockBegin, blockEnd), blockEnd);
}

void TimelineTrack::walkDisjoint(const TimeWindow &window, double width, std::size_t i, std::size_t last,
                                 std::vector<TimelineMark> &out, double mergeWidth, double stopX) const
{
    const PixelMapping map{window.begin, width / double(window.length())};
    while (i < last) {
        const double x0 = map.x(start(i));
        if (x0 > stopX)
            return;
        const double x1 = map.x(end(i));
        if (x1 - x0 >= mergeWidth) {
            out.push_back({x0, x1, std::uint32_t(i), std::uint32_t(i + 1), 1});
            ++i;
            continue;
        }
        // Every slice starting in this column, found by one binary search: a column holding
        // a million slices costs what a column holding one does.
        const double column = std::floor(x0 / mergeWidth) * mergeWidth;
        const std::uint64_t columnEnd = map.timeAt(column + mergeWidth);
        auto j = lowerBoundStart(columnEnd, i + 1, last);
        j = std::max(j, i + 1);
        // Without overlaps only the last slice starting in the column can reach beyond it.
        std::size_t mergedEnd = j;
        const std::size_t k = j - 1;
        if (k > i && map.x(end(k)) - map.x(start(k)) >= mergeWidth)
            mergedEnd = k;
        const std::size_t count = mergedEnd - i;
        if (count == 1) {
            out.push_back({x0, x1, std::uint32_t(i), std::uint32_t(i + 1), 1});
        } else {
            const double markEnd = std::max(column + mergeWidth, map.x(end(mergedEnd - 1)));
            out.push_back({column, markEnd, std::uint32_t(i), std::uint32_t(mergedEnd), std::uint32_t(count)});
        }
        if (mergedEnd != j)
            out.push_back({map.x(start(k)), map.x(end(k)), std::uint32_t(k), std::uint32_t(j), 1});
        i = j;
    }
}

void TimelineTrack::marksOverlapping(const TimeWindow &window, double width, std::vector<TimelineMark> &out,
                                     double mergeWidth) const
{
    const PixelMapping map{window.begin, width / double(window.length())};
    const auto [first, last] = visibleRange(window);
    TimelineMark pending;
    double pendingColumn = 0;
    auto flush = [&] {
        if (pending.count == 1)
            out.push_back(
                {map.x(start(pending.first)), map.x(end(pending.first)), pending.first, pending.first + 1, 1});
        else if (pending.count > 1)
            out.push_back(pending);
        pending.count = 0;
    };
    for (std::size_t i = first; i < last; ++i) {
        if (end(i) < window.begin)
            continue;
        const double x0 = map.x(start(i));
        const double x1 = map.x(end(i));
        if (x1 - x0 >= mergeWidth) {
            out.push_back({x0, x1, std::uint32_t(i), std::uint32_t(i + 1), 1});
            continue;
        }
        const double column = std::floor(x0 / mergeWidth) * mergeWidth;
        if (pending.count > 0 && column == pendingColumn) {
            ++pending.count;
            pending.last = std::uint32_t(i + 1);
            pending.x1 = std::max(pending.x1, x1);
            continue;
        }
        flush();
        pendingColumn = column;
        pending = {column, std::max(column + mergeWidth, x1), std::uint32_t(i), std::uint32_t(i + 1), 1};
    }
    flush();
}

std::optional<TimelineMark> TimelineTrack::markAt(const TimeWindow &window, double width, double x, double tolerance,
                                                  double mergeWidth) const
{
    if (window.isEmpty() || !(width > 0) || m_payload.empty())
        return std::nullopt;
    mergeWidth = std::max(mergeWidth, 1e-9);
    std::vector<TimelineMark> found;
    if (hasOverlaps()) {
        marksOverlapping(window, width, found, mergeWidth);
    } else {
        // Walk from the first slice of the column left of x, exactly as marks() groups them.
        const PixelMapping map{window.begin, width / double(window.length())};
        const auto [first, last] = visibleRange(window);
        const double left = (std::floor((x - tolerance) / mergeWidth) - 1) * mergeWidth;
        std::size_t i = lowerBoundStartPlain(map.timeAt(left), first, last);
        // A wide slice starting further left can still cover x: it is the one just before.
        if (i > first)
            --i;
        if (i > first) {
            const double column = std::floor(map.x(start(i)) / mergeWidth) * mergeWidth;
            i = lowerBoundStartPlain(map.timeAt(column), first, i);
        }
        walkDisjoint(window, width, i, last, found, mergeWidth, x + tolerance + mergeWidth);
    }
    const TimelineMark *best = nullptr;
    double bestDistance = tolerance;
    for (const TimelineMark &m : found) {
        const double x1 = std::max(m.x1, m.x0 + 1.0);
        double distance = 0;
        if (x < m.x0)
            distance = m.x0 - x;
        else if (x > x1)
            distance = x - x1;
        // Later marks are drawn on top: among equally near marks the last one wins.
        if (distance <= bestDistance) {
            best = &m;
            bestDistance = distance;
        }
    }
    if (!best)
        return std::nullopt;
    return *best;
}

std::optional<std::size_t> TimelineTrack::find(std::uint64_t start, std::uint32_t payload) const
{
    for (std::size_t pos = lowerBoundStartPlain(start, 0, m_payload.size());
         pos < m_payload.size() && this->start(pos) == start; ++pos) {
        if (m_payload[pos] == payload)
            return pos;
    }
    return std::nullopt;
}

std::size_t TimelineTrack::memoryUsage() const
{
    return (m_wideStart.capacity() + m_wideEnd.capacity() + m_maxEnd.capacity() + m_coarse.capacity())
               * sizeof(std::uint64_t)
           + m_startOffset.capacity() * sizeof(std::uint32_t) + m_length.memoryUsage() + m_payload.memoryUsage()
           + m_appended.capacity() * sizeof(std::uint32_t);
}

} // namespace TraceInspector
