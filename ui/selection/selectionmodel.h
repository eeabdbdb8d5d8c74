// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <vector>

#include "ui/selection/selection.h"

class QAction;

namespace TraceInspector {

/// The one selection of a window, shared by every view: the selected record (or finding),
/// the selected time range (host clock), and the back/forward history of selections.
///
/// Views call select() on a single click and activate() on a double click; they listen to
/// selectionChanged() to highlight and reveal the record and to activated() to zoom or
/// focus it. A view never hears its own change back as a new request: setters emit only
/// on a real change.
///
/// History: every distinct valid selection is recorded (at most kHistoryLimit); back() and
/// forward() move through it without recording. Clearing the selection keeps the history,
/// so back() then returns to the last selection. backAction() / forwardAction() carry the
/// platform's Back/Forward shortcuts (Alt+Left / Alt+Right); add them to the window.
class SelectionModel : public QObject
{
    Q_OBJECT
public:
    static constexpr int kHistoryLimit = 200;

    explicit SelectionModel(QObject *parent = nullptr);
    ~SelectionModel() override;

    Selection current() const { return m_current; }
    /// The selected time range, or an empty window when there is none.
    TimeWindow timeRange() const { return m_range; }
    bool hasTimeRange() const { return !m_range.isEmpty(); }

    bool canGoBack() const;
    bool canGoForward() const;
    /// The recorded selections, oldest first, and the position of the current one in it.
    const std::vector<Selection> &history() const { return m_history; }
    int historyPosition() const { return m_position; }

    QAction *backAction() const { return m_back; }
    QAction *forwardAction() const { return m_forward; }

public Q_SLOTS:
    /// Makes \a selection current and records it; an invalid selection clears.
    void select(const TraceInspector::Selection &selection);
    /// select(), then asks the views to focus \a selection (zoom to it, expand it).
    void activate(const TraceInspector::Selection &selection);
    void clearSelection();
    /// Sets the time range; an empty window clears it.
    void setTimeRange(const TraceInspector::TimeWindow &range);
    void clearTimeRange();
    void back();
    void forward();
    /// For a new trace: no selection, no range, no history.
    void reset();

Q_SIGNALS:
    void selectionChanged(const TraceInspector::Selection &current, const TraceInspector::Selection &previous);
    void activated(const TraceInspector::Selection &selection);
    /// An empty window means the range was cleared.
    void timeRangeChanged(const TraceInspector::TimeWindow &range);
    void historyChanged();

private:
    void setCurrent(const Selection &selection);
    void updateActions();

    Selection m_current;
    TimeWindow m_range;
    std::vector<Selection> m_history;
    int m_position = -1; // index into m_history of the last selection recorded or visited
    QAction *m_back;
    QAction *m_forward;
};

} // namespace TraceInspector
