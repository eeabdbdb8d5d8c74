// SPDX-License-Identifier: MIT
#include "core/model/trace.h"

#include <algorithm>

namespace TraceInspector {

std::int64_t Trace::findSpan(std::string_view id) const
{
    auto it = std::lower_bound(spans.begin(), spans.end(), id,
                               [this](const Span &s, std::string_view key) { return str(s.id) < key; });
    if (it == spans.end() || str(it->id) != id)
        return -1;
    return it - spans.begin();
}

std::int64_t Trace::findSpan(StringId id) const
{
    if (id == kNoString)
        return -1;
    return findSpan(str(id));
}

std::size_t Trace::memoryUsage() const
{
    return strings.memoryUsage() + shapes.memoryUsage() + idLists.memoryUsage() + spans.capacity() * sizeof(Span)
           + ops.capacity() * sizeof(Op) + tensors.capacity() * sizeof(Tensor)
           + tensorStats.capacity() * sizeof(TensorStats) + memory.capacity() * sizeof(MemoryEvent)
           + deviceMemory.capacity() * sizeof(DeviceMemorySample) + deviceIntervals.capacity() * sizeof(DeviceInterval)
           + gradients.capacity() * sizeof(Gradient) + edges.capacity() * sizeof(Edge);
}

} // namespace TraceInspector
