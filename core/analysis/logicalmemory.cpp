// SPDX-License-Identifier: MIT
#include "core/analysis/logicalmemory.h"

#include <algorithm>
#include <numeric>

#include "core/analysis/densebytes.h"
#include "core/analysis/logicalmemorykeys.h"
#include "core/analysis/stringidranks.h"
#include "core/model/hugepagearray.h"
#include "core/model/sparsereservation.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

/// The §8.1 step 1 order of Trace::memory: stable by (timestamp, position).
struct RecordOrder {
    /// Indices into Trace::memory in that order; empty when the records are in that order
    /// already (the usual case): no array of identities.
    std::vector<std::uint32_t> order;
    /// Distinct timestamps: the number of timeline points, so that the point arrays are
    /// allocated once at their final size.
    std::size_t groups = 0;
};

RecordOrder sortedRecordOrder(const std::vector<MemoryEvent> &memory)
{
    RecordOrder out;
    out.groups = memory.empty() ? 0 : 1;
    bool sorted = true;
    for (std::size_t i = 1; i < memory.size() && sorted; ++i) {
        sorted = memory[i - 1].timestampNs <= memory[i].timestampNs;
        out.groups += memory[i - 1].timestampNs != memory[i].timestampNs ? 1 : 0;
    }
    if (sorted)
        return out;
    // (timestamp, index) pairs are unique, so an unstable sort of them is the stable order.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(memory.size());
    for (std::uint32_t i = 0; i < memory.size(); ++i)
        keyed[i] = {memory[i].timestampNs, i};
    std::sort(keyed.begin(), keyed.end());
    out.order.resize(memory.size());
    out.groups = 1;
    for (std::size_t i = 0; i < keyed.size(); ++i) {
        out.order[i] = keyed[i].second;
        if (i > 0 && keyed[i - 1].first != keyed[i].first)
            ++out.groups;
    }
    return out;
}

} // namespace

class LogicalMemoryBuilder
{
public:
    LogicalMemoryBuilder(const Trace &trace, LogicalMemoryProfile &out)
        : m_trace(trace)
        , m_memory(trace.memory)
        , m_out(out)
    {
    }

    void run()
    {
        collectDevices();
        RecordOrder order = sortedRecordOrder(m_memory);
        m_order = std::move(order.order);
        m_groups = order.groups;
        m_out.m_recordsInTimeOrder = m_order.empty();
        walk<true>();
        finishLifetimes();
        finishPeak();
    }

    /// The peak's live bytes alone: the same walk, keeping no timeline, lifetime or
    /// per-device figure (`check --all` prints only this number; the whole profile of a 1 GB
    /// trace is ~60 MB and a fifth of its analysis time).
    std::optional<std::uint64_t> peakLiveBytes()
    {
        collectDevices();
        m_order = sortedRecordOrder(m_memory).order;
        return walk<false>();
    }

private:
    struct SlotState {
        WideSum bytes;
        std::uint64_t count = 0;
    };

    void collectDevices()
    {
        DenseKeyIndex index(64);
        m_storages = StringIdRanks(m_trace.strings.size());
        for (const MemoryEvent &e : m_memory) {
            index.insert(e.device);
            m_storages.insert(e.storageId);
        }
        m_storages.finish();
        std::vector<StringId> devices(index.size());
        for (std::uint32_t i = 0; i < index.size(); ++i)
            devices[i] = static_cast<StringId>(index.key(i));
        std::sort(devices.begin(), devices.end(),
                  [this](StringId a, StringId b) { return m_trace.strings.less(a, b); });
        // Re-index so that a device's dense index in m_deviceIndex is its rank.
        m_deviceIndex = DenseKeyIndex(devices.size());
        for (const StringId d : devices)
            m_deviceIndex.insert(d);
        m_out.m_devices = devices;
        m_out.m_byDevice.resize(devices.size());
        for (std::size_t i = 0; i < devices.size(); ++i)
            m_out.m_byDevice[i].device = devices[i];
    }

    /// The record at \a position in time order.
    std::uint32_t recordAt(std::size_t position) const
    {
        return m_order.empty() ? static_cast<std::uint32_t>(position) : m_order[position];
    }

    /// Walks the records in time order; with \a kProfile fills the profile, without it only
    /// finds the peak. Returns the peak's live bytes (none without an allocation).
    template<bool kProfile>
    std::optional<std::uint64_t> walk()
    {
        LogicalMemoryProfile &o = m_out;
        const std::size_t deviceCount = o.m_devices.size();
        if constexpr (kProfile) {
            const std::size_t slots = o.slotCount();
            m_slots.assign(slots, SlotState{});
            m_emittedPresent.assign(slots, 0);
            m_emittedBytes.assign(slots, 0);
            m_touchStamp.assign(slots, 0);
            m_recordLifetime.assign(m_memory.size(), kNone);
            o.m_checkpointInterval = std::max<std::size_t>(256, slots);
            // Every array is allocated once: the point and checkpoint arrays at their final
            // size, the changes at their bound (a record moves at most its device and its
            // category; pages never written cost no memory). Growing by doubling had copied
            // each array into fresh pages. The packed arrays kept are made once at the end.
            o.m_pointTimestamps.reserve(m_groups);
            o.m_pointLiveBytes.reserve(m_groups);
            m_pointChangeEnd.reserve(m_groups);
            const std::size_t checkpoints = (m_groups + o.m_checkpointInterval - 1) / o.m_checkpointInterval;
            o.m_checkpointPresent.reserve(checkpoints * slots);
            o.m_checkpointBytes.reserve(checkpoints * slots);
            // Changes are 2 bytes each when every slot fits 15 bits (the usual few devices):
            // made narrow from the start, not copied into 2 bytes from 4 at the end (both
            // arrays were alive at the analysis's peak, ~15 MB on the 1 GB trace).
            m_narrowChangeSlots = (slots << 1) <= std::size_t(UINT16_MAX) + 1;
            const SparseReservation bounds;
            if (m_narrowChangeSlots)
                m_changeSlots16.reserve(2 * m_memory.size());
            else
                m_changeSlots = HugePageArray<std::uint32_t>(2 * m_memory.size());
            o.m_changeBytes.reserve(2 * m_memory.size());
            m_lifetimeAlloc.reserve(m_memory.size());
        }

        // Live state per (device, storage) key, found through the interned storage id's rank among
        // the records' storage ids (a bit and a count per string, m_storages: a table of a slot per
        // interned string was 9 MB of the window's peak on the 1 GB trace, the rank's table is
        // 2.9 MB, for the same CPU time); the few storages seen on several devices chain their
        // keys. A live key names the record that started its lifetime, whose size and category it
        // keeps: 12 bytes a key, not 24 with them copied in (0.63 million keys on the 1 GB trace,
        // alive beside the other analyses at the window's peak).
        struct KeyState {
            std::uint32_t device = 0;
            std::uint32_t sameStorage = kNone;
            std::uint32_t activeRecord = kNone; // the lifetime's creating record, kNone = not active
        };
        std::vector<std::uint32_t> keyOfStorage(m_storages.size(), kNone);
        std::vector<KeyState> keys;
        {
            const SparseReservation bound;
            keys.reserve(m_memory.size()); // at most one key a record; untouched pages cost nothing
        }
        WideSum total;
        std::uint64_t totalAllocations = 0;
        std::optional<std::uint64_t> peakLive;
        std::uint32_t group = 0;
        std::vector<std::uint32_t> touched;
        std::uint32_t changes = 0;

        for (std::size_t i = 0; i < m_memory.size();) {
            const std::uint64_t ts = m_memory[recordAt(i)].timestampNs;
            ++group;
            touched.clear();
            const auto touch = [&](std::size_t slot) {
                if constexpr (kProfile) {
                    if (m_touchStamp[slot] != group) {
                        m_touchStamp[slot] = group;
                        touched.push_back(static_cast<std::uint32_t>(slot));
                    }
                }
            };
            for (; i < m_memory.size() && m_memory[recordAt(i)].timestampNs == ts; ++i) {
                const std::uint32_t r = recordAt(i);
                const MemoryEvent &e = m_memory[r];
                const std::uint32_t device = m_deviceIndex.insert(e.device);
                std::uint32_t &firstKey = keyOfStorage[m_storages.rankOf(e.storageId)]; // its chain's head
                std::uint32_t k = firstKey;
                while (k != kNone && keys[k].device != device)
                    k = keys[k].sameStorage;
                if (k == kNone) {
                    k = static_cast<std::uint32_t>(keys.size());
                    KeyState &created = keys.emplace_back();
                    created.device = device;
                    created.sameStorage = firstKey;
                    firstKey = k;
                }
                KeyState &key = keys[k];
                if (e.action == MemoryAction::Alloc) {
                    if (key.activeRecord != kNone) {
                        if constexpr (kProfile)
                            m_recordLifetime[r] = m_recordLifetime[key.activeRecord];
                        continue;
                    }
                    key.activeRecord = r;
                    ++totalAllocations;
                    total.add(e.bytes);
                    if constexpr (kProfile) {
                        m_recordLifetime[r] = static_cast<std::uint32_t>(m_lifetimeAlloc.size());
                        m_lifetimeAlloc.push_back(r);
                        LogicalDeviceMemoryStats &stats = o.m_byDevice[device];
                        o.m_totalAllocatedBytes = saturatingAdd(o.m_totalAllocatedBytes, e.bytes);
                        ++stats.storageAllocationCount;
                        stats.totalAllocatedBytes = saturatingAdd(stats.totalAllocatedBytes, e.bytes);
                        const std::size_t cat = deviceCount + static_cast<std::size_t>(e.category);
                        m_slots[device].bytes.add(e.bytes);
                        ++m_slots[device].count;
                        m_slots[cat].bytes.add(e.bytes);
                        ++m_slots[cat].count;
                        touch(device);
                        touch(cat);
                    }
                } else {
                    if (key.activeRecord == kNone)
                        continue;
                    // The storage keeps its first alloc's size and category.
                    const MemoryEvent &allocation = m_memory[key.activeRecord];
                    total.sub(allocation.bytes);
                    if constexpr (kProfile) {
                        m_recordLifetime[r] = m_recordLifetime[key.activeRecord];
                        ++o.m_matchedFreeCount;
                        ++o.m_byDevice[device].matchedStorageFreeCount;
                        const std::size_t cat = deviceCount + static_cast<std::size_t>(allocation.category);
                        m_slots[device].bytes.sub(allocation.bytes);
                        --m_slots[device].count;
                        m_slots[cat].bytes.sub(allocation.bytes);
                        --m_slots[cat].count;
                        touch(device);
                        touch(cat);
                    }
                    key.activeRecord = kNone;
                }
            }

            const std::uint64_t live = total.saturated();
            if constexpr (!kProfile) {
                if (totalAllocations > 0 && (!peakLive || live > *peakLive))
                    peakLive = live;
                continue;
            }

            const std::size_t point = o.m_pointTimestamps.size();
            if (point % o.m_checkpointInterval == 0) {
                o.m_checkpointPresent.insert(o.m_checkpointPresent.end(), m_emittedPresent.begin(),
                                             m_emittedPresent.end());
                o.m_checkpointBytes.insert(o.m_checkpointBytes.end(), m_emittedBytes.begin(), m_emittedBytes.end());
            }
            o.m_pointTimestamps.push_back(ts);
            o.m_pointLiveBytes.push_back(live);
            for (const std::uint32_t slot : touched) {
                const SlotState &s = m_slots[slot];
                const std::uint8_t present = s.count > 0 ? 1 : 0;
                const std::uint64_t bytes = s.bytes.saturated();
                if (present != m_emittedPresent[slot] || bytes != m_emittedBytes[slot]) {
                    m_emittedPresent[slot] = present;
                    m_emittedBytes[slot] = bytes;
                    const std::uint32_t change = slot << 1 | (present ? 0 : 1);
                    if (m_narrowChangeSlots)
                        m_changeSlots16.push_back(static_cast<std::uint16_t>(change));
                    else
                        m_changeSlots[changes] = change;
                    o.m_changeBytes.push_back(bytes);
                    ++changes;
                }
                // A device's live bytes and allocation count only move in groups touching it,
                // so checking touched devices is the same as checking all of them.
                if (slot < deviceCount) {
                    LogicalDeviceMemoryStats &stats = o.m_byDevice[slot];
                    const std::uint64_t deviceLive = present ? bytes : 0;
                    if (stats.storageAllocationCount > 0
                        && (!stats.peakLiveBytes || deviceLive > *stats.peakLiveBytes)) {
                        stats.peakLiveBytes = deviceLive;
                        stats.peakTimestampNs = ts;
                    }
                }
            }
            m_pointChangeEnd.push_back(changes);
            if (totalAllocations > 0 && (!peakLive || live > *peakLive)) {
                peakLive = live;
                m_peakPoint = point;
            }
        }
        if constexpr (kProfile) {
            if (m_narrowChangeSlots)
                o.m_changeSlots = NarrowU32Array(std::move(m_changeSlots16));
            else
                o.m_changeSlots =
                    NarrowU32Array(std::span<const std::uint32_t>(changes ? &m_changeSlots[0] : nullptr, changes));
            m_changeSlots = {};
            m_changeSlots16 = {};
            o.m_pointChangeEnd = BlockPackedU32(m_pointChangeEnd);
            m_pointChangeEnd = {};
            o.m_changeBytes.finish();
            o.m_pointTimestamps.finish();
            o.m_pointLiveBytes.finish();
        }
        o.m_allocationCount = totalAllocations;
        m_hasPeak = peakLive.has_value();
        return peakLive;
    }

    void finishLifetimes()
    {
        LogicalMemoryProfile &o = m_out;
        const std::size_t count = m_lifetimeAlloc.size();
        // Creation order is already by start time (the walk is in time order) and, for one
        // storage key, by §8.1's pre-sort position (closed before a later re-allocation, open
        // last). So sorting each run of equal start by (device, storage id) gives the stable
        // sort of step 5.
        std::vector<std::uint32_t> sorted(count);
        std::iota(sorted.begin(), sorted.end(), 0u);
        for (std::size_t b = 0; b < count;) {
            const std::uint64_t start = m_memory[m_lifetimeAlloc[b]].timestampNs;
            std::size_t e = b + 1;
            while (e < count && m_memory[m_lifetimeAlloc[e]].timestampNs == start)
                ++e;
            if (e - b > 1) {
                std::stable_sort(sorted.begin() + std::ptrdiff_t(b), sorted.begin() + std::ptrdiff_t(e),
                                 [this](std::uint32_t x, std::uint32_t y) {
                                     const MemoryEvent &a = m_memory[m_lifetimeAlloc[x]];
                                     const MemoryEvent &c = m_memory[m_lifetimeAlloc[y]];
                                     const std::uint32_t da = m_deviceIndex.insert(a.device);
                                     const std::uint32_t dc = m_deviceIndex.insert(c.device);
                                     if (da != dc)
                                         return da < dc;
                                     return m_trace.str(a.storageId) < m_trace.str(c.storageId);
                                 });
            }
            b = e;
        }
        std::vector<std::uint32_t> position(count);
        for (std::uint32_t p = 0; p < count; ++p)
            position[sorted[p]] = p;

        // Each lifetime's records: counted, then placed at their offsets, which are kept
        // block-packed (a lifetime has one or two records: 2 bytes an offset, not 8 bytes a
        // range).
        std::vector<std::uint32_t> offsets(count + 1, 0);
        std::size_t records = 0;
        for (const std::uint32_t l : m_recordLifetime)
            if (l != kNone) {
                ++offsets[position[l] + 1];
                ++records;
            }
        std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
        std::vector<std::uint32_t> &next = sorted; // no longer needed: the cursors
        next.assign(offsets.begin(), offsets.end() - 1);
        o.m_lifetimeRecords.assign(records, 0);
        for (std::size_t at = 0; at < m_memory.size(); ++at) {
            const std::uint32_t r = recordAt(at);
            const std::uint32_t l = m_recordLifetime[r];
            if (l == kNone)
                continue;
            o.m_lifetimeRecords[next[position[l]]++] = r;
        }
        o.m_lifetimeOffset = BlockPackedU32(offsets);
        m_recordLifetime = {};
        m_lifetimeAlloc = {};
        m_order = {};
    }

    void finishPeak()
    {
        LogicalMemoryProfile &o = m_out;
        if (!m_hasPeak)
            return;
        LogicalMemoryPeak peak;
        peak.timelineIndex = m_peakPoint;
        peak.timestampNs = o.m_pointTimestamps[m_peakPoint];
        peak.liveBytes = o.m_pointLiveBytes[m_peakPoint];
        LogicalTimelinePoint point = o.timelinePoint(m_peakPoint);
        peak.liveBytesByDevice = std::move(point.liveBytesByDevice);
        peak.liveBytesByCategory = std::move(point.liveBytesByCategory);
        // Live at the end of the peak's group: started by then, not freed by then.
        for (std::uint32_t l = 0; l < o.lifetimeCount(); ++l) {
            const std::span<const std::uint32_t> recs = o.lifetimeRecords(l);
            const MemoryEvent &first = m_memory[recs.front()];
            if (first.timestampNs > peak.timestampNs)
                break; // lifetimes are sorted by start
            const MemoryEvent &last = m_memory[recs.back()];
            const bool freedByPeak = last.action == MemoryAction::Free && last.timestampNs <= peak.timestampNs;
            if (!freedByPeak)
                peak.liveAllocations.push_back(l);
        }
        o.m_peak = std::move(peak);
    }

    const Trace &m_trace;
    const std::vector<MemoryEvent> &m_memory;
    LogicalMemoryProfile &m_out;
    DenseKeyIndex m_deviceIndex;
    StringIdRanks m_storages;           // the records' storage ids
    std::vector<std::uint32_t> m_order; // sortedRecordOrder(): empty = file order is time order
    std::size_t m_groups = 0;           // timeline points
    std::vector<SlotState> m_slots;
    std::vector<std::uint8_t> m_emittedPresent;
    std::vector<std::uint64_t> m_emittedBytes;
    std::vector<std::uint32_t> m_touchStamp;
    std::vector<std::uint32_t> m_recordLifetime; // per memory record: lifetime (creation order) or kNone
    std::vector<std::uint32_t> m_lifetimeAlloc;  // per lifetime (creation order): creating record
    HugePageArray<std::uint32_t> m_changeSlots;  // the profile's, at their bound while walking
    std::vector<std::uint16_t> m_changeSlots16;  // the same, when they fit 2 bytes (m_narrowChangeSlots)
    bool m_narrowChangeSlots = false;
    std::vector<std::uint32_t> m_pointChangeEnd; // the profile's, while walking
    std::size_t m_peakPoint = 0;
    bool m_hasPeak = false;
};

std::optional<std::uint64_t> LogicalMemoryProfile::peakLiveBytes(const Trace &trace)
{
    if (trace.memory.empty())
        return std::nullopt;
    LogicalMemoryProfile scratch; // the device list only
    return LogicalMemoryBuilder(trace, scratch).peakLiveBytes();
}

std::optional<LogicalMemoryProfile> LogicalMemoryProfile::analyze(const Trace &trace)
{
    if (trace.memory.empty())
        return std::nullopt;
    LogicalMemoryProfile profile;
    LogicalMemoryBuilder(trace, profile).run();
    return profile;
}

void LogicalMemoryProfile::applyChanges(std::size_t index, std::vector<std::uint8_t> &present,
                                        std::vector<std::uint64_t> &bytes) const
{
    const std::uint32_t begin = index == 0 ? 0 : m_pointChangeEnd[index - 1];
    for (std::uint32_t c = begin; c < m_pointChangeEnd[index]; ++c) {
        const std::uint32_t change = m_changeSlots[c];
        present[change >> 1] = (change & 1) ? 0 : 1;
        bytes[change >> 1] = m_changeBytes[c];
    }
}

void LogicalMemoryProfile::stateAt(std::size_t index, std::vector<std::uint8_t> &present,
                                   std::vector<std::uint64_t> &bytes) const
{
    const std::size_t slots = slotCount();
    const std::size_t checkpoint = index / m_checkpointInterval;
    present.assign(m_checkpointPresent.begin() + std::ptrdiff_t(checkpoint * slots),
                   m_checkpointPresent.begin() + std::ptrdiff_t((checkpoint + 1) * slots));
    bytes.assign(m_checkpointBytes.begin() + std::ptrdiff_t(checkpoint * slots),
                 m_checkpointBytes.begin() + std::ptrdiff_t((checkpoint + 1) * slots));
    for (std::size_t p = checkpoint * m_checkpointInterval; p <= index; ++p)
        applyChanges(p, present, bytes);
}

LogicalTimelinePoint LogicalMemoryProfile::timelinePoint(std::size_t index) const
{
    LogicalTimelinePoint point;
    point.timestampNs = m_pointTimestamps[index];
    point.liveBytes = m_pointLiveBytes[index];
    std::vector<std::uint8_t> present;
    std::vector<std::uint64_t> bytes;
    stateAt(index, present, bytes);
    for (std::size_t d = 0; d < m_devices.size(); ++d)
        if (present[d])
            point.liveBytesByDevice.push_back({m_devices[d], bytes[d]});
    for (const MemoryCategory c : kCategoryNameOrder) {
        const std::size_t slot = m_devices.size() + static_cast<std::size_t>(c);
        if (present[slot])
            point.liveBytesByCategory.push_back({c, bytes[slot]});
    }
    return point;
}

void LogicalMemoryProfile::fillLifetime(const Trace &trace, std::size_t index, std::optional<std::uint64_t> asOf,
                                        LogicalStorageLifetime &out) const
{
    const std::span<const std::uint32_t> recs = lifetimeRecords(index);
    const MemoryEvent &a = trace.memory[recs.front()];
    out.device = a.device;
    out.storageId = a.storageId;
    out.allocationSpanId = a.spanId;
    out.opName = a.opName;
    out.bytes = a.bytes;
    out.shape = a.shape;
    out.dtype = a.dtype;
    out.category = a.category;
    out.startTimestampNs = a.timestampNs;
    out.endTimestampNs.reset();
    out.allocRecord = recs.front();
    out.tensorIds.clear();
    for (const std::uint32_t r : recs) {
        const MemoryEvent &e = trace.memory[r];
        if (asOf && e.timestampNs > *asOf)
            break;
        out.tensorIds.push_back(e.tensorId);
        if (e.action == MemoryAction::Free)
            out.endTimestampNs = e.timestampNs;
    }
    std::sort(out.tensorIds.begin(), out.tensorIds.end(),
              [&trace](StringId x, StringId y) { return trace.strings.less(x, y); });
    out.tensorIds.erase(std::unique(out.tensorIds.begin(), out.tensorIds.end()), out.tensorIds.end());
}

LogicalStorageLifetime LogicalMemoryProfile::lifetime(const Trace &trace, std::size_t index) const
{
    LogicalStorageLifetime out;
    fillLifetime(trace, index, std::nullopt, out);
    return out;
}

LogicalStorageLifetime LogicalMemoryProfile::lifetimeAsOf(const Trace &trace, std::size_t index,
                                                          std::uint64_t asOfNs) const
{
    LogicalStorageLifetime out;
    fillLifetime(trace, index, asOfNs, out);
    return out;
}

std::optional<std::uint32_t> LogicalMemoryProfile::lifetimeFreeRecord(const Trace &trace, std::size_t index) const
{
    const std::uint32_t last = lifetimeRecords(index).back();
    if (trace.memory[last].action == MemoryAction::Free)
        return last;
    return std::nullopt;
}

LogicalStorageLifetime LogicalMemoryProfile::peakAllocation(const Trace &trace, std::size_t k) const
{
    return lifetimeAsOf(trace, m_peak->liveAllocations[k], m_peak->timestampNs);
}

std::size_t LogicalMemoryProfile::memoryUsage() const
{
    std::size_t n = m_devices.capacity() * sizeof(StringId) + m_byDevice.capacity() * sizeof(LogicalDeviceMemoryStats)
                    + m_pointTimestamps.memoryUsage() + m_pointLiveBytes.memoryUsage() + m_pointChangeEnd.memoryUsage()
                    + m_changeSlots.memoryUsage() + m_changeBytes.memoryUsage() + m_checkpointPresent.capacity()
                    + m_checkpointBytes.capacity() * 8 + m_lifetimeOffset.memoryUsage()
                    + m_lifetimeRecords.capacity() * 4;
    if (m_peak)
        n += m_peak->liveAllocations.capacity() * 4 + m_peak->liveBytesByDevice.capacity() * sizeof(DeviceBytes)
             + m_peak->liveBytesByCategory.capacity() * sizeof(CategoryBytes);
    return n;
}

LogicalMemoryProfile::Cursor::Cursor(const LogicalMemoryProfile &profile)
    : m_profile(&profile)
    , m_present(profile.slotCount(), 0)
    , m_bytes(profile.slotCount(), 0)
{
    if (!atEnd())
        load();
}

LogicalMemoryProfile::Cursor::Cursor(const LogicalMemoryProfile &profile, std::size_t start)
    : m_profile(&profile)
    , m_index(start)
{
    if (start == 0 || atEnd()) {
        m_present.assign(profile.slotCount(), 0);
        m_bytes.assign(profile.slotCount(), 0);
    } else {
        // The state after point start - 1; load() then applies the changes of point start.
        profile.stateAt(start - 1, m_present, m_bytes);
        const std::size_t deviceCount = profile.m_devices.size();
        for (std::size_t slot = 0; slot < deviceCount; ++slot) {
            if (m_present[slot]) {
                m_deviceSlots.push_back(static_cast<std::uint32_t>(slot));
                m_devices.push_back(DeviceBytes{profile.m_devices[slot], m_bytes[slot]});
            }
        }
        for (const MemoryCategory cat : kCategoryNameOrder) {
            const std::size_t slot = deviceCount + static_cast<std::size_t>(cat);
            if (m_present[slot])
                m_categories.push_back({cat, m_bytes[slot]});
        }
    }
    if (!atEnd())
        load();
}

void LogicalMemoryProfile::Cursor::next()
{
    ++m_index;
    if (!atEnd())
        load();
}

void LogicalMemoryProfile::Cursor::load()
{
    const LogicalMemoryProfile &p = *m_profile;
    const std::size_t deviceCount = p.m_devices.size();
    const std::uint32_t begin = m_index == 0 ? 0 : p.m_pointChangeEnd[m_index - 1];
    bool categoriesChanged = false;
    for (std::uint32_t c = begin; c < p.m_pointChangeEnd[m_index]; ++c) {
        const std::uint32_t change = p.m_changeSlots[c];
        const std::uint32_t slot = change >> 1;
        const bool present = (change & 1) == 0;
        m_present[slot] = present ? 1 : 0;
        m_bytes[slot] = p.m_changeBytes[c];
        if (slot >= deviceCount) {
            categoriesChanged = true;
            continue;
        }
        // The present devices are kept as a sorted list so that a point costs O(its
        // entries), not O(all devices).
        const auto it = std::lower_bound(m_deviceSlots.begin(), m_deviceSlots.end(), slot);
        const auto pos = it - m_deviceSlots.begin();
        const bool listed = it != m_deviceSlots.end() && *it == slot;
        if (present && listed) {
            m_devices[std::size_t(pos)].bytes = m_bytes[slot];
        } else if (present) {
            m_deviceSlots.insert(it, slot);
            m_devices.insert(m_devices.begin() + pos, DeviceBytes{p.m_devices[slot], m_bytes[slot]});
        } else if (listed) {
            m_deviceSlots.erase(it);
            m_devices.erase(m_devices.begin() + pos);
        }
    }
    if (categoriesChanged) {
        m_categories.clear();
        for (const MemoryCategory cat : kCategoryNameOrder) {
            const std::size_t slot = deviceCount + static_cast<std::size_t>(cat);
            if (m_present[slot])
                m_categories.push_back({cat, m_bytes[slot]});
        }
    }
}

} // namespace TraceInspector
