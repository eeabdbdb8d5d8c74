// SPDX-License-Identifier: MIT
// Compiled twice (see core/io/CMakeLists.txt): once with AVX2 enabled, once portable.
// simdjson's On-Demand front end is chosen at compile time, so the CPU dispatch has to
// happen one level up, in makeLineDecoder().
#include "core/io/linedecoder.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>

#include "core/model/trace.h"

#ifndef TI_DECODER_NS
#error "TI_DECODER_NS must name the decoder build variant"
#endif

namespace od = simdjson::SIMDJSON_BUILTIN_IMPLEMENTATION::ondemand;
using simdjson::error_code;

namespace TraceInspector::TI_DECODER_NS {
namespace {

// serde's recursion limit: the 128th nested container fails.
constexpr int kMaxDepth = 128;

struct FieldTable {
    const std::string_view *names;
    int count;
    std::uint32_t required; // bit i = names[i] is required
};

error_code resetObject(od::object &obj)
{
    bool wasEmpty = false;
    return obj.reset().get(wasEmpty);
}

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
constexpr std::string_view kEdgeKindF[] = {"edge_kind"};
constexpr FieldTable kEdgeKindOnly{kEdgeKindF, 1, bits({0})};
constexpr std::string_view kCallEdgeF[] = {"from_span", "to_span", "host_duration_ns"};
constexpr FieldTable kCallEdge{kCallEdgeF, 3, bits({0, 1, 2})};
constexpr std::string_view kDataEdgeF[] = {"from_tensor", "to_tensor"};
constexpr FieldTable kDataEdge{kDataEdgeF, 2, bits({0, 1})};
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

std::string quoted(std::string_view s)
{
    // Enough of Rust's Debug quoting for error causes; exotic characters pass through.
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\0': out += "\\0"; break;
        default: out += c;
        }
    }
    out += '"';
    return out;
}

std::string floatText(double d)
{
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d);
    std::string s(buf, res.ptr);
    if (std::isfinite(d) && s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

class Decoder final : public LineDecoder
{
public:
    explicit Decoder(Trace &trace) : m_trace(trace) {}

    bool decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure) override;

private:
    // --- failure reporting -------------------------------------------------
    bool failAt(std::string cause, const char *where)
    {
        m_failure->cause = std::move(cause);
        m_failure->column = where ? static_cast<std::uint32_t>(where - m_begin) + 1 : 0;
        return false;
    }
    bool failHere(std::string cause) { return failAt(std::move(cause), m_fieldPos); }
    bool syntax(error_code e, const char *where = nullptr);
    bool positioned(std::string cause, const char *where)
    {
        const auto col = where ? static_cast<std::size_t>(where - m_begin) + 1 : m_length;
        return failAt(cause + " at line 1 column " + std::to_string(col), where);
    }
    std::string describe(od::value &v);
    const char *trailingContent() const;
    bool typeError(od::value &v, std::string_view expected)
    {
        return failHere("invalid type: " + describe(v) + ", expected " + std::string(expected));
    }
    const char *currentPos(od::value &v)
    {
        const char *p = nullptr;
        if (v.current_location().get(p) != simdjson::SUCCESS)
            return m_fieldPos;
        return p;
    }

    // --- readers -----------------------------------------------------------
    bool readKey(od::field &f, std::string_view &key);
    bool readU64(od::value &v, std::uint64_t &out, std::string_view expected = "u64");
    bool readF64(od::value &v, double &out);
    bool readBool(od::value &v, bool &out);
    bool readView(od::value &v, std::string_view &out);
    bool readString(od::value &v, StringId &out)
    {
        std::string_view s;
        if (!readView(v, s))
            return false;
        out = m_trace.strings.intern(s);
        return true;
    }
    bool readStdString(od::value &v, std::string &out)
    {
        std::string_view s;
        if (!readView(v, s))
            return false;
        out.assign(s);
        return true;
    }
    bool isNull(od::value &v)
    {
        bool n = false;
        return v.is_null().get(n) == simdjson::SUCCESS && n;
    }
    bool readOptString(od::value &v, StringId &out)
    {
        if (isNull(v)) {
            out = kNoString;
            return true;
        }
        return readString(v, out);
    }
    bool readOptStdString(od::value &v, std::optional<std::string> &out)
    {
        if (isNull(v)) {
            out.reset();
            return true;
        }
        out.emplace();
        return readStdString(v, *out);
    }
    template<typename E>
    bool readEnum(od::value &v, E &out, std::optional<E> (*parse)(std::string_view), std::string_view typeName);
    bool readShape(od::value &v, ShapeId &out);
    bool readIdList(od::value &v, ListRef &out);
    bool readStringList(od::value &v, std::vector<std::string> &out);
    template<typename T, typename ElementFn>
    bool readArray(od::value &v, std::vector<T> &out, std::string_view expected, ElementFn &&fn);
    bool skipValue(od::value &v, int depth);
    bool beginObject(od::value &v, od::object &obj, std::string_view expected, int depth);

    template<typename Handler>
    bool fields(od::object &obj, const FieldTable &t, int depth, bool eventLevel, Handler &&handler);

    // --- event bodies ------------------------------------------------------
    bool decodeEvent(od::object &obj, EventKind kind, DecodedEvent &out);
    bool decodeMeta(od::object &obj, TraceMeta &m);
    bool decodeContract(od::value &v, CaptureContract &c);
    bool decodeGradientContract(od::value &v, GradientContract &g);
    bool decodeIdentity(od::value &v, ComparisonIdentity &id);
    bool decodeTags(od::value &v, std::map<std::string, std::string> &tags);
    bool decodeEdge(od::object &obj, Edge &edge);

    Trace &m_trace;
    od::parser m_parser;
    DecodeFailure *m_failure = nullptr;
    const char *m_begin = nullptr;
    std::size_t m_length = 0;
    const char *m_fieldPos = nullptr; // key of the member being decoded, for columns
    std::vector<std::uint64_t> m_dims;
    std::vector<StringId> m_ids;
};

bool Decoder::syntax(error_code e, const char *where)
{
    switch (e) {
    case simdjson::UTF8_ERROR:
        m_failure->invalidUtf8 = true;
        return failAt("stream did not contain valid UTF-8", nullptr);
    case simdjson::UNCLOSED_STRING:
        return positioned("EOF while parsing a string", nullptr);
    case simdjson::NUMBER_ERROR:
        return positioned("invalid number", where);
    case simdjson::NUMBER_OUT_OF_RANGE:
        return positioned("number out of range", where);
    case simdjson::STRING_ERROR:
        return positioned("invalid escape", where);
    case simdjson::UNESCAPED_CHARS:
        return positioned("control character (\\u0000-\\u001F) found while parsing a string", where);
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
        return positioned("expected ident", where);
    case simdjson::DEPTH_ERROR:
        return positioned("recursion limit exceeded", where);
    case simdjson::EMPTY:
        return positioned("EOF while parsing a value", nullptr);
    case simdjson::TRAILING_CONTENT:
        return positioned("trailing characters", where);
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
    case simdjson::TAPE_ERROR:
    default:
        if (const char *trailing = trailingContent())
            return positioned("trailing characters", trailing);
        if (e == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || (where && where >= m_begin + m_length))
            return positioned("EOF while parsing an object", nullptr);
        return positioned(std::string("expected value (") + simdjson::error_message(e) + ")", where);
    }
}

const char *Decoder::trailingContent() const
{
    // Where the first top-level value ends, if something other than whitespace follows it.
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < m_length; ++i) {
        const char c = m_begin[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) {
                for (std::size_t j = i + 1; j < m_length; ++j) {
                    if (m_begin[j] != ' ' && m_begin[j] != '\t' && m_begin[j] != '\n' && m_begin[j] != '\r')
                        return m_begin + j;
                }
                return nullptr;
            }
            if (depth < 0)
                return nullptr;
        }
    }
    return nullptr;
}

std::string Decoder::describe(od::value &v)
{
    od::json_type t;
    if (v.type().get(t) != simdjson::SUCCESS)
        return "invalid JSON";
    switch (t) {
    case od::json_type::array: return "sequence";
    case od::json_type::object: return "map";
    case od::json_type::boolean: {
        bool b = false;
        if (v.get_bool().get(b) != simdjson::SUCCESS)
            return "boolean";
        return b ? "boolean `true`" : "boolean `false`";
    }
    case od::json_type::null: return "null";
    case od::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS)
            return "string";
        return "string " + quoted(s);
    }
    case od::json_type::number: {
        std::string_view tok = v.raw_json_token();
        while (!tok.empty() && (tok.back() == ' ' || tok.back() == '\t' || tok.back() == ',' || tok.back() == '}'
                                || tok.back() == ']' || tok.back() == '\r' || tok.back() == '\n'))
            tok.remove_suffix(1);
        const bool isFloat = tok.find_first_of(".eE") != std::string_view::npos;
        if (!isFloat && !tok.empty() && tok.front() == '-') {
            if (tok == "-0")
                return "floating point `-0.0`";
            std::int64_t i = 0;
            auto r = std::from_chars(tok.data(), tok.data() + tok.size(), i);
            if (r.ec == std::errc())
                return "integer `" + std::string(tok) + "`";
        }
        if (!isFloat) {
            std::uint64_t u = 0;
            auto r = std::from_chars(tok.data(), tok.data() + tok.size(), u);
            if (r.ec == std::errc() && r.ptr == tok.data() + tok.size())
                return "integer `" + std::string(tok) + "`";
        }
        double d = 0;
        if (v.get_double().get(d) != simdjson::SUCCESS)
            d = std::strtod(std::string(tok).c_str(), nullptr);
        return "floating point `" + floatText(d) + "`";
    }
    }
    return "value";
}

bool Decoder::readKey(od::field &f, std::string_view &key)
{
    const char *raw = f.key().raw();
    m_fieldPos = raw - 1;
    const char *p = raw;
    while (*p != '"' && *p != '\\')
        ++p;
    if (*p == '"') {
        key = std::string_view(raw, static_cast<std::size_t>(p - raw));
        return true;
    }
    if (auto e = f.unescaped_key().get(key))
        return syntax(e, raw);
    return true;
}

bool Decoder::readU64(od::value &v, std::uint64_t &out, std::string_view expected)
{
    auto r = v.get_uint64();
    if (r.error() == simdjson::SUCCESS) {
        out = r.value_unsafe();
        return true;
    }
    od::json_type t;
    if (v.type().get(t) != simdjson::SUCCESS)
        return syntax(r.error(), currentPos(v));
    if (t == od::json_type::number) {
        std::string d = describe(v);
        if (d.rfind("integer `-", 0) == 0)
            return failHere("invalid value: " + d + ", expected " + std::string(expected));
        if (d.rfind("floating point", 0) == 0) {
            double dd = 0;
            if (v.get_double().get(dd) != simdjson::SUCCESS)
                return syntax(r.error(), currentPos(v));
        }
        return failHere("invalid type: " + d + ", expected " + std::string(expected));
    }
    return typeError(v, expected);
}

bool Decoder::readF64(od::value &v, double &out)
{
    auto r = v.get_double();
    if (r.error() == simdjson::SUCCESS) {
        out = r.value_unsafe();
        return true;
    }
    od::json_type t;
    if (v.type().get(t) != simdjson::SUCCESS || t == od::json_type::number) {
        std::string_view tok = v.raw_json_token();
        const char *pos = currentPos(v);
        // A syntactically fine literal that simdjson cannot hold is out of f64 range.
        if (!tok.empty() && (tok.front() == '-' || (tok.front() >= '0' && tok.front() <= '9'))
            && r.error() != simdjson::NUMBER_ERROR)
            return positioned("number out of range", pos);
        double d = std::strtod(std::string(tok).c_str(), nullptr);
        if (std::isinf(d))
            return positioned("number out of range", pos);
        return syntax(r.error(), pos);
    }
    return typeError(v, "f64");
}

bool Decoder::readBool(od::value &v, bool &out)
{
    auto r = v.get_bool();
    if (r.error() == simdjson::SUCCESS) {
        out = r.value_unsafe();
        return true;
    }
    od::json_type t;
    if (v.type().get(t) != simdjson::SUCCESS || t == od::json_type::boolean)
        return syntax(r.error(), currentPos(v));
    return typeError(v, "a boolean");
}

bool Decoder::readView(od::value &v, std::string_view &out)
{
    auto r = v.get_string();
    if (r.error() == simdjson::SUCCESS) {
        out = r.value_unsafe();
        return true;
    }
    od::json_type t;
    if (v.type().get(t) != simdjson::SUCCESS || t == od::json_type::string)
        return syntax(r.error(), currentPos(v));
    return typeError(v, "a string");
}

template<typename E>
bool Decoder::readEnum(od::value &v, E &out, std::optional<E> (*parse)(std::string_view), std::string_view typeName)
{
    od::json_type t;
    if (auto e = v.type().get(t))
        return syntax(e, currentPos(v));
    if (t != od::json_type::string)
        return failHere("invalid type: " + describe(v) + ", expected enum " + std::string(typeName));
    std::string_view s;
    if (!readView(v, s))
        return false;
    if (auto parsed = parse(s)) {
        out = *parsed;
        return true;
    }
    return failHere("unknown variant `" + std::string(s) + "`, expected " + std::string(enumExpectation(typeName)));
}

bool Decoder::beginObject(od::value &v, od::object &obj, std::string_view expected, int depth)
{
    od::json_type t;
    if (auto e = v.type().get(t))
        return syntax(e, currentPos(v));
    if (t != od::json_type::object)
        return typeError(v, expected);
    if (depth >= kMaxDepth)
        return positioned("recursion limit exceeded", currentPos(v));
    if (auto e = v.get_object().get(obj))
        return syntax(e, currentPos(v));
    return true;
}

template<typename T, typename ElementFn>
bool Decoder::readArray(od::value &v, std::vector<T> &out, std::string_view expected, ElementFn &&fn)
{
    od::json_type t;
    if (auto e = v.type().get(t))
        return syntax(e, currentPos(v));
    if (t != od::json_type::array)
        return typeError(v, expected);
    od::array arr;
    if (auto e = v.get_array().get(arr))
        return syntax(e, currentPos(v));
    out.clear();
    for (auto item : arr) {
        od::value ev;
        if (auto e = std::move(item).get(ev))
            return syntax(e, m_fieldPos);
        out.emplace_back();
        if (!fn(ev, out.back()))
            return false;
    }
    return true;
}

bool Decoder::readShape(od::value &v, ShapeId &out)
{
    if (!readArray(v, m_dims, "a sequence", [this](od::value &ev, std::uint64_t &d) { return readU64(ev, d, "usize"); }))
        return false;
    out = m_trace.shapes.intern(m_dims);
    return true;
}

bool Decoder::readIdList(od::value &v, ListRef &out)
{
    if (!readArray(v, m_ids, "a sequence", [this](od::value &ev, StringId &id) { return readString(ev, id); }))
        return false;
    out = m_trace.idLists.append(m_ids);
    return true;
}

bool Decoder::readStringList(od::value &v, std::vector<std::string> &out)
{
    return readArray(v, out, "a sequence", [this](od::value &ev, std::string &s) { return readStdString(ev, s); });
}

// Unknown members are ignored by upstream, but they still have to be valid JSON within
// serde's nesting limit, so walk them completely.
bool Decoder::skipValue(od::value &v, int depth)
{
    od::json_type t;
    if (auto e = v.type().get(t))
        return syntax(e, currentPos(v));
    switch (t) {
    case od::json_type::object: {
        if (depth >= kMaxDepth)
            return positioned("recursion limit exceeded", currentPos(v));
        od::object obj;
        if (auto e = v.get_object().get(obj))
            return syntax(e, currentPos(v));
        for (auto fr : obj) {
            od::field f;
            if (auto e = std::move(fr).get(f))
                return syntax(e, m_fieldPos);
            std::string_view key;
            if (!readKey(f, key))
                return false;
            od::value child = f.value();
            if (!skipValue(child, depth + 1))
                return false;
        }
        return true;
    }
    case od::json_type::array: {
        if (depth >= kMaxDepth)
            return positioned("recursion limit exceeded", currentPos(v));
        od::array arr;
        if (auto e = v.get_array().get(arr))
            return syntax(e, currentPos(v));
        for (auto item : arr) {
            od::value child;
            if (auto e = std::move(item).get(child))
                return syntax(e, m_fieldPos);
            if (!skipValue(child, depth + 1))
                return false;
        }
        return true;
    }
    case od::json_type::string: {
        std::string_view s;
        return readView(v, s);
    }
    case od::json_type::number: {
        const char *pos = currentPos(v);
        double d = 0;
        if (auto e = v.get_double().get(d)) {
            // Integers beyond f64's reach are still valid JSON; only malformed text fails.
            if (e == simdjson::NUMBER_ERROR || e == simdjson::NUMBER_OUT_OF_RANGE) {
                std::string tok(v.raw_json_token());
                double x = std::strtod(tok.c_str(), nullptr);
                if (std::isinf(x))
                    return positioned("number out of range", pos);
            }
            return syntax(e, pos);
        }
        return true;
    }
    case od::json_type::boolean: {
        bool b = false;
        if (auto e = v.get_bool().get(b))
            return syntax(e, currentPos(v));
        return true;
    }
    case od::json_type::null:
        if (!isNull(v))
            return syntax(simdjson::N_ATOM_ERROR, currentPos(v));
        return true;
    }
    return true;
}

template<typename Handler>
bool Decoder::fields(od::object &obj, const FieldTable &t, int depth, bool eventLevel, Handler &&handler)
{
    std::uint32_t seen = 0;
    bool kindSeen = false;
    for (auto fr : obj) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return syntax(e, m_fieldPos);
        std::string_view key;
        if (!readKey(f, key))
            return false;
        const int idx = findField(t, key);
        od::value v = f.value();
        if (idx < 0) {
            if (eventLevel && key == "kind") {
                if (kindSeen)
                    return failHere("duplicate field `kind`");
                kindSeen = true;
                continue;
            }
            if (!skipValue(v, depth + 1))
                return false;
            continue;
        }
        if (seen & (1u << idx))
            return failHere("duplicate field `" + std::string(t.names[idx]) + "`");
        seen |= 1u << idx;
        const char *keyPos = m_fieldPos;
        if (!handler(idx, v))
            return false;
        m_fieldPos = keyPos;
    }
    const std::uint32_t missing = t.required & ~seen;
    if (missing) {
        m_fieldPos = nullptr;
        return failHere("missing field `" + std::string(t.names[__builtin_ctz(missing)]) + "`");
    }
    return true;
}

bool Decoder::decode(const char *data, std::size_t length, DecodedEvent &out, DecodeFailure &failure)
{
    m_failure = &failure;
    m_begin = data;
    m_length = length;
    m_fieldPos = nullptr;
    failure.invalidUtf8 = false;
    failure.column = 0;

    // U+FEFF is not whitespace for upstream, so a byte order mark is not JSON (§2).
    if (length >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        return positioned("expected value", data);
    od::document doc;
    if (auto e = m_parser.iterate(data, length, length + kDecoderPadding).get(doc))
        return syntax(e);
    od::json_type rootType;
    if (auto e = doc.type().get(rootType))
        return syntax(e, data);
    if (rootType != od::json_type::object) {
        od::value asValue;
        std::string what;
        switch (rootType) {
        case od::json_type::array: what = "sequence"; break;
        case od::json_type::string: {
            std::string_view s;
            if (auto e = doc.get_string().get(s))
                return syntax(e, data);
            what = "string " + quoted(s);
            break;
        }
        case od::json_type::boolean: {
            bool b = false;
            if (auto e = doc.get_bool().get(b))
                return syntax(e, data);
            what = b ? "boolean `true`" : "boolean `false`";
            break;
        }
        case od::json_type::null: what = "null"; break;
        default: {
            double d = 0;
            if (auto e = doc.get_double().get(d))
                return syntax(e, data);
            std::string_view tok(data, length);
            what = tok.find_first_of(".eE") == std::string_view::npos && d == std::floor(d) && tok.front() != '-'
                ? "integer `" + std::string(tok) + "`"
                : "floating point `" + floatText(d) + "`";
        }
        }
        return positioned("invalid type: " + what + ", expected internally tagged enum TraceEvent", data + length - 1);
    }

    od::object obj;
    if (auto e = doc.get_object().get(obj))
        return syntax(e, data);

    bool found = false;
    EventKind kind = EventKind::Meta;
    // Fast path: writers put `"kind":"…"` first, compactly; then the tag is read off the
    // text and pass 1 below is skipped. Anything unusual takes the general path.
    constexpr std::string_view kPrefix = "{\"kind\":\"";
    if (length > kPrefix.size() && std::memcmp(data, kPrefix.data(), kPrefix.size()) == 0) {
        const char *name = data + kPrefix.size();
        const char *end = name;
        while (*end != '"' && *end != '\\' && end < data + length)
            ++end;
        if (*end == '"') {
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
    // Pass 1: find the `kind` tag wherever it stands.
    if (!found) {
        for (auto fr : obj) {
            od::field f;
            if (auto e = std::move(fr).get(f))
                return syntax(e, m_fieldPos);
            std::string_view key;
            if (!readKey(f, key))
                return false;
            if (key != "kind")
                continue;
            od::value v = f.value();
            od::json_type t;
            if (auto e = v.type().get(t))
                return syntax(e, currentPos(v));
            if (t != od::json_type::string)
                return failHere("invalid type: " + describe(v) + ", expected variant identifier");
            const char *valuePos = currentPos(v);
            std::string_view s;
            if (!readView(v, s))
                return false;
            int k = 0;
            for (; k < 12 && kKindNames[k] != s; ++k) {
            }
            if (k == 12) {
                const char *close = valuePos + 1;
                while (*close != '"')
                    close += (*close == '\\') ? 2 : 1;
                return positioned("unknown variant `" + std::string(s) + "`, expected " + std::string(enumExpectation("TraceEvent")),
                                  close);
            }
            kind = static_cast<EventKind>(k);
            found = true;
            if (auto e = resetObject(obj))
                return syntax(e, data);
            break;
        }
    }
    if (!found) {
        // No `kind` anywhere. serde buffers the whole object first, so a syntax error
        // anywhere wins over the missing tag.
        if (auto e = resetObject(obj))
            return syntax(e, data);
        for (auto fr : obj) {
            od::field f;
            if (auto e = std::move(fr).get(f))
                return syntax(e, m_fieldPos);
            std::string_view key;
            if (!readKey(f, key))
                return false;
            od::value v = f.value();
            if (!skipValue(v, 2))
                return false;
        }
        m_fieldPos = nullptr;
        return failHere("missing field `kind`");
    }

    out.kind = kind;
    if (!decodeEvent(obj, kind, out))
        return false;
    const char *trailing = nullptr;
    if (doc.current_location().get(trailing) == simdjson::SUCCESS)
        return positioned("trailing characters", trailing);
    return true;
}

bool Decoder::decodeEvent(od::object &obj, EventKind kind, DecodedEvent &out)
{
    switch (kind) {
    case EventKind::Meta:
        out.meta = TraceMeta{};
        return decodeMeta(obj, out.meta);
    case EventKind::SpanStart: {
        Span &s = out.span;
        s = Span{};
        return fields(obj, kSpanStart, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, s.id);
            case 1: return readOptString(v, s.parentId);
            case 2: return readString(v, s.name);
            case 3: return readU64(v, s.startNs);
            case 4: return readEnum(v, s.kind, &parseSpanKind, "SpanKind");
            case 5: return readBool(v, s.measured);
            default:
                if (isNull(v)) {
                    s.step = ExecutionStep::None;
                    return true;
                }
                return readEnum(v, s.step, &parseStep, "ExecutionStep");
            }
        });
    }
    case EventKind::SpanEnd:
        out.spanEndId = kNoString;
        out.spanEndDurationNs = 0;
        return fields(obj, kSpanEnd, 1, true, [&](int idx, od::value &v) {
            return idx == 0 ? readString(v, out.spanEndId) : readU64(v, out.spanEndDurationNs);
        });
    case EventKind::Op: {
        Op &o = out.op;
        o = Op{};
        return fields(obj, kOp, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, o.spanId);
            case 1: return readString(v, o.opName);
            case 2: return readIdList(v, o.inputs);
            case 3: return readOptString(v, o.output);
            case 4: return readShape(v, o.shape);
            case 5: return readString(v, o.dtype);
            case 6: return readString(v, o.device);
            case 7: return readU64(v, o.durationNs);
            case 8: return readU64(v, o.timestampNs);
            case 9:
                if (isNull(v))
                    return true;
                o.hasOutputDenseBytes = true;
                return readU64(v, o.outputDenseBytes);
            default: return readU64(v, o.inputDenseBytes);
            }
        });
    }
    case EventKind::Tensor: {
        Tensor &t = out.tensor;
        t = Tensor{};
        return fields(obj, kTensor, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, t.spanId);
            case 1: return readString(v, t.tensorId);
            case 2: return readOptString(v, t.label);
            case 3: return readShape(v, t.shape);
            case 4: return readString(v, t.dtype);
            case 5: return readString(v, t.device);
            case 6: return readBool(v, t.requiresGrad);
            case 7:
                if (isNull(v))
                    return true;
                t.hasDenseBytes = true;
                return readU64(v, t.denseBytes);
            default: return readEnum(v, t.category, &parseMemoryCategory, "MemoryCategory");
            }
        });
    }
    case EventKind::TensorStats: {
        TensorStats &t = out.tensorStats;
        t = TensorStats{};
        return fields(obj, kStats, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, t.spanId);
            case 1: return readString(v, t.label);
            case 2: return readShape(v, t.shape);
            case 3: return readString(v, t.dtype);
            case 4: return readU64(v, t.elements);
            case 5: return readU64(v, t.nonFinite);
            case 6: return readF64(v, t.rms);
            case 7: return readF64(v, t.absMax);
            default: return readF64(v, t.mean);
            }
        });
    }
    case EventKind::Memory: {
        MemoryEvent &m = out.memory;
        m = MemoryEvent{};
        return fields(obj, kMemory, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readU64(v, m.timestampNs);
            case 1: return readString(v, m.storageId);
            case 2: return readString(v, m.tensorId);
            case 3: return readString(v, m.spanId);
            case 4: return readOptString(v, m.opName);
            case 5: return readString(v, m.device);
            case 6: return readU64(v, m.bytes);
            case 7: return readEnum(v, m.action, &parseMemoryAction, "MemoryAction");
            case 8: return readShape(v, m.shape);
            case 9: return readString(v, m.dtype);
            default: return readEnum(v, m.category, &parseMemoryCategory, "MemoryCategory");
            }
        });
    }
    case EventKind::DeviceMemory: {
        DeviceMemorySample &d = out.deviceMemory;
        d = DeviceMemorySample{};
        return fields(obj, kDevMem, 1, true, [&](int idx, od::value &v) {
            if (idx == 0)
                return readU64(v, d.timestampNs);
            if (idx == 1)
                return readString(v, d.device);
            if (isNull(v))
                return true;
            static constexpr DeviceMemorySample::Field kFlags[] = {DeviceMemorySample::Used, DeviceMemorySample::Free,
                                                                   DeviceMemorySample::Reserved, DeviceMemorySample::Capacity};
            std::uint64_t *slots[] = {&d.usedBytes, &d.freeBytes, &d.reservedBytes, &d.capacityBytes};
            d.present |= kFlags[idx - 2];
            return readU64(v, *slots[idx - 2]);
        });
    }
    case EventKind::DeviceInterval: {
        DeviceInterval &d = out.deviceInterval;
        d = DeviceInterval{};
        return fields(obj, kInterval, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, d.spanId);
            case 1: return readString(v, d.device);
            case 2: return readString(v, d.streamId);
            case 3: return readString(v, d.clockId);
            case 4: return readString(v, d.backend);
            case 5: return readU64(v, d.startNs);
            default: return readU64(v, d.durationNs);
            }
        });
    }
    case EventKind::Gradient: {
        Gradient &g = out.gradient;
        g = Gradient{};
        return fields(obj, kGradient, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, g.eventId);
            case 1: return readString(v, g.root);
            case 2: return readString(v, g.key);
            case 3: return readEnum(v, g.state, &parseGradientState, "GradientState");
            default:
                if (isNull(v))
                    return true;
                g.hasNorm = true;
                return readF64(v, g.norm);
            }
        });
    }
    case EventKind::Edge:
        out.edge = Edge{};
        return decodeEdge(obj, out.edge);
    case EventKind::Terminal: {
        Terminal &t = out.terminal;
        t = Terminal{};
        return fields(obj, kTerminal, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readEnum(v, t.outcome, &parseRunOutcome, "RunOutcome");
            case 1: return readU64(v, t.timestampNs);
            default: return readOptStdString(v, t.reason);
            }
        });
    }
    }
    return false;
}

bool Decoder::decodeEdge(od::object &obj, Edge &edge)
{
    // Doubly tagged: find `edge_kind` (normally right after `kind`), then decode the
    // variant's members in a second pass, which also validates everything else.
    bool haveKind = false;
    for (auto fr : obj) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return syntax(e, m_fieldPos);
        std::string_view key;
        if (!readKey(f, key))
            return false;
        if (key != "edge_kind")
            continue;
        od::value v = f.value();
        od::json_type t;
        if (auto e = v.type().get(t))
            return syntax(e, currentPos(v));
        if (t != od::json_type::string)
            return failHere("invalid type: " + describe(v) + ", expected variant identifier");
        std::string_view s;
        if (!readView(v, s))
            return false;
        auto k = parseEdgeKind(s);
        if (!k)
            return failHere("unknown variant `" + std::string(s) + "`, expected `call` or `data`");
        edge.kind = *k;
        haveKind = true;
        break;
    }
    if (!haveKind) {
        if (auto e = resetObject(obj))
            return syntax(e, m_begin);
        return fields(obj, kEdgeKindOnly, 1, true, [](int, od::value &) { return true; });
    }
    if (auto e = resetObject(obj))
        return syntax(e, m_begin);
    // The variant body sees every member but `kind` and `edge_kind` as its own or unknown.
    static constexpr std::string_view kCallWithTag[] = {"from_span", "to_span", "host_duration_ns", "edge_kind"};
    static constexpr std::string_view kDataWithTag[] = {"from_tensor", "to_tensor", "edge_kind"};
    if (edge.kind == EdgeKind::Call) {
        const FieldTable t{kCallWithTag, 4, kCallEdge.required};
        return fields(obj, t, 1, true, [&](int idx, od::value &v) {
            switch (idx) {
            case 0: return readString(v, edge.from);
            case 1: return readString(v, edge.to);
            case 2: return readU64(v, edge.hostDurationNs);
            default: return true; // edge_kind, already decoded
            }
        });
    }
    const FieldTable t{kDataWithTag, 3, kDataEdge.required};
    return fields(obj, t, 1, true, [&](int idx, od::value &v) {
        switch (idx) {
        case 0: return readString(v, edge.from);
        case 1: return readString(v, edge.to);
        default: return true;
        }
    });
}

bool Decoder::decodeMeta(od::object &obj, TraceMeta &m)
{
    return fields(obj, kMeta, 1, true, [&](int idx, od::value &v) {
        switch (idx) {
        case 0: return readStdString(v, m.schema);
        case 1: return readStdString(v, m.runId);
        case 2: return readStdString(v, m.correlationId);
        case 3: return readStdString(v, m.entrypoint);
        case 4: return readEnum(v, m.phase, &parsePhase, "ExecutionPhase");
        case 5: return readStdString(v, m.timestamp);
        case 6: return readU64(v, m.captureStep);
        case 7: return readU64(v, m.warmupSteps);
        case 8: return readStdString(v, m.device);
        case 9: return readBool(v, m.measuredRegionDeviceSynchronized);
        case 10: return readEnum(v, m.timingMode, &parseTimingMode, "TimingMode");
        case 11: return decodeContract(v, m.captureContract);
        case 12:
            if (isNull(v)) {
                m.comparisonIdentity.reset();
                return true;
            }
            m.comparisonIdentity.emplace();
            return decodeIdentity(v, *m.comparisonIdentity);
        case 13: return decodeTags(v, m.tags);
        default: return readOptStdString(v, m.candleVersion);
        }
    });
}

bool Decoder::decodeContract(od::value &v, CaptureContract &c)
{
    od::object obj;
    if (!beginObject(v, obj, "struct CaptureContract", 2))
        return false;
    return fields(obj, kContract, 2, false, [&](int idx, od::value &fv) {
        switch (idx) {
        case 0: return readEnum(fv, c.measurementScope, &parseMeasurementScope, "MeasurementScope");
        case 1: return readEnum(fv, c.operations, &parseCoverageLevel, "CoverageLevel");
        case 2: return readEnum(fv, c.tensors, &parseCoverageLevel, "CoverageLevel");
        case 3: return readEnum(fv, c.gradients, &parseCoverageLevel, "CoverageLevel");
        case 4:
            if (isNull(fv)) {
                c.gradientContract.reset();
                return true;
            }
            c.gradientContract.emplace();
            return decodeGradientContract(fv, *c.gradientContract);
        case 5: return readEnum(fv, c.logicalMemory, &parseCoverageLevel, "CoverageLevel");
        case 6: return readEnum(fv, c.physicalMemory, &parseCoverageLevel, "CoverageLevel");
        case 7: return readEnum(fv, c.deviceTiming, &parseCoverageLevel, "CoverageLevel");
        case 8: return readStringList(fv, c.requiredSemanticLabels);
        case 9: return readStringList(fv, c.gpuExpectedSemanticLabels);
        default: return readStringList(fv, c.cpuOnlySemanticLabels);
        }
    });
}

bool Decoder::decodeGradientContract(od::value &v, GradientContract &g)
{
    od::object obj;
    if (!beginObject(v, obj, "struct GradientContract", 3))
        return false;
    return fields(obj, kGradContract, 3, false, [&](int idx, od::value &fv) {
        switch (idx) {
        case 0: return readStdString(fv, g.manifestSha256);
        case 1:
            return readArray(fv, g.expected, "a sequence", [this](od::value &ev, ExpectedGradient &e) {
                od::object eo;
                if (!beginObject(ev, eo, "struct ExpectedGradient", 5))
                    return false;
                return fields(eo, kExpected, 5, false, [&](int i, od::value &x) {
                    return readStdString(x, i == 0 ? e.root : i == 1 ? e.key : e.family);
                });
            });
        default:
            return readArray(fv, g.families, "a sequence", [this](od::value &ev, GradientFamilyContract &f) {
                od::object fo;
                if (!beginObject(ev, fo, "struct GradientFamilyContract", 5))
                    return false;
                return fields(fo, kFamily, 5, false, [&](int i, od::value &x) {
                    switch (i) {
                    case 0: return readStdString(x, f.family);
                    case 1: return readEnum(x, f.expectation, &parseFamilyExpectation, "GradientFamilyExpectation");
                    default: return readU64(x, f.minPresent, "usize");
                    }
                });
            });
        }
    });
}

bool Decoder::decodeIdentity(od::value &v, ComparisonIdentity &id)
{
    od::object obj;
    if (!beginObject(v, obj, "struct ComparisonIdentity", 2))
        return false;
    return fields(obj, kIdentity, 2, false, [&](int idx, od::value &fv) {
        switch (idx) {
        case 0: return readOptStdString(fv, id.implementationId);
        case 1: return readStdString(fv, id.workloadId);
        case 2: return readStdString(fv, id.modelId);
        case 3: return readStdString(fv, id.configId);
        case 4: return readStdString(fv, id.dataId);
        case 5: return readStdString(fv, id.seedPolicy);
        case 6: return readU64(fv, id.physicalBatch);
        case 7: return readU64(fv, id.accumulationSteps);
        case 8: return readStdString(fv, id.precision);
        case 9: return readStdString(fv, id.deviceState);
        default: return readOptStdString(fv, id.pairId);
        }
    });
}

bool Decoder::decodeTags(od::value &v, std::map<std::string, std::string> &tags)
{
    od::object obj;
    if (!beginObject(v, obj, "a map", 2))
        return false;
    tags.clear();
    for (auto fr : obj) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return syntax(e, m_fieldPos);
        std::string_view key;
        if (!readKey(f, key))
            return false;
        std::string k(key);
        od::value fv = f.value();
        std::string value;
        if (!readStdString(fv, value))
            return false;
        tags[std::move(k)] = std::move(value); // serde maps keep the last duplicate
    }
    return true;
}

} // namespace

std::unique_ptr<LineDecoder> makeDecoder(Trace &trace)
{
    return std::make_unique<Decoder>(trace);
}

} // namespace TraceInspector::TI_DECODER_NS
