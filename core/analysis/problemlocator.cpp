// SPDX-License-Identifier: MIT
#include "core/analysis/problemlocator.h"

#include <algorithm>
#include <vector>

#include "core/model/problem.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

/// Index of the record of \a records (stream order, so ascending lines) on \a line, or -1.
template<typename Record>
std::int64_t findByLine(const std::vector<Record> &records, std::uint64_t line)
{
    auto it = std::lower_bound(records.begin(), records.end(), line,
                               [](const Record &r, std::uint64_t l) { return r.line < l; });
    if (it == records.end() || it->line != line)
        return -1;
    return it - records.begin();
}

template<typename Record>
const Record *at(const std::vector<Record> &records, std::uint64_t index)
{
    return index < records.size() ? &records[index] : nullptr;
}

bool validIndex(std::uint64_t index, std::size_t size)
{
    return index != UINT64_MAX && index < size;
}

ProblemLocation fromOp(const Trace &trace, std::int64_t opIndex)
{
    ProblemLocation loc;
    loc.opIndex = opIndex;
    loc.spanIndex = trace.findSpan(trace.ops[std::size_t(opIndex)].spanId);
    return loc;
}

ProblemLocation byRelated(const Trace &trace, const Problem &p)
{
    ProblemLocation loc;
    switch (p.relatedKind) {
    case RelatedKind::Span:
        if (validIndex(p.relatedIndex, trace.spans.size()))
            loc.spanIndex = std::int64_t(p.relatedIndex);
        else if (!p.relatedId.empty())
            loc.spanIndex = trace.findSpan(std::string_view(p.relatedId));
        break;
    case RelatedKind::Op:
        if (validIndex(p.relatedIndex, trace.ops.size()))
            loc = fromOp(trace, std::int64_t(p.relatedIndex));
        break;
    case RelatedKind::Tensor:
        if (const Tensor *t =
                validIndex(p.relatedIndex, trace.tensors.size()) ? at(trace.tensors, p.relatedIndex) : nullptr)
            loc.spanIndex = trace.findSpan(t->spanId);
        break;
    case RelatedKind::Storage:
        if (const MemoryEvent *m =
                validIndex(p.relatedIndex, trace.memory.size()) ? at(trace.memory, p.relatedIndex) : nullptr)
            loc.spanIndex = trace.findSpan(m->spanId);
        break;
    case RelatedKind::TensorStats:
        if (const TensorStats *t =
                validIndex(p.relatedIndex, trace.tensorStats.size()) ? at(trace.tensorStats, p.relatedIndex) : nullptr)
            loc.spanIndex = trace.findSpan(t->spanId);
        break;
    case RelatedKind::DeviceInterval:
        if (const DeviceInterval *d = validIndex(p.relatedIndex, trace.deviceIntervals.size())
                                          ? at(trace.deviceIntervals, p.relatedIndex)
                                          : nullptr)
            loc.spanIndex = trace.findSpan(d->spanId);
        break;
    case RelatedKind::None:
    case RelatedKind::Gradient:
    case RelatedKind::Edge:
    case RelatedKind::DeviceMemory:
    case RelatedKind::Meta:
    case RelatedKind::Terminal: break;
    }
    return loc;
}

ProblemLocation byLine(const Trace &trace, std::uint64_t line)
{
    ProblemLocation loc;
    if (line == 0)
        return loc;
    if (const std::int64_t op = findByLine(trace.ops, line); op >= 0)
        return fromOp(trace, op);
    if (const std::int64_t t = findByLine(trace.tensors, line); t >= 0) {
        loc.spanIndex = trace.findSpan(trace.tensors[std::size_t(t)].spanId);
        return loc;
    }
    if (const std::int64_t m = findByLine(trace.memory, line); m >= 0) {
        loc.spanIndex = trace.findSpan(trace.memory[std::size_t(m)].spanId);
        return loc;
    }
    if (const std::int64_t d = findByLine(trace.deviceIntervals, line); d >= 0) {
        loc.spanIndex = trace.findSpan(trace.deviceIntervals[std::size_t(d)].spanId);
        return loc;
    }
    if (const std::int64_t s = findByLine(trace.tensorStats, line); s >= 0) {
        loc.spanIndex = trace.findSpan(trace.tensorStats[std::size_t(s)].spanId);
        return loc;
    }
    // Spans are sorted by id, not by line: one linear pass.
    const auto it = std::find_if(trace.spans.begin(), trace.spans.end(),
                                 [line](const Span &s) { return s.startLine == line || s.endLine == line; });
    if (it != trace.spans.end())
        loc.spanIndex = it - trace.spans.begin();
    return loc;
}

} // namespace

ProblemLocation locateProblem(const Trace &trace, const Problem &problem)
{
    ProblemLocation loc = byRelated(trace, problem);
    if (!loc.isValid())
        loc = byLine(trace, problem.line);
    return loc;
}

} // namespace TraceInspector
