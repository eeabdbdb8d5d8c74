// SPDX-License-Identifier: MIT
#include "core/output/memoryjson.h"

#include "core/analysis/memoryprofile.h"
#include "core/model/trace.h"
#include "core/output/jsonwriter.h"
#include "core/output/orderedblocks.h"

namespace TraceInspector {

namespace {

void writeOptional(JsonWriter &out, std::string_view name, const std::optional<std::uint64_t> &value)
{
    if (value)
        out.key(name).u64(*value);
}

void writeByDevice(JsonWriter &out, const Trace &trace, std::span<const DeviceBytes> entries)
{
    out.beginObject();
    for (const DeviceBytes &d : entries)
        out.key(trace.str(d.device)).u64(d.bytes);
    out.endObject();
}

void writeByCategory(JsonWriter &out, std::span<const CategoryBytes> entries)
{
    out.beginObject();
    for (const CategoryBytes &c : entries)
        out.key(memoryCategoryName(c.category)).u64(c.bytes);
    out.endObject();
}

void writeLifetime(JsonWriter &out, const Trace &trace, const LogicalStorageLifetime &l)
{
    out.beginObject();
    out.key("device").string(trace.str(l.device));
    out.key("storage_id").string(trace.str(l.storageId));
    out.key("tensor_ids").beginArray();
    for (const StringId t : l.tensorIds)
        out.string(trace.str(t));
    out.endArray();
    out.key("allocation_span_id").string(trace.str(l.allocationSpanId));
    out.key("op_name");
    if (l.opName != kNoString)
        out.string(trace.str(l.opName));
    else
        out.null();
    out.key("bytes").u64(l.bytes);
    out.key("shape").beginArray();
    for (const std::uint64_t d : trace.shapes.view(l.shape))
        out.u64(d);
    out.endArray();
    out.key("dtype").string(trace.str(l.dtype));
    out.key("category").string(memoryCategoryName(l.category));
    out.key("start_timestamp_ns").u64(l.startTimestampNs);
    writeOptional(out, "end_timestamp_ns", l.endTimestampNs);
    out.endObject();
}

// Array elements per block formatted on a worker (see OrderedBlockFormatter).
constexpr std::size_t kElementsPerBlock = 2048;

/// Writes the elements [0, count) of an array already begun on \a out, formatting blocks of
/// them in parallel: \a writeRange(w, begin, end) writes elements [begin, end) on \a w.
template<typename WriteRange>
void writeElements(JsonWriter &out, std::size_t count, WriteRange &&writeRange)
{
    OrderedBlockFormatter::run(
        count, kElementsPerBlock,
        [&](std::size_t begin, std::size_t end, std::string &text) {
            if (begin != 0)
                text.push_back(',');
            JsonWriter w(std::move(text));
            writeRange(w, begin, end);
            text = w.takeBuffer();
        },
        [&out](std::string_view text) { return out.writeThrough(text); });
}

void writeTimelinePoint(JsonWriter &out, const Trace &trace, const LogicalMemoryProfile::Cursor &c)
{
    out.beginObject();
    out.key("timestamp_ns").u64(c.timestampNs());
    out.key("live_bytes").u64(c.liveBytes());
    out.key("live_bytes_by_device");
    writeByDevice(out, trace, c.liveBytesByDevice());
    out.key("live_bytes_by_category");
    writeByCategory(out, c.liveBytesByCategory());
    out.endObject();
}

void writeLogical(JsonWriter &out, const Trace &trace, const LogicalMemoryProfile &p)
{
    out.beginObject();
    out.key("storage_allocation_count").u64(p.storageAllocationCount());
    out.key("matched_storage_free_count").u64(p.matchedStorageFreeCount());
    out.key("total_allocated_bytes").u64(p.totalAllocatedBytes());
    if (const auto &peak = p.peak()) {
        out.key("peak").beginObject();
        out.key("timestamp_ns").u64(peak->timestampNs);
        out.key("live_bytes").u64(peak->liveBytes);
        out.key("live_bytes_by_device");
        writeByDevice(out, trace, peak->liveBytesByDevice);
        out.key("live_bytes_by_category");
        writeByCategory(out, peak->liveBytesByCategory);
        out.key("live_allocations").beginArray();
        writeElements(out, p.peakAllocationCount(), [&](JsonWriter &w, std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k)
                writeLifetime(w, trace, p.peakAllocation(trace, k));
        });
        out.endArray();
        out.endObject();
    }
    out.key("timeline").beginArray();
    writeElements(out, p.timelineSize(), [&](JsonWriter &w, std::size_t begin, std::size_t end) {
        for (LogicalMemoryProfile::Cursor c(p, begin); !c.atEnd() && c.index() < end; c.next())
            writeTimelinePoint(w, trace, c);
    });
    out.endArray();
    out.key("lifetimes").beginArray();
    writeElements(out, p.lifetimeCount(), [&](JsonWriter &w, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            writeLifetime(w, trace, p.lifetime(trace, i));
    });
    out.endArray();
    out.key("by_device").beginArray();
    for (const LogicalDeviceMemoryStats &d : p.byDevice()) {
        out.beginObject();
        out.key("device").string(trace.str(d.device));
        out.key("storage_allocation_count").u64(d.storageAllocationCount);
        out.key("matched_storage_free_count").u64(d.matchedStorageFreeCount);
        out.key("total_allocated_bytes").u64(d.totalAllocatedBytes);
        writeOptional(out, "peak_live_bytes", d.peakLiveBytes);
        writeOptional(out, "peak_timestamp_ns", d.peakTimestampNs);
        out.endObject();
    }
    out.endArray();
    out.endObject();
}

void writePhysicalSample(JsonWriter &out, const Trace &trace, const DeviceMemorySample &s)
{
    out.beginObject();
    out.key("timestamp_ns").u64(s.timestampNs);
    out.key("device").string(trace.str(s.device));
    if (s.has(DeviceMemorySample::Used))
        out.key("used_bytes").u64(s.usedBytes);
    if (s.has(DeviceMemorySample::Free))
        out.key("free_bytes").u64(s.freeBytes);
    if (s.has(DeviceMemorySample::Reserved))
        out.key("reserved_bytes").u64(s.reservedBytes);
    if (s.has(DeviceMemorySample::Capacity))
        out.key("capacity_bytes").u64(s.capacityBytes);
    out.endObject();
}

void writePhysical(JsonWriter &out, const Trace &trace, const PhysicalMemoryProfile &p)
{
    out.beginObject();
    out.key("timeline").beginArray();
    writeElements(out, p.timeline().size(), [&](JsonWriter &w, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            writePhysicalSample(w, trace, trace.deviceMemory[p.timeline()[i]]);
    });
    out.endArray();
    out.key("by_device").beginArray();
    for (const PhysicalDeviceMemoryStats &d : p.byDevice()) {
        out.beginObject();
        out.key("device").string(trace.str(d.device));
        out.key("sample_count").u64(d.sampleCount);
        out.key("used_sample_count").u64(d.usedSampleCount);
        out.key("free_sample_count").u64(d.freeSampleCount);
        out.key("reserved_sample_count").u64(d.reservedSampleCount);
        out.key("capacity_sample_count").u64(d.capacitySampleCount);
        writeOptional(out, "peak_used_bytes", d.peakUsedBytes);
        writeOptional(out, "peak_used_timestamp_ns", d.peakUsedTimestampNs);
        writeOptional(out, "peak_reserved_bytes", d.peakReservedBytes);
        writeOptional(out, "peak_reserved_timestamp_ns", d.peakReservedTimestampNs);
        writeOptional(out, "minimum_free_bytes", d.minimumFreeBytes);
        writeOptional(out, "minimum_free_timestamp_ns", d.minimumFreeTimestampNs);
        writeOptional(out, "maximum_observed_capacity_bytes", d.maximumObservedCapacityBytes);
        out.endObject();
    }
    out.endArray();
    out.endObject();
}

} // namespace

void writeMemoryProfileJson(JsonWriter &out, const Trace &trace, const MemoryProfile &profile)
{
    out.beginObject();
    if (profile.logical) {
        out.key("logical");
        writeLogical(out, trace, *profile.logical);
    }
    if (profile.physical) {
        out.key("physical");
        writePhysical(out, trace, *profile.physical);
    }
    out.endObject();
}

} // namespace TraceInspector
