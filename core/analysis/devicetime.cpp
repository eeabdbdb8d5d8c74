// SPDX-License-Identifier: MIT
#include "core/analysis/devicetime.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>

#include "core/analysis/bitcount.h"
#include "core/analysis/densebytes.h"
#include "core/analysis/groupbyindex.h"
#include "core/analysis/spanpostorder.h"
#include "core/analysis/spantree.h"
#include "core/model/packedu64.h"
#include "core/model/sparsereservation.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;
static_assert(kNone == SpanTree::kNoParent);

/// The disjoint union of one lane's intervals: start -> end, half-open.
struct Segments {
    std::map<std::uint64_t, std::uint64_t> segs;
    std::uint64_t busyNs = 0;
    std::uint64_t intervals = 0;

    void insert(std::uint64_t start, std::uint64_t end)
    {
        if (end <= start)
            return; // an empty interval is counted but covers nothing
        auto it = segs.upper_bound(start);
        if (it != segs.begin()) {
            auto before = std::prev(it);
            if (before->second >= start) {
                start = before->first;
                end = std::max(end, before->second);
                busyNs -= before->second - before->first;
                it = segs.erase(before);
            }
        }
        while (it != segs.end() && it->first <= end) {
            end = std::max(end, it->second);
            busyNs -= it->second - it->first;
            it = segs.erase(it);
        }
        segs.emplace_hint(it, start, end);
        busyNs += end - start;
    }
};

/// Every lane's union for one subtree.
struct LaneSet {
    std::map<std::uint32_t, Segments> lanes;
    std::size_t size = 0; // segments held, the small-to-large measure

    void add(std::uint32_t lane, std::uint64_t start, std::uint64_t end)
    {
        Segments &s = lanes[lane];
        s.intervals = saturatingAdd(s.intervals, 1);
        const std::size_t before = s.segs.size();
        s.insert(start, end);
        size = size - before + s.segs.size();
    }

    /// Moves \a other (the smaller set) into this one.
    void absorb(LaneSet &other)
    {
        for (auto &[lane, theirs] : other.lanes) {
            auto it = lanes.find(lane);
            if (it == lanes.end()) {
                size += theirs.segs.size();
                lanes.emplace(lane, std::move(theirs));
                continue;
            }
            Segments &mine = it->second;
            const std::size_t before = mine.segs.size();
            mine.intervals = saturatingAdd(mine.intervals, theirs.intervals);
            for (const auto &[start, end] : theirs.segs)
                mine.insert(start, end);
            size = size - before + mine.segs.size();
        }
        other.lanes.clear();
        other.size = 0;
    }
};

struct Segment {
    std::uint32_t lane = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0; // half-open
};

DeviceBusy busyOf(std::uint32_t lane, const Segments &s)
{
    DeviceBusy b;
    b.lane = lane;
    b.intervals = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.intervals, UINT32_MAX));
    b.busyNs = s.busyNs;
    return b;
}

} // namespace

DeviceTime DeviceTime::compute(const Trace &trace, const SpanTree &tree)
{
    DeviceTime result;
    const std::size_t spanCount = tree.spanCount();
    result.m_flags.assign(spanCount, 0);
    // Filled here, kept block-packed (offsets grow by a lane or two a span).
    std::vector<std::uint32_t> offset(spanCount + 1, 0);
    const std::vector<DeviceInterval> &intervals = trace.deviceIntervals;
    result.m_intervalCount = intervals.size();
    if (intervals.empty() || spanCount != trace.spans.size()) {
        result.m_offset = BlockPackedU32(offset);
        return result;
    }

    // Lanes in byte-wise (device, stream, clock) order, so every view lists them alike.
    std::map<std::tuple<StringId, StringId, StringId>, std::uint32_t> laneIds;
    std::vector<std::uint32_t> laneOf(intervals.size());
    // A stream's intervals come in runs: the previous interval's lane answers most lookups
    // without walking the map (a map lookup per interval was ~10 % of this analysis).
    std::tuple<StringId, StringId, StringId> lastKey{kNoString, kNoString, kNoString};
    std::uint32_t lastLane = kNone;
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        const DeviceInterval &d = intervals[i];
        const std::tuple<StringId, StringId, StringId> key{d.device, d.streamId, d.clockId};
        if (lastLane == kNone || key != lastKey) {
            const auto [it, fresh] = laneIds.try_emplace(key, std::uint32_t(result.m_lanes.size()));
            if (fresh)
                result.m_lanes.push_back(DeviceLane{d.device, d.streamId, d.clockId, d.backend});
            lastKey = key;
            lastLane = it->second;
        }
        laneOf[i] = lastLane;
    }
    std::vector<std::uint32_t> order(result.m_lanes.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto key = [&trace](const DeviceLane &l) {
        return std::make_tuple(trace.str(l.device), trace.str(l.stream), trace.str(l.clock));
    };
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return key(result.m_lanes[a]) < key(result.m_lanes[b]); });
    std::vector<std::uint32_t> remap(order.size());
    std::vector<DeviceLane> sortedLanes(order.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        remap[order[i]] = i;
        sortedLanes[i] = result.m_lanes[order[i]];
    }
    result.m_lanes = std::move(sortedLanes);
    for (std::uint32_t &lane : laneOf)
        lane = remap[lane];

    // Each span's own intervals (CSR by span); the rest are outside every span.
    std::vector<std::uint32_t> spanOfInterval(intervals.size(), kNone);
    LaneSet outside;
    std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t>> outsideOrder; // (lane, start, index)
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        const DeviceInterval &d = intervals[i];
        const std::uint32_t span = tree.spanOfId(d.spanId); // kNoParent == kNone
        if (span == kNone) {
            outside.add(laneOf[i], d.startNs, saturatingAdd(d.startNs, d.durationNs));
            outsideOrder.emplace_back(laneOf[i], d.startNs, std::uint32_t(i));
            result.m_outsideCount += 1;
            continue;
        }
        spanOfInterval[i] = span;
    }
    for (const auto &[lane, segs] : outside.lanes)
        result.m_outside.push_back(busyOf(lane, segs));
    // outside() is by lane, like this order: its entries' intervals are consecutive runs.
    std::sort(outsideOrder.begin(), outsideOrder.end());
    result.m_outsideIntervals.reserve(outsideOrder.size());
    result.m_outsideOffset.assign(1, 0);
    for (std::size_t k = 0; k < outsideOrder.size(); ++k) {
        if (k > 0 && std::get<0>(outsideOrder[k]) != std::get<0>(outsideOrder[k - 1]))
            result.m_outsideOffset.push_back(std::uint32_t(k));
        result.m_outsideIntervals.push_back(std::get<2>(outsideOrder[k]));
    }
    if (!outsideOrder.empty())
        result.m_outsideOffset.push_back(std::uint32_t(outsideOrder.size()));
    // The intervals by span, as indices: a copy of their segments (24 bytes each, not 4) was
    // ~18 MB of the analysis's peak on the 1 GB trace, while health and memory ran beside it.
    static_assert(kNone == kNoBucket);
    std::vector<std::uint32_t> ownOffset;
    std::vector<std::uint32_t> own;
    groupByIndex(
        intervals.size(), spanCount, [&spanOfInterval](std::size_t i) { return spanOfInterval[i]; }, ownOffset, own);
    std::vector<std::uint32_t>().swap(spanOfInterval);
    const auto ownOf = [&](std::uint32_t span) {
        return std::span<const std::uint32_t>(own.data() + ownOffset[span], ownOffset[span + 1] - ownOffset[span]);
    };
    const auto segmentOf = [&](std::uint32_t interval) {
        const DeviceInterval &d = intervals[interval];
        return Segment{laneOf[interval], d.startNs, saturatingAdd(d.startNs, d.durationNs)};
    };

    // Children before parents, each subtree's spans in one run (post-order): the merge below
    // then finds the unions of a span's children on top of its stack when the span's turn
    // comes.
    const SpanPostOrder postOrder(tree);

    // With at most 64 lanes each span's row length is known before any union: the lanes of
    // its subtree, a bit mask OR-ed up the tree (freed before the merge starts). The rows then
    // go straight to their place in m_busy, sized once: gathering them first and reordering
    // cost ~50 MB of fresh pages on the 1 GB trace.
    const bool rowsSizedFirst = result.m_lanes.size() <= 64;
    if (rowsSizedFirst) {
        // The masks in the narrowest type that holds a bit per lane: a trace has a few lanes,
        // and 8 bytes a span were 7.7 MB of this analysis's peak on the 1 GB trace.
        const auto sizeRows = [&]<typename Mask>(Mask) {
            std::vector<Mask> lanesBelow(spanCount, 0);
            for (const std::uint32_t span : postOrder) {
                for (const std::uint32_t interval : ownOf(span))
                    lanesBelow[span] |= Mask(Mask(1) << laneOf[interval]);
                if (const std::uint32_t parent = tree.parent(span); parent != SpanTree::kNoParent)
                    lanesBelow[parent] |= lanesBelow[span];
            }
            for (std::size_t i = 0; i < spanCount; ++i)
                offset[i + 1] = offset[i] + std::uint32_t(bitCount(std::uint64_t(lanesBelow[i])));
        };
        const std::size_t lanes = result.m_lanes.size();
        if (lanes <= 8)
            sizeRows(std::uint8_t());
        else if (lanes <= 16)
            sizeRows(std::uint16_t());
        else if (lanes <= 32)
            sizeRows(std::uint32_t());
        else
            sizeRows(std::uint64_t());
        result.m_busy.resize(offset[spanCount]);
    }
    std::vector<DeviceBusy> emitted;
    std::vector<std::uint32_t> emittedStart(rowsSizedFirst ? 0 : spanCount, 0);
    std::vector<std::uint32_t> emittedCount(rowsSizedFirst ? 0 : spanCount, 0);
    // Lists \a row (one entry per lane, by lane) as span's busy time.
    const auto emit = [&](std::uint32_t span, std::vector<DeviceBusy> &row) {
        if (row.size() > kMaxLanesPerSpan) {
            std::stable_sort(row.begin(), row.end(),
                             [](const DeviceBusy &a, const DeviceBusy &b) { return a.busyNs > b.busyNs; });
            result.m_omitted.emplace_back(span, std::uint32_t(row.size() - kMaxLanesPerSpan));
            row.resize(kMaxLanesPerSpan);
            std::sort(row.begin(), row.end(), [](const DeviceBusy &a, const DeviceBusy &b) { return a.lane < b.lane; });
        }
        std::uint64_t maxBusy = 0;
        for (const DeviceBusy &b : row)
            maxBusy = std::max(maxBusy, b.busyNs);
        if (const auto host = tree.durationNs(span); host && maxBusy > *host) {
            result.m_flags[span] |= Exceeds;
            ++result.m_exceedingCount;
        }
        if (rowsSizedFirst) {
            for (std::size_t k = 0; k < row.size(); ++k)
                result.m_busy.set(offset[span] + k, row[k]);
            return;
        }
        emittedStart[span] = std::uint32_t(emitted.size());
        emittedCount[span] = std::uint32_t(row.size());
        emitted.insert(emitted.end(), row.begin(), row.end());
    };

    std::vector<DeviceBusy> row;
    if (tree.maxDepth() <= kShallowDepth) {
        // Sorted segment runs, merged up the tree: every segment climbs at most
        // kShallowDepth levels, and leaves (most spans) are read where their intervals are.
        // A finished inner span's union waits for its parent as a run on one stack, with its
        // lanes' interval counts on another; in post-order a span's children's runs are the
        // top ones, so the span merges them in place, adds its own and its leaf children's
        // intervals and leaves its union there. Held apart, one vector per inner span, the
        // runs (and the copy merging them) were ~50 MB of small blocks at the analysis's peak
        // on the 1 GB trace, and their holes stayed in the heap after it.
        // A run is kept by start time, lanes mixed: a stream runs its kernels in launch
        // order, so the children's runs (in start order) usually follow each other already
        // sorted and a linear pass joins them; only out-of-order input is sorted.
        struct Run {
            std::size_t segments = 0; // where it starts in stack
            std::size_t counts = 0;   // where its (lane, intervals) start in countStack
        };
        // A segment on the stack holds its start, end and lane, 20 bytes instead of 24. Nearly
        // every interval of the 1 GB trace waits on the stack under its root (0.65 million),
        // beside the other analyses. Kept as the index of the interval it starts with (12
        // bytes), the start and lane were read from that interval at every level the segment
        // climbed, a cache miss each: ~30 % of this analysis.
        struct StackSegment {
            PackedU64 start;
            PackedU64 end; // half-open
            std::uint32_t lane = 0;
        };
        static_assert(sizeof(StackSegment) == 20);
        const auto startOf = [](const StackSegment &s) { return s.start.value(); };
        std::vector<StackSegment> stack;
        {
            const SparseReservation bound;
            stack.reserve(own.size()); // a segment per interval at most: never moves
        }
        std::vector<std::pair<std::uint32_t, std::uint64_t>> countStack;
        std::vector<Run> runs;
        // Per lane, for the span being merged: its last segment on the stack, its interval
        // count and busy time. laneStamp says which span last touched the lane, so nothing
        // is cleared between spans.
        const std::size_t laneCount = result.m_lanes.size();
        std::vector<std::uint32_t> laneStamp(laneCount, kNone);
        std::vector<std::size_t> laneLast(laneCount, 0);
        std::vector<std::uint64_t> laneIntervals(laneCount, 0);
        std::vector<std::uint64_t> laneBusy(laneCount, 0);
        std::vector<std::uint32_t> touched;
        constexpr std::size_t kNoSegment = SIZE_MAX;
        for (const std::uint32_t span : postOrder) {
            const std::span<const std::uint32_t> children = tree.children(span);
            if (children.empty() && ownOf(span).size() == 1) {
                // Most spans with device work are leaves (ops' spans) with one interval: its
                // row is that interval, without the merge's bookkeeping. Their parents read
                // the interval where it is, as for every leaf.
                const Segment seg = segmentOf(ownOf(span).front());
                row.resize(1);
                row[0].lane = seg.lane;
                row[0].intervals = 1;
                row[0].busyNs = seg.end - seg.start;
                emit(span, row);
                continue;
            }
            std::size_t innerChildren = 0;
            for (const std::uint32_t child : children)
                innerChildren += tree.children(child).empty() ? 0 : 1;
            const std::size_t firstRun = runs.size() - innerChildren;
            const std::size_t begin = innerChildren ? runs[firstRun].segments : stack.size();
            const std::size_t countsBegin = innerChildren ? runs[firstRun].counts : countStack.size();
            runs.resize(firstRun);
            touched.clear();
            const auto touch = [&](std::uint32_t lane) {
                if (laneStamp[lane] != span) {
                    laneStamp[lane] = span;
                    laneLast[lane] = kNoSegment;
                    laneIntervals[lane] = 0;
                    laneBusy[lane] = 0;
                    touched.push_back(lane);
                }
            };
            for (std::size_t c = countsBegin; c < countStack.size(); ++c) {
                const auto [lane, n] = countStack[c];
                touch(lane);
                laneIntervals[lane] = saturatingAdd(laneIntervals[lane], n);
            }
            countStack.resize(countsBegin);
            const auto addRaw = [&](std::span<const std::uint32_t> list) {
                for (const std::uint32_t interval : list) {
                    const Segment seg = segmentOf(interval);
                    touch(seg.lane);
                    laneIntervals[seg.lane] = saturatingAdd(laneIntervals[seg.lane], 1);
                    if (seg.end > seg.start)
                        stack.push_back(StackSegment{seg.start, seg.end, seg.lane});
                }
            };
            addRaw(ownOf(span));
            for (const std::uint32_t child : children) {
                if (tree.children(child).empty())
                    addRaw(ownOf(child)); // a leaf's intervals are read where they are
            }
            const bool keepsRun = tree.parent(span) != SpanTree::kNoParent && !children.empty();
            if (touched.empty()) {
                if (keepsRun)
                    runs.push_back(Run{stack.size(), countStack.size()}); // an empty union
                continue;
            }
            const auto byStart = [&startOf](const StackSegment &a, const StackSegment &b) {
                return startOf(a) < startOf(b);
            };
            const auto first = stack.begin() + std::ptrdiff_t(begin);
            if (!std::is_sorted(first, stack.end(), byStart))
                std::sort(first, stack.end(), byStart);
            // Each lane's segments, by start, join while the next starts before the last ends.
            std::size_t kept = begin;
            for (std::size_t j = begin; j < stack.size(); ++j) {
                const StackSegment seg = stack[j];
                std::size_t &last = laneLast[seg.lane];
                if (last != kNoSegment && startOf(seg) <= stack[last].end) {
                    stack[last].end = std::max<std::uint64_t>(stack[last].end, seg.end);
                    continue;
                }
                last = kept;
                stack[kept++] = seg;
            }
            stack.resize(kept);
            for (std::size_t j = begin; j < kept; ++j)
                laneBusy[stack[j].lane] += stack[j].end - startOf(stack[j]);
            std::sort(touched.begin(), touched.end());
            row.clear();
            for (const std::uint32_t lane : touched) {
                DeviceBusy b;
                b.lane = lane;
                b.intervals = static_cast<std::uint32_t>(std::min<std::uint64_t>(laneIntervals[lane], UINT32_MAX));
                b.busyNs = laneBusy[lane];
                row.push_back(b);
            }
            if (keepsRun) {
                for (const std::uint32_t lane : touched)
                    countStack.emplace_back(lane, laneIntervals[lane]);
                runs.push_back(Run{begin, countsBegin});
            } else {
                stack.resize(begin);
            }
            emit(span, row);
        }
    } else {
        // Deep nesting (a hostile chain): small-to-large merging of per-lane interval sets
        // keeps it at n log² n whatever the depth.
        std::vector<std::unique_ptr<LaneSet>> sets(spanCount);
        for (const std::uint32_t span : postOrder) {
            std::unique_ptr<LaneSet> base;
            for (const std::uint32_t child : tree.children(span)) {
                std::unique_ptr<LaneSet> &theirs = sets[child];
                if (!theirs)
                    continue;
                if (!base) {
                    base = std::move(theirs);
                    continue;
                }
                if (theirs->size > base->size)
                    std::swap(base, theirs);
                base->absorb(*theirs);
                theirs.reset();
            }
            for (const std::uint32_t interval : ownOf(span)) {
                if (!base)
                    base = std::make_unique<LaneSet>();
                const Segment seg = segmentOf(interval);
                base->add(seg.lane, seg.start, seg.end);
            }
            if (!base)
                continue;
            row.clear();
            for (const auto &[lane, segs] : base->lanes)
                row.push_back(busyOf(lane, segs));
            emit(span, row);
            if (tree.parent(span) != SpanTree::kNoParent)
                sets[span] = std::move(base);
        }
    }

    if (!rowsSizedFirst) {
        result.m_busy.resize(emitted.size());
        std::size_t at = 0;
        for (std::size_t i = 0; i < spanCount; ++i) {
            for (std::uint32_t k = 0; k < emittedCount[i]; ++k)
                result.m_busy.set(at++, emitted[emittedStart[i] + k]);
            offset[i + 1] = std::uint32_t(at);
        }
    }
    result.m_busy.finish();
    std::sort(result.m_omitted.begin(), result.m_omitted.end());
    result.m_offset = BlockPackedU32(offset);
    return result;
}

std::uint64_t DeviceTime::maxBusyNs(std::size_t i) const
{
    // From the row, not kept per span (8 bytes a span, 7.7 MB on the 1 GB trace): a row is
    // one entry per lane, and the busiest lanes are the ones a capped row keeps.
    std::uint64_t maxBusy = 0;
    for (const DeviceBusy &b : busyOfSpan(i))
        maxBusy = std::max(maxBusy, b.busyNs);
    return maxBusy;
}

std::uint32_t DeviceTime::lanesOmitted(std::size_t i) const
{
    const auto it = std::lower_bound(m_omitted.begin(), m_omitted.end(),
                                     std::pair<std::uint32_t, std::uint32_t>(std::uint32_t(i), 0));
    return it != m_omitted.end() && it->first == i ? it->second : 0;
}

std::size_t DeviceTime::memoryUsage() const
{
    return m_lanes.capacity() * sizeof(DeviceLane) + m_busy.memoryUsage() + m_offset.memoryUsage() + m_flags.capacity()
           + m_omitted.capacity() * sizeof(m_omitted[0]) + m_outside.capacity() * sizeof(DeviceBusy)
           + (m_outsideIntervals.capacity() + m_outsideOffset.capacity()) * sizeof(std::uint32_t);
}

} // namespace TraceInspector
