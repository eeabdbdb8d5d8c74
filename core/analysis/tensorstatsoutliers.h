// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace TraceInspector {

struct Trace;
struct TensorStats;

/// Which rules flag a tensor_stats record (bit set).
enum TensorStatsFlag : std::uint8_t {
    NonFiniteValues = 1, ///< non_finite > 0
    NearRangeLimit = 2,  ///< abs_max within TensorStatsRules::rangeHeadroom of the dtype's largest finite value
    RmsOutlier = 4,      ///< rms deviates from the other records of its label by more than zThreshold
};

/// The outlier rules for tensor_stats records (TRACE_FORMAT.md §4.6). Plain numbers, so
/// tests and a future settings page can vary them.
struct TensorStatsRules {
    /// abs_max >= limit / rangeHeadroom flags the record: less than two binary orders of
    /// headroom left before the dtype overflows (a doubling or two of an activation).
    double rangeHeadroom = 4.0;
    /// |z| at or above this flags the rms.
    double zThreshold = 3.0;
    /// The z-score compares a record with the *other* records of its label (leave one out: a
    /// single exploding value must not widen the spread it is judged against), so it needs at
    /// least this many records with the label; fewer give no z-score.
    std::size_t minLabelRecords = 4;
};

/// Verdict on one tensor_stats record.
struct TensorStatsVerdict {
    std::uint8_t flags = 0; ///< TensorStatsFlag bits
    /// Sort key, higher = more suspicious: the weight of the flags set (non-finite 4,
    /// near range 2, rms 1) plus a severity in [0, 1) — the larger of the non-finite
    /// fraction, abs_max / limit and |z| / (|z| + zThreshold). Unflagged records keep their
    /// severity, so a sort shows the nearly-suspicious first among the clean ones.
    double score = 0;
    /// Leave-one-out z-score of rms within its label; none when the label has too few
    /// records, or the others have no spread and this rms equals theirs.
    std::optional<double> rmsZ;
    /// abs_max / the dtype's largest finite value; none for dtypes without a known limit.
    std::optional<double> rangeFraction;
};

/// Largest finite value of a floating dtype label (`f16` 65504, `bf16` ≈3.39e38, `f32`
/// ≈3.40e38, `f64`, and the F8 formats), or none for integer and unknown dtypes. Exact label
/// match, as §7.1's dtype sizes.
std::optional<double> dtypeRangeLimit(std::string_view dtype);

/// Verdicts for every Trace::tensorStats record, same order. Linear (one pass per label
/// group for the sums).
std::vector<TensorStatsVerdict> evaluateTensorStats(const Trace &trace, const TensorStatsRules &rules = {});

} // namespace TraceInspector
