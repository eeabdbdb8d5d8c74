// SPDX-License-Identifier: MIT
#include "core/io/structreader.h"

#include "core/model/pagerelease.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {

std::string elementCount(std::size_t n)
{
    return std::to_string(n) + (n == 1 ? " element" : " elements");
}

} // namespace

std::string StructReader::unknownVariant(std::string_view value, std::string_view expected, bool disposable)
{
    constexpr std::string_view kHead = "unknown variant `";
    constexpr std::string_view kMiddle = "`, expected ";
    std::string text;
    text.reserve(kHead.size() + value.size() + kMiddle.size() + expected.size()
                 + (value.size() > (std::size_t(1) << 16) ? kMessagePrefixRoom : 0));
    text.append(kHead);
    if (disposable)
        appendReleasing(text, value);
    else
        text.append(value);
    text.append(kMiddle).append(expected);
    return text;
}

bool StructReader::readUnsigned(std::uint64_t &out, std::string_view expected, int depth)
{
    // Fast path: plain digits that fit, not followed by a fraction or exponent.
    const char *p = m_lex.pos();
    const char *end = m_lex.end();
    if (p < end && *p >= '1' && *p <= '9') {
        std::uint64_t v = 0;
        const char *q = p;
        while (q < end && *q >= '0' && *q <= '9' && q - p < 19) {
            v = v * 10 + static_cast<std::uint64_t>(*q - '0');
            ++q;
        }
        if (q >= end || (*q != '.' && *q != 'e' && *q != 'E' && (*q < '0' || *q > '9'))) {
            out = v;
            m_lex.setPos(q);
            return true;
        }
    }
    if (p < end && (*p == '-' || (*p >= '0' && *p <= '9'))) {
        SerdeNumber n;
        if (!m_lex.parseNumber(n))
            return false;
        switch (n.kind) {
        case SerdeNumber::Kind::Unsigned: out = n.unsignedValue; return true;
        case SerdeNumber::Kind::Negative:
            mismatch("invalid value: " + JsonLexer::describeNumber(n) + ", expected " + std::string(expected));
            return true;
        case SerdeNumber::Kind::Float:
            mismatch("invalid type: " + JsonLexer::describeNumber(n) + ", expected " + std::string(expected));
            return true;
        }
    }
    return typeError(expected, depth);
}

bool StructReader::readFloat(double &out, int depth)
{
    if (!m_lex.atEnd() && (m_lex.peek() == '-' || (m_lex.peek() >= '0' && m_lex.peek() <= '9'))) {
        SerdeNumber n;
        if (!m_lex.parseNumber(n))
            return false;
        out = n.toDouble();
        return true;
    }
    return typeError("f64", depth);
}

bool StructReader::readBool(bool &out, int depth)
{
    if (!m_lex.atEnd()) {
        if (m_lex.peek() == 't') {
            out = true;
            return m_lex.parseIdent("true");
        }
        if (m_lex.peek() == 'f') {
            out = false;
            return m_lex.parseIdent("false");
        }
    }
    return typeError("a boolean", depth);
}

// `null` and `{}` are the unit value of a map-form enumeration (§5.5).
bool StructReader::unitValue(bool &isUnit, std::string &what, int depth)
{
    if (m_lex.takeNull()) {
        isUnit = true;
        return true;
    }
    if (m_lex.peek() == '{') {
        if (!m_lex.enterContainer(depth))
            return false;
        std::size_t members = 0;
        if (!m_lex.members(true, [&](std::string_view) {
                ++members;
                return m_lex.colon() && m_lex.skipValue(depth + 1);
            }))
            return false;
        isUnit = members == 0;
        what = "map";
        return true;
    }
    isUnit = false;
    return m_lex.describeValue(what, depth, kMessagePrefixRoom + 64);
}

bool StructReader::readEnum(const EnumSpec &spec, int &index, int depth)
{
    if (m_lex.atEnd())
        return m_lex.failEof("a value");
    const char c = m_lex.peek();
    if (c == '"') {
        std::string_view s;
        if (!m_lex.parseValueString(s))
            return false;
        index = spec.lookup(s);
        if (index < 0)
            mismatch(unknownVariant(s, enumExpectation(spec.typeName), m_lex.disposable(s)));
        return true;
    }
    if (c != '{')
        return typeError("string or map", depth);
    // The externally tagged form of a unit variant: {"value":null} or {"value":{}}.
    if (!m_lex.enterContainer(depth))
        return false;
    std::size_t entries = 0;
    int found = -1;
    // An unknown key is quoted whole: one lying in the line is viewed there (and given back as
    // the message copies it, see unknownVariant()), not copied first.
    std::string keyCopy;
    std::string_view key;
    bool keyDisposable = false;
    bool isUnit = true;
    std::string what;
    if (!m_lex.members(true, [&](std::string_view k) {
            if (++entries > 1)
                return m_lex.colon() && m_lex.skipValue(depth + 1);
            found = spec.lookup(k);
            if (found < 0) {
                keyDisposable = m_lex.disposable(k);
                if (keyDisposable) {
                    key = k;
                } else {
                    keyCopy.assign(k);
                    key = keyCopy;
                }
            }
            return m_lex.colon() && unitValue(isUnit, what, depth + 1);
        }))
        return false;
    if (entries != 1)
        mismatch("invalid value: map, expected map with a single key");
    else if (found < 0)
        mismatch(unknownVariant(key, enumExpectation(spec.typeName), keyDisposable));
    else if (!isUnit) {
        what.insert(0, "invalid type: ").append(", expected unit"); // in place: `what` has room
        mismatch(std::move(what));
    } else {
        index = found;
    }
    return true;
}

bool StructReader::readShape(ShapeId &out, int depth)
{
    if (m_lex.atEnd() || m_lex.peek() != '[')
        return typeError("a sequence", depth);
    if (!m_lex.enterContainer(depth))
        return false;
    m_dims.clear();
    if (!m_lex.elements([&](std::size_t) {
            if (blocked())
                return m_lex.skipValue(depth + 1);
            std::uint64_t d = 0;
            if (!readUnsigned(d, "usize", depth + 1))
                return false;
            m_dims.push_back(d);
            return true;
        }))
        return false;
    if (!blocked())
        out = m_trace.shapes.intern(m_dims);
    return true;
}

bool StructReader::readIdList(ListRef &out, int depth)
{
    if (m_lex.atEnd() || m_lex.peek() != '[')
        return typeError("a sequence", depth);
    if (!m_lex.enterContainer(depth))
        return false;
    m_ids.clear();
    if (!m_lex.elements([&](std::size_t) {
            if (blocked())
                return m_lex.skipValue(depth + 1);
            std::string_view s;
            if (!readString(s, depth + 1))
                return false;
            if (!blocked())
                m_ids.push_back(m_trace.strings.intern(s));
            return true;
        }))
        return false;
    if (!blocked())
        out = m_trace.idLists.append(m_ids);
    return true;
}

bool StructReader::readStrings(std::vector<std::string> &out, int depth)
{
    if (m_lex.atEnd() || m_lex.peek() != '[')
        return typeError("a sequence", depth);
    if (!m_lex.enterContainer(depth))
        return false;
    out.clear();
    return m_lex.elements([&](std::size_t) {
        if (blocked())
            return m_lex.skipValue(depth + 1);
        std::string_view s;
        if (!readString(s, depth + 1))
            return false;
        out.emplace_back(s);
        return true;
    });
}

bool StructReader::readStringMap(std::map<std::string, std::string> &out, int depth)
{
    if (m_lex.atEnd() || m_lex.peek() != '{')
        return typeError("a map", depth);
    if (!m_lex.enterContainer(depth))
        return false;
    out.clear();
    std::string key;
    return m_lex.members(true, [&](std::string_view k) {
        key.assign(k); // the value may reuse the lexer's unescape buffer
        if (!m_lex.colon())
            return false;
        if (blocked())
            return m_lex.skipValue(depth + 1);
        std::string_view value;
        if (!readString(value, depth + 1))
            return false;
        out.insert_or_assign(key, std::string(value)); // a repeated key keeps its last value (§5.3)
        return true;
    });
}

void StructReader::finishMembers(const StructSpec &spec, std::uint32_t seen, std::uint32_t deferredMask)
{
    if (blocked())
        return;
    const std::uint32_t missing = spec.requiredMask & ~seen;
    auto missingField = [&](std::uint32_t mask) {
        mismatch("missing field `" + std::string(spec.fields[static_cast<std::size_t>(__builtin_ctz(mask))].name)
                 + "`");
    };
    if (deferredMask != 0) {
        // Members matched before the deferred ones: their absence wins, then whatever the
        // deferred members got wrong, then the deferred members' absence.
        if (const std::uint32_t early = missing & ~deferredMask) {
            missingField(early);
            return;
        }
        if (m_deferred.set) {
            m_primary = std::move(m_deferred);
            m_deferred = Slot{};
            return;
        }
    }
    if (missing)
        missingField(missing);
}

// Too few or too many elements for an array-form structure (§5.2).
void StructReader::finishElements(const StructSpec &spec, std::size_t given)
{
    if (blocked())
        return;
    const auto count = static_cast<std::size_t>(spec.count());
    if (given < count) {
        // Absent trailing optional and defaulted fields take their defaults; the first absent
        // required one is the error.
        const std::uint32_t absentRequired = spec.requiredMask & ~((1u << given) - 1u);
        if (absentRequired) {
            mismatch("invalid length " + std::to_string(__builtin_ctz(absentRequired)) + ", expected "
                     + std::string(spec.typeName) + " with " + elementCount(count));
        }
    } else if (given > count) {
        mismatch("invalid length " + std::to_string(given) + ", expected " + elementCount(count) + " in sequence");
    }
}

bool StructReader::readNested(WireStruct type, void *target, int depth)
{
    const StructSpec &spec = structSpec(type);
    switch (type) {
    case WireStruct::CaptureContract: {
        RecordMapping::CaptureContractRecord map{*static_cast<CaptureContract *>(target)};
        return readStruct(spec, map, depth);
    }
    case WireStruct::ComparisonIdentity: {
        RecordMapping::ComparisonIdentityRecord map{*static_cast<ComparisonIdentity *>(target)};
        return readStruct(spec, map, depth);
    }
    case WireStruct::GradientContract: {
        RecordMapping::GradientContractRecord map{*static_cast<GradientContract *>(target)};
        return readStruct(spec, map, depth);
    }
    case WireStruct::ExpectedGradient: {
        RecordMapping::ExpectedGradientRecord map{*static_cast<ExpectedGradient *>(target)};
        return readStruct(spec, map, depth);
    }
    case WireStruct::GradientFamilyContract: {
        RecordMapping::FamilyContractRecord map{*static_cast<GradientFamilyContract *>(target)};
        return readStruct(spec, map, depth);
    }
    }
    return false;
}

bool StructReader::readNestedList(WireStruct type, void *target, int depth)
{
    if (m_lex.atEnd() || m_lex.peek() != '[')
        return typeError("a sequence", depth);
    if (!m_lex.enterContainer(depth))
        return false;
    auto each = [&](auto &list) {
        list.clear();
        return m_lex.elements([&](std::size_t) {
            if (blocked())
                return m_lex.skipValue(depth + 1);
            list.emplace_back();
            return readNested(type, &list.back(), depth + 1);
        });
    };
    if (type == WireStruct::ExpectedGradient)
        return each(*static_cast<std::vector<ExpectedGradient> *>(target));
    return each(*static_cast<std::vector<GradientFamilyContract> *>(target));
}

// The `edge_kind` tag, at the match phase: the variant name or its index 0/1 (§5.5).
bool StructReader::readEdgeTag(EdgeKind &kind, bool &valid, int depth)
{
    valid = false;
    const char c = m_lex.peek();
    if (c == '"') {
        std::string_view s;
        if (!m_lex.parseString(s))
            return false;
        if (auto k = parseEdgeKind(s)) {
            kind = *k;
            valid = true;
        } else {
            mismatch(unknownVariant(s, "`call` or `data`", m_lex.disposable(s)));
        }
        return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        SerdeNumber n;
        if (!m_lex.parseNumber(n))
            return false;
        if (n.kind != SerdeNumber::Kind::Unsigned)
            mismatch("invalid type: " + JsonLexer::describeNumber(n) + ", expected variant identifier");
        else if (n.unsignedValue > 1)
            mismatch("invalid value: " + JsonLexer::describeNumber(n) + ", expected variant index 0 <= i < 2");
        else {
            kind = static_cast<EdgeKind>(n.unsignedValue);
            valid = true;
        }
        return true;
    }
    return typeError("variant identifier", depth);
}

// A second `kind` key: reported once the key is read, at its closing quote plus what serde
// consumes while unwinding (whitespace, and a closing brace).
bool StructReader::duplicateKind()
{
    m_lex.skipWs();
    if (!m_lex.atEnd() && m_lex.peek() == '}')
        m_lex.advance();
    return m_lex.failAfterConsumed("duplicate field `kind`");
}

} // namespace TraceInspector
