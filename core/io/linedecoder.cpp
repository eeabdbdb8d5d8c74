// SPDX-License-Identifier: MIT
// Decodes one trimmed JSONL line the way upstream's `serde_json::from_str::<TraceEvent>` does
// (TRACE_FORMAT.md §5), straight into the compact records: no DOM, no tape. The three phases
// of §5.1 run interleaved in one left-to-right pass: scan errors (JsonLexer) end the line at
// once, match errors (StructReader) are remembered in serde's order and only reported if the
// scan finishes, and trailing text is checked last. This file is the record envelope: the
// `kind` tag, object and array records, the doubly tagged edge. What each record looks like
// comes from the eventschema.h tables; where each field goes, from recordmapping.h.
#include "core/io/linedecoder.h"

#include <cstring>
#include <string>

#include "core/io/eventschema.h"
#include "core/io/fastlinescanner.h"
#include "core/io/jsonlexer.h"
#include "core/io/recordmapping.h"
#include "core/io/structreader.h"
#include "core/io/utf8validation.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

std::uint32_t allFields(const StructSpec &spec)
{
    return spec.count() >= 32 ? ~0u : (1u << spec.count()) - 1;
}

} // namespace

LineDecoder::LineDecoder(Trace &trace, DecoderPath path)
    : m_trace(trace)
    , m_reader(trace)
    , m_lex(m_reader.lexer())
    , m_fastPath(path == DecoderPath::FastThenExact)
{
}

// Hands the fast path's members to the record mapping in input order, interning strings,
// shapes and id lists exactly when the exact path would (StructReader::readField), so the
// tables and ids come out the same whichever path read a line.
template<typename M>
void LineDecoder::setFast(M &map)
{
    const StructSpec &spec = m_fast.spec();
    FieldValue v;
    for (const FastLineScanner::Member &m : m_fast) {
        v.present = !m.null;
        if (!m.null) {
            switch (spec.fields[m.field].type) {
            case WireType::String: v.text = m.text; break;
            case WireType::U64:
            case WireType::Usize: v.u = m.u; break;
            case WireType::F64: v.f = m.f; break;
            case WireType::Bool: v.b = m.b; break;
            case WireType::Enum: v.index = m.index; break;
            case WireType::Shape:
                v.shape =
                    m_trace.shapes.intern(std::span<const std::uint64_t>(m_fast.dims().data() + m.first, m.count));
                break;
            case WireType::StringIds:
                m_fastIds.clear();
                for (std::uint32_t i = 0; i < m.count; ++i)
                    m_fastIds.push_back(m_trace.strings.intern(m_fast.ids()[m.first + i]));
                v.list = m_trace.idLists.append(m_fastIds);
                break;
            default: break; // FastLineScanner declines the other types
            }
        }
        map.set(m.field, v);
    }
}

void LineDecoder::fileFast(DecodedEvent &out)
{
    out.kind = m_fast.kind();
    resetRecord(out);
    switch (out.kind) {
    case EventKind::SpanStart: {
        RecordMapping::SpanStart map{m_trace, out.span};
        return setFast(map);
    }
    case EventKind::SpanEnd: {
        RecordMapping::SpanEnd map{m_trace, out.spanEndId, out.spanEndDurationNs};
        return setFast(map);
    }
    case EventKind::Op: {
        RecordMapping::OpRecord map{m_trace, out.op};
        return setFast(map);
    }
    case EventKind::Tensor: {
        RecordMapping::TensorRecord map{m_trace, out.tensor};
        return setFast(map);
    }
    case EventKind::TensorStats: {
        RecordMapping::TensorStatsRecord map{m_trace, out.tensorStats};
        return setFast(map);
    }
    case EventKind::Memory: {
        RecordMapping::MemoryRecord map{m_trace, out.memory};
        return setFast(map);
    }
    case EventKind::DeviceMemory: {
        RecordMapping::DeviceMemoryRecord map{m_trace, out.deviceMemory};
        return setFast(map);
    }
    case EventKind::DeviceInterval: {
        RecordMapping::DeviceIntervalRecord map{m_trace, out.deviceInterval};
        return setFast(map);
    }
    case EventKind::Gradient: {
        RecordMapping::GradientRecord map{m_trace, out.gradient};
        return setFast(map);
    }
    case EventKind::Edge: {
        out.edge.kind = m_fast.edgeKind();
        RecordMapping::EdgeRecord map{m_trace, out.edge};
        return setFast(map);
    }
    case EventKind::Meta:
    case EventKind::Terminal: return; // FastLineScanner declines them
    }
}

// The `kind` tag value, at the scan phase: every error carries a position (§5.5).
bool LineDecoder::readKindTag(int &kind)
{
    const char c = m_lex.peek();
    if (c == '"') {
        std::string_view s;
        if (!m_lex.parseString(s))
            return false;
        kind = eventKindFromName(s);
        if (kind < 0)
            return m_lex.failAfterConsumedTaking(
                StructReader::unknownVariant(s, eventKindExpectation(), m_lex.disposable(s)));
        return true;
    }
    if (c == '[' || c == '{') // refused before the bracket is consumed
        return m_lex.failAfterConsumed(std::string("invalid type: ") + (c == '[' ? "sequence" : "map")
                                       + ", expected variant identifier");
    std::string what;
    if (!m_lex.describeValue(what, 2))
        return false;
    return m_lex.failAfterConsumed("invalid type: " + what + ", expected variant identifier");
}

void LineDecoder::resetRecord(DecodedEvent &out)
{
    switch (out.kind) {
    case EventKind::Meta: out.meta = TraceMeta{}; break;
    case EventKind::SpanStart: out.span = Span{}; break;
    case EventKind::SpanEnd:
        out.spanEndId = kNoString;
        out.spanEndDurationNs = 0;
        break;
    case EventKind::Op: out.op = Op{}; break;
    case EventKind::Tensor: out.tensor = Tensor{}; break;
    case EventKind::TensorStats: out.tensorStats = TensorStats{}; break;
    case EventKind::Memory: out.memory = MemoryEvent{}; break;
    case EventKind::DeviceMemory: out.deviceMemory = DeviceMemorySample{}; break;
    case EventKind::DeviceInterval: out.deviceInterval = DeviceInterval{}; break;
    case EventKind::Gradient: out.gradient = Gradient{}; break;
    case EventKind::Edge: out.edge = Edge{}; break;
    case EventKind::Terminal: out.terminal = Terminal{}; break;
    }
}

bool LineDecoder::decodeObject(DecodedEvent &out)
{
    m_lex.advance(); // '{'
    const char *body = m_lex.pos();
    // Writers put `"kind":"<name>"` first; recognise that from the text.
    constexpr std::string_view kPrefix = "\"kind\":\"";
    const auto rest = static_cast<std::size_t>(m_lex.end() - body);
    if (rest > kPrefix.size() && std::memcmp(body, kPrefix.data(), kPrefix.size()) == 0) {
        const char *name = body + kPrefix.size();
        const char *close = name;
        while (close < m_lex.end() && *close != '"' && *close != '\\')
            ++close;
        if (close < m_lex.end() && *close == '"') {
            const int kind = eventKindFromName(std::string_view(name, static_cast<std::size_t>(close - name)));
            if (kind >= 0) {
                out.kind = static_cast<EventKind>(kind);
                m_lex.setPos(close + 1);
                return decodeObjectBody(out, false, true);
            }
        }
    }
    // The tag may stand anywhere; everything before it is scanned first.
    int kind = -1;
    const bool walked = m_lex.members(true, [&](std::string_view key) {
        if (!m_lex.colon())
            return false;
        if (key != "kind")
            return m_lex.skipValue(2);
        if (!readKindTag(kind))
            return false;
        return false; // found: stop the walk
    });
    if (m_lex.failed())
        return false;
    if (walked) // reached the closing brace without a tag
        return m_lex.failAfterConsumed("missing field `kind`");
    out.kind = static_cast<EventKind>(kind);
    m_lex.setPos(body);
    return decodeObjectBody(out, true, false);
}

bool LineDecoder::decodeObjectBody(DecodedEvent &out, bool first, bool kindSeen)
{
    resetRecord(out);
    const TagKeys tags{true, kindSeen, false, false};
    const StructSpec &spec = eventSpec(out.kind);
    switch (out.kind) {
    case EventKind::Meta: {
        // `schema` is matched while visiting, the flattened run metadata afterwards (§5.1).
        RecordMapping::MetaRecord map{out.meta};
        return m_reader.readMembers(spec, map, 1, tags, first, allFields(spec) & ~1u);
    }
    case EventKind::SpanStart: {
        RecordMapping::SpanStart map{m_trace, out.span};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::SpanEnd: {
        RecordMapping::SpanEnd map{m_trace, out.spanEndId, out.spanEndDurationNs};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::Op: {
        RecordMapping::OpRecord map{m_trace, out.op};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::Tensor: {
        RecordMapping::TensorRecord map{m_trace, out.tensor};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::TensorStats: {
        RecordMapping::TensorStatsRecord map{m_trace, out.tensorStats};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::Memory: {
        RecordMapping::MemoryRecord map{m_trace, out.memory};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::DeviceMemory: {
        RecordMapping::DeviceMemoryRecord map{m_trace, out.deviceMemory};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::DeviceInterval: {
        RecordMapping::DeviceIntervalRecord map{m_trace, out.deviceInterval};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::Gradient: {
        RecordMapping::GradientRecord map{m_trace, out.gradient};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    case EventKind::Edge: return decodeEdgeObject(out.edge, first, kindSeen);
    case EventKind::Terminal: {
        RecordMapping::TerminalRecord map{out.terminal};
        return m_reader.readMembers(spec, map, 1, tags, first, 0);
    }
    }
    return false;
}

// An edge is tagged twice: `edge_kind` is resolved over the whole object before any other
// member is matched, so its errors win (§5.1, §5.5).
bool LineDecoder::decodeEdgeObject(Edge &edge, bool first, bool kindSeen)
{
    const char *start = m_lex.pos();
    bool tagConsumed = false;
    if (!first) {
        // Writers put `"edge_kind":"…"` right after the kind tag.
        constexpr std::string_view kCall = ",\"edge_kind\":\"call\"";
        constexpr std::string_view kData = ",\"edge_kind\":\"data\"";
        const auto rest = static_cast<std::size_t>(m_lex.end() - start);
        if (rest > kCall.size() && std::memcmp(start, kCall.data(), kCall.size()) == 0) {
            edge.kind = EdgeKind::Call;
            tagConsumed = true;
            m_lex.setPos(start + kCall.size());
        } else if (rest > kData.size() && std::memcmp(start, kData.data(), kData.size()) == 0) {
            edge.kind = EdgeKind::Data;
            tagConsumed = true;
            m_lex.setPos(start + kData.size());
        }
    }
    if (!tagConsumed) {
        bool tagSeen = false;
        bool kindKeySeen = kindSeen;
        if (!m_lex.members(first, [&](std::string_view key) {
                if (key == "kind") {
                    if (kindKeySeen)
                        return m_reader.duplicateKind();
                    kindKeySeen = true;
                    return m_lex.colon() && m_lex.skipValue(2);
                }
                if (key != "edge_kind")
                    return m_lex.colon() && m_lex.skipValue(2);
                if (tagSeen)
                    m_reader.mismatch("duplicate field `edge_kind`");
                const bool firstTag = !tagSeen;
                tagSeen = true;
                if (!m_lex.colon())
                    return false;
                if (!firstTag || m_reader.blocked())
                    return m_lex.skipValue(2);
                bool valid = false;
                return m_reader.readEdgeTag(edge.kind, valid, 2);
            }))
            return false;
        if (!tagSeen)
            m_reader.mismatch("missing field `edge_kind`");
        if (m_reader.blocked())
            return true; // the whole line was scanned; the tag's error stands
        m_lex.setPos(start);
    }
    RecordMapping::EdgeRecord map{m_trace, edge};
    const StructSpec &spec = edgeVariantSpec(edge.kind);
    const TagKeys tags{true, kindSeen, true, tagConsumed};
    return m_reader.readMembers(spec, map, 1, tags, first && !tagConsumed, allFields(spec));
}

bool LineDecoder::decodeArray(DecodedEvent &out)
{
    m_lex.advance(); // '['
    m_lex.skipWs();
    if (m_lex.atEnd())
        return m_lex.failEof("a list");
    if (m_lex.peek() == ']') {
        m_lex.advance();
        return m_lex.failAfterConsumed("missing field `kind`");
    }
    int kind = -1;
    if (!readKindTag(kind))
        return false;
    out.kind = static_cast<EventKind>(kind);
    resetRecord(out);
    const StructSpec &spec = eventSpec(out.kind);
    switch (out.kind) {
    case EventKind::Meta:
        // Flattened fields need a map; the rest is still scanned first.
        if (!m_lex.elements(1, [&](std::size_t) { return m_lex.skipValue(2); }))
            return false;
        m_reader.mismatch("invalid type: sequence, expected struct variant TraceEvent::Meta");
        return true;
    case EventKind::SpanStart: {
        RecordMapping::SpanStart map{m_trace, out.span};
        return decodeArrayFields(spec, map);
    }
    case EventKind::SpanEnd: {
        RecordMapping::SpanEnd map{m_trace, out.spanEndId, out.spanEndDurationNs};
        return decodeArrayFields(spec, map);
    }
    case EventKind::Op: {
        RecordMapping::OpRecord map{m_trace, out.op};
        return decodeArrayFields(spec, map);
    }
    case EventKind::Tensor: {
        RecordMapping::TensorRecord map{m_trace, out.tensor};
        return decodeArrayFields(spec, map);
    }
    case EventKind::TensorStats: {
        RecordMapping::TensorStatsRecord map{m_trace, out.tensorStats};
        return decodeArrayFields(spec, map);
    }
    case EventKind::Memory: {
        RecordMapping::MemoryRecord map{m_trace, out.memory};
        return decodeArrayFields(spec, map);
    }
    case EventKind::DeviceMemory: {
        RecordMapping::DeviceMemoryRecord map{m_trace, out.deviceMemory};
        return decodeArrayFields(spec, map);
    }
    case EventKind::DeviceInterval: {
        RecordMapping::DeviceIntervalRecord map{m_trace, out.deviceInterval};
        return decodeArrayFields(spec, map);
    }
    case EventKind::Gradient: {
        RecordMapping::GradientRecord map{m_trace, out.gradient};
        return decodeArrayFields(spec, map);
    }
    case EventKind::Edge: return decodeEdgeArray(out.edge);
    case EventKind::Terminal: {
        RecordMapping::TerminalRecord map{out.terminal};
        return decodeArrayFields(spec, map);
    }
    }
    return false;
}

// Elements 1, 2, … of an array record are the fields in declaration order (§5.2).
template<typename M>
bool LineDecoder::decodeArrayFields(const StructSpec &spec, M &map)
{
    std::size_t given = 0;
    if (!m_lex.elements(1, [&](std::size_t i) {
            ++given;
            return m_reader.readElement(spec, map, i - 1, 2);
        }))
        return false;
    m_reader.finishElements(spec, given);
    return true;
}

// ["edge", <edge_kind>, fields…]
bool LineDecoder::decodeEdgeArray(Edge &edge)
{
    bool tagRead = false;
    bool valid = false;
    std::size_t given = 0;
    RecordMapping::EdgeRecord map{m_trace, edge};
    if (!m_lex.elements(1, [&](std::size_t i) {
            if (i == 1) {
                tagRead = true;
                return m_reader.readEdgeTag(edge.kind, valid, 2);
            }
            ++given;
            if (!valid)
                return m_lex.skipValue(2);
            return m_reader.readElement(edgeVariantSpec(edge.kind), map, i - 2, 2);
        }))
        return false;
    if (!tagRead)
        m_reader.mismatch("missing field `edge_kind`");
    else if (valid)
        m_reader.finishElements(edgeVariantSpec(edge.kind), given);
    return true;
}

// A line that is a JSON scalar: serde's tagged-enum visitor refuses it once it is read.
bool LineDecoder::decodeScalar()
{
    // Built in one string: the scalar may be a 200 MB string (describeValue()); the room is
    // for the position and the reader's line prefix (StructReader::kMessagePrefixRoom).
    std::string text = "invalid type: ";
    if (!m_lex.describeValue(text, 1, StructReader::kMessagePrefixRoom + 128))
        return false;
    text += ", expected internally tagged enum TraceEvent";
    return m_lex.failAfterConsumedTaking(std::move(text));
}

void LineDecoder::failInvalidUtf8(DecodeFailure &failure)
{
    failure.invalidUtf8 = true;
    failure.column = 0;
    failure.cause = "stream did not contain valid UTF-8";
}

bool LineDecoder::decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure)
{
    failure.invalidUtf8 = false;
    failure.column = 0;
    if (!isUtf8(data, length)) {
        failInvalidUtf8(failure);
        return false;
    }
    // Lines of the usual shape need none of the exact path's error bookkeeping (§5.1).
    if (m_fastPath && m_fast.scan(data, data + length)) {
        fileFast(out);
        return true;
    }
    m_reader.reset(data, data + length);

    bool scanned = false;
    switch (*data) {
    case '{': scanned = decodeObject(out); break;
    case '[': scanned = decodeArray(out); break;
    default: scanned = decodeScalar(); break;
    }
    if (!scanned) {
        failure.cause = m_lex.takeCause();
        failure.column = m_lex.column();
        return false;
    }
    if (m_reader.hasMismatch()) {
        failure.cause = m_reader.takeMismatch();
        return false;
    }
    // §5.1 phase 3: only a record that decoded is checked for trailing bytes.
    m_lex.skipWs();
    if (!m_lex.atEnd()) {
        m_lex.failAt(m_lex.pos(), "trailing characters");
        failure.cause = m_lex.takeCause();
        failure.column = m_lex.column();
        return false;
    }
    return true;
}

} // namespace TraceInspector
