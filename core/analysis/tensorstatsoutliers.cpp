// SPDX-License-Identifier: MIT
#include "core/analysis/tensorstatsoutliers.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/analysis/logicalmemorykeys.h"
#include "core/model/trace.h"

namespace TraceInspector {

std::optional<double> dtypeRangeLimit(std::string_view dtype)
{
    if (dtype == "f16")
        return 65504.0;
    if (dtype == "bf16")
        return 3.3895313892515355e38; // (2 - 2^-7) * 2^127
    if (dtype == "f32")
        return double(std::numeric_limits<float>::max());
    if (dtype == "f64")
        return std::numeric_limits<double>::max();
    if (dtype == "f8e4m3" || dtype == "F8E4M3")
        return 448.0;
    if (dtype == "f8e5m2" || dtype == "F8E5M2")
        return 57344.0;
    return std::nullopt;
}

namespace {

// Sums of rms per label, so each record's leave-one-out mean and spread follow in O(1).
struct LabelSums {
    std::size_t count = 0;
    double sum = 0;
    double sumSquares = 0;
    double shift = 0; // first value of the group: sums of (x - shift) keep the variance accurate
};

} // namespace

std::vector<TensorStatsVerdict> evaluateTensorStats(const Trace &trace, const TensorStatsRules &rules)
{
    const std::vector<TensorStats> &stats = trace.tensorStats;
    std::vector<TensorStatsVerdict> verdicts(stats.size());
    // Groups by label, indexed densely: a table over every interned string was 9 MB on the
    // 1 GB trace for a few thousand records.
    const std::size_t stringCount = trace.strings.size();
    DenseKeyIndex labels(stats.size());
    std::vector<LabelSums> groups;
    for (const TensorStats &s : stats) {
        if (s.label >= stringCount)
            continue;
        const std::uint32_t g = labels.insert(s.label);
        if (g == groups.size())
            groups.push_back({0, 0, 0, s.rms});
        LabelSums &sums = groups[g];
        const double x = s.rms - sums.shift;
        ++sums.count;
        sums.sum += x;
        sums.sumSquares += x * x;
    }

    const double minRecords = double(std::max<std::size_t>(rules.minLabelRecords, 3));
    for (std::size_t i = 0; i < stats.size(); ++i) {
        const TensorStats &s = stats[i];
        TensorStatsVerdict &v = verdicts[i];
        double severity = 0;
        if (s.nonFinite > 0) {
            v.flags |= NonFiniteValues;
            severity = std::max(severity, s.elements > 0 ? double(s.nonFinite) / double(s.elements) : 1.0);
        }
        if (const std::optional<double> limit = dtypeRangeLimit(trace.str(s.dtype))) {
            v.rangeFraction = s.absMax / *limit;
            if (rules.rangeHeadroom > 0 && s.absMax >= *limit / rules.rangeHeadroom)
                v.flags |= NearRangeLimit;
            severity = std::max(severity, std::min(*v.rangeFraction, 1.0));
        }
        if (s.label < stringCount) {
            const LabelSums &sums = groups[labels.find(s.label)];
            if (double(sums.count) >= minRecords) {
                const double n = double(sums.count - 1);
                const double x = s.rms - sums.shift;
                const double mean = (sums.sum - x) / n;
                const double variance = std::max(0.0, ((sums.sumSquares - x * x) - n * mean * mean) / (n - 1));
                const double spread = std::sqrt(variance);
                const double deviation = x - mean;
                // Rounding leaves a few ulps of "spread" in a group of equal values.
                const double noise = 1e-12 * std::max(std::abs(mean + sums.shift), std::abs(s.rms));
                if (spread > noise)
                    v.rmsZ = deviation / spread;
                else if (std::abs(deviation) > noise)
                    v.rmsZ = std::copysign(std::numeric_limits<double>::infinity(), deviation);
                if (v.rmsZ) {
                    const double z = std::abs(*v.rmsZ);
                    if (z >= rules.zThreshold)
                        v.flags |= RmsOutlier;
                    severity = std::max(severity, std::isinf(z) ? 1.0 : z / (z + rules.zThreshold));
                }
            }
        }
        const double weight = ((v.flags & NonFiniteValues) ? 4 : 0) + ((v.flags & NearRangeLimit) ? 2 : 0)
                              + ((v.flags & RmsOutlier) ? 1 : 0);
        // Kept below 1 so a flag always outranks any severity of fewer flags.
        v.score = weight + std::min(severity, 0.999999);
    }
    return verdicts;
}

} // namespace TraceInspector
