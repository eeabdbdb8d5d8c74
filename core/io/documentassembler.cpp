// SPDX-License-Identifier: MIT
#include "core/io/documentassembler.h"

#include <algorithm>
#include <cstring>

#include "core/analysis/densebytes.h"
#include "core/compat/rustformat.h"
#include "core/io/spanidorder.h"
#include "core/model/hugepages.h"
#include "core/model/pagerelease.h"
#include "core/model/permuteinplace.h"
#include "core/model/sidebyside.h"

namespace TraceInspector {

DocumentAssembler::DocumentAssembler(DecodedSegment &segment, Trace &trace)
    : m_segment(segment)
    , m_trace(trace)
{
}

void DocumentAssembler::run()
{
    // The spans' id order reads only their ids, which the walk leaves alone, so on a large
    // trace a second thread works it out beside the walk: both are in the read's serial
    // tail. On a small trace the thread would cost more than it saves.
    constexpr std::size_t kSpansWorthAThread = std::size_t(1) << 16;
    std::vector<std::uint32_t> byId;
    bool idsUnique = false;
    if (m_trace.spans.size() >= kSpansWorthAThread)
        runSideBySide([this] { walk(); }, [&] { idsUnique = orderSpansById(m_trace, byId); });
    else
        walk();
    // The walk was the last user of the record order; give the memory back before sorting.
    std::vector<std::uint8_t>().swap(m_segment.order);
    std::vector<SpanEndRecord>().swap(m_segment.spanEnds);
    m_segment.unresolvedEnds = UnresolvedEnds{};
    std::vector<DuplicateSpanStart>().swap(m_segment.duplicateStarts);
    // A span left out shifts the others' indices (and shared an id): order them again.
    const bool orderStands = idsUnique && m_droppedSpans.empty();
    dropDuplicateSpans();
    sortSpans(orderStands ? &byId : nullptr);
    postWalk();
}

void DocumentAssembler::report(std::uint32_t line, const char *rule, std::string message, RelatedKind kind,
                               std::string relatedId)
{
    Problem p;
    p.line = line;
    p.ruleId = rule;
    p.message = std::move(message);
    p.relatedKind = kind;
    p.relatedId = std::move(relatedId);
    if (!m_firstStreamError) {
        // The first error keeps its whole message (it may be the strict error); the list
        // gets a cut copy, not a second whole one.
        m_firstStreamError = std::move(p);
        m_limiter.storeCopy(*m_firstStreamError, m_problems);
        return;
    }
    m_limiter.store(std::move(p), m_problems);
}

void DocumentAssembler::reportSpanId(std::uint32_t line, const char *rule, std::string_view before, std::string_view id,
                                     std::uint64_t index, bool disposable)
{
    // An id can be as long as its line (hostile input: a 200 MB id). Past the first error the
    // message is built as the list keeps it, and an id the list would not keep as the related
    // id is not copied for it.
    const std::string at = "` at index " + std::to_string(index);
    std::string related;
    if (ProblemLimiter::keepsRelatedId(id))
        related = id;
    if (!m_firstStreamError) {
        std::string message;
        message.reserve(before.size() + id.size() + at.size());
        message.append(before);
        // An id nothing reads again is given back behind the copy: the message holds it once.
        if (disposable)
            appendReleasing(message, id);
        else
            message.append(id);
        message.append(at);
        report(line, rule, std::move(message), RelatedKind::Span, std::move(related));
        return;
    }
    Problem p;
    p.line = line;
    p.ruleId = rule;
    p.message = ProblemLimiter::shortJoin({before, id, at});
    p.relatedKind = RelatedKind::Span;
    p.relatedId = std::move(related);
    m_limiter.storeShortened(std::move(p), m_problems);
}

bool DocumentAssembler::listed(const char *rule)
{
    // Only the first violation's text is always needed (it may be the strict error);
    // past that, a rule that stores nothing more is just counted, without building the
    // text of ten million messages nobody will see.
    if (!m_firstStreamError || m_limiter.wouldStore(rule, Severity::Error))
        return true;
    m_limiter.addOmitted(rule, Severity::Error, 1);
    return false;
}

void DocumentAssembler::reportPostWalk(std::uint32_t line, const char *rule, std::string message, RelatedKind kind)
{
    Problem p;
    p.line = line;
    p.ruleId = rule;
    p.message = std::move(message);
    p.relatedKind = kind;
    if (!m_firstPostWalkError) {
        m_firstPostWalkError = std::move(p);
        m_limiter.storeCopy(*m_firstPostWalkError, m_problems);
        return;
    }
    m_limiter.store(std::move(p), m_problems);
}

std::uint32_t DocumentAssembler::lineOf(std::uint8_t code, std::uint64_t i) const
{
    const Trace &t = m_trace;
    switch (static_cast<EventKind>(code)) {
    case EventKind::Meta: return m_segment.metas[i].second;
    case EventKind::SpanStart: return t.spans[i].startLine;
    case EventKind::SpanEnd: return m_segment.spanEnds[i].line;
    case EventKind::Op: return t.ops[i].line;
    case EventKind::Tensor: return t.tensors[i].line;
    case EventKind::TensorStats: return t.tensorStats[i].line;
    case EventKind::Memory: return t.memory[i].line;
    case EventKind::DeviceMemory: return t.deviceMemory[i].line;
    case EventKind::DeviceInterval: return t.deviceIntervals[i].line;
    case EventKind::Gradient: return t.gradients[i].line;
    case EventKind::Edge: return t.edges[i].line;
    case EventKind::Terminal: return m_segment.terminals[i].line;
    }
    if (code == DecodedSegment::kDuplicateSpanStart)
        return m_segment.duplicateStarts[i].line;
    return code == DecodedSegment::kInvalidTensorStats ? m_segment.invalidTensorStatsLines[i] : 0;
}

void DocumentAssembler::walk()
{
    std::vector<std::uint32_t> spanById(m_trace.strings.size(), 0); // StringId -> span index + 1
    std::uint64_t index = 0;
    std::uint64_t unresolvedEnd = 0; // next of m_segment.unresolvedEnds
    bool terminalSeen = false;
    // The order codes and span_ends are read once, front to back, and freed after the walk:
    // their pages are given back behind it, so that they (22 MB for 1 GB) are not alive
    // beside spanById at its end.
    constexpr std::uint64_t kReleaseEvery = std::uint64_t(1) << 20;
    const auto release = [this](std::uint64_t done) {
        const std::uint64_t ends = m_cursor[static_cast<int>(EventKind::SpanEnd)];
        releasePages(m_segment.order.data(), m_segment.order.data() + done);
        releasePages(m_segment.spanEnds.data(), m_segment.spanEnds.data() + ends);
    };
    for (const std::uint8_t code : m_segment.order) {
        const std::uint64_t i = index++;
        if (i % kReleaseEvery == 0 && i != 0)
            release(i);
        if (code == DecodedSegment::kUndecodable)
            continue;
        const std::uint64_t n = m_cursor[code]++;
        // Only a record that is reported needs its line: reading every record's line walked
        // all the record arrays of the trace once more (hundreds of MB for 1 GB).
        const auto line = [this, code, n] { return lineOf(code, n); };
        if (terminalSeen && listed("E-AFTER-TERMINAL")) {
            report(line(), "E-AFTER-TERMINAL",
                   "terminal event must be the final trace record; found another event at index " + std::to_string(i));
        }
        switch (code) {
        case static_cast<std::uint8_t>(EventKind::Meta):
            if (i != 0 && listed("E-META-FIRST")) {
                report(line(), "E-META-FIRST",
                       "meta event must be the first non-empty trace record, found at index " + std::to_string(i),
                       RelatedKind::Meta);
            }
            // Tolerant: the first meta wins wherever it stands.
            if (!m_trace.meta) {
                m_trace.meta = std::move(m_segment.metas[n].first);
                m_trace.metaLine = line();
            }
            break;
        case static_cast<std::uint8_t>(EventKind::SpanStart): {
            const StringId id = m_trace.spans[n].id;
            if (spanById[id] != 0) {
                if (listed("E-SPAN-START-DUP"))
                    reportSpanId(line(), "E-SPAN-START-DUP", "duplicate span_start id `", m_trace.str(id), i);
                m_droppedSpans.push_back(static_cast<std::uint32_t>(n));
            } else {
                spanById[id] = static_cast<std::uint32_t>(n + 1);
            }
            break;
        }
        case static_cast<std::uint8_t>(EventKind::SpanEnd): {
            const SpanEndRecord &end = m_segment.spanEnds[n];
            const std::uint32_t slot = spanById[end.id];
            if (slot == 0) {
                // An id no line before named was not interned (UnresolvedEnds): only the
                // first ones, the ones that can be listed, kept their text.
                const std::uint64_t k = end.id == kNoString ? unresolvedEnd++ : 0;
                if (listed("E-SPAN-END-UNKNOWN")) {
                    // An id that was not interned is read only here (run() frees them after the walk).
                    reportSpanId(line(), "E-SPAN-END-UNKNOWN", "span_end for unknown span `",
                                 end.id != kNoString ? m_trace.str(end.id) : m_segment.unresolvedEnds.at(k), i,
                                 end.id == kNoString);
                }
                break;
            }
            Span &span = m_trace.spans[slot - 1];
            if (span.closed) {
                if (listed("E-SPAN-END-DUP"))
                    reportSpanId(line(), "E-SPAN-END-DUP", "duplicate span_end for `", m_trace.str(end.id), i);
                break;
            }
            span.closed = true;
            span.durationNs = end.durationNs;
            span.endLine = end.line;
            break;
        }
        case DecodedSegment::kDuplicateSpanStart:
            if (listed("E-SPAN-START-DUP")) {
                reportSpanId(line(), "E-SPAN-START-DUP", "duplicate span_start id `",
                             m_trace.str(m_segment.duplicateStarts[n].id), i);
            }
            break;
        case DecodedSegment::kInvalidTensorStats:
            if (listed("E-TSTATS-INVALID"))
                report(line(), "E-TSTATS-INVALID", "invalid tensor_stats event at index " + std::to_string(i),
                       RelatedKind::TensorStats);
            break;
        case static_cast<std::uint8_t>(EventKind::Terminal):
            // Tolerant: a terminal after the terminal is dropped; other late records stay.
            if (!terminalSeen) {
                m_trace.terminal = std::move(m_segment.terminals[n]);
                terminalSeen = true;
            }
            break;
        default: break;
        }
    }
    m_trace.recordCount = index;
}

void DocumentAssembler::dropDuplicateSpans()
{
    if (m_droppedSpans.empty())
        return;
    std::vector<bool> drop(m_trace.spans.size(), false);
    for (std::uint32_t d : m_droppedSpans)
        drop[d] = true;
    std::size_t out = 0;
    for (std::size_t k = 0; k < m_trace.spans.size(); ++k) {
        if (!drop[k])
            m_trace.spans[out++] = m_trace.spans[k];
    }
    m_trace.spans.resize(out);
    std::vector<std::uint32_t>().swap(m_droppedSpans);
}

std::vector<std::uint32_t> DocumentAssembler::comparisonOrder() const
{
    // The key is three 32-bit words (12 bytes, not the 16 of a padded pair): on a file of ten
    // million spans the keys are the largest allocation next to the trace itself.
    struct Key {
        std::uint32_t high;
        std::uint32_t low;
        std::uint32_t span;
    };
    static_assert(sizeof(Key) == 12);
    std::vector<Key> keys(m_trace.spans.size());
    for (std::size_t i = 0; i < m_trace.spans.size(); ++i) {
        const std::string_view id = m_trace.str(m_trace.spans[i].id);
        std::uint64_t prefix = 0;
        for (std::size_t b = 0; b < 8; ++b)
            prefix = (prefix << 8) | (b < id.size() ? static_cast<unsigned char>(id[b]) : 0u);
        keys[i] = {static_cast<std::uint32_t>(prefix >> 32), static_cast<std::uint32_t>(prefix),
                   static_cast<std::uint32_t>(i)};
    }
    std::sort(keys.begin(), keys.end(), [this](const Key &a, const Key &b) {
        if (a.high != b.high)
            return a.high < b.high;
        if (a.low != b.low)
            return a.low < b.low;
        return m_trace.str(m_trace.spans[a.span].id) < m_trace.str(m_trace.spans[b.span].id);
    });
    std::vector<std::uint32_t> order(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        order[i] = keys[i].span;
    return order;
}

void DocumentAssembler::sortSpans(std::vector<std::uint32_t> *byId)
{
    // Byte-wise id order (§7.2). Ids are unique here (duplicate starts are kept apart), so
    // any correct sort gives this order; should two ids ever be equal, the comparison sort
    // decides as before.
    std::vector<std::uint32_t> order;
    if (byId)
        order = std::move(*byId);
    else if (!orderSpansById(m_trace, order))
        order = comparisonOrder();
    permuteInPlace(m_trace.spans, order);
}

namespace {

constexpr std::string_view kSchemaHead = "unsupported trace schema \"";
constexpr std::string_view kSchemaTail = "\"; expected \"candle-graph/trace/10\" or \"candle-graph/trace/9\"";

} // namespace

void DocumentAssembler::reportUnsupportedSchema()
{
    const std::string &schema = m_trace.meta->schema;
    const std::size_t length = kSchemaHead.size() + rustDebugCharsLength(schema) + kSchemaTail.size();
    if (length <= ProblemLimiter::kMaxMessageBytes) {
        std::string message(kSchemaHead);
        appendRustDebugChars(message, schema);
        message += kSchemaTail;
        reportPostWalk(m_trace.metaLine, "E-SCHEMA-UNSUPPORTED", std::move(message), RelatedKind::Meta);
        return;
    }
    // The schema is held by the meta; a whole message would hold it a second time. Only a
    // strict error shows the whole message, so it is made only when taken as that (from
    // the schema, which it then takes over); the list gets the cut text, made from the
    // schema's first characters (escaping never shortens them, so they fill the cut).
    std::string head(kSchemaHead);
    appendRustDebugChars(head, std::string_view(schema).substr(
                                   0, ProblemLimiter::wholeCharacterPrefix(schema, ProblemLimiter::kMaxMessageBytes)));
    head += kSchemaTail;
    Problem p;
    p.line = m_trace.metaLine;
    p.ruleId = "E-SCHEMA-UNSUPPORTED";
    p.message = ProblemLimiter::shortenedFrom(std::move(head), length);
    p.relatedKind = RelatedKind::Meta;
    if (!m_firstPostWalkError) {
        m_firstPostWalkError = p;
        m_deferredSchemaMessageLength = length;
    }
    m_limiter.storeShortened(std::move(p), m_problems);
}

std::string DocumentAssembler::takeSchemaMessage(std::size_t length)
{
    std::string &schema = m_trace.meta->schema;
    const std::size_t keep = ProblemLimiter::wholeCharacterPrefix(schema, ProblemLimiter::kMaxMessageBytes);
    std::string kept = schema.substr(0, keep);
    std::string message;
    message.reserve(length);
    message += kSchemaHead;
    // The schema's pages are given back behind the copy: it is replaced right after.
    appendReleasing(message, schema, appendRustDebugChars);
    message += kSchemaTail;
    m_trace.meta->schemaBytesNotKept = schema.size() - keep;
    schema = std::move(kept);
    return message;
}

std::optional<Problem> DocumentAssembler::takeFirstPostWalkError()
{
    if (m_firstPostWalkError && m_deferredSchemaMessageLength) {
        m_firstPostWalkError->message = takeSchemaMessage(*m_deferredSchemaMessageLength);
        m_deferredSchemaMessageLength.reset();
    }
    return std::move(m_firstPostWalkError);
}

void DocumentAssembler::postWalk()
{
    // §6.1 step 2, in upstream's order.
    if (!m_trace.meta)
        reportPostWalk(0, "E-META-MISSING", "trace stream is missing a meta event with run metadata");
    if (!m_trace.terminal)
        reportPostWalk(0, "E-TERMINAL-MISSING", "trace stream is missing its terminal event");
    if (m_trace.meta) {
        const std::string &schema = m_trace.meta->schema;
        if (schema != kSchemaTrace10 && schema != kSchemaTrace9) {
            reportUnsupportedSchema();
        } else if (schema == kSchemaTrace9
                   && m_cursor[static_cast<int>(EventKind::TensorStats)] + m_cursor[DecodedSegment::kInvalidTensorStats]
                          > 0) {
            std::uint32_t first = UINT32_MAX;
            if (!m_trace.tensorStats.empty())
                first = m_trace.tensorStats.front().line;
            if (!m_segment.invalidTensorStatsLines.empty())
                first = std::min(first, m_segment.invalidTensorStatsLines.front());
            reportPostWalk(
                first, "E-SCHEMA9-TSTATS",
                "trace schema \"candle-graph/trace/9\" does not define tensor_stats events; producers emitting "
                "tensor statistics must declare \"candle-graph/trace/10\"",
                RelatedKind::Meta);
        }
    }
    if (!m_trace.terminal)
        return;
    const Terminal &t = *m_trace.terminal;
    if (t.outcome == RunOutcome::Complete && t.reason) {
        reportPostWalk(t.line, "E-TERMINAL-COMPLETE-REASON", "complete terminal event cannot contain a failure reason",
                       RelatedKind::Terminal);
    } else if (t.outcome == RunOutcome::Failed && (!t.reason || isRustBlank(*t.reason))) {
        reportPostWalk(t.line, "E-TERMINAL-FAILED-NO-REASON", "failed terminal event requires a non-empty reason",
                       RelatedKind::Terminal);
    }
    std::uint64_t latest = m_segment.latestHostEvidence;
    for (const Span &s : m_trace.spans)
        latest = std::max(latest, s.closed ? saturatingAdd(s.startNs, s.durationNs) : s.startNs);
    if (t.timestampNs < latest) {
        reportPostWalk(t.line, "E-TERMINAL-EARLY",
                       "terminal timestamp " + std::to_string(t.timestampNs) + " precedes host evidence ending at "
                           + std::to_string(latest),
                       RelatedKind::Terminal);
    }
}

} // namespace TraceInspector
