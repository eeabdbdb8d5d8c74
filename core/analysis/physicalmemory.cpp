// SPDX-License-Identifier: MIT
#include "core/analysis/physicalmemory.h"

#include <algorithm>
#include <tuple>

#include "core/analysis/logicalmemorykeys.h"
#include "core/model/trace.h"

namespace TraceInspector {

std::optional<PhysicalMemoryProfile> PhysicalMemoryProfile::analyze(const Trace &trace)
{
    const std::vector<DeviceMemorySample> &samples = trace.deviceMemory;
    if (samples.empty())
        return std::nullopt;

    DenseKeyIndex seen(16);
    for (const DeviceMemorySample &s : samples)
        seen.insert(s.device);
    std::vector<StringId> devices(seen.size());
    for (std::uint32_t i = 0; i < seen.size(); ++i)
        devices[i] = static_cast<StringId>(seen.key(i));
    std::sort(devices.begin(), devices.end(), [&trace](StringId a, StringId b) { return trace.strings.less(a, b); });
    DenseKeyIndex rankOf(devices.size());
    for (const StringId d : devices)
        rankOf.insert(d);

    // (timestamp, device rank, position) is unique, so sorting it is the stable sort.
    std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>> keyed(samples.size());
    for (std::uint32_t i = 0; i < samples.size(); ++i)
        keyed[i] = {samples[i].timestampNs, rankOf.insert(samples[i].device), i};
    std::sort(keyed.begin(), keyed.end());

    PhysicalMemoryProfile profile;
    profile.m_timeline.reserve(samples.size());
    profile.m_byDevice.resize(devices.size());
    for (std::size_t d = 0; d < devices.size(); ++d)
        profile.m_byDevice[d].device = devices[d];
    // Samples come in time order, so "strictly better" keeps the earliest of equal values.
    for (const auto &[ts, rank, index] : keyed) {
        profile.m_timeline.push_back(index);
        const DeviceMemorySample &s = samples[index];
        PhysicalDeviceMemoryStats &st = profile.m_byDevice[rank];
        ++st.sampleCount;
        if (s.has(DeviceMemorySample::Used)) {
            ++st.usedSampleCount;
            if (!st.peakUsedBytes || s.usedBytes > *st.peakUsedBytes) {
                st.peakUsedBytes = s.usedBytes;
                st.peakUsedTimestampNs = ts;
            }
        }
        if (s.has(DeviceMemorySample::Free)) {
            ++st.freeSampleCount;
            if (!st.minimumFreeBytes || s.freeBytes < *st.minimumFreeBytes) {
                st.minimumFreeBytes = s.freeBytes;
                st.minimumFreeTimestampNs = ts;
            }
        }
        if (s.has(DeviceMemorySample::Reserved)) {
            ++st.reservedSampleCount;
            if (!st.peakReservedBytes || s.reservedBytes > *st.peakReservedBytes) {
                st.peakReservedBytes = s.reservedBytes;
                st.peakReservedTimestampNs = ts;
            }
        }
        if (s.has(DeviceMemorySample::Capacity)) {
            ++st.capacitySampleCount;
            if (!st.maximumObservedCapacityBytes || s.capacityBytes > *st.maximumObservedCapacityBytes)
                st.maximumObservedCapacityBytes = s.capacityBytes;
        }
    }
    return profile;
}

std::size_t PhysicalMemoryProfile::memoryUsage() const
{
    return m_timeline.capacity() * sizeof(std::uint32_t) + m_byDevice.capacity() * sizeof(PhysicalDeviceMemoryStats);
}

} // namespace TraceInspector
