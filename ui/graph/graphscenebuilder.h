// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QPalette>
#include <QStringList>

#include <vector>

#include "core/analysis/callgraph.h"
#include "ui/graph/graphlayout.h"

class QAbstractGraphicsShapeItem;
class QGraphicsScene;

namespace TraceInspector {

struct Trace;
class SpanTree;

/// What colours the nodes: span self time or bytes allocated directly in the span.
enum class GraphHeat { SelfTime, Memory };

/// Text sizes measured on the GUI thread (font metrics are not used off it).
struct GraphTextMetrics {
    double charWidth = 7;
    double lineHeight = 14;
};

/// A laid-out graph: the CallGraph, dot's positions and the node and edge texts. Built off
/// the GUI thread by computeGraphDrawing(), drawn on it by populateGraphScene().
struct GraphDrawing {
    CallGraphOptions options;
    CallGraph graph;
    GraphLayoutResult layout;
    std::vector<QStringList> nodeLines;              // per node
    std::vector<GraphLayoutResult::Point> nodeSizes; // per node: width and height in points
    QStringList edgeLabels;                          // per edge; empty = none
    QString rootName;                                // empty for the whole trace
    qint64 buildMs = 0;
};

/// Builds the graph of \a options and lays it out with dot (serialized; see layoutWithDot).
/// Safe to call from any thread: touches only its arguments.
GraphDrawing computeGraphDrawing(const Trace &trace, const SpanTree &tree, const CallGraphOptions &options,
                                 const GraphTextMetrics &metrics);

/// Fills \a scene (cleared first) with \a drawing: nodes coloured by \a heat from \a palette,
/// edges with their labels. Returns the node shape items by node index (each carries its
/// index in data(GraphView::kNodeIndexKey)).
std::vector<QAbstractGraphicsShapeItem *> populateGraphScene(QGraphicsScene &scene, const GraphDrawing &drawing,
                                                             GraphHeat heat, const QPalette &palette,
                                                             const QFont &font);

/// The node's heat in 0..1 under \a heat (0 for tensors and when nothing is hot).
double nodeHeat(const CallGraph &graph, std::size_t node, GraphHeat heat);

} // namespace TraceInspector
