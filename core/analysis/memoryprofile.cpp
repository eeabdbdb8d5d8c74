// SPDX-License-Identifier: MIT
#include "core/analysis/memoryprofile.h"

#include "core/model/trace.h"

namespace TraceInspector {

MemoryProfile analyzeMemory(const Trace &trace)
{
    MemoryProfile profile;
    profile.logical = LogicalMemoryProfile::analyze(trace);
    profile.physical = PhysicalMemoryProfile::analyze(trace);
    return profile;
}

} // namespace TraceInspector
