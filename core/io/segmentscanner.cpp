// SPDX-License-Identifier: MIT
#include "core/io/segmentscanner.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/analysis/densebytes.h"
#include "core/compat/rustformat.h"
#include "core/io/utf8validation.h"
#include "core/model/hugepages.h"
#include "core/model/pagerelease.h"

namespace TraceInspector {

SegmentScanner::SegmentScanner(DecodedSegment &segment)
    : m_segment(segment)
    , m_trace(*segment.trace)
    , m_decoder(*segment.trace)
{
    // The readers' buffers are writable and each line is decoded once (fileLongLine()'s
    // probe has a decoder of its own): a 200 MB name with an escape is then held once.
    m_decoder.setWritableLines(true);
}

std::size_t SegmentScanner::scan(const char *data, std::size_t length, bool final)
{
    std::size_t pos = 0;
    while (pos < length) {
        const void *nl = std::memchr(data + pos, '\n', length - pos);
        std::size_t end;
        if (nl)
            end = static_cast<std::size_t>(static_cast<const char *>(nl) - data);
        else if (final)
            end = length;
        else
            break;
        std::size_t lineEnd = end;
        if (nl && lineEnd > pos && data[lineEnd - 1] == '\r')
            --lineEnd;
        handleLine(data + pos, lineEnd - pos);
        pos = nl ? end + 1 : end;
    }
    return pos;
}

void SegmentScanner::reserveFor(std::uint64_t totalBytes, std::uint64_t ownBytes, std::uint64_t scannedBytes)
{
    if (scannedBytes == 0 || totalBytes <= scannedBytes)
        return;
    // Growing the string table by doubling rehashes every id again each time and clears a
    // fresh slot array each time; unique ids grow with the bytes like the records do. Only
    // for the segment's own bytes: the start of a file is denser in new ids than the rest
    // (parameters), and an over-estimate doubles the largest table. The merge makes room
    // for the other segments' strings once their number is known.
    // Capped at one string per 256 bytes: a file that is dense in new ids only where the
    // sample was must not get a slot table of a tenth of its size it never fills (the
    // slots of a table are touched all over as it fills, so they all count in memory).
    if (ownBytes > scannedBytes) {
        const double estimate = static_cast<double>(m_trace.strings.size()) * static_cast<double>(ownBytes)
                                / static_cast<double>(scannedBytes);
        m_trace.strings.reserve(static_cast<std::size_t>(std::min(estimate, static_cast<double>(ownBytes / 256))));
    }
    const double scale = 1.1 * static_cast<double>(totalBytes) / static_cast<double>(scannedBytes);
    // The part of each array this segment will surely write: an array too small for huge
    // pages has it faulted in at once (reserveHuge()), not 4 KiB at a time as it fills.
    const double fill = static_cast<double>(std::max(ownBytes, scannedBytes)) / static_cast<double>(scannedBytes);
    const auto times = [](std::size_t n, double factor) {
        return static_cast<std::size_t>(static_cast<double>(n) * factor);
    };
    auto grow = [&](auto &v) {
        if (!v.empty())
            reserveHuge(v, times(v.size(), scale) + 16, times(v.size(), fill));
    };
    grow(m_trace.spans);
    grow(m_trace.ops);
    grow(m_trace.tensors);
    grow(m_trace.tensorStats);
    grow(m_trace.memory);
    grow(m_trace.deviceMemory);
    grow(m_trace.deviceIntervals);
    grow(m_trace.gradients);
    grow(m_trace.edges);
    grow(m_segment.spanEnds);
    grow(m_segment.order);
    if (m_trace.idLists.size() != 0)
        m_trace.idLists.reserve(times(m_trace.idLists.size(), scale) + 16, times(m_trace.idLists.size(), fill));
}

namespace {

/// adviseTails() for one array; \a bit marks it in \a done. \a scale is the records to come
/// in proportion to those so far with a margin, \a fill the same without it: the part of
/// the small-page end that is that sure to be written is faulted in at once.
template<typename T>
void adviseTail(std::vector<T> &v, double scale, double fill, std::uint32_t bit, std::uint32_t &done)
{
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if ((done & bit) != 0 || v.capacity() * sizeof(T) < kHuge)
        return;
    const auto base = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t next = (base + v.size() * sizeof(T) + kHuge - 1) & ~(kHuge - 1);
    const double expectedEnd = static_cast<double>(base) + static_cast<double>(v.size() * sizeof(T)) * scale;
    if (expectedEnd >= static_cast<double>(next + kHuge))
        return; // the next huge page will be filled
    const std::size_t capacityBytes = v.capacity() * sizeof(T);
    adviseSmallPages(v.data(), next - base, capacityBytes);
    const auto filled = static_cast<std::size_t>(static_cast<double>(v.size() * sizeof(T)) * fill);
    populateForWrite(v.data(), next - base, std::min(filled, capacityBytes));
    done |= bit;
}

} // namespace

void SegmentScanner::adviseTails(std::uint64_t scannedBytes, std::uint64_t remainingBytes)
{
    if (scannedBytes == 0)
        return;
    // The records to come in proportion to those so far, with a margin: an array that ends
    // later than expected only has a few more 4 KiB pages.
    const double fill = static_cast<double>(scannedBytes + remainingBytes) / static_cast<double>(scannedBytes);
    const double scale = 1.02 * fill;
    std::uint32_t bit = 1;
    auto tail = [&](auto &v) {
        adviseTail(v, scale, fill, bit, m_smallTails);
        bit <<= 1;
    };
    tail(m_trace.spans);
    tail(m_trace.ops);
    tail(m_trace.tensors);
    tail(m_trace.tensorStats);
    tail(m_trace.memory);
    tail(m_trace.deviceMemory);
    tail(m_trace.deviceIntervals);
    tail(m_trace.gradients);
    tail(m_trace.edges);
    tail(m_segment.spanEnds);
    tail(m_segment.order);
}

void SegmentScanner::releaseTails()
{
    auto release = [](const auto &v) { releasePages(v.data() + v.size(), v.data() + v.capacity()); };
    release(m_trace.spans);
    release(m_trace.ops);
    release(m_trace.tensors);
    release(m_trace.tensorStats);
    release(m_trace.memory);
    release(m_trace.deviceMemory);
    release(m_trace.deviceIntervals);
    release(m_trace.gradients);
    release(m_trace.edges);
    release(m_segment.spanEnds);
    release(m_segment.order);
}

void SegmentScanner::handleLine(const char *begin, std::size_t length)
{
    const std::uint64_t lineNo = ++m_segment.lines;
    const std::string_view raw(begin, length);
    const std::string_view text = rustTrim(raw);
    if (text.empty())
        return; // whitespace is valid UTF-8, so a blank line can never be a read error
    const auto line = static_cast<std::uint32_t>(std::min<std::uint64_t>(lineNo, UINT32_MAX));
    m_stringsBefore = m_trace.strings.size();
    if (m_decoder.decode(text.data(), text.size(), m_event, m_failure)) {
        file(m_event, line);
        return;
    }
    fileFailure(lineNo, raw, text);
}

void SegmentScanner::fileFailure(std::uint64_t lineNo, std::string_view raw, std::string_view text)
{
    m_segment.order.push_back(DecodedSegment::kUndecodable);
    Problem p;
    p.line = lineNo; // local; the reader adds the segment's offset and formats the message
    p.severity = Severity::Error;
    if (m_failure.invalidUtf8) {
        p.ruleId = "E-LINE-READ";
    } else {
        p.ruleId = "E-LINE-PARSE";
        if (m_failure.column)
            p.column = static_cast<std::uint32_t>(text.data() - raw.data()) + m_failure.column;
    }
    p.message = std::move(m_failure.cause);
    if (!m_segment.firstDecodeProblem) {
        // The strict error keeps the whole text; the stored problem copies only its cut (the
        // text may quote a 200 MB value).
        m_segment.decodeLimiter.storeCopy(p, m_segment.decodeProblems);
        m_segment.firstDecodeProblem = std::move(p);
        return;
    }
    m_segment.decodeLimiter.store(std::move(p), m_segment.decodeProblems);
}

bool SegmentScanner::fileLongLine(const char *head, std::size_t length, bool validUtf8)
{
    if (!validUtf8) {
        // Whitespace is valid UTF-8, so the line is not blank, and decode() checks UTF-8
        // before anything else.
        const std::uint64_t lineNo = ++m_segment.lines;
        LineDecoder::failInvalidUtf8(m_failure);
        fileFailure(lineNo, {}, {});
        return true;
    }
    // The line is valid UTF-8 as a whole: cut it at a character boundary so the head is too.
    const std::size_t cut = wholeCharactersPrefix(head, length);
    const std::string_view text = rustTrim(std::string_view(head, cut));
    if (text.empty())
        return false;
    // The lexer looks a few bytes ahead at most (an escape, a literal); an error that needed
    // bytes past the cut meets the cut's end instead and lies within this margin of it.
    constexpr std::size_t kLookaheadMargin = 4096;
    {
        // A throwaway table: the probe must not intern anything when the line is not decided.
        Trace scratch;
        LineDecoder probe(scratch);
        DecodedEvent event;
        DecodeFailure failure;
        if (probe.decode(text.data(), text.size(), event, failure) || failure.invalidUtf8 || failure.column == 0
            || failure.column + kLookaheadMargin > text.size())
            return false;
    }
    // Decided: reading the head again records exactly what the whole line would, interned
    // strings included, since the scan stops at the same byte.
    handleLine(head, cut);
    return true;
}

std::optional<std::uint64_t> SegmentScanner::dtypeSizeOf(StringId dtype)
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

bool SegmentScanner::tensorStatsValid(const TensorStats &s) const
{
    if (isRustBlank(m_trace.str(s.label)))
        return false;
    std::uint64_t product = 1;
    for (std::uint64_t d : m_trace.shapes.view(s.shape)) {
        if (d != 0 && product > UINT64_MAX / d)
            return false; // upstream multiplies with overflow checks
        product *= d;
    }
    if (product != s.elements || s.nonFinite > s.elements)
        return false;
    // Comparisons let -0.0 pass `>= 0`, as upstream's do.
    return std::isfinite(s.rms) && s.rms >= 0 && std::isfinite(s.absMax) && s.absMax >= 0 && std::isfinite(s.mean);
}

void SegmentScanner::file(DecodedEvent &ev, std::uint32_t line)
{
    m_segment.order.push_back(static_cast<std::uint8_t>(ev.kind));
    std::uint64_t &latest = m_segment.latestHostEvidence;
    switch (ev.kind) {
    case EventKind::Meta: m_segment.metas.emplace_back(std::move(ev.meta), line); return;
    case EventKind::SpanStart: {
        const StringId id = ev.span.id;
        if (id >= m_spanStarted.size())
            m_spanStarted.resize(std::max<std::size_t>(id + 1, m_spanStarted.size() * 2), false);
        if (m_spanStarted[id]) {
            // A duplicate whatever came before the segment: the walk drops it.
            m_segment.order.back() = DecodedSegment::kDuplicateSpanStart;
            m_segment.duplicateStarts.push_back({id, line});
            return;
        }
        m_spanStarted[id] = true;
        ev.span.startLine = line;
        m_trace.spans.push_back(ev.span);
        return;
    }
    case EventKind::SpanEnd: {
        StringId id = ev.spanEndId;
        if (id == m_stringsBefore && m_trace.strings.size() == m_stringsBefore + 1) {
            // This line interned the id: no earlier line of the segment started that span.
            UnresolvedEnds &u = m_segment.unresolvedEnds;
            const std::string_view text = m_trace.str(id);
            StringTable::Bytes block;
            const bool keep = !m_segment.startsFile || u.keepsMore();
            m_trace.strings.eraseNewest(id, keep ? &block : nullptr);
            if (block)
                u.addHeld(text, std::move(block)); // a long id: held where it lies
            else
                u.add(text, keep); // still readable (eraseNewest())
            id = kNoString;
        }
        m_segment.spanEnds.push_back({ev.spanEndDurationNs, id, line});
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
        latest = std::max(latest, saturatingAdd(op.timestampNs, op.durationNs));
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
        ev.tensorStats.line = line;
        if (!tensorStatsValid(ev.tensorStats)) {
            m_segment.order.back() = DecodedSegment::kInvalidTensorStats;
            m_segment.invalidTensorStatsLines.push_back(line);
            return;
        }
        m_trace.tensorStats.push_back(ev.tensorStats);
        return;
    case EventKind::Memory:
        ev.memory.line = line;
        latest = std::max(latest, ev.memory.timestampNs.value());
        m_trace.memory.push_back(ev.memory);
        return;
    case EventKind::DeviceMemory:
        ev.deviceMemory.line = line;
        latest = std::max(latest, ev.deviceMemory.timestampNs);
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
        m_segment.terminals.push_back(std::move(ev.terminal));
        return;
    }
}

} // namespace TraceInspector
