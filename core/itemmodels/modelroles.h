// SPDX-License-Identifier: MIT
#pragma once

#include <Qt>

namespace TraceInspector {

/// Every custom item role the views read from the core item models (house style rule 11);
/// a role no view or test reads is not kept.
///
/// Models carry meaning, never presentation: ui delegates map these roles to colours, fonts
/// and icons. Values are compiled in, never stored: a role's number may change.
/// Unscoped on purpose: both `SortRole` and `ModelRole::SortRole` read well at call sites.
enum ModelRole : int {
    /// Raw value for sorting (qint64/quint64/double/QString); DisplayRole is formatted text.
    SortRole = Qt::UserRole + 1,
    /// The reference total a bar is drawn against (quint64 ns, or bytes); 0 = no bar.
    TotalRole,
    /// The span id as text (QString).
    SpanIdRole,
    /// Index into Trace::spans (qint64), -1 when the row refers to no span.
    SpanIndexRole,
    /// Duration in ns (quint64); invalid QVariant when unknown (open span).
    DurationRole,
    /// TraceInspector::Severity as int.
    SeverityRole,
    /// Index into Trace::ops (qint64).
    OpIndexRole,
    /// bool: the span has no span_end yet.
    IsOpenRole,
    /// bool: the span's parent_id names no span in the trace.
    IsDanglingRole,
    /// bool: the span is part of a parent cycle and was placed under the cycle root level.
    IsCycleRole,
    /// Self time in ns (quint64); invalid when unknown.
    SelfTimeRole,
    /// Fraction 0..1 (double) of the measured total; invalid when n/a.
    FractionRole,
    /// The bar value a DurationBarDelegate draws (quint64), relative to TotalRole.
    BarValueRole,
    /// Nesting depth (int, roots are 0).
    DepthRole,
    /// 1-based source line of the record (quint64).
    LineRole,
    /// TraceInspector::RelatedKind as int.
    RelatedKindRole,
    /// Index into the Trace array named by RelatedKindRole (qint64), -1 when unknown.
    RelatedIndexRole,
    /// bool: the span is measured.
    IsMeasuredRole,
    /// Bytes (quint64) for byte-valued cells.
    BytesRole,
    /// Op name (QString) of an op row or aggregate row.
    OpNameRole,
    /// Device name (QString).
    DeviceRole,
    /// Count (quint64) of an aggregate row.
    CountRole,
    /// bool: the row is a synthetic grouping row (e.g. the cycle root), not a record.
    IsSyntheticRole,
    /// bool (filter proxies): the row matches the filter itself, not only through a descendant.
    IsFilterMatchRole,
    /// Busy union in ns (quint64) of a span's busiest device stream; invalid when none.
    DeviceBusyRole,
    /// bool: a device stream's busy time exceeds the span's host duration.
    DeviceExceedsHostRole,
    /// Bytes moved per ns (double); invalid when n/a.
    BytesPerNsRole,
    /// Share (double 0..1) of the owning span's host duration; invalid when n/a.
    ParentShareRole,
    /// Signed change (qint64 ns or bytes) of a comparison cell, candidate minus baseline:
    /// negative = the candidate is faster/smaller; invalid when either side is unknown.
    DeltaRole,
    /// First role free for a model's private use.
    UserRoleBase = Qt::UserRole + 100,
};

} // namespace TraceInspector
