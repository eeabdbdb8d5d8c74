// SPDX-License-Identifier: MIT
#include "core/diff/memorydiff.h"

#include <algorithm>
#include <limits>

#include "core/analysis/memoryprofile.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

std::int64_t signedDelta(std::uint64_t a, std::uint64_t b)
{
    constexpr std::uint64_t kMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    return std::int64_t(std::min(b, kMax)) - std::int64_t(std::min(a, kMax));
}

std::optional<MemoryDiffSide> side(const Trace &trace, const MemoryProfile *memory, std::size_t maxPoints)
{
    if (!memory || !memory->logical)
        return std::nullopt;
    const LogicalMemoryProfile &logical = *memory->logical;
    MemoryDiffSide s;
    s.originNs = runOriginNs(trace);
    const BlockPackedU64 &times = logical.timelineTimestamps();
    const BlockPackedU64 &bytes = logical.timelineLiveBytes();
    const std::size_t n = times.size();
    const auto offset = [&](std::size_t i) { return times[i] > s.originNs ? times[i] - s.originNs : 0; };
    if (n <= maxPoints || maxPoints < 2) {
        s.offsetNs.reserve(n);
        s.liveBytes.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            s.offsetNs.push_back(offset(i));
            s.liveBytes.push_back(bytes[i]);
        }
    } else {
        // Buckets of consecutive points; each keeps its largest value at its first time, so
        // the drawn curve never hides a peak (it may widen it by one bucket).
        const std::size_t per = (n + maxPoints - 1) / maxPoints;
        for (std::size_t first = 0; first < n; first += per) {
            const std::size_t last = std::min(n, first + per);
            std::uint64_t largest = bytes[first];
            for (std::size_t i = first + 1; i < last; ++i)
                largest = std::max(largest, bytes[i]);
            s.offsetNs.push_back(offset(first));
            s.liveBytes.push_back(largest);
        }
    }
    if (const auto &peak = logical.peak()) {
        s.peakBytes = peak->liveBytes;
        s.peakOffsetNs = peak->timestampNs > s.originNs ? peak->timestampNs - s.originNs : 0;
        for (const CategoryBytes &c : peak->liveBytesByCategory)
            s.peakByCategory[std::size_t(c.category)] += c.bytes;
    }
    return s;
}

} // namespace

std::uint64_t runOriginNs(const Trace &trace)
{
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const Span &span : trace.spans)
        origin = std::min(origin, span.startNs);
    for (const MemoryEvent &m : trace.memory)
        origin = std::min(origin, m.timestampNs.value());
    return origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin;
}

std::optional<std::int64_t> MemoryDiff::peakDeltaBytes() const
{
    if (!baseline || !candidate)
        return std::nullopt;
    return signedDelta(baseline->peakBytes, candidate->peakBytes);
}

std::optional<std::int64_t> MemoryDiff::categoryDeltaBytes(MemoryCategory category) const
{
    if (!baseline || !candidate)
        return std::nullopt;
    const std::size_t k = std::size_t(category);
    return signedDelta(baseline->peakByCategory[k], candidate->peakByCategory[k]);
}

MemoryDiff MemoryDiff::compute(const Trace &baseline, const MemoryProfile *baselineMemory, const Trace &candidate,
                               const MemoryProfile *candidateMemory, std::size_t maxPoints)
{
    MemoryDiff d;
    d.baseline = side(baseline, baselineMemory, maxPoints);
    d.candidate = side(candidate, candidateMemory, maxPoints);
    return d;
}

} // namespace TraceInspector
