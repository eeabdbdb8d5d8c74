// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/model/problem.h"
#include "core/model/problemlimiter.h"
#include "core/model/trace.h"

namespace TraceInspector {

struct HealthReport;
struct RecordExtents;
struct EvidenceAnalysis;
struct MemoryProfile;
struct TraceSummary;
class SpanTree;
class OpStatistics;
class DeviceTime;
class MemorySeries;
class TimelineLayout;

/// The stages a load goes through, in delivery order. Each stage adds to the snapshot
/// delivered by the previous one; earlier members never change.
enum class LoadStage : std::uint8_t {
    Read,     ///< trace, reader problems, the strict verdict and op statistics
    SpanTree, ///< nesting, self time and depth
    Health,   ///< health findings
    Memory,   ///< memory profile and the §7.3 summary
    /// The memory chart's series (per-storage deltas with checkpoints), so the chart only
    /// turns them into Qt Charts series on the GUI thread.
    MemoryChart,
};

/// Wall-clock milliseconds each stage took, measured from the start of the load.
struct LoadTimings {
    qint64 readDoneMs = -1;
    qint64 spanTreeDoneMs = -1;
    qint64 healthDoneMs = -1;
    qint64 memoryDoneMs = -1;
    qint64 memoryChartDoneMs = -1;
    /// Milliseconds of the span-tree stage spent on device busy unions and on the op
    /// aggregate grouped by shape, dtype and device (parts of spanTreeDoneMs).
    qint64 deviceTimeMs = -1;
    qint64 opRegroupMs = -1;
    qint64 evidenceMs = -1; ///< duration of the evidence analysis (part of the Memory stage), both its steps
    /// CPU milliseconds of each analysis after the read, on whichever thread ran it (-1: not
    /// run): on a shared machine the wall times above mostly measure the neighbours.
    struct Cpu {
        qint64 spanTree = -1;
        qint64 deviceTime = -1;
        qint64 timelineLayout = -1;
        qint64 opRegroup = -1;
        qint64 health = -1;
        qint64 memory = -1; ///< memory profile and the summary
        qint64 evidence = -1;
        qint64 memorySeries = -1;
    } cpu;
};

/// One immutable snapshot of a (possibly still running) load. Shared by pointer between the
/// loader and every consumer; members filled by later stages stay null until then.
struct LoadedTrace {
    quint64 generation = 0;
    QString path;
    LoadStage stage = LoadStage::Read;

    std::shared_ptr<const Trace> trace;
    /// Decode failures and hard-rule violations of the tolerant read, sorted by line.
    std::shared_ptr<const std::vector<Problem>> readProblems;
    /// Reader problems counted but not stored (each rule keeps its first
    /// ProblemLimiter::kMaxPerRule).
    std::vector<OmittedProblems> readOmitted;
    /// What upstream's strict loader reports; set means the trace is rejected.
    std::optional<Problem> strictError;
    /// Op durations per op name, computed with the read so the op table never aggregates
    /// on the GUI thread.
    std::shared_ptr<const OpStatistics> opStatistics;
    /// Whole-trace facts the views need (duration scale, column widths, the run's span,
    /// measured span counts), computed with the read beside the op statistics.
    std::shared_ptr<const RecordExtents> extents;

    std::shared_ptr<const SpanTree> spanTree;
    /// With the span tree: device busy unions per span, and the op aggregate per
    /// (op, shape, dtype, device), so neither is computed on the GUI thread.
    std::shared_ptr<const DeviceTime> deviceTime;
    std::shared_ptr<const OpStatistics> opStatisticsByShape;
    /// With the span tree: the timeline's tracks and lanes, laid out by the loader while
    /// the other analyses run, so the timeline is drawn as soon as the stage is shown.
    std::shared_ptr<const TimelineLayout> timelineLayout;
    std::shared_ptr<const HealthReport> health;
    std::shared_ptr<const MemoryProfile> memory;
    std::shared_ptr<const TraceSummary> summary;
    /// Tensor joins, tensor_stats verdicts, gradient keys and the capability matrix (with
    /// the Memory stage: it needs the health findings and the memory lifetimes).
    std::shared_ptr<const EvidenceAnalysis> evidence;
    /// The memory chart's time series of the memory profile (MemoryChart stage).
    std::shared_ptr<const MemorySeries> memorySeries;

    LoadTimings timings;

    bool isRejected() const { return strictError.has_value(); }
    /// True while the trace carries errors that make a normalized re-emission lossy or
    /// wrong: a strict rejection or any line that failed to read or decode.
    bool hasHardErrors() const;
    /// Number of lines that failed to read or decode (E-LINE-*).
    std::size_t decodeFailureCount() const;
    bool isComplete() const { return stage == LoadStage::MemoryChart; }
};

using LoadedTracePtr = std::shared_ptr<const LoadedTrace>;

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::LoadedTracePtr)
