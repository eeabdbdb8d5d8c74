// SPDX-License-Identifier: MIT
#include "core/analysis/callgraph.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/analysis/densebytes.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;
static_assert(kNone == SpanTree::kNoParent);

std::uint64_t pairKey(std::uint32_t a, std::uint32_t b)
{
    return (std::uint64_t(a) << 32) | b;
}

/// Candidate nodes and the span → candidate mapping of the chosen subtree.
struct Candidates {
    /// The first `cap` candidates in breadth-first order of first appearance: only they are
    /// drawn, and a whole 1 GB trace has a million (~64 MB of nodes while health and memory
    /// were being analysed beside the graph).
    std::vector<CallGraphNode> nodes;
    std::size_t count = 0;                 // candidates in all, kept or not
    std::vector<std::uint32_t> nodeOfSpan; // per span: candidate index, kNone outside the subtree
    std::vector<std::uint32_t> subtree;    // spans of the subtree, breadth first
};

Candidates collectSpans(const Trace &trace, const SpanTree &tree, const CallGraphOptions &options)
{
    Candidates c;
    const std::size_t cap = options.nodeCap;
    c.nodeOfSpan.assign(tree.spanCount(), kNone);
    std::uint32_t baseDepth = 0;
    if (options.rootSpan == CallGraphOptions::kWholeTrace) {
        c.subtree.assign(tree.roots().begin(), tree.roots().end());
    } else if (options.rootSpan < tree.spanCount()) {
        c.subtree.push_back(options.rootSpan);
        baseDepth = tree.depth(options.rootSpan);
    }
    for (std::size_t head = 0; head < c.subtree.size(); ++head) {
        const auto children = tree.children(c.subtree[head]);
        c.subtree.insert(c.subtree.end(), children.begin(), children.end());
    }
    c.nodes.reserve(std::min(cap, c.subtree.size()));

    // Path mode: (parent path node, name pattern) → node. The parent's node is known first
    // (BFS). Names are few and interned: each is reduced to its pattern once.
    std::unordered_map<std::uint64_t, std::uint32_t> pathNode;
    std::unordered_map<StringId, std::uint32_t> patternOfName;
    std::unordered_map<std::string, std::uint32_t> patterns;
    const auto patternOf = [&](StringId name) {
        const auto cached = patternOfName.find(name);
        if (cached != patternOfName.end())
            return cached->second;
        std::string pattern;
        for (const char ch : trace.str(name)) {
            const bool digit = ch >= '0' && ch <= '9';
            if (!digit)
                pattern += ch;
            else if (pattern.empty() || pattern.back() != '\x01')
                pattern += '\x01';
        }
        const std::uint32_t id = patterns.try_emplace(std::move(pattern), std::uint32_t(patterns.size())).first->second;
        patternOfName.emplace(name, id);
        return id;
    };
    for (const std::uint32_t span : c.subtree) {
        const Span &s = trace.spans[span];
        std::uint32_t node = kNone;
        if (options.scope == CallGraphScope::SpanPath) {
            const std::uint32_t parent = tree.parent(span);
            const std::uint32_t parentNode = parent == SpanTree::kNoParent ? kNone : c.nodeOfSpan[parent];
            const bool isTop = parentNode == kNone;
            const std::uint64_t key = pairKey(isTop ? kNone : parentNode, patternOf(s.name));
            const auto [it, fresh] = pathNode.try_emplace(key, std::uint32_t(c.count));
            node = it->second;
            if (!fresh) {
                c.nodeOfSpan[span] = node;
                if (node >= cap)
                    continue;
                CallGraphNode &n = c.nodes[node];
                n.namesDiffer = n.namesDiffer || n.name != s.name;
                n.count = saturatingAdd(n.count, 1);
                n.totalNs = saturatingAdd(n.totalNs, tree.durationNs(span).value_or(0));
                n.selfNs = saturatingAdd(n.selfNs, tree.selfNs(span).value_or(0));
                n.openCount += tree.isOpen(span) ? 1 : 0;
                continue;
            }
        } else {
            node = std::uint32_t(c.count);
        }
        ++c.count;
        c.nodeOfSpan[span] = node;
        if (node >= cap)
            continue;
        CallGraphNode n;
        n.kind = CallGraphNode::Kind::Span;
        n.span = span;
        n.name = s.name;
        n.depth = tree.depth(span) - baseDepth;
        n.totalNs = tree.durationNs(span).value_or(0);
        n.selfNs = tree.selfNs(span).value_or(0);
        n.openCount = tree.isOpen(span) ? 1 : 0;
        c.nodes.push_back(n);
    }
    return c;
}

} // namespace

CallGraph buildCallGraph(const Trace &trace, const SpanTree &tree, const CallGraphOptions &options)
{
    CallGraph graph;
    graph.nodeCap = options.nodeCap;
    if (tree.spanCount() != trace.spans.size())
        return graph;
    Candidates c = collectSpans(trace, tree, options);
    const std::size_t keptSpans = c.nodes.size();
    graph.candidateNodes = c.count;
    graph.omittedSpanNodes = c.count - keptSpans;
    graph.nodes = std::move(c.nodes);
    const auto keptNode = [&](std::uint32_t span) -> std::uint32_t {
        if (span >= c.nodeOfSpan.size())
            return kNone;
        const std::uint32_t node = c.nodeOfSpan[span];
        return node < keptSpans ? node : kNone;
    };
    const auto inSubtree = [&](std::uint32_t span) {
        return span < c.nodeOfSpan.size() && c.nodeOfSpan[span] != kNone;
    };
    graph.spanNode.assign(tree.spanCount(), kNone);
    for (const std::uint32_t span : c.subtree)
        graph.spanNode[span] = keptNode(span);

    // The tree's span_id table (kNoParent is kNone): no copy of it per graph.
    const auto spanOf = [&tree](StringId id) { return tree.spanOfId(id); };

    for (const MemoryEvent &m : trace.memory) {
        if (m.action != MemoryAction::Alloc)
            continue;
        if (const std::uint32_t node = keptNode(spanOf(m.spanId)); node != kNone)
            graph.nodes[node].allocatedBytes = saturatingAdd(graph.nodes[node].allocatedBytes, m.bytes);
    }

    // (kind, from, to) → edge; the kind sits in the top bits of `from`, which stays < 2^30.
    std::unordered_map<std::uint64_t, std::uint32_t> edgeIndex;
    const auto addEdge = [&](CallGraphEdge::Kind kind, std::uint32_t from, std::uint32_t to, std::uint64_t ns) {
        const std::uint64_t key = pairKey((std::uint32_t(kind) << 30) | from, to);
        const auto [it, fresh] = edgeIndex.try_emplace(key, std::uint32_t(graph.edges.size()));
        if (fresh) {
            graph.edges.push_back(CallGraphEdge{kind, from, to, 1, ns});
            return;
        }
        CallGraphEdge &e = graph.edges[it->second];
        e.count = saturatingAdd(e.count, 1);
        e.hostDurationNs = saturatingAdd(e.hostDurationNs, ns);
    };

    for (const Edge &e : trace.edges) {
        if (e.kind != EdgeKind::Call)
            continue;
        const std::uint32_t fromSpan = spanOf(e.from);
        const std::uint32_t toSpan = spanOf(e.to);
        if (!inSubtree(fromSpan) || !inSubtree(toSpan))
            continue;
        const std::uint32_t from = keptNode(fromSpan);
        const std::uint32_t to = keptNode(toSpan);
        if (from == kNone || to == kNone) {
            ++graph.omittedEdges;
            continue;
        }
        addEdge(CallGraphEdge::Kind::Call, from, to, e.hostDurationNs);
    }
    const std::uint64_t callTag = std::uint64_t(CallGraphEdge::Kind::Call) << 30;
    for (const std::uint32_t span : c.subtree) {
        const std::uint32_t parent = tree.parent(span);
        if (parent == SpanTree::kNoParent || !inSubtree(parent))
            continue;
        const std::uint32_t from = keptNode(parent);
        const std::uint32_t to = keptNode(span);
        if (from == kNone || to == kNone)
            continue; // the cap keeps whole upper layers: the child is the one left out
        if (!edgeIndex.contains(pairKey(std::uint32_t(callTag) | from, to)))
            addEdge(CallGraphEdge::Kind::Nesting, from, to, 0);
    }

    if (options.includeTensors) {
        std::vector<std::uint32_t> producerOf(trace.strings.size(), kNone);
        for (const Op &op : trace.ops) {
            if (op.output < producerOf.size())
                producerOf[op.output] = spanOf(op.spanId);
        }
        const std::size_t budget = options.nodeCap > keptSpans ? options.nodeCap - keptSpans : 0;
        // Flat tables rather than hash maps: a 1 GB trace names millions of tensors.
        // kUnseen: not met yet; kNone: left out by the cap.
        constexpr std::uint32_t kUnseen = UINT32_MAX - 1;
        std::vector<std::uint32_t> nodeOfTensor(trace.strings.size(), kUnseen);
        // Path mode: the node of the tensors written by each path, by candidate path node.
        std::vector<std::uint32_t> nodeOfPath(options.scope == CallGraphScope::SpanPath ? graph.candidateNodes : 0,
                                              kUnseen);
        const auto tensorFor = [&](StringId tensor) -> std::uint32_t {
            if (tensor >= nodeOfTensor.size())
                return kNone;
            if (nodeOfTensor[tensor] != kUnseen)
                return nodeOfTensor[tensor];
            const std::uint32_t producer = producerOf[tensor];
            const bool produced = inSubtree(producer);
            // Merged paths merge the tensors their spans wrote; other tensors (parameters,
            // inputs) keep their id, which repeats across micro-batches anyway.
            std::uint32_t *shared =
                options.scope == CallGraphScope::SpanPath && produced ? &nodeOfPath[c.nodeOfSpan[producer]] : nullptr;
            if (shared && *shared != kUnseen) {
                // Another tensor of the same path: one more merged into the node.
                if (*shared != kNone)
                    graph.nodes[*shared].count = saturatingAdd(graph.nodes[*shared].count, 1);
                return nodeOfTensor[tensor] = *shared;
            }
            ++graph.candidateNodes;
            std::uint32_t node = kNone;
            if (graph.nodes.size() - keptSpans < budget) {
                CallGraphNode n;
                n.kind = CallGraphNode::Kind::Tensor;
                n.name = tensor;
                n.span = produced ? producer : kNone;
                const std::uint32_t producerNode = produced ? keptNode(producer) : kNone;
                n.depth = producerNode != kNone ? graph.nodes[producerNode].depth + 1 : 0;
                node = std::uint32_t(graph.nodes.size());
                graph.nodes.push_back(n);
                if (producerNode != kNone)
                    addEdge(CallGraphEdge::Kind::Produces, producerNode, node, 0);
            } else {
                ++graph.omittedTensorNodes;
            }
            if (shared)
                *shared = node;
            return nodeOfTensor[tensor] = node;
        };
        for (const Edge &e : trace.edges) {
            if (e.kind != EdgeKind::Data)
                continue;
            const std::uint32_t consumer = e.to < producerOf.size() ? producerOf[e.to] : kNone;
            if (!inSubtree(consumer))
                continue;
            const std::uint32_t to = tensorFor(e.to);
            const std::uint32_t from = tensorFor(e.from);
            if (from == kNone || to == kNone) {
                ++graph.omittedEdges;
                continue;
            }
            addEdge(CallGraphEdge::Kind::Data, from, to, 0);
        }
    }

    for (const CallGraphNode &n : graph.nodes) {
        if (n.kind != CallGraphNode::Kind::Span)
            continue;
        graph.maxSelfNs = std::max(graph.maxSelfNs, n.selfNs);
        graph.maxAllocatedBytes = std::max(graph.maxAllocatedBytes, n.allocatedBytes);
    }
    return graph;
}

} // namespace TraceInspector
