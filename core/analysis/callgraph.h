// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;
class SpanTree;

/// What a call graph shows.
enum class CallGraphScope : std::uint8_t {
    Subtree, ///< one node per span of the chosen subtree
    /// One node per span path (names from the root down): repeated micro-batches merge. Runs
    /// of digits in names do not count ("microbatch.0" and "microbatch.1" are one path).
    SpanPath,
};

struct CallGraphOptions {
    CallGraphScope scope = CallGraphScope::Subtree;
    /// Root of the graph: index into Trace::spans, or kWholeTrace for every root.
    std::uint32_t rootSpan = UINT32_MAX;
    /// Most nodes (spans and tensors) drawn; the graph states when it left some out.
    std::size_t nodeCap = 300;
    bool includeTensors = true;

    static constexpr std::uint32_t kWholeTrace = UINT32_MAX;
};

struct CallGraphNode {
    enum class Kind : std::uint8_t { Span, Tensor };
    Kind kind = Kind::Span;
    /// Span: the span (the first one in tree order for a merged path); tensor: its producing
    /// span, or UINT32_MAX.
    std::uint32_t span = UINT32_MAX;
    StringId name = kNoString;        // span name, or tensor id
    std::uint32_t depth = 0;          // layer hint: tree depth below the graph's root
    std::uint64_t count = 1;          // spans (or, by path, tensors) merged into this node
    std::uint64_t totalNs = 0;        // summed closed durations (saturating)
    std::uint64_t selfNs = 0;         // summed self times (saturating)
    std::uint64_t allocatedBytes = 0; // bytes of `memory` alloc records naming the span (direct)
    std::uint64_t openCount = 0;      // merged spans that never ended
    bool namesDiffer = false;         // merged spans whose names differ in their digits
};

struct CallGraphEdge {
    enum class Kind : std::uint8_t {
        Call,     ///< an `edge` record of kind call
        Nesting,  ///< parent → child with no call edge record: keeps the layers connected
        Data,     ///< an `edge` record of kind data, tensor → tensor
        Produces, ///< span → the tensor its op wrote
    };
    Kind kind = Kind::Call;
    std::uint32_t from = 0; // index into CallGraph::nodes
    std::uint32_t to = 0;
    std::uint64_t count = 1;          // records merged into this edge
    std::uint64_t hostDurationNs = 0; // Call: summed host_duration_ns (saturating)
};

/// The node-and-edge graph of a span subtree or of its span paths, before layout. Nodes are
/// in breadth-first tree order, so a cap keeps the upper layers.
struct CallGraph {
    std::vector<CallGraphNode> nodes;
    std::vector<CallGraphEdge> edges;
    /// Per span (index into Trace::spans): the node drawing it, or UINT32_MAX when it is
    /// outside the subtree or left out by the cap.
    std::vector<std::uint32_t> spanNode;
    std::size_t nodeCap = 0;
    std::uint64_t candidateNodes = 0; // nodes the graph would have without the cap
    std::uint64_t omittedSpanNodes = 0;
    std::uint64_t omittedTensorNodes = 0;
    std::uint64_t omittedEdges = 0; // edges with an end left out by the cap
    std::uint64_t maxSelfNs = 0;    // heat references over the drawn span nodes
    std::uint64_t maxAllocatedBytes = 0;

    bool isCapped() const { return omittedSpanNodes + omittedTensorNodes > 0; }
};

/// Builds the graph of \a options over \a trace and its \a tree. Linear in the spans of the
/// chosen subtree plus the trace's edge, op and memory records.
CallGraph buildCallGraph(const Trace &trace, const SpanTree &tree, const CallGraphOptions &options);

} // namespace TraceInspector
