// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/enums.h"

namespace TraceInspector {

struct MemoryProfile;
struct Trace;

/// One run's logical memory as the A/B memory view draws it: the live-bytes curve on the
/// run's own clock made relative to its start, so two runs share one time axis.
struct MemoryDiffSide {
    std::uint64_t originNs = 0; ///< the run's start (earliest span or memory timestamp)
    /// Step curve: live bytes from offsetNs[i] until offsetNs[i + 1]. Reduced to at most the
    /// requested number of points by keeping each bucket's largest value, so the peak stays.
    std::vector<std::uint64_t> offsetNs;
    std::vector<std::uint64_t> liveBytes;
    std::uint64_t peakBytes = 0;
    std::uint64_t peakOffsetNs = 0;
    /// Live bytes at the peak by MemoryCategory (index = category value).
    std::array<std::uint64_t, kMemoryCategoryCount> peakByCategory{};
};

/// Both runs' logical memory and the difference of their peaks (issue #15, memory view).
/// A side is absent when its trace has no memory records: "no data", never zero.
struct MemoryDiff {
    std::optional<MemoryDiffSide> baseline;
    std::optional<MemoryDiffSide> candidate;

    /// Candidate peak minus baseline peak; none unless both runs have memory records.
    std::optional<std::int64_t> peakDeltaBytes() const;
    std::optional<std::int64_t> categoryDeltaBytes(MemoryCategory category) const;

    static MemoryDiff compute(const Trace &baseline, const MemoryProfile *baselineMemory, const Trace &candidate,
                              const MemoryProfile *candidateMemory, std::size_t maxPoints = 4096);
};

/// The start of a run for the shared axis: its earliest span start or memory timestamp.
std::uint64_t runOriginNs(const Trace &trace);

} // namespace TraceInspector
