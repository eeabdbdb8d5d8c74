// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/records.h"

namespace TraceInspector {

/// The members after "device" of a device memory sample: the amounts it has, in wire order.
/// The normalized record and the summary's memory elements write the same members through
/// writers of their own (\a out has lit(text) and u64(value)); one list keeps them alike.
template<typename Out>
void writeDeviceMemoryAmounts(Out &out, const DeviceMemorySample &s)
{
    if (s.has(DeviceMemorySample::Used)) {
        out.lit(R"(,"used_bytes":)");
        out.u64(s.usedBytes);
    }
    if (s.has(DeviceMemorySample::Free)) {
        out.lit(R"(,"free_bytes":)");
        out.u64(s.freeBytes);
    }
    if (s.has(DeviceMemorySample::Reserved)) {
        out.lit(R"(,"reserved_bytes":)");
        out.u64(s.reservedBytes);
    }
    if (s.has(DeviceMemorySample::Capacity)) {
        out.lit(R"(,"capacity_bytes":)");
        out.u64(s.capacityBytes);
    }
}

} // namespace TraceInspector
