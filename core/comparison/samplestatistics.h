// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace TraceInspector {

/// Upstream takes deltas of u64 durations as i128: they cannot overflow.
__extension__ typedef __int128 Int128;

/// upstream's SampleStatistics: the raw samples and their median, p95 and MAD.
struct SampleStatistics {
    std::vector<std::uint64_t> samplesNs; ///< in cohort order, as given
    double medianNs = 0;
    double p95Ns = 0;
    double madNs = 0;
};

/// One (baseline, candidate) pair of measured durations, in pair-id order.
using SamplePair = std::pair<std::uint64_t, std::uint64_t>;

/// upstream's statistics, resampling and bootstrap (docs/COMPARISON.md §5): every value is
/// computed with the same operations in the same order, so the results match bit for bit.
namespace ComparisonStatistics {

/// Linear-interpolation quantile of the sorted samples; 0 for none.
double percentile(std::vector<std::uint64_t> values, double quantile);
/// Median, p95 and the median absolute deviation from the rounded median.
SampleStatistics statistics(std::vector<std::uint64_t> samples);
/// Median of already sorted signed deltas (mean of the middle two for an even count); 0 for none.
double medianOfSorted(const std::vector<Int128> &sortedValues);
/// candidate - baseline of each pair, sorted, and their median.
double pairedMedianDelta(const std::vector<SamplePair> &pairs);

/// upstream's xorshift64 generator (state starts at 0x4d595df4d0f33173).
class Xorshift64
{
public:
    static constexpr std::uint64_t kSeed = 0x4d595df4d0f33173ULL;
    std::size_t index(std::size_t length);

private:
    std::uint64_t m_state = kSeed;
};

inline constexpr std::size_t kBootstrapIterations = 10000;

/// The 95 % bootstrap interval (2.5th and 97.5th percentile of 10 000 resampled median
/// deltas, elements 249 and 9749 of the sorted deltas). Paired when \a pairs is given.
std::pair<double, double> bootstrapDeltaInterval(const std::vector<std::uint64_t> &baseline,
                                                 const std::vector<std::uint64_t> &candidate,
                                                 const std::vector<SamplePair> *pairs);

} // namespace ComparisonStatistics

} // namespace TraceInspector
