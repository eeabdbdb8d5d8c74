// SPDX-License-Identifier: MIT
#include "core/comparison/samplestatistics.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace TraceInspector::ComparisonStatistics {

namespace {

/// Rust's f64::total_cmp as a strict weak order: -0.0 before +0.0, NaNs by sign at the ends.
bool totalLess(double a, double b)
{
    auto key = [](double v) {
        std::int64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        bits ^= static_cast<std::int64_t>(static_cast<std::uint64_t>(bits >> 63) >> 1);
        return bits;
    };
    return key(a) < key(b);
}

/// `as f64` of an upstream u64/usize: round to nearest, as the conversion does in both languages.
double toDouble(std::uint64_t v)
{
    return static_cast<double>(v);
}

std::uint64_t roundToU64(double v)
{
    // Rust `f64::round` (half away from zero) then `as u64` (saturating, NaN to 0).
    const double r = std::round(v);
    if (!(r > 0))
        return 0;
    if (r >= 18446744073709551616.0)
        return UINT64_MAX;
    return static_cast<std::uint64_t>(r);
}

std::uint64_t absDiff(std::uint64_t a, std::uint64_t b)
{
    return a > b ? a - b : b - a;
}

} // namespace

double percentile(std::vector<std::uint64_t> values, double quantile)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const double position = quantile * toDouble(values.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const auto upper = static_cast<std::size_t>(std::ceil(position));
    const double weight = position - toDouble(lower);
    return toDouble(values[lower]) * (1.0 - weight) + toDouble(values[upper]) * weight;
}

SampleStatistics statistics(std::vector<std::uint64_t> samples)
{
    SampleStatistics s;
    s.medianNs = percentile(samples, 0.5);
    s.p95Ns = percentile(samples, 0.95);
    const std::uint64_t center = roundToU64(s.medianNs);
    std::vector<std::uint64_t> deviations;
    deviations.reserve(samples.size());
    for (const std::uint64_t v : samples)
        deviations.push_back(absDiff(v, center));
    s.madNs = percentile(std::move(deviations), 0.5);
    s.samplesNs = std::move(samples);
    return s;
}

double medianOfSorted(const std::vector<Int128> &v)
{
    if (v.empty())
        return 0.0;
    const std::size_t n = v.size();
    if (n % 2 == 0)
        return (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2.0;
    return static_cast<double>(v[n / 2]);
}

double pairedMedianDelta(const std::vector<SamplePair> &pairs)
{
    std::vector<Int128> deltas;
    deltas.reserve(pairs.size());
    for (const auto &[base, cand] : pairs)
        deltas.push_back(static_cast<Int128>(cand) - static_cast<Int128>(base));
    std::sort(deltas.begin(), deltas.end());
    return medianOfSorted(deltas);
}

std::size_t Xorshift64::index(std::size_t length)
{
    m_state ^= m_state << 13;
    m_state ^= m_state >> 7;
    m_state ^= m_state << 17;
    return static_cast<std::size_t>(m_state % static_cast<std::uint64_t>(length));
}

std::pair<double, double> bootstrapDeltaInterval(const std::vector<std::uint64_t> &baseline,
                                                 const std::vector<std::uint64_t> &candidate,
                                                 const std::vector<SamplePair> *pairs)
{
    Xorshift64 rng;
    std::vector<double> deltas;
    deltas.reserve(kBootstrapIterations);
    std::vector<Int128> pairSample;
    std::vector<std::uint64_t> baseSample, candSample;
    for (std::size_t i = 0; i < kBootstrapIterations; ++i) {
        if (pairs) {
            pairSample.clear();
            for (std::size_t k = 0; k < pairs->size(); ++k) {
                const SamplePair &p = (*pairs)[rng.index(pairs->size())];
                pairSample.push_back(static_cast<Int128>(p.second) - static_cast<Int128>(p.first));
            }
            std::sort(pairSample.begin(), pairSample.end());
            deltas.push_back(medianOfSorted(pairSample));
        } else {
            // Baseline first, then candidate, from one generator: the order fixes the draws.
            baseSample.clear();
            for (std::size_t k = 0; k < baseline.size(); ++k)
                baseSample.push_back(baseline[rng.index(baseline.size())]);
            candSample.clear();
            for (std::size_t k = 0; k < candidate.size(); ++k)
                candSample.push_back(candidate[rng.index(candidate.size())]);
            deltas.push_back(percentile(candSample, 0.5) - percentile(baseSample, 0.5));
        }
    }
    std::sort(deltas.begin(), deltas.end(), totalLess);
    return {deltas[249], deltas[9749]};
}

} // namespace TraceInspector::ComparisonStatistics
