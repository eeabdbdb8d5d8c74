// SPDX-License-Identifier: MIT
#include "core/output/memoryjson.h"

#include "core/analysis/memoryprofile.h"
#include "core/model/trace.h"
#include "core/output/jsonfragments.h"
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

// The bulk elements (timeline points, lifetimes, samples) are laid out from member-name
// fragments (JsonFragments), as the normalized records are: there are millions of them.
class ElementText : public JsonFragments
{
public:
    using JsonFragments::JsonFragments;

    void optionalU64(std::string_view member, const std::optional<std::uint64_t> &value)
    {
        if (value) {
            lit(member);
            u64(*value);
        }
    }

    void byDevice(std::span<const DeviceBytes> entries)
    {
        m_buf.push_back('{');
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (i)
                m_buf.push_back(',');
            str(entries[i].device);
            m_buf.push_back(':');
            u64(entries[i].bytes);
        }
        m_buf.push_back('}');
    }

    void byCategory(std::span<const CategoryBytes> entries)
    {
        m_buf.push_back('{');
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (i)
                m_buf.push_back(',');
            appendJsonString(m_buf, memoryCategoryName(entries[i].category));
            m_buf.push_back(':');
            u64(entries[i].bytes);
        }
        m_buf.push_back('}');
    }

    void lifetime(const LogicalStorageLifetime &l)
    {
        lit(R"({"device":)");
        str(l.device);
        lit(R"(,"storage_id":)");
        str(l.storageId);
        lit(R"(,"tensor_ids":)");
        stringList(l.tensorIds);
        lit(R"(,"allocation_span_id":)");
        str(l.allocationSpanId);
        lit(R"(,"op_name":)");
        if (l.opName != kNoString)
            str(l.opName);
        else
            lit("null");
        lit(R"(,"bytes":)");
        u64(l.bytes);
        lit(R"(,"shape":)");
        shape(l.shape);
        lit(R"(,"dtype":)");
        str(l.dtype);
        lit(R"(,"category":)");
        appendJsonString(m_buf, memoryCategoryName(l.category));
        lit(R"(,"start_timestamp_ns":)");
        u64(l.startTimestampNs);
        optionalU64(R"(,"end_timestamp_ns":)", l.endTimestampNs);
        m_buf.push_back('}');
    }

    void timelinePoint(const LogicalMemoryProfile::Cursor &c)
    {
        lit(R"({"timestamp_ns":)");
        u64(c.timestampNs());
        lit(R"(,"live_bytes":)");
        u64(c.liveBytes());
        lit(R"(,"live_bytes_by_device":)");
        byDevice(c.liveBytesByDevice());
        lit(R"(,"live_bytes_by_category":)");
        byCategory(c.liveBytesByCategory());
        m_buf.push_back('}');
    }

    void physicalSample(const DeviceMemorySample &s)
    {
        lit(R"({"timestamp_ns":)");
        u64(s.timestampNs);
        lit(R"(,"device":)");
        str(s.device);
        deviceMemoryAmounts(s);
        m_buf.push_back('}');
    }
};

// Array elements per block formatted on a worker (see OrderedBlockFormatter).
constexpr std::size_t kElementsPerBlock = 2048;

/// Writes the elements [0, count) of an array already begun on \a out, formatting blocks of
/// them in parallel: \a writeRange(e, begin, end) writes elements [begin, end) on \a e,
/// each after a comma but the array's first.
template<typename WriteRange>
void writeElements(JsonWriter &out, const Trace &trace, std::size_t count, WriteRange &&writeRange)
{
    OrderedBlockFormatter::run(
        count, kElementsPerBlock,
        [&](std::size_t begin, std::size_t end, std::string &text) {
            ElementText e(trace, text);
            writeRange(e, begin, end);
        },
        [&out](std::string_view text) { return out.writeThrough(text); });
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
        writeElements(out, trace, p.peakAllocationCount(), [&](ElementText &e, std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                if (k)
                    e.lit(",");
                e.lifetime(p.peakAllocation(trace, k));
            }
        });
        out.endArray();
        out.endObject();
    }
    out.key("timeline").beginArray();
    writeElements(out, trace, p.timelineSize(), [&](ElementText &e, std::size_t begin, std::size_t end) {
        for (LogicalMemoryProfile::Cursor c(p, begin); !c.atEnd() && c.index() < end; c.next()) {
            if (c.index())
                e.lit(",");
            e.timelinePoint(c);
        }
    });
    out.endArray();
    out.key("lifetimes").beginArray();
    writeElements(out, trace, p.lifetimeCount(), [&](ElementText &e, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (i)
                e.lit(",");
            e.lifetime(p.lifetime(trace, i));
        }
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

void writePhysical(JsonWriter &out, const Trace &trace, const PhysicalMemoryProfile &p)
{
    out.beginObject();
    out.key("timeline").beginArray();
    writeElements(out, trace, p.timeline().size(), [&](ElementText &e, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (i)
                e.lit(",");
            e.physicalSample(trace.deviceMemory[p.timeline()[i]]);
        }
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
