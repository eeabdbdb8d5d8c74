// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace TraceInspector {

struct Trace;
class OpStatistics;

/// For each row of a candidate's op aggregate, the row of the baseline's aggregate with the
/// same group (issue #15 item 3: baseline, Δ and Δ% in the op aggregate): the same op name
/// when grouping by name, the same op name, output shape, dtype and device otherwise. Keys
/// are compared as text, as the two traces intern strings and shapes independently. Both
/// aggregates must use the same grouping; otherwise nothing matches.
struct OpGroupCounterpart {
    static constexpr std::uint32_t kNone = UINT32_MAX;
    /// Per candidate row: the baseline row, or kNone.
    std::vector<std::uint32_t> baselineRow;

    static OpGroupCounterpart compute(const Trace &baseline, const OpStatistics &baselineStats, const Trace &candidate,
                                      const OpStatistics &candidateStats);
};

} // namespace TraceInspector
