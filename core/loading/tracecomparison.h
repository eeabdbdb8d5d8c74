// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>

#include <memory>

#include "core/diff/fairness.h"
#include "core/diff/memorydiff.h"
#include "core/diff/tracediff.h"
#include "core/loading/loadedtrace.h"

namespace TraceInspector {

/// An A/B comparison of two fully loaded traces (issue #15): the span and op diff, the
/// fairness facts of their meta records and both logical memory curves. Immutable; keeps
/// both snapshots alive, as the diff refers to their spans by index.
struct TraceComparison {
    LoadedTracePtr baseline;
    LoadedTracePtr candidate;
    TraceDiff diff;
    FairnessCheck fairness;
    MemoryDiff memory;
    qint64 computeMs = 0; ///< wall time of compute()

    /// Off the GUI thread: both snapshots must have their span tree (memory is optional).
    static std::shared_ptr<const TraceComparison> compute(LoadedTracePtr baseline, LoadedTracePtr candidate);
};

using TraceComparisonPtr = std::shared_ptr<const TraceComparison>;

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::TraceComparisonPtr)
