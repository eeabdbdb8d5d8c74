// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/model/blockpackedu32.h"
#include "core/model/blockpackedu64.h"
#include "core/model/enums.h"
#include "core/model/narrowu32array.h"
#include "core/model/shapetable.h"
#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;

// The logical memory plane (TRACE_FORMAT.md §8.1), built from `memory` records.
//
// A 1 GB trace has ~1.3 M memory records and ~1 M distinct timestamps, so the profile is
// stored compactly and materialized on demand:
//  * a lifetime is the list of indices into Trace::memory of the records that touched it
//    (creating alloc first, aliasing allocs, then the matching free if any); every field of
//    the §8.1 LogicalStorageLifetime follows from those records;
//  * the timeline keeps per point its timestamp and live total, plus only the per-device and
//    per-category entries that changed since the previous point (with periodic full
//    checkpoints for random access);
//  * the peak keeps indices of the lifetimes live at the peak.
// Everything refers to the Trace it was computed from, which must outlive it.

/// §8.1 key order of live_bytes_by_category: the map is keyed by the category *name*, so
/// entries come in byte-wise name order.
inline constexpr std::array<MemoryCategory, kMemoryCategoryCount> kCategoryNameOrder = {
    MemoryCategory::Activation, MemoryCategory::Gradient, MemoryCategory::Optimizer, MemoryCategory::Other,
    MemoryCategory::Parameter};

struct DeviceBytes {
    StringId device = kNoString;
    std::uint64_t bytes = 0;
    friend bool operator==(const DeviceBytes &, const DeviceBytes &) = default;
};

struct CategoryBytes {
    MemoryCategory category = MemoryCategory::Other;
    std::uint64_t bytes = 0;
    friend bool operator==(const CategoryBytes &, const CategoryBytes &) = default;
};

/// §8.1 LogicalStorageLifetime, materialized.
struct LogicalStorageLifetime {
    StringId device = kNoString;
    StringId storageId = kNoString;
    std::vector<StringId> tensorIds; // byte-wise ascending, unique
    StringId allocationSpanId = kNoString;
    StringId opName = kNoString; // kNoString = none (written as null)
    std::uint64_t bytes = 0;
    ShapeId shape = 0;
    StringId dtype = kNoString;
    MemoryCategory category = MemoryCategory::Other;
    std::uint64_t startTimestampNs = 0;
    std::optional<std::uint64_t> endTimestampNs; // none = still live at the end
    std::uint32_t allocRecord = 0;               // index into Trace::memory of the creating alloc
};

/// §8.1 LogicalMemoryTimelinePoint, materialized.
struct LogicalTimelinePoint {
    std::uint64_t timestampNs = 0;
    std::uint64_t liveBytes = 0;
    std::vector<DeviceBytes> liveBytesByDevice;     // devices with live storage, byte-wise order
    std::vector<CategoryBytes> liveBytesByCategory; // categories with live storage, name order
};

/// §8.1 LogicalDeviceMemoryStats.
struct LogicalDeviceMemoryStats {
    StringId device = kNoString;
    std::uint64_t storageAllocationCount = 0;
    std::uint64_t matchedStorageFreeCount = 0;
    std::uint64_t totalAllocatedBytes = 0; // saturating
    std::optional<std::uint64_t> peakLiveBytes;
    std::optional<std::uint64_t> peakTimestampNs;
};

/// §8.1 LogicalMemoryPeak. The live allocations are lifetimes seen as of the peak time
/// (open, with the tensor ids known by then): materialize them with
/// LogicalMemoryProfile::peakAllocation().
struct LogicalMemoryPeak {
    std::uint64_t timestampNs = 0;
    std::uint64_t liveBytes = 0;
    std::vector<DeviceBytes> liveBytesByDevice;
    std::vector<CategoryBytes> liveBytesByCategory;
    std::vector<std::uint32_t> liveAllocations; // lifetime indices, in lifetime order
    std::size_t timelineIndex = 0;
};

class LogicalMemoryProfile
{
public:
    /// Sequential walk over the timeline without per-point allocation (JSON output).
    class Cursor
    {
    public:
        explicit Cursor(const LogicalMemoryProfile &profile);
        /// Starts at point \a start (from the nearest checkpoint), so that disjoint ranges of
        /// the timeline can be walked on different threads.
        Cursor(const LogicalMemoryProfile &profile, std::size_t start);
        bool atEnd() const { return m_index >= m_profile->timelineSize(); }
        std::size_t index() const { return m_index; }
        std::uint64_t timestampNs() const { return m_profile->m_pointTimestamps[m_index]; }
        std::uint64_t liveBytes() const { return m_profile->m_pointLiveBytes[m_index]; }
        /// Entries of the current point, in output order.
        std::span<const DeviceBytes> liveBytesByDevice() const { return m_devices; }
        /// The device slot (index into devices()) of each liveBytesByDevice() entry.
        std::span<const std::uint32_t> liveDeviceSlots() const { return m_deviceSlots; }
        std::span<const CategoryBytes> liveBytesByCategory() const { return m_categories; }
        void next();

    private:
        void load();
        const LogicalMemoryProfile *m_profile;
        std::size_t m_index = 0;
        std::vector<std::uint8_t> m_present;      // per slot
        std::vector<std::uint64_t> m_bytes;       // per slot
        std::vector<std::uint32_t> m_deviceSlots; // sorted, parallel to m_devices
        std::vector<DeviceBytes> m_devices;
        std::vector<CategoryBytes> m_categories;
    };

    std::uint64_t storageAllocationCount() const { return m_allocationCount; }
    std::uint64_t matchedStorageFreeCount() const { return m_matchedFreeCount; }
    std::uint64_t totalAllocatedBytes() const { return m_totalAllocatedBytes; }
    const std::optional<LogicalMemoryPeak> &peak() const { return m_peak; }

    /// Devices seen in memory records, byte-wise ascending; index = device slot.
    std::span<const StringId> devices() const { return m_devices; }
    std::span<const LogicalDeviceMemoryStats> byDevice() const { return m_byDevice; }

    std::size_t timelineSize() const { return m_pointTimestamps.size(); }
    const BlockPackedU64 &timelineTimestamps() const { return m_pointTimestamps; }
    const BlockPackedU64 &timelineLiveBytes() const { return m_pointLiveBytes; }
    LogicalTimelinePoint timelinePoint(std::size_t index) const;

    std::size_t lifetimeCount() const { return m_lifetimeOffset.size() - 1; }
    LogicalStorageLifetime lifetime(const Trace &trace, std::size_t index) const;
    /// Lifetime \a index as seen at the end of the timestamp group \a asOfNs (>= its start):
    /// open unless freed by then, with only the tensor ids recorded by then.
    LogicalStorageLifetime lifetimeAsOf(const Trace &trace, std::size_t index, std::uint64_t asOfNs) const;
    /// Indices into Trace::memory of the records of lifetime \a index, in time order; the
    /// first is the creating alloc, the last is the matching free when closed.
    std::span<const std::uint32_t> lifetimeRecords(std::size_t index) const
    {
        const std::uint32_t first = m_lifetimeOffset[index];
        return {m_lifetimeRecords.data() + first, m_lifetimeOffset[index + 1] - first};
    }
    std::uint32_t lifetimeAllocRecord(std::size_t index) const { return lifetimeRecords(index).front(); }
    /// Index into Trace::memory of the matching free, if any.
    std::optional<std::uint32_t> lifetimeFreeRecord(const Trace &trace, std::size_t index) const;
    /// Whether Trace::memory is in §8.1 time order as read (the usual case): then a pass over
    /// the records in file order meets every lifetime's alloc and free in time order.
    bool recordsInTimeOrder() const { return m_recordsInTimeOrder; }

    std::size_t peakAllocationCount() const { return m_peak ? m_peak->liveAllocations.size() : 0; }
    LogicalStorageLifetime peakAllocation(const Trace &trace, std::size_t k) const;
    /// lifetime() and peakAllocation() into \a out, reusing its tensor id list: a writer that
    /// materializes every lifetime in turn allocates nothing per lifetime.
    void lifetimeInto(const Trace &trace, std::size_t index, LogicalStorageLifetime &out) const
    {
        fillLifetime(trace, index, std::nullopt, out);
    }
    void peakAllocationInto(const Trace &trace, std::size_t k, LogicalStorageLifetime &out) const
    {
        fillLifetime(trace, m_peak->liveAllocations[k], m_peak->timestampNs, out);
    }

    /// Approximate heap bytes held.
    std::size_t memoryUsage() const;

    /// §8.1; none when the trace has no memory records.
    static std::optional<LogicalMemoryProfile> analyze(const Trace &trace);
    /// analyze(trace)->peak()->liveBytes without building the profile; none when there is
    /// no peak (no memory records, or no allocation).
    static std::optional<std::uint64_t> peakLiveBytes(const Trace &trace);

private:
    friend class LogicalMemoryBuilder;
    std::size_t slotCount() const { return m_devices.size() + kMemoryCategoryCount; }
    void stateAt(std::size_t index, std::vector<std::uint8_t> &present, std::vector<std::uint64_t> &bytes) const;
    void applyChanges(std::size_t index, std::vector<std::uint8_t> &present, std::vector<std::uint64_t> &bytes) const;
    void fillLifetime(const Trace &trace, std::size_t index, std::optional<std::uint64_t> asOf,
                      LogicalStorageLifetime &out) const;

    std::uint64_t m_allocationCount = 0;
    bool m_recordsInTimeOrder = true;
    std::uint64_t m_matchedFreeCount = 0;
    std::uint64_t m_totalAllocatedBytes = 0;
    std::optional<LogicalMemoryPeak> m_peak;

    std::vector<StringId> m_devices;
    std::vector<LogicalDeviceMemoryStats> m_byDevice;

    // Timeline. Slot s < devices().size() is device s, else category s - devices().size().
    // Block-packed: a million points on the 1 GB trace, close in time and in live bytes.
    BlockPackedU64 m_pointTimestamps;
    BlockPackedU64 m_pointLiveBytes;
    BlockPackedU32 m_pointChangeEnd; // changes of point i: [end(i-1), end(i))
    NarrowU32Array m_changeSlots;    // slot << 1, | 1 when the slot left the map: 2 bytes for < 32768 slots
    BlockPackedU64 m_changeBytes;
    std::size_t m_checkpointInterval = 256;
    std::vector<std::uint8_t> m_checkpointPresent; // slotCount() per checkpoint: state *before* point k*interval
    std::vector<std::uint64_t> m_checkpointBytes;

    // Where each lifetime's records start in m_lifetimeRecords, lifetimes in §8.1 order, and
    // the end of the last.
    BlockPackedU32 m_lifetimeOffset{std::array<std::uint32_t, 1>{}};
    std::vector<std::uint32_t> m_lifetimeRecords;
};

} // namespace TraceInspector
