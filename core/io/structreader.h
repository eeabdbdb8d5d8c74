// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/eventschema.h"
#include "core/io/jsonlexer.h"
#include "core/io/recordmapping.h"

namespace TraceInspector {

struct Trace;

/// Which tag keys a structure's member walk must recognise, and whether they were seen.
struct TagKeys {
    bool kind = false; // the record level: a second `kind` is a scan error
    bool kindSeen = false;
    bool edgeKind = false; // an edge: a second `edge_kind` is a match error that wins
    bool edgeKindSeen = false;
};

/// The match phase of TRACE_FORMAT.md §5.1 for the structures of one line: reads members and
/// array elements against an eventschema.h table (§5.2–§5.5) and hands each checked value to
/// a RecordMapping. Scan errors stop at once (the lexer's cause); match errors are remembered
/// in serde's order, the first one winning, while the scan goes on to the end of the value.
class StructReader
{
public:
    explicit StructReader(Trace &trace)
        : m_trace(trace)
    {
    }

    JsonLexer &lexer() { return m_lex; }
    void reset(const char *begin, const char *end)
    {
        m_lex.reset(begin, end);
        m_primary.set = false;
        m_deferred.set = false;
        m_deferring = false;
    }

    // --- match errors --------------------------------------------------------------
    /// Records a match error; the first one wins. While deferring, errors go to a second slot
    /// that only counts when the first stays empty (meta's flattened members are matched
    /// after `schema`, an edge's fields after `edge_kind`).
    void mismatch(std::string text)
    {
        Slot &slot = m_deferring ? m_deferred : m_primary;
        if (!slot.set) {
            slot.set = true;
            slot.text = std::move(text);
        }
    }
    /// True once a match error makes further matching pointless (only scanning goes on).
    bool blocked() const { return m_primary.set || (m_deferring && m_deferred.set); }
    bool hasMismatch() const { return m_primary.set; }
    std::string takeMismatch() { return std::move(m_primary.text); }
    /// `unknown variant `<value>`, expected <expected>`, built at its final size at once: the
    /// value may be 200 MB. It has room for the reader's `parse trace JSONL line N from
    /// <path>: ` in front (kMessagePrefixRoom), so adding that moves the text within its
    /// block instead of copying it; the room is never written, so it takes no memory. A
    /// \a disposable value (JsonLexer::disposable()) gives its pages back as it is copied, so
    /// that the line and the message do not both hold it.
    static std::string unknownVariant(std::string_view value, std::string_view expected, bool disposable = false);
    static constexpr std::size_t kMessagePrefixRoom = 4096 + 64;
    /// Reads the value at the cursor and records `invalid type: U, expected E`.
    bool typeError(std::string_view expected, int depth)
    {
        // Built in one string: the value may be 200 MB (describeValue()).
        std::string text = "invalid type: ";
        if (!m_lex.describeValue(text, depth, kMessagePrefixRoom + expected.size() + 16))
            return false;
        text.append(", expected ").append(expected);
        mismatch(std::move(text));
        return true;
    }

    // --- structures (false only on a scan error) -------------------------------------------
    /// A structure member: an object, or an array of its fields in declaration order (§5.2).
    template<typename M>
    bool readStruct(const StructSpec &spec, M &map, int depth);
    /// The members of an object whose `{` is consumed: in input order, duplicates and type
    /// errors as they come, missing fields after the last member (§5.3). Errors about the
    /// fields in \a deferredMask count only after those of the others.
    template<typename M>
    bool readMembers(const StructSpec &spec, M &map, int depth, TagKeys tags, bool first, std::uint32_t deferredMask);
    /// Field \a position of an array-form structure; surplus elements are only scanned.
    template<typename M>
    bool readElement(const StructSpec &spec, M &map, std::size_t position, int depth)
    {
        if (position < spec.fields.size() && !blocked())
            return readField(spec.fields[position], static_cast<int>(position), map, depth);
        return m_lex.skipValue(depth);
    }
    /// Too few or too many elements for an array-form structure of \a given elements.
    void finishElements(const StructSpec &spec, std::size_t given);

    /// The `edge_kind` tag (§5.5): `call`/`data` or their index 0/1; \a valid tells whether it
    /// named a variant.
    bool readEdgeTag(EdgeKind &kind, bool &valid, int depth);
    /// A second `kind` key at the cursor right after it: a scan error (§5.3).
    bool duplicateKind();

private:
    template<typename M>
    bool readField(const FieldSpec &field, int idx, M &map, int depth);
    void finishMembers(const StructSpec &spec, std::uint32_t seen, std::uint32_t deferredMask);
    bool readNested(WireStruct type, void *target, int depth);
    bool readNestedList(WireStruct type, void *target, int depth);

    bool readUnsigned(std::uint64_t &out, std::string_view expected, int depth);
    bool readFloat(double &out, int depth);
    bool readBool(bool &out, int depth);
    bool readString(std::string_view &out, int depth)
    {
        if (!m_lex.atEnd() && m_lex.peek() == '"')
            return m_lex.parseValueString(out);
        return typeError("a string", depth);
    }
    bool readEnum(const EnumSpec &spec, int &index, int depth);
    bool unitValue(bool &isUnit, std::string &what, int depth);
    bool readShape(ShapeId &out, int depth);
    bool readIdList(ListRef &out, int depth);
    bool readStrings(std::vector<std::string> &out, int depth);
    bool readStringMap(std::map<std::string, std::string> &out, int depth);

    struct Slot {
        bool set = false;
        std::string text;
    };

    Trace &m_trace;
    JsonLexer m_lex;
    Slot m_primary;
    Slot m_deferred;
    bool m_deferring = false;
    FieldValue m_value;
    std::vector<std::uint64_t> m_dims;
    std::vector<StringId> m_ids;
    std::vector<std::string> m_strings;
    std::map<std::string, std::string> m_stringMap;
};

// The templates are instantiated with each record's mapping by the line decoder.

template<typename M>
bool StructReader::readField(const FieldSpec &field, int idx, M &map, int depth)
{
    FieldValue &v = m_value;
    v.present = true;
    if (field.presence == Presence::Optional && m_lex.takeNull()) {
        v.present = false;
        map.set(idx, v);
        return true;
    }
    bool ok = true;
    switch (field.type) {
    case WireType::String:
        ok = readString(v.text, depth);
        v.disposable = ok && m_lex.disposable(v.text);
        break;
    case WireType::U64: ok = readUnsigned(v.u, "u64", depth); break;
    case WireType::Usize: ok = readUnsigned(v.u, "usize", depth); break;
    case WireType::F64: ok = readFloat(v.f, depth); break;
    case WireType::Bool: ok = readBool(v.b, depth); break;
    case WireType::Shape: ok = readShape(v.shape, depth); break;
    case WireType::StringIds: ok = readIdList(v.list, depth); break;
    case WireType::Strings:
        v.strings = &m_strings;
        ok = readStrings(m_strings, depth);
        break;
    case WireType::StringMap:
        v.map = &m_stringMap;
        ok = readStringMap(m_stringMap, depth);
        break;
    case WireType::Enum: ok = readEnum(enumSpec(static_cast<WireEnum>(field.sub)), v.index, depth); break;
    case WireType::Struct: return readNested(static_cast<WireStruct>(field.sub), map.nested(idx), depth);
    case WireType::StructList: return readNestedList(static_cast<WireStruct>(field.sub), map.nested(idx), depth);
    }
    if (ok && !blocked())
        map.set(idx, v);
    return ok;
}

// A structure member: an object, or an array of its fields in declaration order (§5.2).
template<typename M>
bool StructReader::readStruct(const StructSpec &spec, M &map, int depth)
{
    if (!m_lex.atEnd() && m_lex.peek() == '{')
        return m_lex.enterContainer(depth) && readMembers(spec, map, depth, TagKeys{}, true, 0);
    if (!m_lex.atEnd() && m_lex.peek() == '[') {
        if (!m_lex.enterContainer(depth))
            return false;
        std::size_t given = 0;
        if (!m_lex.elements([&](std::size_t i) {
                ++given;
                return readElement(spec, map, i, depth + 1);
            }))
            return false;
        finishElements(spec, given);
        return true;
    }
    return typeError(spec.typeName, depth);
}

// The members of an object whose `{` is consumed: in input order, duplicates and type errors
// as they come, missing fields after the last member (§5.1 phase 2, §5.3).
template<typename M>
bool StructReader::readMembers(const StructSpec &spec, M &map, int depth, TagKeys tags, bool first,
                               std::uint32_t deferredMask)
{
    const bool outer = m_deferring;
    std::uint32_t seen = 0;
    const bool ok = m_lex.members(first, [&](std::string_view key) {
        const int idx = spec.find(key);
        if (idx < 0) {
            if (tags.kind && key == "kind") {
                if (tags.kindSeen)
                    return duplicateKind();
                tags.kindSeen = true; // the tag itself, checked by the scan
            } else if (tags.edgeKind && key == "edge_kind") {
                if (tags.edgeKindSeen)
                    mismatch("duplicate field `edge_kind`");
                tags.edgeKindSeen = true;
            }
            return m_lex.colon() && m_lex.skipValue(depth + 1);
        }
        const std::uint32_t bit = 1u << idx;
        m_deferring = outer || (deferredMask & bit) != 0;
        bool fine = true;
        if (seen & bit) {
            mismatch("duplicate field `" + std::string(spec.fields[static_cast<std::size_t>(idx)].name) + "`");
            fine = m_lex.colon() && m_lex.skipValue(depth + 1);
        } else {
            seen |= bit;
            fine = m_lex.colon()
                   && (blocked() ? m_lex.skipValue(depth + 1)
                                 : readField(spec.fields[static_cast<std::size_t>(idx)], idx, map, depth + 1));
        }
        m_deferring = outer;
        return fine;
    });
    m_deferring = outer;
    if (!ok)
        return false;
    finishMembers(spec, seen, deferredMask);
    return true;
}

} // namespace TraceInspector
