// SPDX-License-Identifier: MIT
#include "ui/graph/graphscenebuilder.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsPathItem>
#include <QGraphicsPolygonItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>
#include <QPen>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

#include "core/display/format.h"
#include "core/model/trace.h"
#include "ui/graph/graphnodeitem.h"
#include "ui/graph/graphview.h"

namespace TraceInspector {

namespace {

constexpr int kMaxLabelChars = 40;

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString clipped(const QString &text)
{
    return text.size() > kMaxLabelChars ? text.left(kMaxLabelChars - 1) + QChar(0x2026) : text;
}

QStringList linesOf(const Trace &trace, const CallGraphNode &n)
{
    QStringList lines;
    const QString times = QObject::tr("×%1").arg(formatCount(n.count));
    if (n.kind == CallGraphNode::Kind::Tensor) {
        lines << clipped(qs(trace.str(n.name)));
        if (n.count > 1)
            lines << QObject::tr("%1 references").arg(formatCount(n.count));
        return lines;
    }
    QString name = qs(trace.str(n.name));
    if (n.namesDiffer) // merged spans named alike up to their numbers: microbatch.0, .1 → microbatch.#
        name.replace(QRegularExpression(QStringLiteral("[0-9]+")), QStringLiteral("#"));
    lines << clipped(name) + (n.count > 1 ? u' ' + times : QString());
    lines << QObject::tr("self %1 · total %2").arg(formatDuration(n.selfNs), formatDuration(n.totalNs));
    if (n.allocatedBytes > 0)
        lines << QObject::tr("allocated %1").arg(formatBytes(n.allocatedBytes));
    if (n.openCount > 0)
        lines << QObject::tr("%1 open").arg(formatCount(n.openCount));
    return lines;
}

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

GraphDrawing computeGraphDrawing(const Trace &trace, const SpanTree &tree, const CallGraphOptions &options,
                                 const GraphTextMetrics &metrics)
{
    GraphDrawing drawing;
    QElapsedTimer clock;
    clock.start();
    drawing.options = options;
    drawing.graph = buildCallGraph(trace, tree, options);
    if (options.rootSpan < trace.spans.size())
        drawing.rootName = qs(trace.str(trace.spans[options.rootSpan].name));

    GraphLayoutRequest request;
    request.nodes.reserve(drawing.graph.nodes.size());
    drawing.nodeLines.reserve(drawing.graph.nodes.size());
    for (const CallGraphNode &n : drawing.graph.nodes) {
        QStringList lines = linesOf(trace, n);
        qsizetype widest = 0;
        for (const QString &line : lines)
            widest = std::max(widest, line.size());
        GraphLayoutRequest::Node node;
        node.ellipse = n.kind == CallGraphNode::Kind::Tensor;
        node.widthPt = double(widest) * metrics.charWidth + (node.ellipse ? 28 : 16);
        node.heightPt = double(lines.size()) * metrics.lineHeight + (node.ellipse ? 14 : 8);
        node.rank = n.depth;
        request.nodes.push_back(node);
        drawing.nodeSizes.push_back({node.widthPt, node.heightPt});
        drawing.nodeLines.push_back(std::move(lines));
    }
    for (const CallGraphEdge &e : drawing.graph.edges) {
        GraphLayoutRequest::Edge edge;
        edge.from = e.from;
        edge.to = e.to;
        QString label;
        if (e.kind == CallGraphEdge::Kind::Call) {
            label = formatDuration(e.hostDurationNs);
            if (e.count > 1)
                label += QObject::tr(" (%1 calls)").arg(formatCount(e.count));
        }
        edge.label = label.toStdString();
        request.edges.push_back(std::move(edge));
        drawing.edgeLabels.append(label);
    }
    drawing.buildMs = clock.elapsed();
    drawing.layout = layoutWithDot(request);
    return drawing;
}

double nodeHeat(const CallGraph &graph, std::size_t node, GraphHeat heat)
{
    if (node >= graph.nodes.size() || graph.nodes[node].kind != CallGraphNode::Kind::Span)
        return 0;
    const CallGraphNode &n = graph.nodes[node];
    const std::uint64_t value = heat == GraphHeat::SelfTime ? n.selfNs : n.allocatedBytes;
    const std::uint64_t max = heat == GraphHeat::SelfTime ? graph.maxSelfNs : graph.maxAllocatedBytes;
    return max == 0 ? 0.0 : double(value) / double(max);
}

std::vector<QAbstractGraphicsShapeItem *> populateGraphScene(QGraphicsScene &scene, const GraphDrawing &drawing,
                                                             GraphHeat heat, const QPalette &palette, const QFont &font)
{
    scene.clear();
    std::vector<QAbstractGraphicsShapeItem *> nodeItems;
    if (!drawing.layout.ok)
        return nodeItems;
    scene.setSceneRect(QRectF(-20, -20, drawing.layout.widthPt + 40, drawing.layout.heightPt + 40));
    const QColor text = palette.color(QPalette::Text);
    const QColor link = palette.color(QPalette::Link);
    const QColor mid = palette.color(QPalette::Mid);
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));

    for (std::size_t i = 0; i < drawing.graph.edges.size() && i < drawing.layout.edges.size(); ++i) {
        const CallGraphEdge &e = drawing.graph.edges[i];
        const GraphLayoutResult::EdgePath &p = drawing.layout.edges[i];
        if (p.points.size() < 4)
            continue;
        QPainterPath path(QPointF(p.points[0].x, p.points[0].y));
        for (std::size_t k = 1; k + 2 < p.points.size(); k += 3)
            path.cubicTo(QPointF(p.points[k].x, p.points[k].y), QPointF(p.points[k + 1].x, p.points[k + 1].y),
                         QPointF(p.points[k + 2].x, p.points[k + 2].y));
        QColor colour = text;
        Qt::PenStyle style = Qt::SolidLine;
        switch (e.kind) {
        case CallGraphEdge::Kind::Call: colour.setAlphaF(0.75f); break;
        case CallGraphEdge::Kind::Nesting:
            colour = mid;
            style = Qt::DashLine;
            break;
        case CallGraphEdge::Kind::Data:
            colour = link;
            style = Qt::DashLine;
            break;
        case CallGraphEdge::Kind::Produces:
            colour = link;
            style = Qt::DotLine;
            break;
        }
        QPen pen(colour, 1.2, style);
        auto *item = scene.addPath(path, pen);
        item->setZValue(0);
        if (p.hasArrow) {
            const QPointF tip(p.arrowTip.x, p.arrowTip.y);
            const QPointF base = path.currentPosition();
            QLineF axis(tip, base);
            if (axis.length() > 0.1) {
                QLineF side = axis.normalVector();
                side.setLength(axis.length() * 0.45);
                const QPointF offset = side.p2() - side.p1();
                auto *arrow =
                    scene.addPolygon(QPolygonF({tip, base + offset, base - offset}), QPen(colour, 1), QBrush(colour));
                arrow->setZValue(0);
            }
        }
        if (p.hasLabel && i < std::size_t(drawing.edgeLabels.size()) && !drawing.edgeLabels[qsizetype(i)].isEmpty()) {
            auto *label = scene.addSimpleText(drawing.edgeLabels[qsizetype(i)], small);
            label->setBrush(text);
            const QRectF r = label->boundingRect();
            label->setPos(p.labelCenter.x - r.width() / 2, p.labelCenter.y - r.height() / 2);
            label->setZValue(1);
        }
    }

    const QColor base = palette.color(QPalette::Base);
    const QColor hot = palette.color(QPalette::Highlight);
    nodeItems.resize(drawing.graph.nodes.size(), nullptr);
    for (std::size_t i = 0; i < drawing.graph.nodes.size() && i < drawing.layout.nodeCenters.size(); ++i) {
        const CallGraphNode &n = drawing.graph.nodes[i];
        const QStringList &lines = drawing.nodeLines[i];
        const bool tensor = n.kind == CallGraphNode::Kind::Tensor;
        // The size dot laid out: text measured here may differ from the estimate and elides.
        const qreal w = drawing.nodeSizes[i].x;
        const qreal h = drawing.nodeSizes[i].y;
        const QPointF c(drawing.layout.nodeCenters[i].x, drawing.layout.nodeCenters[i].y);
        const QRectF rect(c.x() - w / 2, c.y() - h / 2, w, h);
        const double t = nodeHeat(drawing.graph, i, heat);
        const QColor fill = tensor ? palette.color(QPalette::AlternateBase) : mix(base, hot, 0.08 + 0.92 * t);
        QPen border(tensor ? link : text, 1, n.openCount > 0 ? Qt::DashLine : Qt::SolidLine);
        // Whichever text colour of the palette stands out more from the fill, in any theme.
        const QColor highlighted = palette.color(QPalette::HighlightedText);
        const QColor ink =
            std::abs(text.lightnessF() - fill.lightnessF()) >= std::abs(highlighted.lightnessF() - fill.lightnessF())
                ? text
                : highlighted;
        auto *shape = new GraphNodeItem(rect, tensor, lines, font, ink);
        shape->setPen(border);
        shape->setBrush(fill);
        shape->setData(GraphView::kNodeIndexKey, int(i));
        shape->setZValue(2);
        shape->setToolTip(lines.join(u'\n'));
        scene.addItem(shape);
        nodeItems[i] = shape;
    }
    return nodeItems;
}

} // namespace TraceInspector
