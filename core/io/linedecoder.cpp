// SPDX-License-Identifier: MIT
// A JSON parser specialised for one compact JSONL event per line. It validates exactly
// what serde_json accepts and decodes straight into the trace records, with no DOM and
// no tape: at ~140 bytes per line, the fixed costs of a general parser dominate.
#include "core/io/linedecoder.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>

#include "core/analysis/rustformat.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

// serde's recursion limit: entering the 128th nested container fails.
constexpr int kMaxDepth = 128;

struct FieldTable {
    const std::string_view *names;
    int count;
    std::uint32_t required; // bit i = names[i] is required
};

int findField(const FieldTable &t, std::string_view key)
{
    for (int i = 0; i < t.count; ++i) {
        if (t.names[i].size() == key.size() && std::memcmp(t.names[i].data(), key.data(), key.size()) == 0)
            return i;
    }
    return -1;
}

constexpr std::uint32_t bits(std::initializer_list<int> idx)
{
    std::uint32_t m = 0;
    for (int i : idx)
        m |= 1u << i;
    return m;
}

constexpr std::string_view kKindNames[] = {"meta", "span_start", "span_end", "op", "tensor", "tensor_stats",
                                           "memory", "device_memory", "device_interval", "gradient", "edge", "terminal"};

// Field tables in declaration order (= serde's "first missing field" order).
constexpr std::string_view kSpanStartF[] = {"id", "parent_id", "name", "start_ns", "span_kind", "measured", "step"};
constexpr FieldTable kSpanStart{kSpanStartF, 7, bits({0, 2, 3, 4})};
constexpr std::string_view kSpanEndF[] = {"id", "duration_ns"};
constexpr FieldTable kSpanEnd{kSpanEndF, 2, bits({0})};
constexpr std::string_view kOpF[] = {"span_id", "op_name", "inputs", "output", "shape", "dtype",
                                     "device", "duration_ns", "timestamp_ns", "output_dense_bytes", "input_dense_bytes"};
constexpr FieldTable kOp{kOpF, 11, bits({0, 1, 4, 5, 6, 7, 10})};
constexpr std::string_view kTensorF[] = {"span_id", "tensor_id", "label", "shape", "dtype",
                                         "device", "requires_grad", "dense_bytes", "category"};
constexpr FieldTable kTensor{kTensorF, 9, bits({0, 1, 3, 4, 5})};
constexpr std::string_view kStatsF[] = {"span_id", "label", "shape", "dtype", "elements", "non_finite", "rms", "abs_max", "mean"};
constexpr FieldTable kStats{kStatsF, 9, bits({0, 1, 2, 3, 4, 5, 6, 7, 8})};
constexpr std::string_view kMemoryF[] = {"timestamp_ns", "storage_id", "tensor_id", "span_id", "op_name", "device",
                                         "bytes", "action", "shape", "dtype", "category"};
constexpr FieldTable kMemory{kMemoryF, 11, bits({0, 1, 2, 3, 5, 6, 7, 9})};
constexpr std::string_view kDevMemF[] = {"timestamp_ns", "device", "used_bytes", "free_bytes", "reserved_bytes", "capacity_bytes"};
constexpr FieldTable kDevMem{kDevMemF, 6, bits({0, 1})};
constexpr std::string_view kIntervalF[] = {"span_id", "device", "stream_id", "clock_id", "backend", "start_ns", "duration_ns"};
constexpr FieldTable kInterval{kIntervalF, 7, bits({0, 1, 2, 3, 4, 5, 6})};
constexpr std::string_view kGradientF[] = {"event_id", "root", "key", "state", "norm"};
constexpr FieldTable kGradient{kGradientF, 5, bits({0, 1, 2, 3})};
// Edge variants see `edge_kind` as their own (already decoded) member.
constexpr std::string_view kEdgeKindF[] = {"edge_kind"};
constexpr FieldTable kEdgeKindOnly{kEdgeKindF, 1, bits({0})};
constexpr std::string_view kCallEdgeF[] = {"from_span", "to_span", "host_duration_ns", "edge_kind"};
constexpr FieldTable kCallEdge{kCallEdgeF, 4, bits({0, 1, 2})};
constexpr std::string_view kDataEdgeF[] = {"from_tensor", "to_tensor", "edge_kind"};
constexpr FieldTable kDataEdge{kDataEdgeF, 3, bits({0, 1})};
constexpr std::string_view kTerminalF[] = {"outcome", "timestamp_ns", "reason"};
constexpr FieldTable kTerminal{kTerminalF, 3, bits({0, 1})};
constexpr std::string_view kMetaF[] = {"schema", "run_id", "correlation_id", "entrypoint", "phase", "timestamp",
                                       "capture_step", "warmup_steps", "device", "measured_region_device_synchronized",
                                       "timing_mode", "capture_contract", "comparison_identity", "tags", "candle_version"};
constexpr FieldTable kMeta{kMetaF, 15, bits({0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13})};
constexpr std::string_view kContractF[] = {"measurement_scope", "operations", "tensors", "gradients", "gradient_contract",
                                           "logical_memory", "physical_memory", "device_timing", "required_semantic_labels",
                                           "gpu_expected_semantic_labels", "cpu_only_semantic_labels"};
constexpr FieldTable kContract{kContractF, 11, bits({0, 1, 5, 6, 7})};
constexpr std::string_view kGradContractF[] = {"manifest_sha256", "expected", "families"};
constexpr FieldTable kGradContract{kGradContractF, 3, bits({0, 1, 2})};
constexpr std::string_view kExpectedF[] = {"root", "key", "family"};
constexpr FieldTable kExpected{kExpectedF, 3, bits({0, 1, 2})};
constexpr std::string_view kFamilyF[] = {"family", "expectation", "min_present"};
constexpr FieldTable kFamily{kFamilyF, 3, bits({0, 1, 2})};
constexpr std::string_view kIdentityF[] = {"implementation_id", "workload_id", "model_id", "config_id", "data_id", "seed_policy",
                                           "physical_batch", "accumulation_steps", "precision", "device_state", "pair_id"};
constexpr FieldTable kIdentity{kIdentityF, 11, bits({1, 2, 3, 4, 5, 6, 7, 8, 9})};

bool isWs(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string floatText(double d)
{
    // Rust's Display for f64 (what serde prints): shortest digits, never an exponent.
    char buf[400];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
    std::string s(buf, res.ptr);
    if (std::isfinite(d) && s.find('.') == std::string::npos)
        s += ".0";
    return s;
}

/// Outcome of a value reader. Semantic errors (wrong type, unknown variant, duplicate or
/// missing member) do not stop the parse: serde buffers the whole event before matching
/// members, so a syntax error anywhere on the line wins over them.
enum class Read : std::uint8_t { Ok, Semantic, Syntax };

class Decoder final : public LineDecoder
{
public:
    explicit Decoder(Trace &trace) : m_trace(trace) {}
    bool decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure) override;

private:
    // --- errors ------------------------------------------------------------
    Read syntaxAt(const char *where, std::string_view what)
    {
        const auto col = static_cast<std::size_t>(where - m_begin) + 1;
        m_failure->cause = std::string(what) + " at line 1 column " + std::to_string(col);
        m_failure->column = static_cast<std::uint32_t>(col);
        m_syntaxFailed = true;
        return Read::Syntax;
    }
    Read eof(std::string_view what)
    {
        return syntaxAt(m_end - 1 < m_begin ? m_begin : m_end - 1, "EOF while parsing " + std::string(what));
    }
    /// Records the first semantic error; later ones are ignored.
    Read semantic(std::string cause, const char *where)
    {
        if (!m_semanticFailed) {
            m_semanticFailed = true;
            m_semanticCause = std::move(cause);
            m_semanticColumn = where ? static_cast<std::uint32_t>(where - m_begin) + 1 : 0;
        }
        return Read::Semantic;
    }
    /// Validates the value at the cursor, then records a type error about it.
    Read typeError(std::string_view expected);

    // --- lexing ------------------------------------------------------------
    void ws()
    {
        while (m_p < m_end && isWs(*m_p))
            ++m_p;
    }
    Read parseString(std::string_view &out);
    Read scanNumber(const char *&start, bool &isFloat);
    Read skipValue(int depth);
    Read expectLiteral(std::string_view word);

    // --- typed readers (cursor at the value) --------------------------------
    Read readU64(std::uint64_t &out, std::string_view expected = "u64");
    Read readF64(double &out);
    Read readBool(bool &out);
    Read readView(std::string_view &out);
    Read readString(StringId &out)
    {
        std::string_view s;
        const Read r = readView(s);
        if (r == Read::Ok)
            out = m_trace.strings.intern(s);
        return r;
    }
    Read readStdString(std::string &out)
    {
        std::string_view s;
        const Read r = readView(s);
        if (r == Read::Ok)
            out.assign(s);
        return r;
    }
    bool atNull()
    {
        if (m_p + 4 <= m_end && std::memcmp(m_p, "null", 4) == 0) {
            m_p += 4;
            return true;
        }
        return false;
    }
    Read readOptString(StringId &out)
    {
        if (atNull()) {
            out = kNoString;
            return Read::Ok;
        }
        return readString(out);
    }
    Read readOptStdString(std::optional<std::string> &out)
    {
        if (atNull()) {
            out.reset();
            return Read::Ok;
        }
        out.emplace();
        return readStdString(*out);
    }
    template<typename E>
    Read readEnum(E &out, std::optional<E> (*parse)(std::string_view), std::string_view typeName);
    Read readShape(ShapeId &out);
    Read readIdList(ListRef &out);
    Read readStringList(std::vector<std::string> &out);
    template<typename T, typename ElementFn>
    Read readArray(std::vector<T> &out, int depth, ElementFn &&fn);

    template<typename Handler>
    Read fields(const FieldTable &t, int depth, bool eventLevel, Handler &&handler);
    template<typename Handler>
    Read object(const FieldTable &t, std::string_view expected, int depth, Handler &&handler);

    // --- event bodies --------------------------------------------------------
    Read findKind(EventKind &kind, bool &found);
    Read decodeEvent(EventKind kind, DecodedEvent &out);
    Read decodeMeta(TraceMeta &m);
    Read decodeContract(CaptureContract &c);
    Read decodeGradientContract(GradientContract &g);
    Read decodeIdentity(ComparisonIdentity &id);
    Read decodeTags(std::map<std::string, std::string> &tags);
    Read decodeEdge(Edge &edge);

    Trace &m_trace;
    DecodeFailure *m_failure = nullptr;
    const char *m_begin = nullptr;
    const char *m_end = nullptr;
    const char *m_p = nullptr;
    const char *m_fieldPos = nullptr; // key of the member being decoded, for columns
    bool m_syntaxFailed = false;
    bool m_semanticFailed = false;
    std::string m_semanticCause;
    std::uint32_t m_semanticColumn = 0;
    std::string m_scratch; // unescaped strings
    std::vector<std::uint64_t> m_dims;
    std::vector<StringId> m_ids;
};

Read Decoder::parseString(std::string_view &out)
{
    // m_p is at the opening quote.
    const char *start = ++m_p;
    while (m_p < m_end) {
        const auto c = static_cast<unsigned char>(*m_p);
        if (c == '"') {
            out = std::string_view(start, static_cast<std::size_t>(m_p - start));
            ++m_p;
            return Read::Ok;
        }
        if (c == '\\' || c < 0x20)
            break;
        ++m_p;
    }
    if (m_p >= m_end)
        return eof("a string");
    m_scratch.assign(start, m_p);
    while (m_p < m_end) {
        const auto c = static_cast<unsigned char>(*m_p);
        if (c == '"') {
            out = m_scratch;
            ++m_p;
            return Read::Ok;
        }
        if (c < 0x20)
            return syntaxAt(m_p, "control character (\\u0000-\\u001F) found while parsing a string");
        if (c != '\\') {
            m_scratch.push_back(static_cast<char>(c));
            ++m_p;
            continue;
        }
        if (++m_p >= m_end)
            return eof("a string");
        switch (*m_p) {
        case '"': m_scratch.push_back('"'); break;
        case '\\': m_scratch.push_back('\\'); break;
        case '/': m_scratch.push_back('/'); break;
        case 'b': m_scratch.push_back('\b'); break;
        case 'f': m_scratch.push_back('\f'); break;
        case 'n': m_scratch.push_back('\n'); break;
        case 'r': m_scratch.push_back('\r'); break;
        case 't': m_scratch.push_back('\t'); break;
        case 'u': {
            auto hex4 = [this](const char *q, std::uint32_t &v) {
                v = 0;
                for (int i = 0; i < 4; ++i) {
                    const char h = q[i];
                    v <<= 4;
                    if (h >= '0' && h <= '9')
                        v |= static_cast<std::uint32_t>(h - '0');
                    else if (h >= 'a' && h <= 'f')
                        v |= static_cast<std::uint32_t>(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F')
                        v |= static_cast<std::uint32_t>(h - 'A' + 10);
                    else
                        return false;
                }
                return q + 4 <= m_end;
            };
            std::uint32_t cp = 0;
            if (m_p + 5 > m_end)
                return eof("a string");
            if (!hex4(m_p + 1, cp))
                return syntaxAt(m_p, "invalid escape");
            m_p += 4;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return syntaxAt(m_p, "lone leading surrogate in hex escape");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                std::uint32_t lo = 0;
                if (m_p + 7 > m_end || m_p[1] != '\\' || m_p[2] != 'u' || !hex4(m_p + 3, lo) || lo < 0xDC00 || lo > 0xDFFF)
                    return syntaxAt(m_p, "lone leading surrogate in hex escape");
                m_p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            char buf[4];
            std::size_t n = 0;
            if (cp < 0x80) {
                buf[n++] = static_cast<char>(cp);
            } else if (cp < 0x800) {
                buf[n++] = static_cast<char>(0xC0 | (cp >> 6));
                buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                buf[n++] = static_cast<char>(0xE0 | (cp >> 12));
                buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
            } else {
                buf[n++] = static_cast<char>(0xF0 | (cp >> 18));
                buf[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
                buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
            }
            m_scratch.append(buf, n);
            break;
        }
        default:
            return syntaxAt(m_p, "invalid escape");
        }
        ++m_p;
    }
    return eof("a string");
}

Read Decoder::scanNumber(const char *&start, bool &isFloat)
{
    // JSON number grammar; the cursor is at '-' or a digit.
    start = m_p;
    isFloat = false;
    if (*m_p == '-')
        ++m_p;
    if (m_p >= m_end)
        return eof("a value");
    if (*m_p == '0') {
        ++m_p;
        if (m_p < m_end && isDigit(*m_p))
            return syntaxAt(m_p, "invalid number");
    } else if (isDigit(*m_p)) {
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    } else {
        return syntaxAt(m_p, "invalid number");
    }
    if (m_p < m_end && *m_p == '.') {
        isFloat = true;
        ++m_p;
        if (m_p >= m_end)
            return eof("a value");
        if (!isDigit(*m_p))
            return syntaxAt(m_p, "invalid number");
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
        isFloat = true;
        ++m_p;
        if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
            ++m_p;
        if (m_p >= m_end)
            return eof("a value");
        if (!isDigit(*m_p))
            return syntaxAt(m_p, "invalid number");
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
    }
    return Read::Ok;
}

Read Decoder::expectLiteral(std::string_view word)
{
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (m_p + i >= m_end)
            return eof("a value");
        if (m_p[i] != word[i])
            return syntaxAt(m_p + i, "expected ident");
    }
    m_p += word.size();
    return Read::Ok;
}

// Walks any JSON value completely (unknown members must still be valid JSON within
// serde's nesting limit). `depth` is the nesting level the value would open.
Read Decoder::skipValue(int depth)
{
    if (m_p >= m_end)
        return eof("a value");
    switch (*m_p) {
    case '"': {
        std::string_view s;
        return parseString(s);
    }
    case 't': return expectLiteral("true");
    case 'f': return expectLiteral("false");
    case 'n': return expectLiteral("null");
    case '[': {
        if (depth >= kMaxDepth)
            return syntaxAt(m_p, "recursion limit exceeded");
        ++m_p;
        ws();
        if (m_p < m_end && *m_p == ']') {
            ++m_p;
            return Read::Ok;
        }
        for (;;) {
            ws();
            if (skipValue(depth + 1) == Read::Syntax)
                return Read::Syntax;
            ws();
            if (m_p >= m_end)
                return eof("a list");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == ']') {
                ++m_p;
                return Read::Ok;
            }
            return syntaxAt(m_p, "expected `,` or `]`");
        }
    }
    case '{': {
        if (depth >= kMaxDepth)
            return syntaxAt(m_p, "recursion limit exceeded");
        ++m_p;
        ws();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            return Read::Ok;
        }
        for (;;) {
            ws();
            if (m_p >= m_end)
                return eof("an object");
            if (*m_p != '"')
                return syntaxAt(m_p, "key must be a string");
            std::string_view key;
            if (parseString(key) == Read::Syntax)
                return Read::Syntax;
            ws();
            if (m_p >= m_end)
                return eof("an object");
            if (*m_p != ':')
                return syntaxAt(m_p, "expected `:`");
            ++m_p;
            ws();
            if (skipValue(depth + 1) == Read::Syntax)
                return Read::Syntax;
            ws();
            if (m_p >= m_end)
                return eof("an object");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == '}') {
                ++m_p;
                return Read::Ok;
            }
            return syntaxAt(m_p, "expected `,` or `}`");
        }
    }
    default:
        if (*m_p == '-' || isDigit(*m_p)) {
            const char *start = nullptr;
            bool isFloat = false;
            if (scanNumber(start, isFloat) == Read::Syntax)
                return Read::Syntax;
            if (isFloat) {
                // f64 range check: serde rejects literals that overflow (1e400).
                const double d = std::strtod(std::string(start, m_p).c_str(), nullptr);
                if (std::isinf(d))
                    return syntaxAt(start, "number out of range");
            }
            return Read::Ok;
        }
        return syntaxAt(m_p, "expected value");
    }
}

Read Decoder::typeError(std::string_view expected)
{
    const char *at = m_p;
    std::string what;
    if (at >= m_end)
        return eof("a value");
    switch (*at) {
    case '"': {
        std::string_view s;
        if (parseString(s) == Read::Syntax)
            return Read::Syntax;
        what = "string " + rustDebugString(s);
        break;
    }
    case '[':
    case '{':
        what = *at == '[' ? "sequence" : "map";
        if (skipValue(2) == Read::Syntax)
            return Read::Syntax;
        break;
    case 't':
    case 'f':
        if (expectLiteral(*at == 't' ? "true" : "false") == Read::Syntax)
            return Read::Syntax;
        what = *at == 't' ? "boolean `true`" : "boolean `false`";
        break;
    case 'n':
        if (expectLiteral("null") == Read::Syntax)
            return Read::Syntax;
        what = "null";
        break;
    default: {
        if (*at != '-' && !isDigit(*at))
            return syntaxAt(at, "expected value");
        const char *start = nullptr;
        bool isFloat = false;
        if (scanNumber(start, isFloat) == Read::Syntax)
            return Read::Syntax;
        const std::string tok(start, m_p);
        if (!isFloat && tok != "-0") {
            std::int64_t i = 0;
            std::uint64_t u = 0;
            if ((tok[0] == '-' && std::from_chars(tok.data(), tok.data() + tok.size(), i).ec == std::errc())
                || (tok[0] != '-' && std::from_chars(tok.data(), tok.data() + tok.size(), u).ec == std::errc())) {
                what = "integer `" + tok + "`";
                break;
            }
        }
        const double d = std::strtod(tok.c_str(), nullptr);
        if (std::isinf(d))
            return syntaxAt(start, "number out of range");
        what = "floating point `" + floatText(d) + "`";
    }
    }
    return semantic("invalid type: " + what + ", expected " + std::string(expected), m_fieldPos);
}

Read Decoder::readU64(std::uint64_t &out, std::string_view expected)
{
    const char *p = m_p;
    if (p < m_end && isDigit(*p)) {
        std::uint64_t v = static_cast<std::uint64_t>(*p - '0');
        ++p;
        if (v == 0 && p < m_end && isDigit(*p))
            return syntaxAt(p, "invalid number");
        bool overflow = false;
        while (p < m_end && isDigit(*p)) {
            const auto digit = static_cast<std::uint64_t>(*p - '0');
            if (v > (UINT64_MAX - digit) / 10)
                overflow = true;
            v = v * 10 + digit;
            ++p;
        }
        if (!overflow && (p >= m_end || (*p != '.' && *p != 'e' && *p != 'E'))) {
            out = v;
            m_p = p;
            return Read::Ok;
        }
    }
    if (m_p < m_end && *m_p == '-') {
        const char *start = nullptr;
        bool isFloat = false;
        const char *at = m_p;
        if (scanNumber(start, isFloat) == Read::Syntax)
            return Read::Syntax;
        const std::string tok(start, m_p);
        std::int64_t i = 0;
        if (!isFloat && tok != "-0" && std::from_chars(tok.data(), tok.data() + tok.size(), i).ec == std::errc())
            return semantic("invalid value: integer `" + tok + "`, expected " + std::string(expected), m_fieldPos);
        m_p = at;
    }
    // Fractions, exponents and integers beyond u64 are floats to serde.
    return typeError(expected);
}

Read Decoder::readF64(double &out)
{
    if (m_p >= m_end || (*m_p != '-' && !isDigit(*m_p)))
        return typeError("f64");
    const char *start = nullptr;
    bool isFloat = false;
    if (scanNumber(start, isFloat) == Read::Syntax)
        return Read::Syntax;
    auto res = std::from_chars(start, m_p, out);
    if (res.ec == std::errc())
        return Read::Ok;
    // from_chars reports underflow as out of range too; serde reads it as (signed) zero.
    const double d = std::strtod(std::string(start, m_p).c_str(), nullptr);
    if (std::isinf(d))
        return syntaxAt(start, "number out of range");
    out = d;
    return Read::Ok;
}

Read Decoder::readBool(bool &out)
{
    if (m_p + 4 <= m_end && std::memcmp(m_p, "true", 4) == 0) {
        m_p += 4;
        out = true;
        return Read::Ok;
    }
    if (m_p + 5 <= m_end && std::memcmp(m_p, "false", 5) == 0) {
        m_p += 5;
        out = false;
        return Read::Ok;
    }
    return typeError("a boolean");
}

Read Decoder::readView(std::string_view &out)
{
    if (m_p < m_end && *m_p == '"')
        return parseString(out);
    return typeError("a string");
}

template<typename E>
Read Decoder::readEnum(E &out, std::optional<E> (*parse)(std::string_view), std::string_view typeName)
{
    if (m_p >= m_end || *m_p != '"')
        return typeError("enum " + std::string(typeName));
    std::string_view s;
    if (parseString(s) == Read::Syntax)
        return Read::Syntax;
    if (auto parsed = parse(s)) {
        out = *parsed;
        return Read::Ok;
    }
    return semantic("unknown variant `" + std::string(s) + "`, expected " + std::string(enumExpectation(typeName)), m_fieldPos);
}

template<typename T, typename ElementFn>
Read Decoder::readArray(std::vector<T> &out, int depth, ElementFn &&fn)
{
    if (m_p >= m_end || *m_p != '[')
        return typeError("a sequence");
    if (depth >= kMaxDepth)
        return syntaxAt(m_p, "recursion limit exceeded");
    ++m_p;
    out.clear();
    Read result = Read::Ok;
    ws();
    if (m_p < m_end && *m_p == ']') {
        ++m_p;
        return Read::Ok;
    }
    for (;;) {
        ws();
        if (m_p >= m_end)
            return eof("a list");
        Read r;
        if (result == Read::Ok) {
            out.emplace_back();
            r = fn(out.back());
        } else {
            r = skipValue(depth + 1);
        }
        if (r == Read::Syntax)
            return r;
        if (r == Read::Semantic)
            result = r;
        ws();
        if (m_p >= m_end)
            return eof("a list");
        if (*m_p == ',') {
            ++m_p;
            continue;
        }
        if (*m_p == ']') {
            ++m_p;
            return result;
        }
        return syntaxAt(m_p, "expected `,` or `]`");
    }
}

Read Decoder::readShape(ShapeId &out)
{
    const Read r = readArray(m_dims, 2, [this](std::uint64_t &d) { return readU64(d, "usize"); });
    if (r == Read::Ok)
        out = m_trace.shapes.intern(m_dims);
    return r;
}

Read Decoder::readIdList(ListRef &out)
{
    const Read r = readArray(m_ids, 2, [this](StringId &id) { return readString(id); });
    if (r == Read::Ok)
        out = m_trace.idLists.append(m_ids);
    return r;
}

Read Decoder::readStringList(std::vector<std::string> &out)
{
    return readArray(out, 3, [this](std::string &s) { return readStdString(s); });
}

// Iterates the members of the object at the cursor ('{' already consumed by the caller
// when eventLevel, else here). Semantic failures are remembered and the rest of the
// object is only validated.
template<typename Handler>
Read Decoder::fields(const FieldTable &t, int depth, bool eventLevel, Handler &&handler)
{
    std::uint32_t seen = 0;
    bool kindSeen = false;
    ws();
    if (m_p < m_end && *m_p == '}') {
        ++m_p;
    } else {
        for (;;) {
            ws();
            if (m_p >= m_end)
                return eof("an object");
            if (*m_p != '"')
                return syntaxAt(m_p, "key must be a string");
            const char *keyPos = m_p;
            std::string_view key;
            if (parseString(key) == Read::Syntax)
                return Read::Syntax;
            ws();
            if (m_p >= m_end)
                return eof("an object");
            if (*m_p != ':')
                return syntaxAt(m_p, "expected `:`");
            ++m_p;
            ws();
            m_fieldPos = keyPos;
            const int idx = m_semanticFailed ? -2 : findField(t, key);
            Read r = Read::Ok;
            if (idx == -1 && eventLevel && key == "kind") {
                r = skipValue(depth + 1);
                if (kindSeen)
                    semantic("duplicate field `kind`", keyPos);
                kindSeen = true;
            } else if (idx < 0) {
                r = skipValue(depth + 1);
            } else if (seen & (1u << idx)) {
                r = skipValue(depth + 1);
                semantic("duplicate field `" + std::string(t.names[idx]) + "`", keyPos);
            } else {
                seen |= 1u << idx;
                r = handler(idx);
                if (r == Read::Semantic)
                    r = Read::Ok; // remembered; keep validating the line
            }
            if (r == Read::Syntax)
                return r;
            ws();
            if (m_p >= m_end)
                return eof("an object");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == '}') {
                ++m_p;
                break;
            }
            return syntaxAt(m_p, "expected `,` or `}`");
        }
    }
    if (m_semanticFailed)
        return Read::Semantic;
    const std::uint32_t missing = t.required & ~seen;
    if (missing)
        return semantic("missing field `" + std::string(t.names[__builtin_ctz(missing)]) + "`", nullptr);
    return Read::Ok;
}

template<typename Handler>
Read Decoder::object(const FieldTable &t, std::string_view expected, int depth, Handler &&handler)
{
    if (m_p >= m_end || *m_p != '{')
        return typeError(expected);
    if (depth >= kMaxDepth)
        return syntaxAt(m_p, "recursion limit exceeded");
    ++m_p;
    const Read r = fields(t, depth, false, handler);
    return r;
}

// A handler returning Semantic has already consumed its value only if the error came
// from typeError/semantic after parsing; readers always leave the cursor after the value.

Read Decoder::findKind(EventKind &kind, bool &found)
{
    // General path: the tag may stand anywhere. Members before it must be valid JSON.
    const char *objectStart = m_p;
    found = false;
    ws();
    if (m_p < m_end && *m_p == '}')
        return Read::Ok;
    for (;;) {
        ws();
        if (m_p >= m_end)
            return eof("an object");
        if (*m_p != '"')
            return syntaxAt(m_p, "key must be a string");
        const char *keyPos = m_p;
        std::string_view key;
        if (parseString(key) == Read::Syntax)
            return Read::Syntax;
        const bool isKind = key == "kind";
        ws();
        if (m_p >= m_end)
            return eof("an object");
        if (*m_p != ':')
            return syntaxAt(m_p, "expected `:`");
        ++m_p;
        ws();
        if (isKind) {
            m_fieldPos = keyPos;
            if (m_p < m_end && *m_p != '"') {
                typeError("variant identifier");
                return m_syntaxFailed ? Read::Syntax : Read::Semantic;
            }
            std::string_view tag;
            if (m_p >= m_end)
                return eof("a value");
            if (parseString(tag) == Read::Syntax)
                return Read::Syntax;
            for (int k = 0; k < 12; ++k) {
                if (kKindNames[k] == tag) {
                    kind = static_cast<EventKind>(k);
                    found = true;
                    m_p = objectStart;
                    return Read::Ok;
                }
            }
            // serde checks the tag as soon as it reads it, before the rest of the line.
            return syntaxAt(m_p - 1, "unknown variant `" + std::string(tag) + "`, expected "
                                         + std::string(enumExpectation("TraceEvent")));
        }
        if (skipValue(2) == Read::Syntax)
            return Read::Syntax;
        ws();
        if (m_p >= m_end)
            return eof("an object");
        if (*m_p == ',') {
            ++m_p;
            continue;
        }
        if (*m_p == '}')
            return Read::Ok;
        return syntaxAt(m_p, "expected `,` or `}`");
    }
}

bool Decoder::decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure)
{
    m_failure = &failure;
    m_begin = data;
    m_end = data + length;
    m_p = data;
    m_fieldPos = nullptr;
    m_syntaxFailed = false;
    m_semanticFailed = false;
    failure.invalidUtf8 = false;
    failure.column = 0;

    if (!simdjson::validate_utf8(data, length)) {
        failure.invalidUtf8 = true;
        failure.cause = "stream did not contain valid UTF-8";
        return false;
    }
    if (*m_p != '{') {
        // Not an object: serde's tagged-enum visitor refuses it (TRACE_FORMAT.md §5).
        std::string what;
        switch (*m_p) {
        case '[': what = "sequence"; break;
        case '"': what = "string"; break;
        case 't':
        case 'f': what = "boolean"; break;
        case 'n': what = "null"; break;
        default: what = (*m_p == '-' || isDigit(*m_p)) ? "number" : "";
        }
        if (what.empty()) {
            syntaxAt(m_p, "expected value");
            return false;
        }
        m_fieldPos = m_p;
        if (typeError("internally tagged enum TraceEvent") == Read::Syntax)
            return false;
        failure.cause = m_semanticCause + " at line 1 column " + std::to_string(length);
        failure.column = 1;
        return false;
    }
    ++m_p;

    EventKind kind = EventKind::Meta;
    bool found = false;
    // Fast path: writers put `"kind":"…"` first, compactly.
    constexpr std::string_view kPrefix = "\"kind\":\"";
    if (static_cast<std::size_t>(m_end - m_p) > kPrefix.size() && std::memcmp(m_p, kPrefix.data(), kPrefix.size()) == 0) {
        const char *name = m_p + kPrefix.size();
        const char *end = name;
        while (end < m_end && *end != '"' && *end != '\\')
            ++end;
        if (end < m_end && *end == '"') {
            const std::string_view tag(name, static_cast<std::size_t>(end - name));
            for (int k = 0; k < 12; ++k) {
                if (kKindNames[k] == tag) {
                    kind = static_cast<EventKind>(k);
                    found = true;
                    break;
                }
            }
        }
    }
    if (!found) {
        const Read r = findKind(kind, found);
        if (r != Read::Ok && !(r == Read::Semantic && !m_syntaxFailed))
            return false;
        if (!found) {
            if (r == Read::Ok) {
                // No tag at all; the whole object was valid JSON up to here.
                if (m_p < m_end && *m_p == '}')
                    ++m_p;
                semantic("missing field `kind`", nullptr);
            }
            // serde reports the missing tag before any trailing text.
            failure.cause = m_semanticCause;
            failure.column = m_semanticColumn;
            return false;
        }
    }

    out.kind = kind;
    const Read r = decodeEvent(kind, out);
    if (r == Read::Syntax)
        return false;
    if (r == Read::Semantic || m_semanticFailed) {
        failure.cause = m_semanticCause;
        failure.column = m_semanticColumn;
        return false;
    }
    ws();
    if (m_p < m_end) {
        syntaxAt(m_p, "trailing characters");
        return false;
    }
    return true;
}

Read Decoder::decodeEvent(EventKind kind, DecodedEvent &out)
{
    switch (kind) {
    case EventKind::Meta:
        out.meta = TraceMeta{};
        return decodeMeta(out.meta);
    case EventKind::SpanStart: {
        Span &s = out.span;
        s = Span{};
        return fields(kSpanStart, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(s.id);
            case 1: return readOptString(s.parentId);
            case 2: return readString(s.name);
            case 3: return readU64(s.startNs);
            case 4: return readEnum(s.kind, &parseSpanKind, "SpanKind");
            case 5: return readBool(s.measured);
            default:
                if (atNull()) {
                    s.step = ExecutionStep::None;
                    return Read::Ok;
                }
                return readEnum(s.step, &parseStep, "ExecutionStep");
            }
        });
    }
    case EventKind::SpanEnd:
        out.spanEndId = kNoString;
        out.spanEndDurationNs = 0;
        return fields(kSpanEnd, 1, true,
                      [&](int idx) { return idx == 0 ? readString(out.spanEndId) : readU64(out.spanEndDurationNs); });
    case EventKind::Op: {
        Op &o = out.op;
        o = Op{};
        return fields(kOp, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(o.spanId);
            case 1: return readString(o.opName);
            case 2: return readIdList(o.inputs);
            case 3: return readOptString(o.output);
            case 4: return readShape(o.shape);
            case 5: return readString(o.dtype);
            case 6: return readString(o.device);
            case 7: return readU64(o.durationNs);
            case 8: return readU64(o.timestampNs);
            case 9:
                if (atNull())
                    return Read::Ok;
                o.hasOutputDenseBytes = true;
                return readU64(o.outputDenseBytes);
            default: return readU64(o.inputDenseBytes);
            }
        });
    }
    case EventKind::Tensor: {
        Tensor &t = out.tensor;
        t = Tensor{};
        return fields(kTensor, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(t.spanId);
            case 1: return readString(t.tensorId);
            case 2: return readOptString(t.label);
            case 3: return readShape(t.shape);
            case 4: return readString(t.dtype);
            case 5: return readString(t.device);
            case 6: return readBool(t.requiresGrad);
            case 7:
                if (atNull())
                    return Read::Ok;
                t.hasDenseBytes = true;
                return readU64(t.denseBytes);
            default: return readEnum(t.category, &parseMemoryCategory, "MemoryCategory");
            }
        });
    }
    case EventKind::TensorStats: {
        TensorStats &t = out.tensorStats;
        t = TensorStats{};
        return fields(kStats, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(t.spanId);
            case 1: return readString(t.label);
            case 2: return readShape(t.shape);
            case 3: return readString(t.dtype);
            case 4: return readU64(t.elements);
            case 5: return readU64(t.nonFinite);
            case 6: return readF64(t.rms);
            case 7: return readF64(t.absMax);
            default: return readF64(t.mean);
            }
        });
    }
    case EventKind::Memory: {
        MemoryEvent &m = out.memory;
        m = MemoryEvent{};
        return fields(kMemory, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readU64(m.timestampNs);
            case 1: return readString(m.storageId);
            case 2: return readString(m.tensorId);
            case 3: return readString(m.spanId);
            case 4: return readOptString(m.opName);
            case 5: return readString(m.device);
            case 6: return readU64(m.bytes);
            case 7: return readEnum(m.action, &parseMemoryAction, "MemoryAction");
            case 8: return readShape(m.shape);
            case 9: return readString(m.dtype);
            default: return readEnum(m.category, &parseMemoryCategory, "MemoryCategory");
            }
        });
    }
    case EventKind::DeviceMemory: {
        DeviceMemorySample &d = out.deviceMemory;
        d = DeviceMemorySample{};
        return fields(kDevMem, 1, true, [&](int idx) {
            if (idx == 0)
                return readU64(d.timestampNs);
            if (idx == 1)
                return readString(d.device);
            if (atNull())
                return Read::Ok;
            static constexpr DeviceMemorySample::Field kFlags[] = {DeviceMemorySample::Used, DeviceMemorySample::Free,
                                                                   DeviceMemorySample::Reserved, DeviceMemorySample::Capacity};
            std::uint64_t *slots[] = {&d.usedBytes, &d.freeBytes, &d.reservedBytes, &d.capacityBytes};
            d.present |= kFlags[idx - 2];
            return readU64(*slots[idx - 2]);
        });
    }
    case EventKind::DeviceInterval: {
        DeviceInterval &d = out.deviceInterval;
        d = DeviceInterval{};
        return fields(kInterval, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(d.spanId);
            case 1: return readString(d.device);
            case 2: return readString(d.streamId);
            case 3: return readString(d.clockId);
            case 4: return readString(d.backend);
            case 5: return readU64(d.startNs);
            default: return readU64(d.durationNs);
            }
        });
    }
    case EventKind::Gradient: {
        Gradient &g = out.gradient;
        g = Gradient{};
        return fields(kGradient, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(g.eventId);
            case 1: return readString(g.root);
            case 2: return readString(g.key);
            case 3: return readEnum(g.state, &parseGradientState, "GradientState");
            default:
                if (atNull())
                    return Read::Ok;
                g.hasNorm = true;
                return readF64(g.norm);
            }
        });
    }
    case EventKind::Edge:
        out.edge = Edge{};
        return decodeEdge(out.edge);
    case EventKind::Terminal: {
        Terminal &t = out.terminal;
        t = Terminal{};
        return fields(kTerminal, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readEnum(t.outcome, &parseRunOutcome, "RunOutcome");
            case 1: return readU64(t.timestampNs);
            default: return readOptStdString(t.reason);
            }
        });
    }
    }
    return Read::Syntax;
}

Read Decoder::decodeEdge(Edge &edge)
{
    // Doubly tagged: `edge_kind` picks the variant. Writers put it right after `kind`;
    // that layout is recognised from the text, anything else takes the general path.
    const char *body = m_p;
    bool known = false;
    constexpr std::string_view kCall = "\"kind\":\"edge\",\"edge_kind\":\"call\"";
    constexpr std::string_view kData = "\"kind\":\"edge\",\"edge_kind\":\"data\"";
    const auto rest = static_cast<std::size_t>(m_end - body);
    if (rest > kCall.size() && std::memcmp(body, kCall.data(), kCall.size()) == 0) {
        edge.kind = EdgeKind::Call;
        known = true;
    } else if (rest > kData.size() && std::memcmp(body, kData.data(), kData.size()) == 0) {
        edge.kind = EdgeKind::Data;
        known = true;
    }
    if (!known) {
        // General path: decode `edge_kind` wherever it is (with its exact errors) first.
        bool haveKind = false;
        const Read r = fields(kEdgeKindOnly, 1, true, [&](int) {
            std::string_view s;
            if (m_p >= m_end || *m_p != '"')
                return typeError("variant identifier");
            if (parseString(s) == Read::Syntax)
                return Read::Syntax;
            auto k = parseEdgeKind(s);
            if (!k)
                return semantic("unknown variant `" + std::string(s) + "`, expected `call` or `data`", m_fieldPos);
            edge.kind = *k;
            haveKind = true;
            return Read::Ok;
        });
        if (r != Read::Ok || !haveKind)
            return r == Read::Ok ? Read::Syntax : r;
        m_p = body;
    }
    if (edge.kind == EdgeKind::Call) {
        return fields(kCallEdge, 1, true, [&](int idx) {
            switch (idx) {
            case 0: return readString(edge.from);
            case 1: return readString(edge.to);
            case 2: return readU64(edge.hostDurationNs);
            default: return skipValue(2); // edge_kind, already known
            }
        });
    }
    return fields(kDataEdge, 1, true, [&](int idx) {
        switch (idx) {
        case 0: return readString(edge.from);
        case 1: return readString(edge.to);
        default: return skipValue(2);
        }
    });
}

Read Decoder::decodeMeta(TraceMeta &m)
{
    return fields(kMeta, 1, true, [&](int idx) {
        switch (idx) {
        case 0: return readStdString(m.schema);
        case 1: return readStdString(m.runId);
        case 2: return readStdString(m.correlationId);
        case 3: return readStdString(m.entrypoint);
        case 4: return readEnum(m.phase, &parsePhase, "ExecutionPhase");
        case 5: return readStdString(m.timestamp);
        case 6: return readU64(m.captureStep);
        case 7: return readU64(m.warmupSteps);
        case 8: return readStdString(m.device);
        case 9: return readBool(m.measuredRegionDeviceSynchronized);
        case 10: return readEnum(m.timingMode, &parseTimingMode, "TimingMode");
        case 11: return decodeContract(m.captureContract);
        case 12:
            if (atNull()) {
                m.comparisonIdentity.reset();
                return Read::Ok;
            }
            m.comparisonIdentity.emplace();
            return decodeIdentity(*m.comparisonIdentity);
        case 13: return decodeTags(m.tags);
        default: return readOptStdString(m.candleVersion);
        }
    });
}

Read Decoder::decodeContract(CaptureContract &c)
{
    return object(kContract, "struct CaptureContract", 2, [&](int idx) {
        switch (idx) {
        case 0: return readEnum(c.measurementScope, &parseMeasurementScope, "MeasurementScope");
        case 1: return readEnum(c.operations, &parseCoverageLevel, "CoverageLevel");
        case 2: return readEnum(c.tensors, &parseCoverageLevel, "CoverageLevel");
        case 3: return readEnum(c.gradients, &parseCoverageLevel, "CoverageLevel");
        case 4:
            if (atNull()) {
                c.gradientContract.reset();
                return Read::Ok;
            }
            c.gradientContract.emplace();
            return decodeGradientContract(*c.gradientContract);
        case 5: return readEnum(c.logicalMemory, &parseCoverageLevel, "CoverageLevel");
        case 6: return readEnum(c.physicalMemory, &parseCoverageLevel, "CoverageLevel");
        case 7: return readEnum(c.deviceTiming, &parseCoverageLevel, "CoverageLevel");
        case 8: return readStringList(c.requiredSemanticLabels);
        case 9: return readStringList(c.gpuExpectedSemanticLabels);
        default: return readStringList(c.cpuOnlySemanticLabels);
        }
    });
}

Read Decoder::decodeGradientContract(GradientContract &g)
{
    return object(kGradContract, "struct GradientContract", 3, [&](int idx) {
        switch (idx) {
        case 0: return readStdString(g.manifestSha256);
        case 1:
            return readArray(g.expected, 4, [this](ExpectedGradient &e) {
                return object(kExpected, "struct ExpectedGradient", 5, [&](int i) {
                    return readStdString(i == 0 ? e.root : i == 1 ? e.key : e.family);
                });
            });
        default:
            return readArray(g.families, 4, [this](GradientFamilyContract &f) {
                return object(kFamily, "struct GradientFamilyContract", 5, [&](int i) {
                    switch (i) {
                    case 0: return readStdString(f.family);
                    case 1: return readEnum(f.expectation, &parseFamilyExpectation, "GradientFamilyExpectation");
                    default: return readU64(f.minPresent, "usize");
                    }
                });
            });
        }
    });
}

Read Decoder::decodeIdentity(ComparisonIdentity &id)
{
    return object(kIdentity, "struct ComparisonIdentity", 2, [&](int idx) {
        switch (idx) {
        case 0: return readOptStdString(id.implementationId);
        case 1: return readStdString(id.workloadId);
        case 2: return readStdString(id.modelId);
        case 3: return readStdString(id.configId);
        case 4: return readStdString(id.dataId);
        case 5: return readStdString(id.seedPolicy);
        case 6: return readU64(id.physicalBatch);
        case 7: return readU64(id.accumulationSteps);
        case 8: return readStdString(id.precision);
        case 9: return readStdString(id.deviceState);
        default: return readOptStdString(id.pairId);
        }
    });
}

Read Decoder::decodeTags(std::map<std::string, std::string> &tags)
{
    if (m_p >= m_end || *m_p != '{')
        return typeError("a map");
    ++m_p;
    tags.clear();
    Read result = Read::Ok;
    ws();
    if (m_p < m_end && *m_p == '}') {
        ++m_p;
        return Read::Ok;
    }
    for (;;) {
        ws();
        if (m_p >= m_end)
            return eof("an object");
        if (*m_p != '"')
            return syntaxAt(m_p, "key must be a string");
        const char *keyPos = m_p;
        std::string_view keyView;
        if (parseString(keyView) == Read::Syntax)
            return Read::Syntax;
        std::string key(keyView); // the value below reuses the unescape buffer
        ws();
        if (m_p >= m_end)
            return eof("an object");
        if (*m_p != ':')
            return syntaxAt(m_p, "expected `:`");
        ++m_p;
        ws();
        m_fieldPos = keyPos;
        std::string value;
        const Read r = result == Read::Ok ? readStdString(value) : skipValue(3);
        if (r == Read::Syntax)
            return r;
        if (r == Read::Semantic)
            result = r;
        else if (result == Read::Ok)
            tags[std::move(key)] = std::move(value); // serde maps keep the last duplicate
        ws();
        if (m_p >= m_end)
            return eof("an object");
        if (*m_p == ',') {
            ++m_p;
            continue;
        }
        if (*m_p == '}') {
            ++m_p;
            return result;
        }
        return syntaxAt(m_p, "expected `,` or `}`");
    }
}

} // namespace

LineDecoder::~LineDecoder() = default;

std::unique_ptr<LineDecoder> makeLineDecoder(Trace &trace)
{
    return std::make_unique<Decoder>(trace);
}

} // namespace TraceInspector
