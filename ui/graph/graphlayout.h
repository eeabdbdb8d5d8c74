// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace TraceInspector {

/// A graph to lay out with Graphviz `dot`, left to right. Sizes in points (1/72 inch).
struct GraphLayoutRequest {
    struct Node {
        double widthPt = 72;
        double heightPt = 36;
        bool ellipse = false;   // tensors are ellipses, spans boxes
        std::uint32_t rank = 0; // layer hint; nodes of one rank share a column when possible
    };
    struct Edge {
        std::uint32_t from = 0;
        std::uint32_t to = 0;
        std::string label;      // UTF-8; empty = none
        bool constraint = true; // false: does not push `to` into a later layer
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
};

/// Where dot put everything, in points with y growing downwards (Qt's direction) and the
/// bounding box's top-left at (0, 0).
struct GraphLayoutResult {
    struct Point {
        double x = 0;
        double y = 0;
    };
    struct EdgePath {
        /// Cubic Bézier chain: start, then three points per segment.
        std::vector<Point> points;
        bool hasArrow = false;
        Point arrowTip; // the arrowhead ends here, the path ends at its base
        bool hasLabel = false;
        Point labelCenter;
    };
    bool ok = false;
    std::string error;
    double widthPt = 0;
    double heightPt = 0;
    std::vector<Point> nodeCenters;
    std::vector<EdgePath> edges; // same order as the request's edges
    double elapsedMs = 0;
};

/// Lays \a request out with Graphviz's dot engine through the gvc C API. Graphviz keeps
/// global state that is not thread-safe: calls are serialized by one process-wide mutex, so
/// this may be called from any thread (the GUI calls it from QtConcurrent).
GraphLayoutResult layoutWithDot(const GraphLayoutRequest &request);

} // namespace TraceInspector
