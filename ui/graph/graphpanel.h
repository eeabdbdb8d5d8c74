// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <vector>

#include "core/analysis/callgraph.h"
#include "ui/graph/graphscenebuilder.h"

class QAbstractGraphicsShapeItem;
class QComboBox;
class QGraphicsScene;
class QLabel;
class QSpinBox;
class QToolButton;

namespace TraceInspector {

struct Trace;
class SpanTree;
class GraphView;

/// The call graph of the trace: call and data edges as a layered left-to-right graph, laid
/// out by Graphviz dot off the GUI thread (QtConcurrent) and drawn with QGraphicsView.
///
/// The graph shows the subtree of the span selected elsewhere (the whole trace when none),
/// either one node per span path (repeated micro-batches merged; the default, readable at any
/// size) or one node per span, at most
/// nodeCap() nodes in breadth-first order; a message says when the cap applies. Clicking a
/// node emits spanActivated(); a selection that is already drawn only highlights its node.
///
/// Nothing is laid out while the panel is hidden: a graph asked for then (a new trace, scope
/// or cap) is laid out when the panel is first shown, and a selection made meanwhile is
/// applied to it as if the graph had been drawn all along. On a big trace the graph costs a
/// worker ~100 ms while the other analyses of the load still need both cores, and its tab is
/// not the one shown first.
class GraphPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr std::size_t kDefaultNodeCap = 150;
    /// Largest cap the spin box offers: Graphviz lays out a few thousand nodes in seconds on
    /// a worker, but drawing them is GUI-thread work and the picture is no longer readable.
    static constexpr std::size_t kMaxNodeCap = 3000;

    explicit GraphPanel(QWidget *parent = nullptr);
    ~GraphPanel() override;

    /// Shows the graph of \a trace with its \a tree (same trace); lays it out in the
    /// background. Either null clears the panel.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree);
    void clear();

    CallGraphScope scope() const { return m_scope; }
    void setScope(CallGraphScope scope);
    GraphHeat heat() const { return m_heat; }
    /// Recolours the drawn graph; no new layout.
    void setHeat(GraphHeat heat);
    std::size_t nodeCap() const { return m_nodeCap; }
    /// At least 1 and at most kMaxNodeCap; the "Node cap" spin box shows it and sets it.
    void setNodeCap(std::size_t cap);
    /// Root of the graph (index into Trace::spans), or -1 for the whole trace.
    qint64 rootSpan() const { return m_root; }
    /// Shows the whole trace again (ignoring the current selection).
    void showWholeTrace();

    /// A layout is running or queued (one waiting for the panel to be shown is not).
    bool isBusy() const { return m_running || m_pending; }
    /// A layout waits for the panel to be shown.
    bool isDeferred() const { return m_deferred; }
    /// The graph drawn now, or null.
    const GraphDrawing *drawing() const { return m_drawing.get(); }
    /// Node drawn for span \a spanIndex (its own node, or the path node it was merged into),
    /// or -1.
    int nodeOfSpan(qint64 spanIndex) const;
    int highlightedNode() const { return m_highlighted; }
    /// Writes the drawn graph as SVG; false (with \a error) when it cannot.
    bool exportSvg(const QString &path, QString *error = nullptr);

    GraphView *view() const { return m_view; }
    QGraphicsScene *scene() const { return m_scene; }
    QLabel *messageLabel() const { return m_message; }
    QComboBox *scopeBox() const { return m_scopeBox; }
    QComboBox *heatBox() const { return m_heatBox; }
    QSpinBox *nodeCapBox() const { return m_capBox; }

public Q_SLOTS:
    /// The span selected elsewhere (-1: none). Highlights its node when drawn, else shows
    /// its subtree.
    void setSelectedSpan(qint64 spanIndex);

Q_SIGNALS:
    /// A node was clicked: its span (the first merged one for a path node).
    void spanActivated(qint64 spanIndex);
    /// A layout finished and the scene shows it.
    void graphReady();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void relayout();
    void startJob();
    void onJobFinished();
    void redraw();
    void highlight(int node);
    void updateMessage();
    void exportWithDialog();

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::shared_ptr<const GraphDrawing> m_drawing;
    std::vector<QAbstractGraphicsShapeItem *> m_nodeItems;
    QFutureWatcher<std::shared_ptr<const GraphDrawing>> m_watcher;
    quint64 m_generation = 0;
    quint64 m_runningGeneration = 0;
    bool m_running = false;
    bool m_pending = false;
    bool m_deferred = false; ///< relayout() was called while hidden
    /// The selection changed while the graph of the current root was not drawn yet: once it
    /// is, a selected span outside it moves the graph to its subtree (as a drawn graph would).
    bool m_followAfterLayout = false;
    qint64 m_root = -1;
    qint64 m_selected = -1;
    int m_highlighted = -1;
    CallGraphScope m_scope = CallGraphScope::SpanPath;
    GraphHeat m_heat = GraphHeat::SelfTime;
    std::size_t m_nodeCap = kDefaultNodeCap;
    qint64 m_drawMs = 0;

    GraphView *m_view;
    QGraphicsScene *m_scene;
    QLabel *m_message;
    QComboBox *m_scopeBox;
    QComboBox *m_heatBox;
    QSpinBox *m_capBox;
    QToolButton *m_wholeButton;
    QToolButton *m_fitButton;
    QToolButton *m_exportButton;
};

} // namespace TraceInspector
