// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>

#include <cstdint>

#include "core/analysis/timecoordinates.h"

namespace TraceInspector {

struct Problem;
struct Trace;
class SpanTree;

/// What the user selected, typed: one record of the trace (by its index into the Trace
/// array of its kind) or one finding. Every view shows and emits this one value.
///
/// A finding that names a record selects that record and remembers the finding in
/// `finding` (so the validation panel keeps it current while every other view shows the
/// record); a finding that names nothing selectable is Kind::Finding.
struct Selection {
    enum class Kind : std::uint8_t {
        None,
        Span,           ///< index into Trace::spans
        Op,             ///< index into Trace::ops
        DeviceInterval, ///< index into Trace::deviceIntervals
        Tensor,         ///< index into Trace::tensors
        MemoryEvent,    ///< index into Trace::memory
        Gradient,       ///< index into Trace::gradients (a gradient record names no span)
        Finding,        ///< index into the window's list of findings (see DetailsPane::setFindings)
    };

    Kind kind = Kind::None;
    qint64 index = -1;
    qint64 finding = -1; ///< the finding this selection came from, or -1

    static Selection span(qint64 i) { return {Kind::Span, i, -1}; }
    static Selection op(qint64 i) { return {Kind::Op, i, -1}; }
    static Selection deviceInterval(qint64 i) { return {Kind::DeviceInterval, i, -1}; }
    static Selection tensor(qint64 i) { return {Kind::Tensor, i, -1}; }
    static Selection memoryEvent(qint64 i) { return {Kind::MemoryEvent, i, -1}; }
    static Selection gradient(qint64 i) { return {Kind::Gradient, i, -1}; }
    static Selection findingOnly(qint64 findingIndex) { return {Kind::Finding, findingIndex, findingIndex}; }

    /// What a finding names, as a selection: the related span, op, tensor, interval or
    /// memory event when the finding carries its index (or, for spans, an id that resolves);
    /// otherwise the finding itself. \a findingIndex is its position in the findings list.
    static Selection fromProblem(const Problem &problem, qint64 findingIndex, const Trace &trace);

    bool isValid() const { return kind != Kind::None && index >= 0; }
    bool isRecord() const { return isValid() && kind != Kind::Finding; }
    /// The span the selected record belongs to: the span itself, an op's or interval's or
    /// tensor's or memory event's span; -1 when there is none or it is unknown.
    qint64 spanIndex(const Trace &trace, const SpanTree &tree) const;

    friend bool operator==(const Selection &, const Selection &) = default;
};

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::Selection)
Q_DECLARE_METATYPE(TraceInspector::TimeWindow)
