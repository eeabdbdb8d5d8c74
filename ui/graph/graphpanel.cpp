// SPDX-License-Identifier: MIT
#include "ui/graph/graphpanel.h"

#include <algorithm>

#include <QAbstractGraphicsShapeItem>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QShowEvent>
#include <QFileDialog>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QPainter>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/display/format.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"
#include "ui/graph/graphview.h"
#include "core/loading/workerpool.h"

Q_LOGGING_CATEGORY(lcGraph, "candle.ui.graph", QtInfoMsg)

namespace TraceInspector {

namespace {
constexpr double kReadableZoom = 0.75;
} // namespace

GraphPanel::GraphPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new GraphView(this))
    , m_scene(new QGraphicsScene(this))
    , m_message(new QLabel(this))
    , m_scopeBox(new QComboBox(this))
    , m_heatBox(new QComboBox(this))
    , m_capBox(new QSpinBox(this))
    , m_wholeButton(new QToolButton(this))
    , m_fitButton(new QToolButton(this))
    , m_exportButton(new QToolButton(this))
{
    setObjectName(QStringLiteral("graphPanel"));
    m_view->setScene(m_scene);
    m_message->setObjectName(QStringLiteral("graphMessage"));
    m_message->setTextFormat(Qt::PlainText);
    m_message->setWordWrap(true);

    m_scopeBox->setObjectName(QStringLiteral("graphScope"));
    m_scopeBox->addItem(tr("Span paths"), int(CallGraphScope::SpanPath));
    m_scopeBox->addItem(tr("Spans"), int(CallGraphScope::Subtree));
    m_scopeBox->setToolTip(tr("One node per span, or one per span path: spans with the same names from the root "
                              "down (repeated micro-batches) merge into one node"));
    m_heatBox->setObjectName(QStringLiteral("graphHeat"));
    m_heatBox->addItem(tr("Heat: self time"), int(GraphHeat::SelfTime));
    m_heatBox->addItem(tr("Heat: memory"), int(GraphHeat::Memory));
    m_heatBox->setToolTip(tr("Colour span nodes by self time or by the bytes allocated directly in the span"));
    m_capBox->setObjectName(QStringLiteral("graphNodeCap"));
    m_capBox->setRange(1, int(kMaxNodeCap));
    m_capBox->setValue(int(kDefaultNodeCap));
    m_capBox->setPrefix(tr("Node cap: "));
    m_capBox->setSingleStep(50);
    m_capBox->setAccelerated(true);
    // Typing "500" must not lay the graph out at 5 and 50 on the way.
    m_capBox->setKeyboardTracking(false);
    m_capBox->setToolTip(tr("The graph shows at most this many nodes, the upper layers first (1 to %1); "
                            "more nodes take longer to lay out and to draw")
                             .arg(kMaxNodeCap));
    m_wholeButton->setText(tr("Whole Trace"));
    m_wholeButton->setToolTip(tr("Show the graph of the whole trace instead of the selected span's subtree"));
    m_fitButton->setText(tr("Fit"));
    m_fitButton->setToolTip(tr("Zoom to show the whole graph (wheel zooms, drag pans)"));
    m_exportButton->setText(tr("SVG…")); // short: the bar must fit a 1024-pixel window
    m_exportButton->setToolTip(tr("Export the graph as an SVG image"));
    m_exportButton->setObjectName(QStringLiteral("graphExportSvg"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_scopeBox);
    bar->addWidget(m_heatBox);
    bar->addWidget(m_capBox);
    bar->addWidget(m_wholeButton);
    bar->addStretch(1);
    bar->addWidget(m_fitButton);
    bar->addWidget(m_exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);

    connect(m_scopeBox, &QComboBox::currentIndexChanged, this,
            [this] { setScope(CallGraphScope(m_scopeBox->currentData().toInt())); });
    connect(m_heatBox, &QComboBox::currentIndexChanged, this,
            [this] { setHeat(GraphHeat(m_heatBox->currentData().toInt())); });
    connect(m_capBox, &QSpinBox::valueChanged, this, [this](int cap) { setNodeCap(std::size_t(cap)); });
    connect(m_wholeButton, &QToolButton::clicked, this, &GraphPanel::showWholeTrace);
    connect(m_fitButton, &QToolButton::clicked, m_view, &GraphView::fitAll);
    connect(m_exportButton, &QToolButton::clicked, this, &GraphPanel::exportWithDialog);
    connect(m_view, &GraphView::nodeClicked, this, [this](int node) {
        if (!m_drawing || node < 0 || std::size_t(node) >= m_drawing->graph.nodes.size())
            return;
        const CallGraphNode &n = m_drawing->graph.nodes[std::size_t(node)];
        highlight(node);
        if (n.span != UINT32_MAX) {
            m_selected = n.span;
            Q_EMIT spanActivated(qint64(n.span));
        }
    });
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const GraphDrawing>>::finished, this,
            &GraphPanel::onJobFinished);
    updateMessage();
}

GraphPanel::~GraphPanel()
{
    // The job holds its own references to the trace; wait so that it never outlives Qt.
    m_watcher.waitForFinished();
}

void GraphPanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree)
{
    const bool fits = trace && tree && tree->spanCount() == trace->spans.size();
    m_trace = fits ? std::move(trace) : nullptr;
    m_tree = fits ? std::move(tree) : nullptr;
    m_root = -1;
    m_selected = -1;
    m_followAfterLayout = false;
    m_drawing.reset();
    m_nodeItems.clear();
    m_highlighted = -1;
    m_scene->clear();
    relayout();
}

void GraphPanel::clear()
{
    setTrace({}, {});
}

void GraphPanel::setScope(CallGraphScope scope)
{
    if (m_scopeBox->currentData().toInt() != int(scope))
        m_scopeBox->setCurrentIndex(m_scopeBox->findData(int(scope)));
    if (scope == m_scope)
        return;
    m_scope = scope;
    relayout();
}

void GraphPanel::setHeat(GraphHeat heat)
{
    if (m_heatBox->currentData().toInt() != int(heat))
        m_heatBox->setCurrentIndex(m_heatBox->findData(int(heat)));
    if (heat == m_heat)
        return;
    m_heat = heat;
    redraw();
}

void GraphPanel::setNodeCap(std::size_t cap)
{
    cap = std::clamp<std::size_t>(cap, 1, kMaxNodeCap);
    if (m_capBox->value() != int(cap)) {
        const QSignalBlocker blocker(m_capBox);
        m_capBox->setValue(int(cap));
    }
    if (cap == m_nodeCap)
        return;
    m_nodeCap = cap;
    relayout();
}

void GraphPanel::showWholeTrace()
{
    if (m_root < 0 && m_drawing)
        return;
    m_root = -1;
    relayout();
}

int GraphPanel::nodeOfSpan(qint64 spanIndex) const
{
    if (!m_drawing || spanIndex < 0 || std::uint64_t(spanIndex) >= m_drawing->graph.spanNode.size())
        return -1;
    const std::uint32_t node = m_drawing->graph.spanNode[std::size_t(spanIndex)];
    return node == UINT32_MAX ? -1 : int(node);
}

void GraphPanel::setSelectedSpan(qint64 spanIndex)
{
    if (!m_trace || spanIndex == m_selected)
        return;
    m_selected = spanIndex;
    if (spanIndex < 0)
        return; // keep what is drawn: a cleared selection is no reason to lay out again
    if (m_deferred || (m_followAfterLayout && isBusy())) {
        // The graph the selection is to be looked up in is not drawn yet: decide when it is.
        m_followAfterLayout = true;
        return;
    }
    const int node = nodeOfSpan(spanIndex);
    if (node >= 0 && !isBusy()) {
        highlight(node);
        m_view->centerOn(m_nodeItems[std::size_t(node)]);
        return;
    }
    m_root = spanIndex;
    relayout();
}

void GraphPanel::relayout()
{
    ++m_generation;
    if (!m_trace) {
        m_pending = false;
        m_deferred = false;
        updateMessage();
        return;
    }
    if (!isVisible()) {
        m_pending = false;
        m_deferred = true;
        updateMessage();
        return;
    }
    m_deferred = false;
    m_pending = true;
    if (!m_running)
        startJob();
    updateMessage();
}

void GraphPanel::startJob()
{
    m_pending = false;
    m_running = true;
    m_runningGeneration = m_generation;
    CallGraphOptions options;
    options.scope = m_scope;
    options.rootSpan = m_root >= 0 ? std::uint32_t(m_root) : CallGraphOptions::kWholeTrace;
    options.nodeCap = m_nodeCap;
    const QFontMetricsF metrics(font());
    GraphTextMetrics text;
    // Widest common glyphs rather than the average: a node too wide beats clipped text.
    text.charWidth =
        metrics.horizontalAdvance(QStringLiteral("abcdefghijklmnopqrstuvwxyz0123456789 ._:")) / 40.0 * 1.08;
    text.lineHeight = metrics.lineSpacing();
    auto trace = m_trace;
    auto tree = m_tree;
    m_watcher.setFuture(
        QtConcurrent::run(workerPool(), [trace, tree, options, text]() -> std::shared_ptr<const GraphDrawing> {
            return std::make_shared<const GraphDrawing>(computeGraphDrawing(*trace, *tree, options, text));
        }));
}

void GraphPanel::onJobFinished()
{
    m_running = false;
    std::shared_ptr<const GraphDrawing> result = m_watcher.result();
    const bool current = m_runningGeneration == m_generation && m_trace;
    if (m_pending && m_trace) {
        startJob(); // the user asked for another graph meanwhile: this one is stale
        updateMessage();
        return;
    }
    if (!current || !result) {
        updateMessage();
        return;
    }
    // A selection handed over before this graph was drawn: shown as a drawn graph shows a
    // selection it has (highlighted and centred), or it moves the graph to its subtree.
    const bool followed = m_followAfterLayout && m_selected >= 0;
    if (m_followAfterLayout) {
        m_followAfterLayout = false;
        const std::vector<std::uint32_t> &spanNode = result->graph.spanNode;
        if (m_selected >= 0 && m_selected != m_root
            && (std::uint64_t(m_selected) >= spanNode.size() || spanNode[std::size_t(m_selected)] == UINT32_MAX)) {
            m_root = m_selected;
            relayout();
            return;
        }
    }
    m_drawing = std::move(result);
    redraw();
    m_view->fitAll();
    // A big graph fitted whole is unreadable: start at a readable zoom on its root layer
    // instead (Fit shows everything).
    if (m_view->zoom() < kReadableZoom && !m_nodeItems.empty() && m_nodeItems.front()) {
        m_view->setTransform(QTransform::fromScale(kReadableZoom, kReadableZoom));
        const QRectF root = m_nodeItems.front()->sceneBoundingRect();
        const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
        m_view->centerOn(root.left() - 20 + visible.width() / 2, root.center().y());
    }
    if (const int node = nodeOfSpan(m_selected); node >= 0) {
        highlight(node);
        if (followed && m_nodeItems[std::size_t(node)])
            m_view->centerOn(m_nodeItems[std::size_t(node)]);
    }
    qCInfo(lcGraph) << "graph of" << m_drawing->graph.nodes.size() << "nodes," << m_drawing->graph.edges.size()
                    << "edges: built in" << m_drawing->buildMs << "ms, laid out in" << m_drawing->layout.elapsedMs
                    << "ms (worker), drawn in" << m_drawMs << "ms (GUI thread)";
    updateMessage();
    Q_EMIT graphReady();
}

void GraphPanel::redraw()
{
    m_nodeItems.clear();
    m_highlighted = -1;
    if (!m_drawing) {
        m_scene->clear();
        return;
    }
    QElapsedTimer clock;
    clock.start();
    m_nodeItems = populateGraphScene(*m_scene, *m_drawing, m_heat, palette(), font());
    m_drawMs = clock.elapsed();
    if (const int node = nodeOfSpan(m_selected); node >= 0)
        highlight(node);
}

void GraphPanel::highlight(int node)
{
    const auto penOf = [this](int index, bool on) {
        if (index < 0 || std::size_t(index) >= m_nodeItems.size() || !m_nodeItems[std::size_t(index)])
            return;
        QAbstractGraphicsShapeItem *item = m_nodeItems[std::size_t(index)];
        QPen pen = item->pen();
        pen.setWidthF(on ? 3.0 : 1.0);
        item->setPen(pen);
    };
    penOf(m_highlighted, false);
    m_highlighted = node;
    penOf(m_highlighted, true);
}

void GraphPanel::updateMessage()
{
    QString text;
    if (!m_trace) {
        text = tr("No trace: the graph appears once the span tree is built.");
    } else if (isBusy()) {
        text = tr("Laying out the graph with Graphviz…");
    } else if (m_drawing && !m_drawing->layout.ok) {
        text = tr("The graph could not be laid out: %1").arg(QString::fromStdString(m_drawing->layout.error));
    } else if (m_drawing) {
        const CallGraph &g = m_drawing->graph;
        const QString where =
            m_drawing->rootName.isEmpty() ? tr("the whole trace") : tr("the subtree of %1").arg(m_drawing->rootName);
        const QString what = m_drawing->options.scope == CallGraphScope::SpanPath ? tr("span paths") : tr("spans");
        if (g.nodes.empty())
            text = tr("Nothing to draw for %1: it has no spans.").arg(where);
        else
            text = tr("%1 of %2: %3 nodes, %4 edges.")
                       .arg(what, where, formatCount(g.nodes.size()), formatCount(g.edges.size()));
        if (g.isCapped())
            text +=
                u' '
                + tr("Capped at %1 nodes: %2 of %3 are left out (%4 spans, %5 tensors, %6 edges) — the upper layers are "
                     "kept; raise the node cap, select a deeper span or show span paths.")
                      .arg(formatCount(g.nodeCap), formatCount(g.omittedSpanNodes + g.omittedTensorNodes),
                           formatCount(g.candidateNodes), formatCount(g.omittedSpanNodes),
                           formatCount(g.omittedTensorNodes), formatCount(g.omittedEdges));
    }
    m_message->setText(text);
    m_exportButton->setEnabled(m_drawing && m_drawing->layout.ok && !m_drawing->graph.nodes.empty());
    m_wholeButton->setEnabled(m_trace && m_root >= 0);
}

bool GraphPanel::exportSvg(const QString &path, QString *error)
{
    if (!m_drawing || !m_drawing->layout.ok) {
        if (error)
            *error = tr("There is no graph to export.");
        return false;
    }
    const QRectF source = m_scene->sceneRect();
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(source.size().toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
    generator.setTitle(tr("Call graph"));
    generator.setDescription(m_message->text());
    QPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    painter.fillRect(QRectF(QPointF(0, 0), source.size()), palette().color(QPalette::Base));
    m_scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    painter.end();
    return true;
}

void GraphPanel::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Graph as SVG"), QStringLiteral("graph.svg"),
                                                      tr("SVG images (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportSvg(path, &error))
        QMessageBox::warning(this, tr("Export Graph"), error);
}

void GraphPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_deferred)
        return;
    // The window hands the panel its selection right after showing it (the tab change):
    // looked up in the graph being laid out, once it is drawn.
    m_followAfterLayout = true;
    relayout();
}

void GraphPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        redraw();
}

} // namespace TraceInspector
