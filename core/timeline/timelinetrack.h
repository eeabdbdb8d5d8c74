// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/model/blockpackedu32.h"
#include "core/model/escapednarrowarray.h"
#include "core/timeline/timelineitem.h"

namespace TraceInspector {

/// One slice as TimelineTrack::assign() reads it.
struct TimelineSlice {
    std::uint64_t start;
    std::uint64_t end;
    std::uint32_t payload;
};

/// One row of slices on one time axis, sorted by start time (Qt Creator's TimelineModel
/// idea): sorted start and end arrays let a viewport find its slices by binary search, so
/// painting costs what is visible, not what the track holds.
///
/// Slices are appended in start order; finish() then notes whether any two overlap. A
/// track without overlaps has its ends sorted too. A track with overlaps also keeps the
/// running maximum of the ends, which is sorted and serves the same search.
class TimelineTrack
{
public:
    void reserve(std::size_t n);
    /// Appends a slice [start, end) (end is raised to start if smaller). \a payload is the
    /// owner's reference to the record (see TimelineLayout). Precondition: start is not
    /// smaller than the previous slice's start.
    void append(std::uint64_t start, std::uint64_t end, std::uint32_t payload);
    /// Must be called once after the last append() and before any query.
    void finish();
    /// Fills the track at once with \a n slices, \a sliceAt(i) giving the i-th as a
    /// TimelineSlice in start order (as append() then finish() would). Each array is
    /// allocated once at its final size: appended slices are held whole (20 bytes each) until
    /// finish() packs them, fresh memory a big trace pays for in page faults.
    template<typename SliceAt>
    void assign(std::size_t n, SliceAt sliceAt);

    std::size_t size() const { return m_payload.size(); }
    bool isEmpty() const { return m_payload.empty(); }
    std::uint64_t start(std::size_t i) const
    {
        return m_wideStart.empty() ? m_coarse[i / kCoarse] + m_startOffset[i] : m_wideStart[i];
    }
    std::uint64_t end(std::size_t i) const { return m_wideEnd.empty() ? start(i) + m_length[i] : m_wideEnd[i]; }
    std::uint32_t payload(std::size_t i) const { return m_payload[i]; }
    bool hasOverlaps() const { return !m_maxEnd.empty(); }
    /// Latest end of all slices, 0 when empty.
    std::uint64_t lastEnd() const;

    /// Positions [first, last) of the slices that may intersect \a window: every slice with
    /// start < window.end and end >= window.begin lies in it.
    std::pair<std::size_t, std::size_t> visibleRange(const TimeWindow &window) const;

    /// The marks to draw for \a window in a view \a width pixels wide, in start order.
    /// Slices narrower than \a mergeWidth pixels that start in the same pixel column are
    /// merged into one mark with their count; wider slices are returned one by one.
    /// Cost: O(width · log n) on a track without overlaps, linear in the visible slices
    /// otherwise.
    void marks(const TimeWindow &window, double width, std::vector<TimelineMark> &out, double mergeWidth = 1.0) const;

    /// The mark under pixel \a x (with \a tolerance pixels of slack around thin marks), as
    /// marks() would draw it; nullopt when there is none.
    std::optional<TimelineMark> markAt(const TimeWindow &window, double width, double x, double tolerance = 0.0,
                                       double mergeWidth = 1.0) const;

    /// Position of the slice with \a payload starting at \a start, if it is in this track.
    std::optional<std::size_t> find(std::uint64_t start, std::uint32_t payload) const;

    std::size_t memoryUsage() const;

private:
    void marksDisjoint(const TimeWindow &window, double width, std::vector<TimelineMark> &out, double mergeWidth) const;
    /// First position in [from, to) whose start is >= t (galloping over a coarse index).
    std::size_t lowerBoundStart(std::uint64_t t, std::size_t from, std::size_t to) const;
    void walkDisjoint(const TimeWindow &window, double width, std::size_t first, std::size_t last,
                      std::vector<TimelineMark> &out, double mergeWidth, double stopX) const;
    void marksOverlapping(const TimeWindow &window, double width, std::vector<TimelineMark> &out,
                          double mergeWidth) const;

    /// First position in [from, to) whose end (or running maximum of ends, with overlaps)
    /// is >= t.
    std::size_t lowerBoundEnd(std::uint64_t t, std::size_t from, std::size_t to) const;
    /// First position in [from, to) whose start is >= t (plain binary search).
    std::size_t lowerBoundStartPlain(std::uint64_t t, std::size_t from, std::size_t to) const;

    // Every kCoarse-th start: column boundaries are searched here first, in an array small
    // enough to stay in cache, then within one block of the starts.
    static constexpr std::size_t kCoarse = 32;
    std::vector<std::uint64_t> m_coarse;
    // A start is kept as its offset from its block's first start in 32 bits, an end as the
    // slice's length in 16 (the 2-12 % of lengths of 65535 ns or more kept aside), and the
    // payloads block-packed (2 bytes where a track's spans or ops follow index order, 4
    // where a level mixes spans and ops): ~10 bytes a slice on the 1 GB trace, not 20 (the
    // layout held 54 MiB of them, then 12 bytes each). A track where some offset or length
    // does not fit 32 bits keeps them whole (m_wideStart, m_wideEnd); append() collects them
    // there, and the payloads in m_appended, until finish().
    std::vector<std::uint32_t> m_startOffset;
    EscapedNarrowArray<std::uint16_t, std::uint32_t> m_length;
    std::vector<std::uint64_t> m_wideStart;
    std::vector<std::uint64_t> m_wideEnd;
    std::vector<std::uint64_t> m_maxEnd; // running max of the ends; only when slices overlap
    BlockPackedU32 m_payload;
    std::vector<std::uint32_t> m_appended;
};

template<typename SliceAt>
void TimelineTrack::assign(std::size_t n, SliceAt sliceAt)
{
    // First pass: the block starts, and whether slices overlap and offsets and lengths fit.
    m_coarse.clear();
    m_coarse.reserve(n / kCoarse + 1);
    constexpr std::uint64_t kFits = UINT32_MAX;
    bool overlaps = false;
    bool lengthsFit = true;
    bool offsetsFit = true;
    std::uint64_t previousEnd = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const TimelineSlice s = sliceAt(i);
        const std::uint64_t end = s.end < s.start ? s.start : s.end;
        if (i % kCoarse == 0)
            m_coarse.push_back(s.start);
        if (i > 0)
            overlaps = overlaps || s.start < previousEnd || end < previousEnd;
        lengthsFit = lengthsFit && end - s.start <= kFits;
        offsetsFit = offsetsFit && s.start - m_coarse.back() <= kFits;
        previousEnd = end;
    }
    std::vector<std::uint32_t> payloads(n);
    m_startOffset.clear();
    m_length = {};
    m_wideStart.clear();
    m_wideEnd.clear();
    m_maxEnd.clear();
    if (offsetsFit)
        m_startOffset.resize(n);
    else
        m_wideStart.resize(n);
    if (lengthsFit)
        m_length.resize(n);
    else
        m_wideEnd.resize(n);
    if (overlaps)
        m_maxEnd.resize(n);
    std::uint64_t running = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const TimelineSlice s = sliceAt(i);
        const std::uint64_t end = s.end < s.start ? s.start : s.end;
        payloads[i] = s.payload;
        if (offsetsFit)
            m_startOffset[i] = std::uint32_t(s.start - m_coarse[i / kCoarse]);
        else
            m_wideStart[i] = s.start;
        if (lengthsFit)
            m_length.set(i, std::uint32_t(end - s.start));
        else
            m_wideEnd[i] = end;
        if (overlaps)
            m_maxEnd[i] = running = running < end ? end : running;
    }
    m_length.finish();
    m_payload = BlockPackedU32(payloads);
}

} // namespace TraceInspector
