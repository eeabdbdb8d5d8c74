// SPDX-License-Identifier: MIT
#include "core/io/documentassembler.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/analysis/densebytes.h"
#include "core/analysis/rustformat.h"

namespace TraceInspector {
namespace {

std::uint64_t satAdd(std::uint64_t a, std::uint64_t b)
{
    return saturatingAdd(a, b);
}

std::string idx(std::uint64_t i)
{
    return std::to_string(i);
}


} // namespace

DocumentAssembler::DocumentAssembler(Trace &trace) : m_trace(trace) {}

void DocumentAssembler::report(std::uint32_t line, std::string rule, std::string message, RelatedKind kind,
                               std::string relatedId)
{
    Problem p;
    p.line = line;
    p.severity = Severity::Error;
    p.ruleId = std::move(rule);
    p.message = std::move(message);
    p.relatedKind = kind;
    p.relatedId = std::move(relatedId);
    if (!m_firstStreamError)
        m_firstStreamError = p;
    m_problems.push_back(std::move(p));
}

void DocumentAssembler::reportPostWalk(std::uint32_t line, std::string rule, std::string message, RelatedKind kind)
{
    Problem p;
    p.line = line;
    p.severity = Severity::Error;
    p.ruleId = std::move(rule);
    p.message = std::move(message);
    p.relatedKind = kind;
    if (!m_firstPostWalkError)
        m_firstPostWalkError = p;
    m_problems.push_back(std::move(p));
}

std::optional<std::uint64_t> DocumentAssembler::dtypeSizeOf(StringId dtype)
{
    if (dtype >= m_dtypeSizes.size())
        m_dtypeSizes.resize(std::max<std::size_t>(dtype + 1, m_dtypeSizes.size() * 2), -2);
    std::int8_t &slot = m_dtypeSizes[dtype];
    if (slot == -2) {
        const auto size = dtypeSize(m_trace.str(dtype));
        slot = size ? static_cast<std::int8_t>(*size) : -1;
    }
    if (slot < 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(slot);
}

std::uint32_t &DocumentAssembler::spanSlot(StringId id)
{
    if (id >= m_spanById.size())
        m_spanById.resize(std::max<std::size_t>(id + 1, m_spanById.size() * 2 + 1024), 0);
    return m_spanById[id];
}

bool DocumentAssembler::tensorStatsValid(const TensorStats &s) const
{
    if (isRustBlank(m_trace.str(s.label)))
        return false;
    std::uint64_t product = 1;
    for (std::uint64_t d : m_trace.shapes.view(s.shape)) {
        if (d != 0 && product > UINT64_MAX / d)
            return false; // checked multiplication overflowed
        product *= d;
    }
    if (product != s.elements || s.nonFinite > s.elements)
        return false;
    // `-0.0 >= 0` holds, as upstream's check does.
    if (!std::isfinite(s.rms) || s.rms < 0 || !std::isfinite(s.absMax) || s.absMax < 0 || !std::isfinite(s.mean))
        return false;
    return true;
}

void DocumentAssembler::add(DecodedEvent &ev, std::uint32_t line)
{
    const std::uint64_t index = m_index++;
    if (m_terminalSeen) {
        report(line, "E-AFTER-TERMINAL",
               "terminal event must be the final trace record; found another event at index " + idx(index));
        // Tolerant: a second terminal is dropped; any other record is still shown.
        if (ev.kind == EventKind::Terminal)
            return;
    }
    switch (ev.kind) {
    case EventKind::Meta:
        if (index != 0) {
            report(line, "E-META-FIRST",
                   "meta event must be the first non-empty trace record, found at index " + idx(index), RelatedKind::Meta);
        }
        // Tolerant: the first meta wins wherever it stands; later ones are dropped.
        if (!m_trace.meta) {
            m_trace.meta = std::move(ev.meta);
            m_trace.metaLine = line;
        }
        return;
    case EventKind::SpanStart: {
        std::uint32_t &slot = spanSlot(ev.span.id);
        if (slot != 0) {
            report(line, "E-SPAN-START-DUP",
                   "duplicate span_start id `" + std::string(m_trace.str(ev.span.id)) + "` at index " + idx(index),
                   RelatedKind::Span, std::string(m_trace.str(ev.span.id)));
            return;
        }
        ev.span.startLine = line;
        m_trace.spans.push_back(ev.span);
        slot = static_cast<std::uint32_t>(m_trace.spans.size());
        return;
    }
    case EventKind::SpanEnd: {
        const std::uint32_t slot = spanSlot(ev.spanEndId);
        const std::string id(m_trace.str(ev.spanEndId));
        if (slot == 0) {
            report(line, "E-SPAN-END-UNKNOWN", "span_end for unknown span `" + id + "` at index " + idx(index),
                   RelatedKind::Span, id);
            return;
        }
        Span &span = m_trace.spans[slot - 1];
        if (span.closed) {
            report(line, "E-SPAN-END-DUP", "duplicate span_end for `" + id + "` at index " + idx(index), RelatedKind::Span, id);
            return;
        }
        span.closed = true;
        span.durationNs = ev.spanEndDurationNs;
        span.endLine = line;
        return;
    }
    case EventKind::Op: {
        Op &op = ev.op;
        op.line = line;
        if (!op.hasOutputDenseBytes) {
            if (auto size = dtypeSizeOf(op.dtype)) {
                op.outputDenseBytes = saturatingMul(elemCount(m_trace.shapes.view(op.shape)), *size);
                op.hasOutputDenseBytes = true;
            }
        }
        m_latestHostEvidence = std::max(m_latestHostEvidence, satAdd(op.timestampNs, op.durationNs));
        m_trace.ops.push_back(op);
        return;
    }
    case EventKind::Tensor: {
        Tensor &t = ev.tensor;
        t.line = line;
        if (!t.hasDenseBytes) {
            if (auto size = dtypeSizeOf(t.dtype)) {
                t.denseBytes = saturatingMul(elemCount(m_trace.shapes.view(t.shape)), *size);
                t.hasDenseBytes = true;
            }
        }
        m_trace.tensors.push_back(t);
        return;
    }
    case EventKind::TensorStats:
        if (m_tensorStatsSeen++ == 0)
            m_firstTensorStatsLine = line;
        ev.tensorStats.line = line;
        if (!tensorStatsValid(ev.tensorStats)) {
            report(line, "E-TSTATS-INVALID", "invalid tensor_stats event at index " + idx(index), RelatedKind::None,
                   std::string(m_trace.str(ev.tensorStats.label)));
            return;
        }
        m_trace.tensorStats.push_back(ev.tensorStats);
        return;
    case EventKind::Memory:
        ev.memory.line = line;
        m_latestHostEvidence = std::max(m_latestHostEvidence, ev.memory.timestampNs);
        m_trace.memory.push_back(ev.memory);
        return;
    case EventKind::DeviceMemory:
        ev.deviceMemory.line = line;
        m_latestHostEvidence = std::max(m_latestHostEvidence, ev.deviceMemory.timestampNs);
        m_trace.deviceMemory.push_back(ev.deviceMemory);
        return;
    case EventKind::DeviceInterval:
        ev.deviceInterval.line = line;
        m_trace.deviceIntervals.push_back(ev.deviceInterval);
        return;
    case EventKind::Gradient:
        ev.gradient.line = line;
        m_trace.gradients.push_back(ev.gradient);
        return;
    case EventKind::Edge:
        ev.edge.line = line;
        m_trace.edges.push_back(ev.edge);
        return;
    case EventKind::Terminal:
        ev.terminal.line = line;
        m_trace.terminal = std::move(ev.terminal);
        m_terminalSeen = true;
        return;
    }
}

void DocumentAssembler::finish()
{
    m_trace.recordCount = m_index;
    // Span records sorted by id, byte-wise (§7.2). An 8-byte big-endian prefix makes most
    // comparisons a single integer compare.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keys(m_trace.spans.size());
    for (std::size_t i = 0; i < m_trace.spans.size(); ++i) {
        const std::string_view id = m_trace.str(m_trace.spans[i].id);
        unsigned char buf[8] = {};
        std::memcpy(buf, id.data(), std::min<std::size_t>(8, id.size()));
        std::uint64_t prefix = 0;
        for (unsigned char b : buf)
            prefix = (prefix << 8) | b;
        keys[i] = {prefix, static_cast<std::uint32_t>(i)};
    }
    std::sort(keys.begin(), keys.end(), [this](const auto &a, const auto &b) {
        if (a.first != b.first)
            return a.first < b.first;
        return m_trace.str(m_trace.spans[a.second].id) < m_trace.str(m_trace.spans[b.second].id);
    });
    std::vector<Span> sorted;
    sorted.reserve(m_trace.spans.size());
    for (const auto &k : keys)
        sorted.push_back(m_trace.spans[k.second]);
    m_trace.spans = std::move(sorted);
    m_spanById.clear();
    m_spanById.shrink_to_fit();

    // §6.1 step 2, in upstream's order.
    if (!m_trace.meta)
        reportPostWalk(0, "E-META-MISSING", "trace stream is missing a meta event with run metadata");
    if (!m_trace.terminal)
        reportPostWalk(0, "E-TERMINAL-MISSING", "trace stream is missing its terminal event");
    if (m_trace.meta) {
        const std::string &schema = m_trace.meta->schema;
        if (schema != kSchemaTrace10 && schema != kSchemaTrace9) {
            reportPostWalk(m_trace.metaLine, "E-SCHEMA-UNSUPPORTED",
                           "unsupported trace schema " + rustDebugString(schema)
                               + "; expected \"candle-graph/trace/10\" or \"candle-graph/trace/9\"",
                           RelatedKind::Meta);
        } else if (schema == kSchemaTrace9 && m_tensorStatsSeen > 0) {
            reportPostWalk(m_firstTensorStatsLine, "E-SCHEMA9-TSTATS",
                           "trace schema \"candle-graph/trace/9\" does not define tensor_stats events; producers emitting "
                           "tensor statistics must declare \"candle-graph/trace/10\"",
                           RelatedKind::Meta);
        }
    }
    if (m_trace.terminal) {
        const Terminal &t = *m_trace.terminal;
        if (t.outcome == RunOutcome::Complete && t.reason) {
            reportPostWalk(t.line, "E-TERMINAL-COMPLETE-REASON", "complete terminal event cannot contain a failure reason",
                           RelatedKind::Terminal);
        } else if (t.outcome == RunOutcome::Failed && (!t.reason || isRustBlank(*t.reason))) {
            reportPostWalk(t.line, "E-TERMINAL-FAILED-NO-REASON", "failed terminal event requires a non-empty reason",
                           RelatedKind::Terminal);
        }
        std::uint64_t latest = m_latestHostEvidence;
        for (const Span &s : m_trace.spans)
            latest = std::max(latest, s.closed ? satAdd(s.startNs, s.durationNs) : s.startNs);
        if (t.timestampNs < latest) {
            reportPostWalk(t.line, "E-TERMINAL-EARLY",
                           "terminal timestamp " + std::to_string(t.timestampNs) + " precedes host evidence ending at "
                               + std::to_string(latest),
                           RelatedKind::Terminal);
        }
    }
}

} // namespace TraceInspector
