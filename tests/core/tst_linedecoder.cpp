// SPDX-License-Identifier: MIT
// TRACE_FORMAT.md §5, rule by rule: which lines decode, and the exact serde cause of those
// that do not (with the column of §5.7 where the cause has one). One row per rule and boundary.
#include <QTest>

#include <string>
#include <vector>

#include "core/io/eventschema.h"
#include "core/io/linedecoder.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "core/output/normalizedwriter.h"

using namespace TraceInspector;

class tst_LineDecoder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rules_data();
    void rules();
    void arrayLengths_data();
    void arrayLengths();
    void arrayFormEqualsObjectForm_data();
    void arrayFormEqualsObjectForm();
    void enumMapFormsWrittenAsStrings();
    void tagsDuplicateLastWins();
    void schemaTables();
};

namespace {

template<std::size_t N>
QByteArray bytes(const char (&text)[N])
{
    return QByteArray(text, int(N - 1)); // keeps NUL bytes
}

/// Decodes one trimmed line; "OK" or the failure's cause.
QByteArray decodeLine(const QByteArray &line, Trace &trace, DecodedEvent &event)
{
    std::vector<char> buffer(line.begin(), line.end());
    buffer.resize(buffer.size() + kDecoderPadding, '\0');
    LineDecoder decoder(trace);
    DecodeFailure failure;
    if (decoder.decode(buffer.data(), std::size_t(line.size()), event, failure))
        return QByteArrayLiteral("OK");
    return QByteArray::fromStdString(failure.cause);
}

const std::string kMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer",)"
    R"("timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":)"
    R"({"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none",)"
    R"("device_timing":"none"},"tags":{}})";
const std::string kTerminal = R"({"kind":"terminal","outcome":"complete","timestamp_ns":100000})";

/// The normalized text of meta + the lines + terminal (the lines must be accepted).
std::string normalizedOf(const std::string &lines, bool withMeta = true, bool *accepted = nullptr)
{
    const std::string text = (withMeta ? kMeta + "\n" : std::string()) + lines + "\n" + kTerminal + "\n";
    const ReadResult r = TraceReader::readBytes(text, "case.jsonl");
    if (accepted)
        *accepted = r.accepted();
    if (!r.accepted())
        return r.strictError ? "REJECTED: " + r.strictError->message : std::string("REJECTED");
    return normalizedText(*r.trace);
}

} // namespace

void tst_LineDecoder::rules_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("expected");
    auto row = [](const char *name, const QByteArray &line, const QByteArray &expected) {
        QTest::newRow(name) << line << expected;
    };
#define row(name, line, expected) row(name, bytes(line), bytes(expected))
    row("expected value: .5", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":.5}", "expected value at line 1 column 33");
    row("expected value: +1", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":+1}", "expected value at line 1 column 33");
    row("expected value: NaN", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":NaN}", "expected value at line 1 column 33");
    row("expected value: Infinity", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":Infinity}",
        "expected value at line 1 column 33");
    row("expected value: ]", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":]}", "expected value at line 1 column 33");
    row("expected value: ,", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":,}", "expected value at line 1 column 33");
    row("expected value wins over a later bad kind", "{\"a\":,\"kind\":\"bogus\"}",
        "expected value at line 1 column 6");
    row("BOM at line start", "\xef\xbb\xbf{\"kind\":\"span_end\",\"id\":\"a\"}", "expected value at line 1 column 1");
    row("expected value: [,", "[,\"span_end\"]", "expected value at line 1 column 2");
    row("expected ident: nul}", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":nul}", "expected ident at line 1 column 36");
    row("expected ident: tru}", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":tru}", "expected ident at line 1 column 36");
    row("expected ident: nulx", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":nulx}",
        "expected ident at line 1 column 36");
    row("EOF inside a literal", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":fals",
        "EOF while parsing a value at line 1 column 36");
    row("invalid number: 01", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":01}", "invalid number at line 1 column 34");
    row("invalid number: -01", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":-01}", "invalid number at line 1 column 35");
    row("invalid number: 00.5", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":00.5}",
        "invalid number at line 1 column 34");
    row("invalid number: 1.}", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1.}", "invalid number at line 1 column 35");
    row("invalid number: 1.e5", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1.e5}",
        "invalid number at line 1 column 35");
    row("invalid number: 1e}", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1e}", "invalid number at line 1 column 35");
    row("invalid number: 1e+}", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1e+}", "invalid number at line 1 column 36");
    row("invalid number: -a", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":-a}", "invalid number at line 1 column 34");
    row("0x10 reads 0 then fails on x", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":0x10}",
        "expected `,` or `}` at line 1 column 34");
    row("EOF after -", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":-", "EOF while parsing a value at line 1 column 33");
    row("EOF after 1.", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1.",
        "EOF while parsing a value at line 1 column 34");
    row("EOF after 1e-", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1e-",
        "EOF while parsing a value at line 1 column 35");
    row("number out of range: last byte", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1e400}",
        "number out of range at line 1 column 37");
    row("number out of range: exponent digit", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1e99999999999}",
        "number out of range at line 1 column 44");
    row("number out of range in a u64 member", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":1e400}",
        "number out of range at line 1 column 47");
    row("invalid escape", "{\"kind\":\"span_end\",\"id\":\"a\\q\"}", "invalid escape at line 1 column 28");
    row("invalid escape: \\u takes four bytes", "{\"kind\":\"span_end\",\"id\":\"\\u12\"}",
        "invalid escape at line 1 column 31");
    row("invalid escape: non-hex digit", "{\"kind\":\"span_end\",\"id\":\"\\u12G4\"}",
        "invalid escape at line 1 column 31");
    row("lone trailing surrogate", "{\"kind\":\"span_end\",\"id\":\"\\udc00\"}",
        "lone leading surrogate in hex escape at line 1 column 31");
    row("leading surrogate then no trailing one", "{\"kind\":\"span_end\",\"id\":\"\\ud800\\u0041\"}",
        "lone leading surrogate in hex escape at line 1 column 37");
    row("leading surrogate then the closing quote", "{\"kind\":\"span_end\",\"id\":\"\\ud83d\"}",
        "unexpected end of hex escape at line 1 column 32");
    row("leading surrogate then a letter", "{\"kind\":\"span_end\",\"id\":\"\\ud83dx\"}",
        "unexpected end of hex escape at line 1 column 32");
    row("leading surrogate then another escape", "{\"kind\":\"span_end\",\"id\":\"\\ud83d\\n\"}",
        "unexpected end of hex escape at line 1 column 33");
    row("surrogate pair", "{\"kind\":\"span_end\",\"id\":\"\\ud83d\\ude00\"}", "OK");
    row("raw tab in a string",
        "{\"kind\":\"span_end\",\"id\":\"a\x09"
        "b\"}",
        "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 27");
    row("raw NUL in a string",
        "{\"kind\":\"span_end\",\"id\":\"a\x00"
        "b\"}",
        "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 27");
    row("raw control character in a key",
        "{\"kind\":\"span_end\",\"i\x01"
        "d\":\"a\"}",
        "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 22");
    row("EOF inside a string", "{\"kind\":\"span_end\",\"id\":\"ab", "EOF while parsing a string at line 1 column 27");
    row("EOF after a backslash", "{\"kind\":\"span_end\",\"id\":\"ab\\",
        "EOF while parsing a string at line 1 column 28");
    row("EOF inside \\u", "{\"kind\":\"span_end\",\"id\":\"\\u12", "EOF while parsing a string at line 1 column 29");
    row("EOF after a leading surrogate", "{\"kind\":\"span_end\",\"id\":\"\\ud83d",
        "EOF while parsing a string at line 1 column 31");
    row("EOF after a colon", "{\"kind\":\"span_end\",\"id\":", "EOF while parsing a value at line 1 column 24");
    row("EOF after a comma in an object", "{\"kind\":\"span_end\",\"id\":\"a\",",
        "EOF while parsing a value at line 1 column 28");
    row("EOF after a comma in an array", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[1,",
        "EOF while parsing a value at line 1 column 35");
    row("EOF after {", "{", "EOF while parsing an object at line 1 column 1");
    row("EOF after a key", "{\"kind\":\"span_end\",\"id\"", "EOF while parsing an object at line 1 column 23");
    row("EOF after a member", "{\"kind\":\"span_end\",\"id\":\"a\"", "EOF while parsing an object at line 1 column 27");
    row("EOF after [", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[", "EOF while parsing a list at line 1 column 33");
    row("EOF after an element", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[1",
        "EOF while parsing a list at line 1 column 34");
    row("key must be a string", "{\"kind\":\"span_end\",id:\"a\"}", "key must be a string at line 1 column 20");
    row("key must be a string after {", "{,\"kind\":\"span_end\"}", "key must be a string at line 1 column 2");
    row("key must be a string after a comma", "{\"kind\":\"span_end\",\"id\":\"a\",,}",
        "key must be a string at line 1 column 29");
    row("no-break space between tokens", "{\"kind\":\"span_end\",\"id\":\"a\",\xc2\xa0\"x\":1}",
        "key must be a string at line 1 column 29");
    row("expected colon", "{\"kind\":\"span_end\",\"id\" \"a\"}", "expected `:` at line 1 column 25");
    row("expected comma or brace", "{\"kind\":\"span_end\",\"id\":\"a\" \"x\":1}",
        "expected `,` or `}` at line 1 column 29");
    row("expected comma or bracket", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[1 2]}",
        "expected `,` or `]` at line 1 column 36");
    row("trailing comma in an object", "{\"kind\":\"span_end\",\"id\":\"a\",}", "trailing comma at line 1 column 29");
    row("trailing comma before whitespace and brace", "{\"kind\":\"span_end\",\"id\":\"a\", }",
        "trailing comma at line 1 column 30");
    row("trailing comma in an array", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[1,]}",
        "trailing comma at line 1 column 36");
    row("127 nested containers are accepted",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
        "OK");
    row("the 128th nested container is refused",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
        "recursion limit exceeded at line 1 column 159");
    row("127 nested objects are accepted",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}",
        "OK");
    row("the 128th nested object is refused",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}",
        "recursion limit exceeded at line 1 column 663");
    row("trailing characters", "{\"kind\":\"span_end\",\"id\":\"a\"} x", "trailing characters at line 1 column 30");
    row("two values on a line", "{\"kind\":\"span_end\",\"id\":\"a\"}{\"kind\":\"span_end\",\"id\":\"a\"}",
        "trailing characters at line 1 column 29");
    row("trailing JSON whitespace is fine", "{\"kind\":\"span_end\",\"id\":\"a\"}  \x09 ", "OK");
    row("unknown kind beats a later trailing comma", "{\"kind\":\"span_close\",\"id\":\"a\",}",
        "unknown variant `span_close`, expected one of `meta`, `span_start`, `span_end`, `op`, `tensor`, `tensor_stats`, `memory`, `device_memory`, `device_interval`, `gradient`, `edge`, `terminal` at line 1 column 20");
    row("out of range beats the fields", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1e400}",
        "number out of range at line 1 column 37");
    row("meta: missing schema beats run member errors", "{\"kind\":\"meta\",\"run_id\":5}", "missing field `schema`");
    row("meta: schema type error beats an earlier run member error", "{\"kind\":\"meta\",\"run_id\":5,\"schema\":7}",
        "invalid type: integer `7`, expected a string");
    row("meta: duplicate schema beats an earlier run member error",
        "{\"kind\":\"meta\",\"run_id\":5,\"schema\":\"s\",\"schema\":\"s\"}", "duplicate field `schema`");
    row("meta: first run member error", "{\"kind\":\"meta\",\"schema\":\"s\",\"run_id\":5}",
        "invalid type: integer `5`, expected a string");
    row("meta: duplicate run member", "{\"kind\":\"meta\",\"schema\":\"s\",\"run_id\":\"r\",\"run_id\":\"r\"}",
        "duplicate field `run_id`");
    row("meta: first missing run member", "{\"kind\":\"meta\",\"schema\":\"s\"}", "missing field `run_id`");
    row("edge: bad edge_kind beats an earlier field error", "{\"kind\":\"edge\",\"from_span\":5,\"edge_kind\":\"x\"}",
        "unknown variant `x`, expected `call` or `data`");
    row("edge: missing edge_kind beats field errors", "{\"kind\":\"edge\",\"from_span\":5}",
        "missing field `edge_kind`");
    row("edge: duplicate edge_kind beats an earlier field error",
        "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":5,\"edge_kind\":\"call\"}",
        "duplicate field `edge_kind`");
    row("edge: duplicate edge_kind, general layout",
        "{\"kind\":\"edge\",\"from_span\":5,\"edge_kind\":\"call\",\"edge_kind\":\"data\"}",
        "duplicate field `edge_kind`");
    row("edge: the first edge_kind error wins", "{\"kind\":\"edge\",\"edge_kind\":\"x\",\"edge_kind\":\"call\"}",
        "unknown variant `x`, expected `call` or `data`");
    row("edge: missing variant field",
        "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"a\",\"to_span\":\"b\"}",
        "missing field `host_duration_ns`");
    row("edge: a syntax error beats the edge_kind error", "{\"kind\":\"edge\",\"edge_kind\":\"zzz\",\"x\":tru}",
        "expected ident at line 1 column 41");
    row("edge: a duplicate kind beats the edge_kind error",
        "{\"kind\":\"edge\",\"edge_kind\":\"zzz\",\"kind\":\"edge\"}", "duplicate field `kind` at line 1 column 39");
    row("missing field beats trailing text", "{\"kind\":\"span_end\"} x", "missing field `id`");
    row("scalar line beats trailing text", "5x",
        "invalid type: integer `5`, expected internally tagged enum TraceEvent at line 1 column 1");
    row("duplicate kind (scan) beats an earlier type error", "{\"kind\":\"span_end\",\"id\":5,\"kind\":\"span_end\"}",
        "duplicate field `kind` at line 1 column 32");
    row("syntax error beats an earlier type error", "{\"kind\":\"span_end\",\"id\":5,\"x\":tru}",
        "expected ident at line 1 column 34");
    row("first type error in member order", "{\"kind\":\"span_end\",\"duration_ns\":\"x\",\"id\":5}",
        "invalid type: string \"x\", expected u64");
    row("type error beats missing fields", "{\"kind\":\"op\",\"span_id\":\"s\",\"op_name\":5}",
        "invalid type: integer `5`, expected a string");
    row("syntax error beats a missing kind", "{\"id\":\"x\",\"y\":tru}", "expected ident at line 1 column 18");
    row("members before a late kind are matched too", "{\"span_id\":\"s\",\"kind\":\"span_end\",\"id\":\"a\"}", "OK");
    row("type error before a late kind", "{\"id\":5,\"kind\":\"span_end\"}",
        "invalid type: integer `5`, expected a string");
    row("30-digit integer in an unknown member",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":123456789012345678901234567890}", "OK");
    row("310-digit integer in an unknown member",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000}",
        "number out of range at line 1 column 342");
    row("invalid escape in an unknown member", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":\"\\x\"}",
        "invalid escape at line 1 column 35");
    row("kind inside an unknown object means nothing",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":{\"kind\":\"bogus\",\"kind\":5}}", "OK");
    row("repeated unknown key", "{\"kind\":\"span_end\",\"id\":\"a\",\"x\":1,\"x\":2}", "OK");
    row("keys are compared after unescaping", "{\"\\u006bind\":\"span_end\",\"\\u0069d\":\"a\"}", "OK");
    row("KIND is an unknown member", "{\"KIND\":\"span_end\",\"id\":\"a\"}",
        "missing field `kind` at line 1 column 28");
    row("duplicate kind: column of its closing quote",
        "{\"kind\":\"span_end\",\"id\":\"s-root\",\"kind\":\"span_end\",\"duration_ns\":8000}",
        "duplicate field `kind` at line 1 column 39");
    row("duplicate kind: plus the closing brace", "{\"kind\":\"span_end\",\"kind\"}",
        "duplicate field `kind` at line 1 column 26");
    row("duplicate kind: plus the whitespace after it", "{\"kind\":\"span_end\",\"kind\"  :\"x\"}",
        "duplicate field `kind` at line 1 column 27");
    row("duplicate struct field with equal values", "{\"kind\":\"span_end\",\"id\":\"a\",\"id\":\"a\"}",
        "duplicate field `id`");
    row("missing kind: column of the closing brace", "{\"id\":\"s-root\",\"duration_ns\":8000}",
        "missing field `kind` at line 1 column 34");
    row("missing kind after whitespace", "{\"id\":\"s-root\" }", "missing field `kind` at line 1 column 16");
    row("empty object", "{}", "missing field `kind` at line 1 column 2");
    row("first missing field in declaration order", "{\"kind\":\"span_start\",\"name\":\"n\"}", "missing field `id`");
    row("param_key is an unknown member",
        "{\"kind\":\"gradient\",\"event_id\":\"g\",\"root\":\"r\",\"param_key\":\"k\",\"state\":\"present\"}",
        "missing field `key`");
    row("null for a defaulted u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":null}",
        "invalid type: null, expected u64");
    row("boolean for u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":true}",
        "invalid type: boolean `true`, expected u64");
    row("false for u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":false}",
        "invalid type: boolean `false`, expected u64");
    row("negative integer in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":-1}",
        "invalid value: integer `-1`, expected u64");
    row("-2^63 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":-9223372036854775808}",
        "invalid value: integer `-9223372036854775808`, expected u64");
    row("-0 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":-0}",
        "invalid type: floating point `-0.0`, expected u64");
    row("1e3 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":1e3}",
        "invalid type: floating point `1000.0`, expected u64");
    row("1.0 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":1.0}",
        "invalid type: floating point `1.0`, expected u64");
    row("0e400 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":0e400}",
        "invalid type: floating point `0.0`, expected u64");
    row("1e20 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":1e20}",
        "invalid type: floating point `1e+20`, expected u64");
    row("2^64 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":18446744073709551616}",
        "invalid type: floating point `1.8446744073709552e+19`, expected u64");
    row("below -2^63 in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":-9223372036854775809}",
        "invalid type: floating point `-9.223372036854776e+18`, expected u64");
    row("inexact float in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":0.9157037119440723}",
        "invalid type: floating point `0.9157037119440724`, expected u64");
    row("numeric string in u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":\"5\"}",
        "invalid type: string \"5\", expected u64");
    row("string with escapes in u64",
        "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":\"a\\\"b\\nc\\u200b\\u0000\"}",
        "invalid type: string \"a\\\"b\\nc\\u{200b}\\0\", expected u64");
    row("array for u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":[1]}",
        "invalid type: sequence, expected u64");
    row("object for u64", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":{\"a\":1}}",
        "invalid type: map, expected u64");
    row("u64 max", "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":18446744073709551615}", "OK");
    row("integer for a string", "{\"kind\":\"span_end\",\"id\":5}", "invalid type: integer `5`, expected a string");
    row("null for a required string", "{\"kind\":\"span_end\",\"id\":null}", "invalid type: null, expected a string");
    row("usize in a shape",
        "{\"kind\":\"tensor\",\"span_id\":\"s\",\"tensor_id\":\"t\",\"shape\":[1,-2],\"dtype\":\"f32\",\"device\":\"cpu\"}",
        "invalid value: integer `-2`, expected usize");
    row("string in a shape",
        "{\"kind\":\"tensor\",\"span_id\":\"s\",\"tensor_id\":\"t\",\"shape\":[1,\"2\"],\"dtype\":\"f32\",\"device\":\"cpu\"}",
        "invalid type: string \"2\", expected usize");
    row("float in f64 accepted, integer too",
        "{\"kind\":\"gradient\",\"event_id\":\"g\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\",\"norm\":1}",
        "OK");
    row("string for f64",
        "{\"kind\":\"gradient\",\"event_id\":\"g\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\",\"norm\":\"1\"}",
        "invalid type: string \"1\", expected f64");
    row("null for a defaulted bool",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"op\",\"measured\":null}",
        "invalid type: null, expected a boolean");
    row("integer for a bool",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"op\",\"measured\":1}",
        "invalid type: integer `1`, expected a boolean");
    row("null for a defaulted list",
        "{\"kind\":\"op\",\"span_id\":\"s\",\"op_name\":\"m\",\"inputs\":null,\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":1,\"input_dense_bytes\":0}",
        "invalid type: null, expected a sequence");
    row("integer in an id list",
        "{\"kind\":\"op\",\"span_id\":\"s\",\"op_name\":\"m\",\"inputs\":[\"a\",5],\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":1,\"input_dense_bytes\":0}",
        "invalid type: integer `5`, expected a string");
    row("scalar line: string", "\"x\"",
        "invalid type: string \"x\", expected internally tagged enum TraceEvent at line 1 column 3");
    row("scalar line: null", "null",
        "invalid type: null, expected internally tagged enum TraceEvent at line 1 column 4");
    row("scalar line: true", "true",
        "invalid type: boolean `true`, expected internally tagged enum TraceEvent at line 1 column 4");
    row("scalar line: float", "-1.5e3",
        "invalid type: floating point `-1500.0`, expected internally tagged enum TraceEvent at line 1 column 6");
    row("scalar line: bad literal", "nul", "EOF while parsing a value at line 1 column 3");
    row("scalar line: ]", "]", "expected value at line 1 column 1");
    row("unknown variant, three or more values",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"Function\"}",
        "unknown variant `Function`, expected one of `function`, `op`, `module`");
    row("unknown variant, two values", "{\"kind\":\"terminal\",\"outcome\":\"done\",\"timestamp_ns\":1}",
        "unknown variant `done`, expected `complete` or `failed`");
    row("unknown variant text is raw",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"a\\nb\\u0000c\"}",
        "unknown variant `a\x0a"
        "b\x00"
        "c`, expected one of `function`, `op`, `module`");
    row("map form with null",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"function\":null}}", "OK");
    row("map form with {}",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"module\": { } }}", "OK");
    row("map form, unknown key",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"bogus\":null}}",
        "unknown variant `bogus`, expected one of `function`, `op`, `module`");
    row("map form, index key",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"0\":null}}",
        "unknown variant `0`, expected one of `function`, `op`, `module`");
    row("map form, integer value",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"op\":1}}",
        "invalid type: integer `1`, expected unit");
    row("map form, string value",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"op\":\"x\"}}",
        "invalid type: string \"x\", expected unit");
    row("map form, array value",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"op\":[]}}",
        "invalid type: sequence, expected unit");
    row("map form, non-empty object value",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"op\":{\"a\":null}}}",
        "invalid type: map, expected unit");
    row("map form, no member", "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{}}",
        "invalid value: map, expected map with a single key");
    row("map form, two members",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":{\"bogus\":1,\"op\":null}}",
        "invalid value: map, expected map with a single key");
    row("integer for an enum", "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":0}",
        "invalid type: integer `0`, expected string or map");
    row("null for a required enum",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":null}",
        "invalid type: null, expected string or map");
    row("array for an enum",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":[\"op\"]}",
        "invalid type: sequence, expected string or map");
    row("null for the optional step",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"op\",\"step\":null}",
        "OK");
    row("map form for the step",
        "{\"kind\":\"span_start\",\"id\":\"x\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"op\",\"step\":{\"backward\":null}}",
        "OK");
    row("map form for a defaulted category",
        "{\"kind\":\"tensor\",\"span_id\":\"s\",\"tensor_id\":\"t\",\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\",\"category\":{\"other\":{}}}",
        "OK");
    row("kind: unknown, escapes counted by bytes", "{\"kind\":\"bog\\u0075s\"}",
        "unknown variant `bogus`, expected one of `meta`, `span_start`, `span_end`, `op`, `tensor`, `tensor_stats`, `memory`, `device_memory`, `device_interval`, `gradient`, `edge`, `terminal` at line 1 column 20");
    row("kind: integer", "{\"kind\":5}", "invalid type: integer `5`, expected variant identifier at line 1 column 9");
    row("kind: -0", "{\"kind\":-0}",
        "invalid type: floating point `-0.0`, expected variant identifier at line 1 column 10");
    row("kind: null", "{\"kind\":null}", "invalid type: null, expected variant identifier at line 1 column 12");
    row("kind: true", "{\"kind\":true}",
        "invalid type: boolean `true`, expected variant identifier at line 1 column 12");
    row("kind: array", "{\"kind\":[]}", "invalid type: sequence, expected variant identifier at line 1 column 8");
    row("kind: array after a space", "{\"kind\": []}",
        "invalid type: sequence, expected variant identifier at line 1 column 9");
    row("kind: object", "{\"kind\":{\"span_end\":null}}",
        "invalid type: map, expected variant identifier at line 1 column 8");
    row("kind: not accepted as an index", "{\"kind\":2,\"id\":\"a\"}",
        "invalid type: integer `2`, expected variant identifier at line 1 column 9");
    row("kind: EOF", "{\"kind\":", "EOF while parsing a value at line 1 column 8");
    row("edge_kind 1 is data", "{\"kind\":\"edge\",\"edge_kind\":1,\"from_tensor\":\"a\",\"to_tensor\":\"b\"}", "OK");
    row("edge_kind 0 is call",
        "{\"kind\":\"edge\",\"edge_kind\":0,\"from_span\":\"a\",\"to_span\":\"b\",\"host_duration_ns\":1}", "OK");
    row("edge_kind 2", "{\"kind\":\"edge\",\"edge_kind\":2,\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid value: integer `2`, expected variant index 0 <= i < 2");
    row("edge_kind -1", "{\"kind\":\"edge\",\"edge_kind\":-1,\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid type: integer `-1`, expected variant identifier");
    row("edge_kind 1.5", "{\"kind\":\"edge\",\"edge_kind\":1.5,\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid type: floating point `1.5`, expected variant identifier");
    row("edge_kind null", "{\"kind\":\"edge\",\"edge_kind\":null,\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid type: null, expected variant identifier");
    row("edge_kind true", "{\"kind\":\"edge\",\"edge_kind\":true,\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid type: boolean `true`, expected variant identifier");
    row("edge_kind array", "{\"kind\":\"edge\",\"edge_kind\":[],\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid type: sequence, expected variant identifier");
    row("edge_kind map form is refused",
        "{\"kind\":\"edge\",\"edge_kind\":{\"data\":null},\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "invalid type: map, expected variant identifier");
    row("edge_kind string", "{\"kind\":\"edge\",\"edge_kind\":\"Data\",\"from_tensor\":\"a\",\"to_tensor\":\"b\"}",
        "unknown variant `Data`, expected `call` or `data`");
    row("array: [] ", "[]", "missing field `kind` at line 1 column 2");
    row("array: [ ]", "[ ]", "missing field `kind` at line 1 column 3");
    row("array: [5]", "[5]", "invalid type: integer `5`, expected variant identifier at line 1 column 2");
    row("array: [\"bogus\"]", "[\"bogus\"]",
        "unknown variant `bogus`, expected one of `meta`, `span_start`, `span_end`, `op`, `tensor`, `tensor_stats`, `memory`, `device_memory`, `device_interval`, `gradient`, `edge`, `terminal` at line 1 column 8");
    row("array: [[]] tag", "[[]]", "invalid type: sequence, expected variant identifier at line 1 column 1");
    row("array: meta", "[\"meta\",\"candle-graph/trace/10\"]",
        "invalid type: sequence, expected struct variant TraceEvent::Meta");
    row("array: meta, scan errors still win", "[\"meta\",tru]", "expected ident at line 1 column 12");
    row("array: EOF after the tag", "[\"span_end\"", "EOF while parsing a list at line 1 column 11");
    row("array: trailing comma", "[\"span_end\",\"a\",]", "trailing comma at line 1 column 17");
    row("array: null at a defaulted position", "[\"span_end\",\"root\",null]", "invalid type: null, expected u64");
    row("array: null at a required position", "[\"span_end\",null]", "invalid type: null, expected a string");
    row("array: type error beats too many", "[\"span_end\",5,1,2]", "invalid type: integer `5`, expected a string");
    row("array: surplus elements are not type-checked", "[\"span_end\",\"a\",1,{\"x\":[]}]",
        "invalid length 3, expected 2 elements in sequence");
    row("array: surplus elements are scanned", "[\"span_end\",\"a\",1,tru]", "expected ident at line 1 column 22");
    row("array: op example of \xc2\xa7"
        "5.2",
        "[\"op\",\"s\",\"gelu\",[],null,[64],\"f32\",\"cpu\",900,1200]",
        "invalid length 10, expected struct OpEvent with 11 elements");
    row("array: trailing defaults and optionals", "[\"tensor\",\"s\",\"t\",null,[2],\"f32\",\"cpu\"]", "OK");
    row("array: span_end with its default", "[\"span_end\",\"a\"]", "OK");
    row("edge array: missing edge_kind", "[\"edge\"]", "missing field `edge_kind`");
    row("edge array: call without fields", "[\"edge\",\"call\"]",
        "invalid length 0, expected struct variant EdgeEvent::Call with 3 elements");
    row("edge array: data with one field", "[\"edge\",\"data\",\"a\"]",
        "invalid length 1, expected struct variant EdgeEvent::Data with 2 elements");
    row("edge array: too many", "[\"edge\",\"call\",\"a\",\"b\",1,2]",
        "invalid length 4, expected 3 elements in sequence");
    row("edge array: index tag", "[\"edge\",1,\"a\",\"b\"]", "OK");
    row("edge array: bad tag", "[\"edge\",2,\"a\",\"b\"]",
        "invalid value: integer `2`, expected variant index 0 <= i < 2");
    row("edge array: unknown tag", "[\"edge\",\"x\"]", "unknown variant `x`, expected `call` or `data`");
    row("meta: capture_contract as an array",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":[\"unknown\",\"none\",\"none\",\"none\",null,\"none\",\"none\",\"none\"],\"tags\":{}}",
        "OK");
    row("meta: capture_contract array too short",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":[\"unknown\"],\"tags\":{}}",
        "invalid length 1, expected struct CaptureContract with 11 elements");
    row("meta: capture_contract array skips defaulted positions",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":[\"unknown\",\"none\"],\"tags\":{}}",
        "invalid length 5, expected struct CaptureContract with 11 elements");
    row("meta: capture_contract array too long",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":[\"unknown\",\"none\",\"none\",\"none\",null,\"none\",\"none\",\"none\",[],[],[],5],\"tags\":{}}",
        "invalid length 12, expected 11 elements in sequence");
    row("meta: capture_contract as a string",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":\"x\",\"tags\":{}}",
        "invalid type: string \"x\", expected struct CaptureContract");
    row("meta: duplicate member inside capture_contract",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{}}",
        "duplicate field `operations`");
    row("meta: missing member inside capture_contract",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\"},\"tags\":{}}",
        "missing field `device_timing`");
    row("meta: comparison_identity as an array",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"comparison_identity\":[null,\"w\",\"m\",\"c\",\"d\",\"s\",1,1,\"p\",\"ds\"],\"tags\":{}}",
        "OK");
    row("meta: comparison_identity array too short",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"comparison_identity\":[null,\"w\"],\"tags\":{}}",
        "invalid length 2, expected struct ComparisonIdentity with 11 elements");
    row("meta: gradient_contract with array entries",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"gradient_contract\":[\"sha256:00\",[[\"r\",\"k\",\"f\"]],[[\"f\",\"active\",1]]],\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{}}",
        "OK");
    row("meta: family entry array too long",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"gradient_contract\":[\"sha256:00\",[],[[\"f\",\"active\",1,2]]],\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{}}",
        "invalid length 4, expected 3 elements in sequence");
    row("meta: min_present is a usize",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"gradient_contract\":{\"manifest_sha256\":\"m\",\"expected\":[],\"families\":[{\"family\":\"f\",\"expectation\":\"active\",\"min_present\":-1}]},\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{}}",
        "invalid value: integer `-1`, expected usize");
    row("meta: tags as an array",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":[]}",
        "invalid type: sequence, expected a map");
    row("meta: tags null",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":null}",
        "invalid type: null, expected a map");
    row("meta: tags value not a string",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{\"a\":\"x\",\"b\":1}}",
        "invalid type: integer `1`, expected a string");
    row("meta: repeated tags key is fine",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{\"a\":\"x\",\"a\":\"y\"}}",
        "OK");
    row("meta: null for a required nested structure",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":null,\"tags\":{}}",
        "invalid type: null, expected struct CaptureContract");
    row("meta: null for the optional comparison_identity",
        "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"unknown\",\"operations\":\"none\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"comparison_identity\":null,\"tags\":{}}",
        "OK");
#undef row
}

void tst_LineDecoder::rules()
{
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, expected);
    Trace trace;
    DecodedEvent event;
    QCOMPARE(decodeLine(line, trace, event), expected);
}

// §5.2: the type name T and field count K of every kind, with the position of the first
// required field, from the spec's table; `full` is a valid array of all K fields.
void tst_LineDecoder::arrayLengths_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("typeName");
    QTest::addColumn<int>("fields");
    QTest::addColumn<int>("firstRequired");
    QTest::addColumn<QByteArray>("full");
    auto row = [](const char *kind, const char *typeName, int k, int firstRequired, const char *full) {
        QTest::newRow(kind) << QByteArray(kind) << QByteArray(typeName) << k << firstRequired << QByteArray(full);
    };
    row("span_start", "struct SpanStartEvent", 7, 0, R"("s","p","n",1,"op",true,"forward")");
    row("span_end", "struct SpanEndEvent", 2, 0, R"("s",5)");
    row("op", "struct OpEvent", 11, 0, R"("s","mm",["a"],"o",[2],"f32","cpu",3,4,8,9)");
    row("tensor", "struct TensorEvent", 9, 0, R"("s","t","l",[2],"f32","cpu",false,8,"activation")");
    row("tensor_stats", "struct TensorStatsEvent", 9, 0, R"("s","l",[2],"f32",2,0,1.5,2,-0.5)");
    row("memory", "struct MemoryEvent", 11, 0, R"(1,"st","t","s","mm","cpu",8,"alloc",[2],"f32","other")");
    row("device_memory", "struct DeviceMemoryEvent", 6, 0, R"(1,"cuda:0",1,2,3,4)");
    row("device_interval", "struct DeviceIntervalEvent", 7, 0, R"("s","cuda:0","st","clk","cuda",1,2)");
    row("gradient", "struct GradientEvent", 5, 0, R"("g","vb","w","present",0.5)");
    row("terminal", "struct TerminalEvent", 3, 0, R"("failed",7,"oom")");
    row("edge call", "struct variant EdgeEvent::Call", 3, 0, R"("call","a","b",1)");
    row("edge data", "struct variant EdgeEvent::Data", 2, 0, R"("data","a","b")");
}

void tst_LineDecoder::arrayLengths()
{
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, typeName);
    QFETCH(int, fields);
    QFETCH(int, firstRequired);
    QFETCH(QByteArray, full);
    const bool edge = kind.startsWith("edge");
    QByteArray head = "[\"" + kind + "\"";
    QByteArray rest = full;
    if (edge) { // ["edge", <edge_kind>, fields…]
        head = QByteArray(R"(["edge",)") + full.left(full.indexOf(','));
        rest = full.mid(full.indexOf(',') + 1);
    }
    Trace trace;
    DecodedEvent event;
    // Exactly K fields decode.
    QCOMPARE(decodeLine(head + "," + rest + "]", trace, event), QByteArray("OK"));
    // None: the first required position is missing.
    QCOMPARE(decodeLine(head + "]", trace, event), "invalid length " + QByteArray::number(firstRequired) + ", expected "
                                                       + typeName + " with " + QByteArray::number(fields)
                                                       + " elements");
    // One too many, after all K decoded.
    QCOMPARE(decodeLine(head + "," + rest + ",null]", trace, event), "invalid length " + QByteArray::number(fields + 1)
                                                                         + ", expected " + QByteArray::number(fields)
                                                                         + " elements in sequence");
}

// §5.2: a record given as an array is the same record as the object (normalization writes it
// as the object, with defaults and derived sizes).
void tst_LineDecoder::arrayFormEqualsObjectForm_data()
{
    QTest::addColumn<QByteArray>("arrayForm");
    QTest::addColumn<QByteArray>("objectForm");
    QTest::newRow("span_start")
        << QByteArray(R"(["span_start","s",null,"n",1,"function",true,"forward"])")
        << QByteArray(
               R"({"kind":"span_start","id":"s","name":"n","start_ns":1,"span_kind":"function","measured":true,"step":"forward"})");
    QTest::newRow("span_start, trailing defaults")
        << QByteArray(R"(["span_start","s","p","n",1,"op"])")
        << QByteArray(R"({"kind":"span_start","id":"s","parent_id":"p","name":"n","start_ns":1,"span_kind":"op"})");
    QTest::newRow("op")
        << QByteArray(R"(["op","s","mm",["a","b"],null,[2,3],"f32","cpu",5,6,null,7])")
        << QByteArray(
               R"({"kind":"op","span_id":"s","op_name":"mm","inputs":["a","b"],"shape":[2,3],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":6,"input_dense_bytes":7})");
    QTest::newRow("tensor")
        << QByteArray(R"(["tensor","s","t",null,[4],"bf16","cpu"])")
        << QByteArray(R"({"kind":"tensor","span_id":"s","tensor_id":"t","shape":[4],"dtype":"bf16","device":"cpu"})");
    QTest::newRow("tensor_stats")
        << QByteArray(R"(["tensor_stats","s","l",[],"f32",1,0,1,2,-0.5])")
        << QByteArray(
               R"({"kind":"tensor_stats","span_id":"s","label":"l","shape":[],"dtype":"f32","elements":1,"non_finite":0,"rms":1,"abs_max":2,"mean":-0.5})");
    QTest::newRow("memory, map-form action")
        << QByteArray(R"(["memory",1,"st","t","s",null,"cpu",8,{"free":{}},[],"u8"])")
        << QByteArray(
               R"({"kind":"memory","timestamp_ns":1,"storage_id":"st","tensor_id":"t","span_id":"s","device":"cpu","bytes":8,"action":"free","dtype":"u8"})");
    QTest::newRow("device_memory")
        << QByteArray(R"(["device_memory",5,"cpu",null,null,null,64])")
        << QByteArray(R"({"kind":"device_memory","timestamp_ns":5,"device":"cpu","capacity_bytes":64})");
    QTest::newRow("device_interval")
        << QByteArray(R"(["device_interval","s","d","st","c","b",1,2])")
        << QByteArray(
               R"({"kind":"device_interval","span_id":"s","device":"d","stream_id":"st","clock_id":"c","backend":"b","start_ns":1,"duration_ns":2})");
    QTest::newRow("gradient") << QByteArray(R"(["gradient","g","vb","w",{"zero":null}])")
                              << QByteArray(
                                     R"({"kind":"gradient","event_id":"g","root":"vb","key":"w","state":"zero"})");
    QTest::newRow("edge call by index")
        << QByteArray(R"(["edge",0,"a","b",3])")
        << QByteArray(R"({"kind":"edge","edge_kind":"call","from_span":"a","to_span":"b","host_duration_ns":3})");
    QTest::newRow("edge data") << QByteArray(R"(["edge","data","a","b"])")
                               << QByteArray(R"({"kind":"edge","edge_kind":"data","from_tensor":"a","to_tensor":"b"})");
    QTest::newRow("whitespace inside") << QByteArray("[ \"span_end\" ,\t\"s\" , 4 ]")
                                       << QByteArray(R"({"kind":"span_end","id":"s","duration_ns":4})");
}

void tst_LineDecoder::arrayFormEqualsObjectForm()
{
    QFETCH(QByteArray, arrayForm);
    QFETCH(QByteArray, objectForm);
    // span_end needs its span_start; every other record stands alone at load.
    const std::string prefix = arrayForm.contains("span_end")
                                   ? R"({"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":"op"})"
                                     "\n"
                                   : "";
    bool okArray = false;
    bool okObject = false;
    const std::string a = normalizedOf(prefix + arrayForm.toStdString(), true, &okArray);
    const std::string o = normalizedOf(prefix + objectForm.toStdString(), true, &okObject);
    QVERIFY2(okArray, a.c_str());
    QVERIFY2(okObject, o.c_str());
    QCOMPARE(QByteArray::fromStdString(a), QByteArray::fromStdString(o));
}

// §5.5: map forms and integer edge kinds are written back as the plain strings.
void tst_LineDecoder::enumMapFormsWrittenAsStrings()
{
    const std::string out = normalizedOf(
        R"({"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":{"module":{}},"step":{"optimizer":null}})"
        "\n"
        R"({"kind":"edge","edge_kind":1,"from_tensor":"a","to_tensor":"b"})");
    QVERIFY2(out.find(R"("span_kind":"module","measured":false,"step":"optimizer"})") != std::string::npos,
             out.c_str());
    QVERIFY2(out.find(R"({"kind":"edge","edge_kind":"data","from_tensor":"a","to_tensor":"b"})") != std::string::npos,
             out.c_str());
}

// §5.3: a repeated `tags` key is no error; the last value wins and the map stays sorted.
void tst_LineDecoder::tagsDuplicateLastWins()
{
    std::string meta = kMeta;
    meta.replace(meta.find(R"("tags":{})"), 9, R"("tags":{"model":"a","batch":"8","model":"b"})");
    const std::string out = normalizedOf(meta, false);
    QVERIFY2(out.find(R"("tags":{"batch":"8","model":"b"})") != std::string::npos, out.c_str());
}

// The schema tables agree with the §5.2 table (names in declaration order).
void tst_LineDecoder::schemaTables()
{
    auto names = [](const StructSpec &s) {
        QStringList out;
        for (const FieldSpec &f : s.fields)
            out << QString::fromLatin1(f.name.data(), qsizetype(f.name.size()));
        return out.join(QLatin1Char(','));
    };
    QCOMPARE(names(eventSpec(EventKind::SpanStart)),
             QStringLiteral("id,parent_id,name,start_ns,span_kind,measured,step"));
    QCOMPARE(
        names(eventSpec(EventKind::Op)),
        QStringLiteral(
            "span_id,op_name,inputs,output,shape,dtype,device,duration_ns,timestamp_ns,output_dense_bytes,input_dense_bytes"));
    QCOMPARE(
        names(eventSpec(EventKind::Memory)),
        QStringLiteral("timestamp_ns,storage_id,tensor_id,span_id,op_name,device,bytes,action,shape,dtype,category"));
    QCOMPARE(names(structSpec(WireStruct::CaptureContract)),
             QStringLiteral(
                 "measurement_scope,operations,tensors,gradients,gradient_contract,logical_memory,physical_memory,"
                 "device_timing,required_semantic_labels,gpu_expected_semantic_labels,cpu_only_semantic_labels"));
    QCOMPARE(names(structSpec(WireStruct::ComparisonIdentity)),
             QStringLiteral("implementation_id,workload_id,model_id,config_id,data_id,seed_policy,physical_batch,"
                            "accumulation_steps,precision,device_state,pair_id"));
    QCOMPARE(eventSpec(EventKind::TensorStats).requiredMask, 0x1FFu);
    QCOMPARE(eventSpec(EventKind::DeviceMemory).requiredMask, 0x3u);
}

QTEST_GUILESS_MAIN(tst_LineDecoder)
#include "tst_linedecoder.moc"
