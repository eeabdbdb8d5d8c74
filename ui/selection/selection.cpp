// SPDX-License-Identifier: MIT
#include "ui/selection/selection.h"

#include "core/analysis/spantree.h"
#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {

Selection Selection::fromProblem(const Problem &problem, qint64 findingIndex, const Trace &trace)
{
    const bool hasIndex = problem.relatedIndex != UINT64_MAX;
    const auto index = qint64(problem.relatedIndex);
    auto within = [&](std::size_t size) { return hasIndex && problem.relatedIndex < size; };
    Selection s = findingOnly(findingIndex);
    switch (problem.relatedKind) {
    case RelatedKind::Span: {
        qint64 span = within(trace.spans.size()) ? index : -1;
        if (span < 0 && !problem.relatedId.empty())
            span = trace.findSpan(std::string_view(problem.relatedId));
        if (span >= 0)
            s = Selection::span(span);
        break;
    }
    case RelatedKind::Op:
        if (within(trace.ops.size()))
            s = Selection::op(index);
        break;
    case RelatedKind::Tensor:
        if (within(trace.tensors.size()))
            s = Selection::tensor(index);
        break;
    case RelatedKind::DeviceInterval:
        if (within(trace.deviceIntervals.size()))
            s = Selection::deviceInterval(index);
        break;
    case RelatedKind::Storage:
        if (within(trace.memory.size()))
            s = Selection::memoryEvent(index);
        break;
    case RelatedKind::Gradient:
        if (within(trace.gradients.size()))
            s = Selection::gradient(index);
        break;
    default: break;
    }
    s.finding = findingIndex;
    return s;
}

qint64 Selection::spanIndex(const Trace &trace, const SpanTree &tree) const
{
    if (!isRecord())
        return -1;
    const auto i = std::size_t(index);
    switch (kind) {
    case Kind::Span: return i < trace.spans.size() ? index : -1;
    case Kind::Op:
        if (i >= trace.ops.size() || i >= tree.opCount())
            return -1;
        return tree.spanOfOp(i) == SpanTree::kNoParent ? -1 : qint64(tree.spanOfOp(i));
    case Kind::DeviceInterval:
        return i < trace.deviceIntervals.size() ? trace.findSpan(trace.deviceIntervals[i].spanId) : -1;
    case Kind::Tensor: return i < trace.tensors.size() ? trace.findSpan(trace.tensors[i].spanId) : -1;
    case Kind::MemoryEvent: return i < trace.memory.size() ? trace.findSpan(trace.memory[i].spanId) : -1;
    default: return -1;
    }
}

} // namespace TraceInspector
