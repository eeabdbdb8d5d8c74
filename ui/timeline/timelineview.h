// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractScrollArea>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/timecoordinates.h"
#include "core/timeline/timelinelayout.h"
#include "ui/selection/selection.h"
#include "ui/timeline/timelinepainter.h"
#include "ui/timeline/timelinerows.h"
#include "ui/timeline/timelineviewstate.h"

namespace TraceInspector {

struct Trace;
class SpanTree;

/// The run in time: a flame chart of host spans and ops on the host axis, and below it one
/// lane per device stream on the axis of its own device clock (never mixed with host time).
///
/// The layout is computed off the GUI thread (setTrace()); until it arrives the view says
/// so. Navigation: the wheel zooms at the cursor (Shift+wheel pans, Ctrl+wheel scrolls the
/// lanes), dragging the lanes pans, W/S or Up/Down zoom, A/D or Left/Right pan, Home fits
/// the whole run, F fits the selection (or the run), the scroll bar pans. Every axis keeps
/// its own window: the wheel and drags act on the axis under the cursor, keys and the scroll
/// bar on the axis used last.
///
/// A single click selects (selected()), a double click zooms to the slice (activated()).
/// Dragging on the host ruler selects a host time range (timeRangeSelected()); Esc clears it.
/// Dragging on a device clock's ruler zooms that axis to the dragged span. setSelection()
/// and setTimeRange() only show what the SelectionModel says; they never emit.
class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    /// Lays out \a trace with its span \a tree in the background, then shows it fitted.
    /// Supersedes a layout still being computed. Null clears the view.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree);
    /// As setTrace(), with the layout already built (by the loader): it is installed from the
    /// event loop, as a computed one is, and layoutReady() follows.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                  std::shared_ptr<const TimelineLayout> layout);
    /// Shows a layout computed elsewhere (tests, benchmarks).
    void setLayoutData(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                       std::shared_ptr<const TimelineLayout> layout);
    void clear();

    bool isLayoutReady() const { return m_layout != nullptr; }
    bool isComputingLayout() const { return m_pending; }
    std::shared_ptr<const TimelineLayout> layoutData() const { return m_layout; }

    /// The visible window of the host axis.
    TimeWindow visibleWindow() const { return m_state.host; }
    /// The visible window of device clock domain \a domain (its own clock).
    TimeWindow clockWindow(int domain) const;
    /// The host time range shown (empty = none).
    TimeWindow timeRange() const { return m_state.range; }
    Selection selection() const { return m_selection; }
    /// -1 = the host axis, else the clock domain keys and the scroll bar act on.
    int activeAxis() const { return m_activeAxis; }

    /// The record drawn at viewport point \a pos (None on empty space or a merged mark).
    Selection itemAt(const QPoint &pos) const;
    /// Where \a selection is drawn, in viewport coordinates; nullopt when it is not laid
    /// out, scrolled out of view vertically, or outside its axis's window.
    std::optional<QRect> itemRect(const Selection &selection) const;
    /// The tooltip text at \a pos (empty when nothing is there).
    QString toolTipAt(const QPoint &pos) const;
    int rulerHeight() const { return m_painter.rulerHeight(); }
    /// Leaves \a left and \a right pixels beside the time area (ruler and lanes), so that it
    /// spans the same screen x as a view lined up with it (the memory chart's plot area).
    void setTimeAreaMargins(int left, int right);
    /// The screen x of host time \a timeNs in the time area as drawn now.
    int timeToGlobalX(std::uint64_t timeNs) const;
    const TimelineRows &rows() const { return m_rows; }

public Q_SLOTS:
    /// Highlights \a selection and scrolls so that it is visible. A tensor or memory event
    /// highlights its span. No signal.
    void setSelection(const TraceInspector::Selection &selection);
    /// Shows \a range (host time) shaded; an empty window clears it. No signal.
    void setTimeRange(const TraceInspector::TimeWindow &range);
    /// Shows \a window on the host axis (clamped to the run).
    void setVisibleWindow(const TraceInspector::TimeWindow &window);
    void fitAll();
    /// Zooms to the selection (with a margin), or fits everything without one.
    void zoomToSelection();
    void zoomIn();
    void zoomOut();
    void panLeft();
    void panRight();

Q_SIGNALS:
    /// A single click: the record under the cursor, or an invalid selection on empty space.
    void selected(const TraceInspector::Selection &selection);
    /// A double click on a record (the view has zoomed to it).
    void activated(const TraceInspector::Selection &selection);
    /// A time range dragged on the host ruler, or an empty window when Esc cleared it.
    void timeRangeSelected(const TraceInspector::TimeWindow &range);
    /// The host axis window changed (zoom, pan, fit, resize): for time-aligned views.
    void visibleWindowChanged(const TraceInspector::TimeWindow &window);
    /// A layout started by setTrace() has arrived and is shown.
    void layoutReady();
    /// The record under the mouse changed (an invalid selection on empty space): for views
    /// that link this run to another (the stacked timelines of a comparison).
    void hovered(const TraceInspector::Selection &selection);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void changeEvent(QEvent *event) override;

private:
    enum class Drag { None, Pending, Pan, Range };
    struct Hit {
        std::size_t row = 0;
        TimelineMark mark;
    };

    void installLayout(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                       std::shared_ptr<const TimelineLayout> layout);
    void cancelPending();
    void applySelection(const Selection &selection, bool reveal);
    void applyStyle();
    TimeWindow limits(int axis) const;
    TimeWindow &window(int axis);
    const TimeWindow &window(int axis) const;
    void setWindow(int axis, const TimeWindow &w);
    int axisAt(const QPoint &pos) const;
    bool isOnRuler(const QPoint &pos, int *axis) const;
    std::optional<Hit> hitAt(const QPoint &pos) const;
    Selection selectionOf(const Hit &hit) const;
    std::optional<TimelineItem> itemOf(const Selection &selection) const;
    void zoomAt(int axis, double anchorX, double factor);
    void pan(int axis, double fraction);
    void zoomToExtent(int axis, std::uint64_t start, std::uint64_t end);
    void reveal(const TimelineLayout::Location &loc);
    void updateScrollBars();
    void onHorizontalScroll(int value);
    void onVerticalScroll(int value);
    int lanesHeight() const;
    std::uint64_t minimumLength(int axis) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::shared_ptr<const TimelineLayout> m_layout;
    TimelineRows m_rows;
    TimelinePainter m_painter;
    TimelineViewState m_state;
    Selection m_selection;
    int m_activeAxis = -1;

    quint64 m_generation = 0;
    bool m_pending = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    int m_dragAxis = -1;
    std::uint64_t m_rangeAnchor = 0;
    bool m_syncingScrollBars = false;
    int m_marginLeft = 0;
    int m_marginRight = 0;
};

} // namespace TraceInspector
