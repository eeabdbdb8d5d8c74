// SPDX-License-Identifier: MIT
#include "core/analysis/memoryseries.h"

#include <algorithm>
#include <type_traits>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/radixorder.h"
#include "core/analysis/recordextents.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

using Stack = std::array<std::uint64_t, kMemoryCategoryCount>;
using Sums = std::array<WideSum, kMemoryCategoryCount>;

constexpr std::array<int, kMemoryCategoryCount> stackPositions()
{
    std::array<int, kMemoryCategoryCount> pos{};
    for (int i = 0; i < kMemoryCategoryCount; ++i)
        pos[static_cast<std::size_t>(kChartCategoryOrder[static_cast<std::size_t>(i)])] = i;
    return pos;
}
constexpr std::array<int, kMemoryCategoryCount> kStackPosition = stackPositions();

Stack stackOf(const Sums &sums)
{
    Stack out{};
    WideSum running;
    for (std::size_t k = 0; k < sums.size(); ++k) {
        running.add(sums[k].lo);
        running.hi += sums[k].hi;
        out[k] = running.saturated();
    }
    return out;
}

void addSums(Sums &into, const WideSum *from)
{
    for (std::size_t k = 0; k < into.size(); ++k) {
        into[k].add(from[k].lo);
        into[k].hi += from[k].hi;
    }
}

/// Min/max of each stack level over one bucket, and whether the total's minimum came first.
struct Bucket {
    bool seen = false;
    Stack min{};
    Stack max{};
    std::uint64_t minOrder = 0;
    std::uint64_t maxOrder = 0;

    void include(const Stack &s, std::uint64_t order)
    {
        if (!seen) {
            seen = true;
            min = max = s;
            minOrder = maxOrder = order;
            return;
        }
        // Strict comparisons keep the earliest occurrence of the total's extremes.
        if (s.back() < min.back())
            minOrder = order;
        if (s.back() > max.back())
            maxOrder = order;
        for (std::size_t k = 0; k < s.size(); ++k) {
            min[k] = std::min(min[k], s[k]);
            max[k] = std::max(max[k], s[k]);
        }
    }
};

constexpr std::uint32_t kNoRecord = UINT32_MAX;

/// The logical deltas when Trace::memory is in time order as read (the usual case): one pass
/// over the records, in which each lifetime's first record (its alloc) and last (its free,
/// when closed) are marked. Allocs and frees of one time may interleave: a query applies a
/// time's deltas together, so their order within it does not matter. Sorting the frees by
/// time and merging them with the lifetimes' starts instead took ~2/3 of the 1 GB trace's
/// series: a pass over the lifetimes for their last records, a radix sort, the merge.
/// \a reserve gets the number of deltas at most, before the first \a push.
template<typename MetaOf, typename Push, typename Reserve>
void deltasInRecordOrder(const Trace &trace, const LogicalMemoryProfile &logical, const MetaOf &metaOf,
                         const Push &push, const Reserve &reserve)
{
    const std::size_t count = logical.lifetimeCount();
    const std::size_t records = trace.memory.size();
    // Per record: itself when it starts a lifetime, that lifetime's first record when it is
    // the lifetime's last, else kNoRecord.
    std::vector<std::uint32_t> allocOf(records, kNoRecord);
    std::size_t lasts = 0;
    for (std::size_t l = 0; l < count; ++l) {
        const std::span<const std::uint32_t> recs = logical.lifetimeRecords(l);
        allocOf[recs.front()] = recs.front();
        if (recs.size() > 1) {
            allocOf[recs.back()] = recs.front();
            ++lasts;
        }
    }
    reserve(count + lasts);
    // A free's alloc lies anywhere before it: fetched ahead.
    constexpr std::size_t kAhead = 16;
    for (std::size_t r = 0; r < records; ++r) {
        if (r + kAhead < records && allocOf[r + kAhead] != kNoRecord)
            __builtin_prefetch(&trace.memory[allocOf[r + kAhead]]);
        const std::uint32_t a = allocOf[r];
        if (a == kNoRecord)
            continue;
        const MemoryEvent &e = trace.memory[r];
        if (a == r) {
            push(e.timestampNs, e.bytes, metaOf(e));
        } else if (e.action == MemoryAction::Free) {
            // The storage keeps its first alloc's size and category.
            const MemoryEvent &alloc = trace.memory[a];
            push(e.timestampNs, alloc.bytes, metaOf(alloc) | 1u);
        }
    }
}

/// The logical deltas of records out of time order: lifetimes are sorted by start, their
/// ends are sorted here (by time, then lifetime) and merged in. A radix sort of the times,
/// stable so that lifetimes stay in order: comparison-sorting the (time, lifetime) pairs was
/// ~40 ms of the 1 GB trace's series.
template<typename MetaOf, typename Push, typename Reserve>
void deltasFromSortedEnds(const Trace &trace, const LogicalMemoryProfile &logical, const MetaOf &metaOf,
                          const Push &push, const Reserve &reserve)
{
    const std::size_t count = logical.lifetimeCount();
    std::vector<std::uint64_t> endTimes;
    std::vector<std::uint32_t> endLifetimes;
    endTimes.reserve(count);
    endLifetimes.reserve(count);
    // A lifetime's last record lies anywhere after its first: fetched ahead.
    constexpr std::uint32_t kAhead = 16;
    for (std::uint32_t l = 0; l < count; ++l) {
        if (l + kAhead < count)
            __builtin_prefetch(&trace.memory[logical.lifetimeRecords(l + kAhead).back()]);
        const std::span<const std::uint32_t> recs = logical.lifetimeRecords(l);
        const MemoryEvent &z = trace.memory[recs.back()];
        if (recs.size() > 1 && z.action == MemoryAction::Free) {
            endTimes.push_back(z.timestampNs);
            endLifetimes.push_back(l);
        }
    }
    std::vector<std::uint64_t> endTimesSorted;
    std::vector<std::uint32_t> endOrder = radixOrder(std::move(endTimes), &endTimesSorted);
    for (std::uint32_t &k : endOrder)
        k = endLifetimes[k];
    std::vector<std::uint32_t>().swap(endLifetimes);
    reserve(count + endOrder.size());
    std::size_t e = 0;
    for (std::uint32_t l = 0; l <= count; ++l) {
        const std::uint64_t start =
            l < count ? trace.memory[logical.lifetimeAllocRecord(l)].timestampNs.value() : UINT64_MAX;
        for (; e < endOrder.size() && (endTimesSorted[e] < start || l == count); ++e) {
            // Ends come by time: their allocations lie anywhere before them.
            if (e + kAhead < endOrder.size())
                __builtin_prefetch(&trace.memory[logical.lifetimeAllocRecord(endOrder[e + kAhead])]);
            const MemoryEvent &alloc = trace.memory[logical.lifetimeAllocRecord(endOrder[e])];
            push(endTimesSorted[e], alloc.bytes, metaOf(alloc) | 1u);
        }
        if (l == count)
            break;
        const MemoryEvent &alloc = trace.memory[logical.lifetimeAllocRecord(l)];
        push(alloc.timestampNs, alloc.bytes, metaOf(alloc));
    }
}

} // namespace

MemorySeries::MemorySeries(const Trace &trace, const MemoryProfile &profile, const RecordExtents *extents)
{
    const LogicalMemoryProfile *logical = profile.logical ? &*profile.logical : nullptr;
    const PhysicalMemoryProfile *physical = profile.physical ? &*profile.physical : nullptr;

    std::vector<std::string> names;
    if (logical)
        for (const StringId d : logical->devices())
            names.emplace_back(trace.str(d));
    if (physical)
        for (const PhysicalDeviceMemoryStats &d : physical->byDevice())
            names.emplace_back(trace.str(d.device));
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    m_deviceNames = std::move(names);
    m_info.resize(m_deviceNames.size());
    const auto indexOf = [this](std::string_view name) {
        const auto it = std::lower_bound(m_deviceNames.begin(), m_deviceNames.end(), name);
        return static_cast<std::size_t>(it - m_deviceNames.begin());
    };

    std::uint64_t first = UINT64_MAX;
    std::uint64_t last = 0;
    bool any = false;

    if (physical) {
        DenseKeyIndex byId(physical->byDevice().size());
        std::vector<std::size_t> target;
        for (const PhysicalDeviceMemoryStats &d : physical->byDevice()) {
            byId.insert(d.device);
            target.push_back(indexOf(trace.str(d.device)));
        }
        constexpr std::uint8_t usedBit = 1u << int(PhysicalMetric::Used);
        constexpr std::uint8_t reservedBit = 1u << int(PhysicalMetric::Reserved);
        constexpr std::uint8_t capacityBit = 1u << int(PhysicalMetric::Capacity);
        for (const std::uint32_t i : physical->timeline()) {
            const DeviceMemorySample &s = trace.deviceMemory[i];
            DeviceInfo &info = m_info[target[byId.find(s.device)]];
            const std::uint8_t has = (s.has(DeviceMemorySample::Used) ? usedBit : 0)
                                     | (s.has(DeviceMemorySample::Reserved) ? reservedBit : 0)
                                     | (s.has(DeviceMemorySample::Capacity) ? capacityBit : 0);
            info.samples.push_back({s.timestampNs, {s.usedBytes, s.reservedBytes, s.capacityBytes}, has});
            info.has |= has;
            first = std::min(first, s.timestampNs);
            last = std::max(last, s.timestampNs);
            any = true;
        }
    }

    if (logical) {
        m_hasLogical = true;
        const std::span<const StringId> devices = logical->devices();
        m_logicalSlots = devices.size();
        DenseKeyIndex slotOf(devices.size());
        std::vector<std::size_t> infoOfSlot(devices.size());
        for (std::size_t s = 0; s < devices.size(); ++s) {
            slotOf.insert(devices[s]);
            infoOfSlot[s] = indexOf(trace.str(devices[s]));
            DeviceInfo &info = m_info[infoOfSlot[s]];
            info.logicalSlot = static_cast<int>(s);
            const LogicalDeviceMemoryStats &stats = logical->byDevice()[s];
            info.peakTimeNs = stats.peakTimestampNs;
            info.peakBytes = stats.peakLiveBytes;
        }
        if (const auto &peak = logical->peak()) {
            m_peakTimeNs = peak->timestampNs;
            m_peakBytes = peak->liveBytes;
        }
        if (logical->timelineSize() > 0) {
            first = std::min(first, logical->timelineTimestamps().front());
            last = std::max(last, logical->timelineTimestamps().back());
            any = true;
        }

        // The deltas in time order: each lifetime's alloc, and its free when closed. The metas
        // are made 2 bytes each from the start when they fit (at most 4096 slots): a 4-byte
        // array copied into 2 bytes at the end had both alive at the series' peak (~7 MB on the
        // 1 GB trace, beside the evidence analysis).
        const auto metaOf = [&](const MemoryEvent &alloc) {
            const std::uint32_t slot = slotOf.find(alloc.device);
            const int pos = kStackPosition[static_cast<std::size_t>(alloc.category)];
            m_allCategories[std::size_t(pos)] = true;
            m_info[infoOfSlot[slot]].categories[std::size_t(pos)] = true;
            return (slot << 4) | (std::uint32_t(pos) << 1);
        };
        const auto mergeDeltas = [&]<typename Meta>(Meta) {
            std::vector<Meta> metas;
            const auto push = [&](std::uint64_t time, std::uint64_t bytes, std::uint32_t meta) {
                m_times.push_back(time);
                m_bytes.push_back(bytes);
                metas.push_back(static_cast<Meta>(meta));
            };
            const auto reserve = [&](std::size_t total) {
                m_times.reserve(total);
                m_bytes.reserve(total);
                metas.reserve(total);
            };
            if (logical->recordsInTimeOrder())
                deltasInRecordOrder(trace, *logical, metaOf, push, reserve);
            else
                deltasFromSortedEnds(trace, *logical, metaOf, push, reserve);
            m_times.finish();
            m_bytes.finish();
            if constexpr (std::is_same_v<Meta, std::uint16_t>)
                m_meta = NarrowU32Array(std::move(metas));
            else
                m_meta = NarrowU32Array(metas);
        };
        if ((m_logicalSlots << 4) <= std::size_t(UINT16_MAX) + 1)
            mergeDeltas(std::uint16_t());
        else
            mergeDeltas(std::uint32_t());

        m_firstEvent.assign(m_logicalSlots, m_times.size());
        for (std::size_t i = m_times.size(); i-- > 0;)
            m_firstEvent[m_meta[i] >> 4] = i;
        const std::size_t stride = m_logicalSlots * kMemoryCategoryCount;
        // Keep the checkpoints no larger than the deltas themselves, whatever the device count.
        m_checkpointInterval = std::max<std::size_t>(4096, stride * 2);
        std::vector<WideSum> running(stride);
        for (std::size_t i = 0; i < m_times.size(); ++i) {
            if (i % m_checkpointInterval == 0)
                m_checkpoints.insert(m_checkpoints.end(), running.begin(), running.end());
            const std::uint32_t meta = m_meta[i];
            WideSum &sum = running[(meta >> 4) * kMemoryCategoryCount + ((meta >> 1) & 7)];
            if (meta & 1)
                sum.sub(m_bytes[i]);
            else
                sum.add(m_bytes[i]);
        }
    }

    if (any)
        m_range = {first, last == UINT64_MAX ? UINT64_MAX : last + 1};

    // §6.3 host evidence (saturating ends) and the terminal bound the run. The spans' and
    // ops' latest end is RecordExtents::runEndNs (0 without either), when the caller has it.
    std::uint64_t runEnd = any ? last : 0;
    runEnd = std::max(runEnd, extents ? extents->runEndNs : RecordExtents::compute(trace).runEndNs);
    if (trace.terminal)
        runEnd = std::max(runEnd, trace.terminal->timestampNs);
    m_runRange = {0, runEnd == UINT64_MAX ? UINT64_MAX : runEnd + 1};
}

bool MemorySeries::hasLogical(int device) const
{
    if (device == kAllDevices)
        return m_hasLogical;
    return device >= 0 && std::size_t(device) < m_info.size() && m_info[std::size_t(device)].logicalSlot >= 0;
}

bool MemorySeries::hasPhysical(int device) const
{
    if (device == kAllDevices)
        return std::any_of(m_info.begin(), m_info.end(), [](const DeviceInfo &i) { return !i.samples.empty(); });
    return device >= 0 && std::size_t(device) < m_info.size() && !m_info[std::size_t(device)].samples.empty();
}

void MemorySeries::sumsBefore(std::size_t index, int slot, Sums &sums) const
{
    sums = {};
    const std::size_t stride = m_logicalSlots * kMemoryCategoryCount;
    std::size_t checkpoint = index / m_checkpointInterval;
    // An index just past the last change may lie beyond the last checkpoint taken.
    if (stride > 0 && !m_checkpoints.empty())
        checkpoint = std::min(checkpoint, m_checkpoints.size() / stride - 1);
    if (!m_times.empty()) {
        const WideSum *base = m_checkpoints.data() + checkpoint * stride;
        if (slot < 0) {
            for (std::size_t s = 0; s < m_logicalSlots; ++s)
                addSums(sums, base + s * kMemoryCategoryCount);
        } else {
            addSums(sums, base + std::size_t(slot) * kMemoryCategoryCount);
        }
    }
    for (std::size_t i = checkpoint * m_checkpointInterval; i < index; ++i) {
        const std::uint32_t meta = m_meta[i];
        if (slot >= 0 && int(meta >> 4) != slot)
            continue;
        WideSum &sum = sums[(meta >> 1) & 7];
        if (meta & 1)
            sum.sub(m_bytes[i]);
        else
            sum.add(m_bytes[i]);
    }
}

LogicalChartData MemorySeries::logical(int device, const TimeWindow &window, int buckets,
                                       const std::atomic<bool> *cancel) const
{
    LogicalChartData out;
    if (!hasLogical(device))
        return out;
    out.known = true;
    const int slot = device == kAllDevices ? -1 : m_info[std::size_t(device)].logicalSlot;
    if (device == kAllDevices) {
        out.categoryPresent = m_allCategories;
        out.peakTimeNs = m_peakTimeNs;
        out.peakBytes = m_peakBytes;
    } else {
        const DeviceInfo &info = m_info[std::size_t(device)];
        out.categoryPresent = info.categories;
        out.peakTimeNs = info.peakTimeNs;
        out.peakBytes = info.peakBytes;
    }
    if (window.isEmpty() || buckets <= 0)
        return out;

    const std::size_t first = m_times.lowerBound(window.begin);
    const std::size_t last = m_times.lowerBound(window.end);
    Sums sums;
    sumsBefore(first, slot, sums);
    Stack current = stackOf(sums);
    // The selection's line starts at its first change: before it there is no data, not zero.
    bool started = slot < 0 ? first > 0 : m_firstEvent[std::size_t(slot)] < first;

    // Polled every 4096 groups (a million changes take 15-50 ms).
    std::size_t groups = 0;
    const auto cancelled = [&] { return cancel && (groups++ & 4095) == 0 && cancel->load(std::memory_order_relaxed); };
    const auto applyGroup = [&](std::size_t &i) {
        const std::uint64_t t = m_times[i];
        for (; i < last && m_times[i] == t; ++i) {
            const std::uint32_t meta = m_meta[i];
            if (slot >= 0 && int(meta >> 4) != slot)
                continue;
            started = true;
            WideSum &sum = sums[(meta >> 1) & 7];
            if (meta & 1)
                sum.sub(m_bytes[i]);
            else
                sum.add(m_bytes[i]);
        }
        current = stackOf(sums);
        return t;
    };

    if (last - first <= std::size_t(buckets)) {
        // Few enough changes: draw every one as a step.
        if (started)
            out.columns.push_back({window.begin, current});
        for (std::size_t i = first; i < last;) {
            if (cancelled())
                return {};
            const Stack before = current;
            const std::uint64_t t = applyGroup(i);
            if (!started || (!out.columns.empty() && before == current))
                continue;
            if (!out.columns.empty())
                out.columns.push_back({t, before});
            out.columns.push_back({t, current});
        }
        if (!out.columns.empty())
            out.columns.push_back({window.end, current});
    } else {
        out.downsampled = true;
        std::vector<Bucket> bins(static_cast<std::size_t>(buckets));
        std::uint64_t order = 1;
        int lastBin = -1;
        if (started) {
            bins[0].include(current, order++);
            lastBin = 0;
        }
        // bucketIndex() of each group's time, which only grows: the bucket moves forward at
        // most `buckets` times in all (a 128-bit division per group was a fifth of the walk).
        int binNow = 0;
        std::uint64_t nextBinStart = bucketStart(window, buckets, 1);
        const auto binOf = [&](std::uint64_t t) {
            while (binNow + 1 < buckets && t >= nextBinStart)
                nextBinStart = bucketStart(window, buckets, ++binNow + 1);
            return binNow;
        };
        for (std::size_t i = first; i < last;) {
            if (cancelled())
                return {};
            const int b = binOf(m_times[i]);
            if (lastBin >= 0)
                for (int k = lastBin + 1; k <= b; ++k)
                    bins[std::size_t(k)].include(current, order++); // value held into these buckets
            applyGroup(i);
            if (!started)
                continue;
            lastBin = b;
            bins[std::size_t(b)].include(current, order++);
        }
        if (lastBin >= 0)
            for (int k = lastBin + 1; k < buckets; ++k)
                bins[std::size_t(k)].include(current, order++);
        for (int b = 0; b < buckets; ++b) {
            const Bucket &bin = bins[std::size_t(b)];
            const std::uint64_t x0 = bucketStart(window, buckets, b);
            const std::uint64_t next = bucketStart(window, buckets, b + 1);
            if (!bin.seen || next == x0) // zero-width buckets hold no time
                continue;
            const std::uint64_t x1 = x0 + (next - x0) / 2;
            out.envelope.push_back({x0, next, bin.min, bin.max});
            if (bin.min == bin.max) {
                out.columns.push_back({x0, bin.min});
            } else if (bin.minOrder <= bin.maxOrder) {
                out.columns.push_back({x0, bin.min});
                out.columns.push_back({x1, bin.max});
            } else {
                out.columns.push_back({x0, bin.max});
                out.columns.push_back({x1, bin.min});
            }
        }
        if (!out.columns.empty())
            out.columns.push_back({window.end, current});
    }
    for (const StackedColumn &c : out.columns)
        out.maxBytes = std::max(out.maxBytes, c.stack.back());
    return out;
}

PhysicalDeviceSeries MemorySeries::physicalFor(int device, const TimeWindow &window, int buckets) const
{
    const DeviceInfo &info = m_info[std::size_t(device)];
    PhysicalDeviceSeries out;
    out.device = device;
    for (int m = 0; m < kPhysicalMetricCount; ++m)
        out.metrics[std::size_t(m)].present = (info.has & (1u << m)) != 0;
    if (window.isEmpty() || buckets <= 0)
        return out;
    const auto &samples = info.samples;
    const auto byTime = [](const Sample &s, std::uint64_t t) { return s.timeNs < t; };
    const std::size_t lo =
        std::size_t(std::lower_bound(samples.begin(), samples.end(), window.begin, byTime) - samples.begin());
    const std::size_t hi =
        std::size_t(std::lower_bound(samples.begin(), samples.end(), window.end, byTime) - samples.begin());

    const auto collect = [&](int metric, PhysicalMetricSeries &series) {
        const std::uint8_t field = std::uint8_t(1u << metric);
        std::vector<ChartPoint> &points = series.points;
        const auto value = [metric](const Sample &s) { return s.values[std::size_t(metric)]; };
        std::optional<ChartPoint> before;
        for (std::size_t i = lo; i-- > 0;)
            if (samples[i].has & field) {
                before = ChartPoint{samples[i].timeNs, value(samples[i])};
                break;
            }
        if (before)
            points.push_back(*before);
        std::size_t inside = 0;
        for (std::size_t i = lo; i < hi; ++i)
            inside += (samples[i].has & field) ? 1 : 0;
        if (inside <= std::size_t(buckets) * 2) {
            for (std::size_t i = lo; i < hi; ++i)
                if (samples[i].has & field)
                    points.push_back({samples[i].timeNs, value(samples[i])});
        } else {
            // Per bucket the smallest and the largest sample (earliest of equals), in time order.
            series.downsampled = true;
            if (before)
                series.envelope.push_back({before->timeNs, before->bytes, before->bytes});
            std::size_t i = lo;
            for (int b = 0; b < buckets && i < hi; ++b) {
                const std::uint64_t end = bucketStart(window, buckets, b + 1);
                std::optional<std::size_t> minAt, maxAt;
                for (; i < hi && samples[i].timeNs < end; ++i) {
                    if (!(samples[i].has & field))
                        continue;
                    if (!minAt || value(samples[i]) < value(samples[*minAt]))
                        minAt = i;
                    if (!maxAt || value(samples[i]) > value(samples[*maxAt]))
                        maxAt = i;
                }
                if (!minAt)
                    continue;
                const std::size_t a = std::min(*minAt, *maxAt);
                const std::size_t z = std::max(*minAt, *maxAt);
                points.push_back({samples[a].timeNs, value(samples[a])});
                if (z != a)
                    points.push_back({samples[z].timeNs, value(samples[z])});
                series.envelope.push_back({std::max(bucketStart(window, buckets, b), window.begin),
                                           value(samples[*minAt]), value(samples[*maxAt])});
            }
        }
        for (std::size_t i = hi; i < samples.size(); ++i)
            if (samples[i].has & field) {
                points.push_back({samples[i].timeNs, value(samples[i])});
                if (series.downsampled)
                    series.envelope.push_back({samples[i].timeNs, value(samples[i]), value(samples[i])});
                break;
            }
    };
    for (int m = 0; m < kPhysicalMetricCount; ++m)
        collect(m, out.metrics[std::size_t(m)]);
    return out;
}

PhysicalChartData MemorySeries::physical(int device, const TimeWindow &window, int buckets) const
{
    PhysicalChartData out;
    if (!hasPhysical(device))
        return out;
    out.known = true;
    for (int d = 0; d < int(m_info.size()); ++d) {
        if ((device != kAllDevices && d != device) || m_info[std::size_t(d)].samples.empty())
            continue;
        out.devices.push_back(physicalFor(d, window, buckets));
        // The neighbours outside the window count too: the lines run through it to them.
        for (const PhysicalMetricSeries &m : out.devices.back().metrics)
            for (const ChartPoint &p : m.points)
                out.maxBytes = std::max(out.maxBytes, p.bytes);
    }
    return out;
}

std::optional<StackedColumn> MemorySeries::logicalAt(int device, std::uint64_t t) const
{
    if (!hasLogical(device))
        return std::nullopt;
    const int slot = device == kAllDevices ? -1 : m_info[std::size_t(device)].logicalSlot;
    const std::size_t next = m_times.upperBound(t);
    const std::size_t firstChange = slot < 0 ? 0 : m_firstEvent[std::size_t(slot)];
    if (m_times.empty() || next <= firstChange)
        return std::nullopt; // nothing of the selection has happened yet: no data, not zero
    Sums sums;
    sumsBefore(next, slot, sums);
    return StackedColumn{t, stackOf(sums)};
}

std::vector<PhysicalReading> MemorySeries::physicalAt(int device, std::uint64_t t) const
{
    std::vector<PhysicalReading> out;
    for (int d = 0; d < int(m_info.size()); ++d) {
        const DeviceInfo &info = m_info[std::size_t(d)];
        if ((device != kAllDevices && d != device) || info.samples.empty())
            continue;
        PhysicalReading reading;
        reading.device = d;
        const auto byTime = [](std::uint64_t v, const Sample &s) { return v < s.timeNs; };
        const std::size_t after =
            std::size_t(std::upper_bound(info.samples.begin(), info.samples.end(), t, byTime) - info.samples.begin());
        for (int m = 0; m < kPhysicalMetricCount; ++m) {
            const std::uint8_t field = std::uint8_t(1u << m);
            for (std::size_t i = after; i-- > 0;) {
                if (info.samples[i].has & field) {
                    reading.values[std::size_t(m)] =
                        ChartPoint{info.samples[i].timeNs, info.samples[i].values[std::size_t(m)]};
                    break;
                }
            }
        }
        out.push_back(reading);
    }
    return out;
}

std::vector<std::uint32_t> MemorySeries::liveLifetimesAt(const Trace &trace, const MemoryProfile &profile,
                                                         std::uint64_t t, std::string_view device)
{
    std::vector<std::uint32_t> out;
    if (!profile.logical)
        return out;
    const LogicalMemoryProfile &logical = *profile.logical;
    const std::size_t count = logical.lifetimeCount();
    // Lifetimes are sorted by start time: only those started by t can be live.
    std::size_t lo = 0;
    std::size_t hi = count;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (trace.memory[logical.lifetimeAllocRecord(mid)].timestampNs <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (std::uint32_t l = 0; l < lo; ++l) {
        const std::span<const std::uint32_t> recs = logical.lifetimeRecords(l);
        const MemoryEvent &alloc = trace.memory[recs.front()];
        if (!device.empty() && trace.str(alloc.device) != device)
            continue;
        const MemoryEvent &last = trace.memory[recs.back()];
        if (recs.size() > 1 && last.action == MemoryAction::Free && last.timestampNs <= t)
            continue; // freed by then
        out.push_back(l);
    }
    return out;
}

std::size_t MemorySeries::memoryUsage() const
{
    std::size_t n = m_times.memoryUsage() + m_bytes.memoryUsage() + m_meta.memoryUsage()
                    + m_checkpoints.capacity() * sizeof(WideSum);
    for (const DeviceInfo &i : m_info)
        n += i.samples.capacity() * sizeof(Sample);
    return n;
}

} // namespace TraceInspector
