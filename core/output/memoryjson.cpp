// SPDX-License-Identifier: MIT
#include "core/output/memoryjson.h"

#include <array>

#include "core/analysis/memoryprofile.h"
#include "core/compat/jsonstring.h"
#include "core/model/trace.h"
#include "core/output/devicememoryamounts.h"
#include "core/output/jsonfragments.h"
#include "core/output/jsonwriter.h"
#include "core/output/laidouttext.h"
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

    std::string &text() { return m_buf; }

    void lifetime(const LogicalStorageLifetime &l)
    {
        static constexpr std::string_view kFragments[] = {R"({"device":)",          R"(,"storage_id":)",
                                                          R"(,"tensor_ids":[)",     R"(],"allocation_span_id":)",
                                                          R"(,"op_name":)",         R"(,"bytes":)",
                                                          R"(,"shape":[)",          R"(],"dtype":)",
                                                          R"(,"category":)",        R"(,"start_timestamp_ns":)",
                                                          R"(,"end_timestamp_ns":)"};
        const std::string_view device = m_trace.str(l.device);
        const std::string_view storage = m_trace.str(l.storageId);
        const std::string_view span = m_trace.str(l.allocationSpanId);
        const std::string_view op = l.opName != kNoString ? m_trace.str(l.opName) : std::string_view();
        const std::string_view dtype = m_trace.str(l.dtype);
        const std::string_view category = memoryCategoryName(l.category);
        const std::span<const std::uint64_t> dims = m_trace.shapes.view(l.shape);

        std::size_t bound = 1 + 4 * LaidOutText::kNumberBound + std::string_view("null").size();
        for (const std::string_view f : kFragments)
            bound += f.size();
        for (const std::string_view text : {device, storage, span, op, dtype, category})
            bound += LaidOutText::jsonStringBound(text);
        for (const StringId t : l.tensorIds)
            bound += 1 + LaidOutText::jsonStringBound(m_trace.str(t));
        bound += dims.size() * (1 + LaidOutText::kNumberBound);

        LaidOutText text(m_buf, bound);
        text.put(kFragments[0]);
        text.jsonString(device);
        text.put(kFragments[1]);
        text.jsonString(storage);
        text.put(kFragments[2]);
        for (std::size_t i = 0; i < l.tensorIds.size(); ++i) {
            if (i)
                text.put(',');
            text.jsonString(m_trace.str(l.tensorIds[i]));
        }
        text.put(kFragments[3]);
        text.jsonString(span);
        text.put(kFragments[4]);
        if (l.opName != kNoString)
            text.jsonString(op);
        else
            text.put("null");
        text.put(kFragments[5]);
        text.decimal(l.bytes);
        text.put(kFragments[6]);
        for (std::size_t i = 0; i < dims.size(); ++i) {
            if (i)
                text.put(',');
            text.decimal(dims[i]);
        }
        text.put(kFragments[7]);
        text.jsonString(dtype);
        text.put(kFragments[8]);
        text.jsonString(category);
        text.put(kFragments[9]);
        text.decimal(l.startTimestampNs);
        if (l.endTimestampNs) {
            text.put(kFragments[10]);
            text.decimal(*l.endTimestampNs);
        }
        text.put('}');
    }

    void physicalSample(const DeviceMemorySample &s)
    {
        lit(R"({"timestamp_ns":)");
        u64(s.timestampNs);
        lit(R"(,"device":)");
        str(s.device);
        writeDeviceMemoryAmounts(*this, s);
        m_buf.push_back('}');
    }
};

/// The text of logical timeline points, laid out through a pointer into the block's text:
/// a 1 GB trace has ~1.3 M points of ~10 numbers each, and one append per number and per
/// quoted name (with its escaping scan) had made most of the summary's formatting time.
/// Device and category names are escaped once, here.
class TimelinePointText
{
public:
    TimelinePointText(const Trace &trace, const LogicalMemoryProfile &profile)
    {
        m_deviceKeys.reserve(profile.devices().size());
        for (const StringId d : profile.devices()) {
            std::string key;
            appendJsonString(key, trace.str(d));
            key.push_back(':');
            m_deviceKeys.push_back(std::move(key));
        }
        for (std::size_t c = 0; c < kMemoryCategoryCount; ++c) {
            std::string key;
            appendJsonString(key, memoryCategoryName(static_cast<MemoryCategory>(c)));
            key.push_back(':');
            m_categoryKeys[c] = std::move(key);
        }
    }

    /// Appends the point at \a c to \a out: the text ElementText's fragments would make.
    void append(std::string &out, const LogicalMemoryProfile::Cursor &c) const
    {
        static constexpr std::string_view kTimestamp = R"({"timestamp_ns":)";
        static constexpr std::string_view kLive = R"(,"live_bytes":)";
        static constexpr std::string_view kByDevice = R"(,"live_bytes_by_device":{)";
        static constexpr std::string_view kByCategory = R"(},"live_bytes_by_category":{)";
        constexpr std::size_t kEntry = 1 + LaidOutText::kNumberBound; // a comma and a number
        const std::span<const DeviceBytes> devices = c.liveBytesByDevice();
        const std::span<const std::uint32_t> slots = c.liveDeviceSlots();
        const std::span<const CategoryBytes> categories = c.liveBytesByCategory();

        std::size_t bound = kTimestamp.size() + kLive.size() + kByDevice.size() + kByCategory.size()
                            + 2 * LaidOutText::kNumberBound + 2;
        for (const std::uint32_t slot : slots)
            bound += m_deviceKeys[slot].size() + kEntry;
        for (const CategoryBytes &e : categories)
            bound += m_categoryKeys[static_cast<std::size_t>(e.category)].size() + kEntry;
        LaidOutText text(out, bound);
        text.put(kTimestamp);
        text.decimal(c.timestampNs());
        text.put(kLive);
        text.decimal(c.liveBytes());
        text.put(kByDevice);
        for (std::size_t i = 0; i < devices.size(); ++i) {
            if (i)
                text.put(',');
            text.put(m_deviceKeys[slots[i]]);
            text.decimal(devices[i].bytes);
        }
        text.put(kByCategory);
        for (std::size_t i = 0; i < categories.size(); ++i) {
            if (i)
                text.put(',');
            text.put(m_categoryKeys[static_cast<std::size_t>(categories[i].category)]);
            text.decimal(categories[i].bytes);
        }
        text.put('}');
        text.put('}');
    }

private:
    std::vector<std::string> m_deviceKeys; // by device slot: the quoted name and ':'
    std::array<std::string, kMemoryCategoryCount> m_categoryKeys;
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
            LogicalStorageLifetime l;
            for (std::size_t k = begin; k < end; ++k) {
                if (k)
                    e.lit(",");
                p.peakAllocationInto(trace, k, l);
                e.lifetime(l);
            }
        });
        out.endArray();
        out.endObject();
    }
    out.key("timeline").beginArray();
    const TimelinePointText points(trace, p);
    writeElements(out, trace, p.timelineSize(), [&](ElementText &e, std::size_t begin, std::size_t end) {
        for (LogicalMemoryProfile::Cursor c(p, begin); !c.atEnd() && c.index() < end; c.next()) {
            if (c.index())
                e.lit(",");
            points.append(e.text(), c);
        }
    });
    out.endArray();
    out.key("lifetimes").beginArray();
    writeElements(out, trace, p.lifetimeCount(), [&](ElementText &e, std::size_t begin, std::size_t end) {
        LogicalStorageLifetime l;
        for (std::size_t i = begin; i < end; ++i) {
            if (i)
                e.lit(",");
            p.lifetimeInto(trace, i, l);
            e.lifetime(l);
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
