// SPDX-License-Identifier: MIT
#include "core/comparison/bundlemanifest.h"

#include <array>

#include "core/io/jsonlexer.h"
#include "core/output/textescape.h"

namespace TraceInspector {

namespace {

/// serde_json's line and column of a position: \a consumed bytes read so far.
std::string positionText(std::string_view text, std::size_t consumed)
{
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < consumed && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return " at line " + std::to_string(line) + " column " + std::to_string(consumed - lineStart);
}

/// A reader of the two manifest structs over JsonLexer, with multi-line positions.
class ManifestReader
{
public:
    explicit ManifestReader(std::string_view text)
        : m_text(text)
    {
        m_lex.reset(text.data(), text.data() + text.size());
    }

    bool read(BundleManifest &out)
    {
        m_lex.skipWs();
        if (!readManifest(out))
            return false;
        m_lex.skipWs();
        if (!m_lex.atEnd())
            return failAt(consumedBefore(m_lex.pos()) + 1, "trailing characters");
        return true;
    }

    const std::string &error() const { return m_error; }

private:
    std::size_t consumedBefore(const char *p) const { return static_cast<std::size_t>(p - m_text.data()); }

    bool failAt(std::size_t consumed, const std::string &text)
    {
        if (m_error.empty())
            m_error = text + positionText(m_text, consumed);
        return false;
    }
    /// Takes over an error of the lexer, re-positioned over several lines.
    bool lexerFailed()
    {
        std::string cause = m_lex.cause();
        const std::size_t at = cause.rfind(" at line 1 column ");
        if (at != std::string::npos)
            cause.resize(at);
        return failAt(m_lex.column(), cause);
    }
    /// `invalid type: <unexpected>, expected <what>` positioned as serde_json does: after a
    /// scalar, before a container (which is peeked, not consumed).
    bool invalidType(std::string_view expected)
    {
        const char *start = m_lex.pos();
        std::string what;
        if (!m_lex.describeValue(what, 1))
            return lexerFailed();
        const bool container = what == "sequence" || what == "map";
        return failAt(consumedBefore(container ? start : m_lex.pos()),
                      "invalid type: " + what + ", expected " + std::string(expected));
    }

    /// serde_json validates a string it deserializes once its closing quote is read.
    bool invalidUnicode() { return failAt(consumedBefore(m_lex.pos()), "invalid unicode code point"); }

    bool readString(std::string &out)
    {
        if (m_lex.atEnd())
            return m_lex.failEof("a value"), lexerFailed();
        if (m_lex.peek() != '"')
            return invalidType("a string");
        std::string_view s;
        if (!m_lex.parseString(s))
            return lexerFailed();
        if (!isValidUtf8(s))
            return invalidUnicode();
        out.assign(s);
        return true;
    }

    bool readU64(std::uint64_t &out)
    {
        if (m_lex.atEnd())
            return m_lex.failEof("a value"), lexerFailed();
        const char c = m_lex.peek();
        if (c != '-' && (c < '0' || c > '9'))
            return invalidType("u64");
        SerdeNumber n;
        if (!m_lex.parseNumber(n))
            return lexerFailed();
        if (n.kind == SerdeNumber::Kind::Negative)
            return failAt(consumedBefore(m_lex.pos()),
                          "invalid value: " + JsonLexer::describeNumber(n) + ", expected u64");
        if (n.kind == SerdeNumber::Kind::Float)
            return failAt(consumedBefore(m_lex.pos()),
                          "invalid type: " + JsonLexer::describeNumber(n) + ", expected u64");
        out = n.unsignedValue;
        return true;
    }

    /// A struct given as an object or an array: \a fields in declaration order, \a readField(i)
    /// reads the value of field i at the cursor.
    template<std::size_t N, typename ReadField>
    bool readStruct(std::string_view name, const std::array<std::string_view, N> &fields, ReadField &&readField,
                    int depth)
    {
        if (m_lex.atEnd())
            return m_lex.failEof("a value"), lexerFailed();
        const std::string expected = "struct " + std::string(name);
        if (m_lex.peek() == '[') {
            if (!m_lex.enterContainer(depth))
                return lexerFailed();
            std::size_t count = 0;
            bool ok = m_lex.elements([&](std::size_t index) {
                if (index >= N) {
                    // serde's visitor stops after N elements; serde_json then finds more.
                    failAt(consumedBefore(m_lex.pos()) + 1, "trailing characters");
                    return false;
                }
                ++count;
                return readField(index);
            });
            if (!ok)
                return m_error.empty() ? lexerFailed() : false;
            if (count < N)
                return failAt(consumedBefore(m_lex.pos()), "invalid length " + std::to_string(count) + ", expected "
                                                               + expected + " with " + std::to_string(N) + " elements");
            return true;
        }
        if (m_lex.peek() != '{')
            return invalidType(expected);
        if (!m_lex.enterContainer(depth))
            return lexerFailed();
        std::array<bool, N> seen{};
        const bool ok = m_lex.members(true, [&](std::string_view key) {
            if (!isValidUtf8(key))
                return invalidUnicode();
            for (std::size_t i = 0; i < N; ++i) {
                if (key != fields[i])
                    continue;
                if (seen[i]) {
                    failAt(consumedBefore(m_lex.pos()), "duplicate field `" + std::string(key) + "`");
                    return false;
                }
                seen[i] = true;
                if (!m_lex.colon())
                    return false;
                return readField(i);
            }
            // Unknown members are ignored (no deny_unknown_fields upstream).
            return m_lex.colon() && m_lex.skipValue(depth + 1);
        });
        if (!ok)
            return m_error.empty() ? lexerFailed() : false;
        for (std::size_t i = 0; i < N; ++i) {
            if (!seen[i])
                return failAt(consumedBefore(m_lex.pos()), "missing field `" + std::string(fields[i]) + "`");
        }
        return true;
    }

    bool readFile(BundleFile &file)
    {
        static constexpr std::array<std::string_view, 3> kFields{"path", "bytes", "sha256"};
        return readStruct(
            "BundleFile", kFields,
            [&](std::size_t i) {
                switch (i) {
                case 0: return readString(file.path);
                case 1: return readU64(file.bytes);
                default: return readString(file.sha256);
                }
            },
            2);
    }

    bool readFiles(std::vector<BundleFile> &files)
    {
        if (m_lex.atEnd())
            return m_lex.failEof("a value"), lexerFailed();
        if (m_lex.peek() != '[')
            return invalidType("a sequence");
        if (!m_lex.enterContainer(1))
            return lexerFailed();
        files.clear();
        const bool ok = m_lex.elements([&](std::size_t) {
            files.emplace_back();
            return readFile(files.back());
        });
        return ok || (m_error.empty() ? lexerFailed() : false);
    }

    bool readManifest(BundleManifest &out)
    {
        static constexpr std::array<std::string_view, 3> kFields{"schema", "run_id", "files"};
        return readStruct(
            "BundleManifest", kFields,
            [&](std::size_t i) {
                switch (i) {
                case 0: return readString(out.schema);
                case 1: return readString(out.runId);
                default: return readFiles(out.files);
                }
            },
            0);
    }

    std::string_view m_text;
    JsonLexer m_lex;
    std::string m_error;
};

} // namespace

std::optional<BundleManifest> BundleManifest::parse(std::string_view json, std::string &error)
{
    ManifestReader reader(json);
    BundleManifest manifest;
    if (!reader.read(manifest)) {
        error = reader.error();
        return std::nullopt;
    }
    return manifest;
}

} // namespace TraceInspector
