// SPDX-License-Identifier: MIT
#include "core/timeline/timelinelayout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>

#include "core/analysis/groupbyindex.h"
#include "core/analysis/radixorder.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

constexpr std::size_t kCancelStride = std::size_t(1) << 16;

std::uint64_t saturatingEnd(std::uint64_t start, std::uint64_t duration)
{
    return duration > std::numeric_limits<std::uint64_t>::max() - start ? std::numeric_limits<std::uint64_t>::max()
                                                                        : start + duration;
}

bool cancelRequested(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

/// Packs the \a n start-ordered slices \a sliceAt(i) gives into non-overlapping tracks (first
/// fit), at most \a maxTracks; past that a slice goes to the track that frees up first, which
/// then overlaps. Each track is filled at its final size (TimelineTrack::assign()): the
/// members of tracks grown by doubling, then appended whole and packed, were most of the
/// fresh memory of the layout (~100 MB on the 1 GB trace), each 4 KiB of it a page fault.
template<typename SliceAt>
std::vector<TimelineTrack> packTracks(std::size_t n, SliceAt sliceAt, std::size_t maxTracks)
{
    static_assert(TimelineLayout::kMaxTracksPerLevel <= 256, "a slice's track is kept in a byte");
    std::vector<std::uint8_t> trackOf(n);
    std::vector<std::uint64_t> trackEnd;
    for (std::size_t i = 0; i < n; ++i) {
        const TimelineSlice s = sliceAt(i);
        std::size_t chosen = trackEnd.size();
        for (std::size_t t = 0; t < trackEnd.size(); ++t) {
            if (trackEnd[t] <= s.start) {
                chosen = t;
                break;
            }
        }
        if (chosen == trackEnd.size()) {
            if (trackEnd.size() < maxTracks)
                trackEnd.push_back(0);
            else
                chosen = std::size_t(std::min_element(trackEnd.begin(), trackEnd.end()) - trackEnd.begin());
        }
        trackEnd[chosen] = std::max(trackEnd[chosen], s.end);
        trackOf[i] = std::uint8_t(chosen);
    }
    std::vector<TimelineTrack> tracks(trackEnd.size());
    if (tracks.size() == 1) {
        tracks[0].assign(n, sliceAt);
        return tracks;
    }
    // The members of each track, in order.
    std::vector<std::uint32_t> first;
    std::vector<std::uint32_t> members;
    groupByIndex(
        n, tracks.size(), [&trackOf](std::size_t i) { return std::uint32_t(trackOf[i]); }, first, members);
    std::vector<std::uint8_t>().swap(trackOf);
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const std::uint32_t *own = members.data() + first[t];
        tracks[t].assign(first[t + 1] - first[t], [&](std::size_t k) { return sliceAt(own[k]); });
    }
    return tracks;
}

/// A slice in the layout's one-level buffer: 16 bytes, not a TimelineSlice's 24 (the buffer
/// of the 1 GB trace's largest level was 17 MB of the layout's scratch). A length of 2^32 ns
/// or more, rare, is stored as kLongSlice and the end found again from the record.
struct BufferedSlice {
    std::uint64_t start;
    std::uint32_t length;
    std::uint32_t payload;
};
constexpr std::uint32_t kLongSlice = UINT32_MAX;

BufferedSlice buffered(std::uint64_t start, std::uint64_t end, std::uint32_t payload)
{
    const std::uint64_t length = end - start; // end >= start: every end here is
    return {start, length >= kLongSlice ? kLongSlice : std::uint32_t(length), payload};
}

/// The slice of \a b, its end from \a endOf(payload) when it was too long to keep.
template<typename EndOf>
TimelineSlice unbuffered(const BufferedSlice &b, EndOf endOf)
{
    return {b.start, b.length != kLongSlice ? b.start + b.length : endOf(b.payload), b.payload};
}

/// Stream ids are usually numbers: "7" sorts before "14".
bool naturalLess(std::string_view a, std::string_view b)
{
    auto digits = [](std::string_view s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (digits(a) && digits(b)) {
        const auto ta = a.substr(std::min(a.find_first_not_of('0'), a.size()));
        const auto tb = b.substr(std::min(b.find_first_not_of('0'), b.size()));
        if (ta.size() != tb.size())
            return ta.size() < tb.size();
        if (ta != tb)
            return ta < tb;
    }
    return a < b;
}

} // namespace

TimelineLayout TimelineLayout::build(const Trace &trace, const SpanTree &tree, const std::atomic<bool> *cancel,
                                     std::vector<std::uint32_t> spansByStart, const RecordExtents *extents)
{
    TimelineLayout layout;
    const std::size_t spanCount = trace.spans.size();
    const std::size_t opCount = trace.ops.size();

    // The run's end: every host time the trace carries.
    const RecordExtents all = extents ? *extents : RecordExtents::compute(trace);
    std::uint64_t runEnd = all.latestHostEvidenceNs();
    if (trace.terminal)
        runEnd = std::max(runEnd, trace.terminal->timestampNs);
    // Without spans and ops, runBeginNs is 0 too.
    const std::uint64_t hostBegin = all.runBeginNs;
    layout.m_runEnd = runEnd;
    layout.m_hostExtent = {hostBegin, std::max(runEnd, hostBegin + 1)};
    if (cancelRequested(cancel)) {
        layout.m_cancelled = true;
        return layout;
    }

    const std::size_t hostCount = spanCount + opCount;

    // Levels: span depth d and the ops of spans at depth d - 1; orphan ops last.
    constexpr std::uint32_t kNone = UINT32_MAX;
    const std::uint32_t orphanSlot = tree.spanCount() > 0 ? tree.maxDepth() + 2 : 1;
    std::vector<std::size_t> slotCount(orphanSlot + 1, 0);
    auto slotOf = [&](std::uint32_t h) -> std::uint32_t {
        if (h < spanCount)
            return tree.depth(h);
        const std::uint32_t span = tree.spanOfOp(h - spanCount);
        return span == SpanTree::kNoParent ? orphanSlot : tree.depth(span) + 1;
    };
    for (std::uint32_t h = 0; h < hostCount; ++h)
        ++slotCount[slotOf(h)];
    layout.m_levelOfDepth.assign(orphanSlot, kNone);
    std::vector<std::uint32_t> levelOfSlot(orphanSlot + 1, kNone);
    for (std::uint32_t slot = 0; slot <= orphanSlot; ++slot) {
        if (slotCount[slot] == 0)
            continue;
        levelOfSlot[slot] = std::uint32_t(layout.m_levels.size());
        HostLevel level;
        level.depth = slot == orphanSlot ? 0 : slot;
        level.orphanOps = slot == orphanSlot;
        layout.m_levels.push_back(std::move(level));
        if (slot == orphanSlot)
            layout.m_orphanLevel = levelOfSlot[slot];
        else
            layout.m_levelOfDepth[slot] = levelOfSlot[slot];
    }
    // The host slices of each level, in start order: the ordered slices grouped by level (a
    // counting sort), each level's part then copied out of the spans and ops into one buffer
    // and packed into tracks. Read from the spans and ops level by level and track pass, a
    // deep trace read them once per level and pass (~3x the layout's time). One buffer for
    // the largest level, not one for every slice: the 1 GB trace's 1.7 million slices of 24
    // bytes were the layout's largest scratch, alive beside the other analyses' (the
    // window's peak RSS).
    std::vector<std::size_t> levelFirst(layout.m_levels.size() + 1, 0);
    for (std::uint32_t slot = 0; slot <= orphanSlot; ++slot) {
        if (levelOfSlot[slot] != kNone)
            levelFirst[levelOfSlot[slot] + 1] = slotCount[slot];
    }
    std::size_t largestLevel = 0;
    for (std::size_t l = 0; l < layout.m_levels.size(); ++l) {
        largestLevel = std::max(largestLevel, levelFirst[l + 1]);
        levelFirst[l + 1] += levelFirst[l];
    }
    // Host slices, spans then ops, ordered by start: spans before ops of the same start, and
    // each group in index order. Spans and ops are ordered apart (each usually is in order
    // already, which radixOrder() sees in one read) and merged straight into their levels'
    // parts of byLevel: no array of the whole order beside it (6.6 MiB on the 1 GB trace).
    // The ops' starts are read from the ops (in stream order, nearly in start order: reads
    // that follow each other), the spans' from a sorted copy (spans are in id order, and
    // reading them in start order in the merge would miss the cache nearly every time). The
    // span tree's order, when given, spares the spans' sort: the copy is then gathered
    // through it, one random read a span, in a loop of its own whose misses overlap (the
    // layout's CPU time in the window, 1 GB trace: 210 -> 188 ms).
    std::vector<std::uint32_t> byLevel;
    {
        std::vector<std::uint64_t> spanStarts;
        std::vector<std::uint32_t> spanOrder;
        std::vector<std::uint64_t> keys;
        if (spansByStart.size() == spanCount) {
            spanOrder = std::move(spansByStart);
            spanStarts.resize(spanCount);
            for (std::size_t s = 0; s < spanCount; ++s)
                spanStarts[s] = trace.spans[spanOrder[s]].startNs;
        } else {
            keys.resize(spanCount);
            for (std::size_t i = 0; i < spanCount; ++i)
                keys[i] = trace.spans[i].startNs;
            spanOrder = radixOrder(std::move(keys), &spanStarts);
        }
        std::vector<std::uint32_t>().swap(spansByStart);
        keys.assign(opCount, 0);
        for (std::size_t i = 0; i < opCount; ++i)
            keys[i] = trace.ops[i].timestampNs;
        const std::vector<std::uint32_t> opOrder = radixOrder(std::move(keys));
        if (cancelRequested(cancel)) {
            layout.m_cancelled = true;
            return layout;
        }
        // Allocated only now, next to the sorted halves rather than beside their sorts too.
        byLevel.resize(hostCount);
        std::vector<std::size_t> next(levelFirst.begin(), levelFirst.end() - 1);
        std::size_t s = 0;
        std::size_t o = 0;
        for (std::size_t n = 0; n < hostCount; ++n) {
            if (n % kCancelStride == 0 && cancelRequested(cancel)) {
                layout.m_cancelled = true;
                return layout;
            }
            std::uint32_t h;
            if (o == opCount || (s < spanCount && spanStarts[s] <= trace.ops[opOrder[o]].timestampNs))
                h = spanOrder[s++];
            else
                h = std::uint32_t(spanCount) + opOrder[o++];
            byLevel[next[levelOfSlot[slotOf(h)]]++] = h;
        }
    }
    const auto spanEnd = [&](const Span &s) {
        return s.closed ? saturatingEnd(s.startNs, s.durationNs) : std::max(runEnd, s.startNs);
    };
    const auto hostEnd = [&](std::uint32_t payload) {
        if ((payload & kOpBit) != 0) {
            const Op &op = trace.ops[payload & ~kOpBit];
            return saturatingEnd(op.timestampNs, op.durationNs);
        }
        return spanEnd(trace.spans[payload]);
    };
    std::vector<BufferedSlice> slices(largestLevel);
    for (std::size_t l = 0; l < layout.m_levels.size(); ++l) {
        const std::size_t count = levelFirst[l + 1] - levelFirst[l];
        const std::uint32_t *members = byLevel.data() + levelFirst[l];
        // A level's spans are read in start order, not their stored order, and its ops
        // with gaps between them: each a cache miss (~30 % of the layout, 1 GB trace)
        // unless fetched ahead.
        constexpr std::size_t kAhead = 16;
        for (std::size_t k = 0; k < count; ++k) {
            if (k % kCancelStride == 0 && cancelRequested(cancel)) {
                layout.m_cancelled = true;
                return layout;
            }
            if (k + kAhead < count) {
                const std::uint32_t ahead = members[k + kAhead];
                if (ahead < spanCount)
                    __builtin_prefetch(&trace.spans[ahead]);
                else
                    __builtin_prefetch(&trace.ops[ahead - spanCount]);
            }
            const std::uint32_t h = members[k];
            if (h < spanCount) {
                const Span &s = trace.spans[h];
                slices[k] = buffered(s.startNs, spanEnd(s), h);
            } else {
                const Op &op = trace.ops[h - spanCount];
                slices[k] = buffered(op.timestampNs, saturatingEnd(op.timestampNs, op.durationNs),
                                     std::uint32_t(h - spanCount) | kOpBit);
            }
        }
        const BufferedSlice *own = slices.data();
        layout.m_levels[l].tracks = packTracks(
            count, [own, &hostEnd](std::size_t k) { return unbuffered(own[k], hostEnd); }, kMaxTracksPerLevel);
        if (cancelRequested(cancel)) {
            layout.m_cancelled = true;
            return layout;
        }
    }
    std::vector<BufferedSlice>().swap(slices);
    std::vector<std::uint32_t>().swap(byLevel);

    // Device lanes, one per (device, stream, clock), grouped by clock.
    const auto &intervals = trace.deviceIntervals;
    // Built whole here, kept packed (NarrowU32Array, BlockPackedU32) once done.
    std::vector<std::uint32_t> intervalSpan(intervals.size(), kNoSpan);
    std::vector<std::uint32_t> intervalLane(intervals.size(), 0);
    if (intervals.empty())
        return layout;
    // The span tree's span_id table resolves every span_id (its kNoParent is kNoSpan).
    static_assert(kNoSpan == SpanTree::kNoParent);
    for (std::size_t i = 0; i < intervals.size(); ++i)
        intervalSpan[i] = tree.spanOfId(intervals[i].spanId);
    // Each interval's lane in order of first appearance (renumbered once the lanes are
    // sorted). A stream's intervals come in runs: the previous interval's lane answers most
    // lookups without walking the map.
    using LaneKey = std::tuple<StringId, StringId, StringId>;
    std::map<LaneKey, std::uint32_t> laneOfKey;
    {
        LaneKey lastKey{kNoString, kNoString, kNoString};
        std::uint32_t lastLane = kNone;
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            const DeviceInterval &d = intervals[i];
            const LaneKey key{d.device, d.streamId, d.clockId};
            if (lastLane == kNone || key != lastKey) {
                const auto [it, added] = laneOfKey.try_emplace(key, std::uint32_t(layout.m_lanes.size()));
                if (added) {
                    DeviceLane lane;
                    lane.device = d.device;
                    lane.stream = d.streamId;
                    lane.clock = d.clockId;
                    lane.backend = d.backend;
                    layout.m_lanes.push_back(std::move(lane));
                }
                lastKey = key;
                lastLane = it->second;
            }
            intervalLane[i] = lastLane;
        }
    }
    // Lanes ordered by clock, device, stream (natural order); indices follow that order.
    std::vector<std::uint32_t> laneOrder(layout.m_lanes.size());
    for (std::uint32_t i = 0; i < laneOrder.size(); ++i)
        laneOrder[i] = i;
    const auto &lanes = layout.m_lanes;
    std::sort(laneOrder.begin(), laneOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
        const auto s = [&](StringId id) { return trace.str(id); };
        if (lanes[a].clock != lanes[b].clock)
            return naturalLess(s(lanes[a].clock), s(lanes[b].clock));
        if (lanes[a].device != lanes[b].device)
            return naturalLess(s(lanes[a].device), s(lanes[b].device));
        return naturalLess(s(lanes[a].stream), s(lanes[b].stream));
    });
    {
        std::vector<DeviceLane> sorted;
        sorted.reserve(laneOrder.size());
        std::vector<std::uint32_t> renumbered(laneOrder.size());
        for (std::uint32_t i = 0; i < laneOrder.size(); ++i) {
            renumbered[laneOrder[i]] = i;
            sorted.push_back(std::move(layout.m_lanes[laneOrder[i]]));
        }
        layout.m_lanes = std::move(sorted);
        for (std::uint32_t &lane : intervalLane)
            lane = renumbered[lane];
    }
    for (std::uint32_t i = 0; i < layout.m_lanes.size(); ++i) {
        DeviceLane &lane = layout.m_lanes[i];
        if (layout.m_domains.empty() || layout.m_domains.back().clock != lane.clock) {
            ClockDomain domain;
            domain.clock = lane.clock;
            domain.extent = {std::numeric_limits<std::uint64_t>::max(), 0};
            layout.m_domains.push_back(std::move(domain));
        }
        lane.clockDomain = std::uint32_t(layout.m_domains.size() - 1);
        layout.m_domains.back().lanes.push_back(i);
    }
    // Each lane's slices by start, then index: gathered in file order, where a stream's
    // intervals mostly come by start already, and ordered per lane where they do not (one
    // sort of every interval, then a random read of each, cost ~3x as much). The lanes'
    // intervals are one array of indices, grouped by lane by a counting sort; their slices
    // are made one lane at a time, in one buffer for the largest lane (as the host levels').
    std::vector<std::size_t> laneFirst(layout.m_lanes.size() + 1, 0);
    for (const std::uint32_t lane : intervalLane)
        ++laneFirst[lane + 1];
    std::size_t largestLane = 0;
    for (std::size_t l = 0; l < layout.m_lanes.size(); ++l) {
        largestLane = std::max(largestLane, laneFirst[l + 1]);
        laneFirst[l + 1] += laneFirst[l];
    }
    std::vector<std::uint32_t> byLane(intervals.size());
    {
        std::vector<std::size_t> next(laneFirst.begin(), laneFirst.end() - 1);
        for (std::uint32_t i = 0; i < intervals.size(); ++i) {
            if (i % kCancelStride == 0 && cancelRequested(cancel)) {
                layout.m_cancelled = true;
                return layout;
            }
            const DeviceInterval &d = intervals[i];
            const std::uint32_t laneIndex = intervalLane[i];
            DeviceLane &lane = layout.m_lanes[laneIndex];
            byLane[next[laneIndex]++] = i;
            ++lane.intervalCount;
            TimeWindow &extent = layout.m_domains[lane.clockDomain].extent;
            extent.begin = std::min(extent.begin, d.startNs);
            extent.end = std::max(extent.end, saturatingEnd(d.startNs, d.durationNs));
        }
    }
    for (ClockDomain &domain : layout.m_domains) {
        if (domain.extent.end <= domain.extent.begin)
            domain.extent.end = domain.extent.begin + 1;
    }
    const auto intervalEnd = [&intervals](std::uint32_t i) {
        return saturatingEnd(intervals[i].startNs, intervals[i].durationNs);
    };
    std::vector<BufferedSlice> laneSlices(largestLane);
    for (std::size_t l = 0; l < layout.m_lanes.size(); ++l) {
        const std::size_t count = laneFirst[l + 1] - laneFirst[l];
        const std::uint32_t *members = byLane.data() + laneFirst[l];
        for (std::size_t k = 0; k < count; ++k)
            laneSlices[k] = buffered(intervals[members[k]].startNs, intervalEnd(members[k]), members[k]);
        if (!std::is_sorted(laneSlices.begin(), laneSlices.begin() + std::ptrdiff_t(count),
                            [](const BufferedSlice &a, const BufferedSlice &b) { return a.start < b.start; })) {
            std::vector<std::uint64_t> keys(count);
            for (std::size_t k = 0; k < count; ++k)
                keys[k] = laneSlices[k].start;
            const std::vector<std::uint32_t> byStart = radixOrder(std::move(keys)); // stable: index order kept
            std::vector<BufferedSlice> sorted(count);
            for (std::size_t k = 0; k < count; ++k)
                sorted[k] = laneSlices[byStart[k]];
            std::copy(sorted.begin(), sorted.end(), laneSlices.begin());
        }
        const BufferedSlice *own = laneSlices.data();
        layout.m_lanes[l].tracks = packTracks(
            count, [own, &intervalEnd](std::size_t k) { return unbuffered(own[k], intervalEnd); }, kMaxTracksPerLevel);
        if (cancelRequested(cancel)) {
            layout.m_cancelled = true;
            return layout;
        }
    }
    layout.m_intervalSpan = BlockPackedU32(intervalSpan);
    layout.m_intervalLane = NarrowU32Array(intervalLane);
    return layout;
}

std::pair<std::uint64_t, std::uint64_t> TimelineLayout::extentOf(const Trace &trace, TimelineItem item) const
{
    switch (item.kind) {
    case TimelineItemKind::Span: {
        const Span &s = trace.spans[item.index];
        return {s.startNs, s.closed ? saturatingEnd(s.startNs, s.durationNs) : std::max(m_runEnd, s.startNs)};
    }
    case TimelineItemKind::Op: {
        const Op &op = trace.ops[item.index];
        return {op.timestampNs, saturatingEnd(op.timestampNs, op.durationNs)};
    }
    case TimelineItemKind::DeviceInterval: {
        const DeviceInterval &d = trace.deviceIntervals[item.index];
        return {d.startNs, saturatingEnd(d.startNs, d.durationNs)};
    }
    }
    return {0, 0};
}

std::optional<TimelineLayout::Location> TimelineLayout::locate(const Trace &trace, const SpanTree &tree,
                                                               TimelineItem item) const
{
    std::uint32_t group = UINT32_MAX;
    std::uint32_t payload = item.index;
    bool device = false;
    switch (item.kind) {
    case TimelineItemKind::Span:
        if (item.index >= trace.spans.size() || item.index >= tree.spanCount())
            return std::nullopt;
        group = m_levelOfDepth[tree.depth(item.index)];
        break;
    case TimelineItemKind::Op: {
        if (item.index >= trace.ops.size() || item.index >= tree.opCount())
            return std::nullopt;
        const std::uint32_t span = tree.spanOfOp(item.index);
        group = span == SpanTree::kNoParent ? m_orphanLevel : m_levelOfDepth[tree.depth(span) + 1];
        payload = item.index | kOpBit;
        break;
    }
    case TimelineItemKind::DeviceInterval:
        if (item.index >= m_intervalLane.size())
            return std::nullopt;
        group = m_intervalLane[item.index];
        device = true;
        break;
    }
    if (group == UINT32_MAX)
        return std::nullopt;
    const std::uint64_t start = extentOf(trace, item).first;
    const std::vector<TimelineTrack> &tracks = device ? m_lanes[group].tracks : m_levels[group].tracks;
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        if (const auto position = tracks[t].find(start, payload))
            return Location{device, group, t, *position};
    }
    return std::nullopt;
}

TimelineItem TimelineLayout::itemAt(bool device, std::uint32_t group, std::uint32_t track, std::size_t position) const
{
    if (device)
        return {TimelineItemKind::DeviceInterval, m_lanes[group].tracks[track].payload(position)};
    return hostItem(m_levels[group].tracks[track].payload(position));
}

std::size_t TimelineLayout::memoryUsage() const
{
    std::size_t bytes =
        m_intervalSpan.memoryUsage() + m_intervalLane.memoryUsage() + m_levelOfDepth.capacity() * sizeof(std::uint32_t);
    for (const HostLevel &level : m_levels) {
        for (const TimelineTrack &t : level.tracks)
            bytes += t.memoryUsage();
    }
    for (const DeviceLane &lane : m_lanes) {
        for (const TimelineTrack &t : lane.tracks)
            bytes += t.memoryUsage();
    }
    return bytes;
}

} // namespace TraceInspector
