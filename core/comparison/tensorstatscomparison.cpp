// SPDX-License-Identifier: MIT
#include "core/comparison/tensorstatscomparison.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>

namespace TraceInspector {

namespace {

struct Aggregate {
    double rms = 0;
    double absMax = 0;
    std::uint64_t nonFinite = 0;
    std::uint64_t samples = 0;
    std::uint64_t runs = 0;
};

// std::map<std::string> orders byte-wise, as upstream's BTreeMap<String>.
std::map<std::string, Aggregate> aggregate(const std::vector<RunFacts> &runs)
{
    std::map<std::string, Aggregate> byLabel;
    for (const RunFacts &run : runs) {
        std::set<std::string> seen;
        for (const TensorStatsFact &event : run.tensorStats) {
            Aggregate &entry = byLabel[event.label];
            entry.rms += event.rms;
            entry.absMax += event.absMax;
            entry.nonFinite =
                event.nonFinite > UINT64_MAX - entry.nonFinite ? UINT64_MAX : entry.nonFinite + event.nonFinite;
            ++entry.samples;
            if (seen.insert(event.label).second)
                ++entry.runs;
        }
    }
    return byLabel;
}

double mean(double sum, std::uint64_t samples)
{
    return samples == 0 ? 0.0 : sum / static_cast<double>(samples);
}

std::optional<double> ratio(double a, double b)
{
    if (a == 0.0)
        return b == 0.0 ? std::optional<double>(1.0) : std::nullopt;
    return b / a;
}

double ratioDistance(const std::optional<double> &r)
{
    if (r && *r > 0.0)
        return std::fabs(std::log(*r));
    return std::numeric_limits<double>::infinity();
}

/// f64::total_cmp key.
std::int64_t totalKey(double v)
{
    std::int64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return bits ^ static_cast<std::int64_t>(static_cast<std::uint64_t>(bits >> 63) >> 1);
}

} // namespace

TensorStatsComparison compareTensorStats(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate)
{
    TensorStatsComparison result;
    result.baselineRuns = baseline.size();
    result.candidateRuns = candidate.size();
    const auto a = aggregate(baseline);
    const auto b = aggregate(candidate);
    for (const auto &[label, ea] : a) {
        const auto it = b.find(label);
        if (it == b.end()) {
            result.unmatchedA.push_back(label);
            continue;
        }
        const Aggregate &eb = it->second;
        TensorStatsComparisonRow row;
        row.label = label;
        row.rmsA = mean(ea.rms, ea.samples);
        row.rmsB = mean(eb.rms, eb.samples);
        row.rmsRatio = ratio(row.rmsA, row.rmsB);
        row.absMaxRatio = ratio(mean(ea.absMax, ea.samples), mean(eb.absMax, eb.samples));
        row.nonFiniteA = ea.nonFinite;
        row.nonFiniteB = eb.nonFinite;
        row.samplesA = ea.samples;
        row.samplesB = eb.samples;
        row.runsA = ea.runs;
        row.runsB = eb.runs;
        result.matched.push_back(std::move(row));
    }
    for (const auto &[label, eb] : b) {
        (void)eb;
        if (!a.contains(label))
            result.unmatchedB.push_back(label);
    }
    std::stable_sort(result.matched.begin(), result.matched.end(),
                     [](const TensorStatsComparisonRow &x, const TensorStatsComparisonRow &y) {
                         const std::int64_t dx = totalKey(ratioDistance(x.rmsRatio));
                         const std::int64_t dy = totalKey(ratioDistance(y.rmsRatio));
                         if (dx != dy)
                             return dx > dy; // largest drift first
                         return x.label < y.label;
                     });
    return result;
}

} // namespace TraceInspector
