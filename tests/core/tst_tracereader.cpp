// SPDX-License-Identifier: MIT
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "tests/testutils/generator.h"
#include "core/compat/rustformat.h"
#include "core/io/spanidorder.h"
#include "core/io/tracereader.h"
#include "core/io/usablecores.h"

using namespace TraceInspector;

class TestTraceReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void examples_data();
    void examples();
    void exampleContents();
    void decoding_data();
    void decoding();
    void lineFraming();
    void hardRules_data();
    void hardRules();
    void decodeErrorWinsOverStreamRule();
    void messagesCarryEveryByte_data();
    void messagesCarryEveryByte();
    void problemColumnCountsTrimmedBytes();
    void tolerantKeepsValidRecords();
    void missingFile();
    void smallChunksMatchOneBuffer();
    void corruptedGeneratedTrace();
    void segmentsFollowTheCores_data();
    void segmentsFollowTheCores();
    void segmentsMatchSingleThread();
    void spanRulesAcrossSegments_data();
    void spanRulesAcrossSegments();
    void longLinesDecidedByTheirStart_data();
    void longLinesDecidedByTheirStart();
    void spansInIdOrder_data();
    void spansInIdOrder();
    void assembledSpansInIdOrder_data();
    void assembledSpansInIdOrder();
    void longUnsupportedSchemaHeldOnce_data();
    void longUnsupportedSchemaHeldOnce();
};

namespace {

QString examplesDir()
{
    return QStringLiteral(TI_EXAMPLES_DIR);
}

std::string readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

const std::string kMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer",)"
    R"("timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":)"
    R"({"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none",)"
    R"("device_timing":"none"},"tags":{}})";
const std::string kRoot =
    R"({"kind":"span_start","id":"root","name":"n","start_ns":0,"span_kind":"function","measured":true})";
const std::string kRootEnd = R"({"kind":"span_end","id":"root","duration_ns":100})";
const std::string kTerminal = R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000})";

/// meta + root span + the given middle lines + end + terminal.
std::string wrap(const std::string &middle)
{
    return kMeta + "\n" + kRoot + "\n" + middle + (middle.empty() ? "" : "\n") + kRootEnd + "\n" + kTerminal + "\n";
}

/// A literal's bytes, NULs included.
template<std::size_t N>
QByteArray bytesOf(const char (&text)[N])
{
    return QByteArray(text, qsizetype(N - 1));
}

QString strictMessage(const ReadResult &r)
{
    return r.strictError ? QString::fromStdString(r.strictError->message) : QStringLiteral("VALID");
}

} // namespace

void TestTraceReader::examples_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(examplesDir());
    const QStringList files = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 10, "the spec examples are missing");
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}
void TestTraceReader::examples()
{
    QFETCH(QString, file);
    QString expectedPath = file;
    expectedPath.replace(QStringLiteral(".jsonl"), QStringLiteral(".expected"));
    QString expected = QString::fromStdString(readAll(expectedPath));
    QVERIFY(expected.endsWith(QLatin1Char('\n')));
    expected.chop(1);
    // A parse error names the file as the reference printed it (the bare name); a reader given
    // another path prints that path (Appendix A).
    const QString bare = QFileInfo(file).fileName();
    expected.replace(QStringLiteral(" from ") + bare + QStringLiteral(": "),
                     QStringLiteral(" from ") + file + QStringLiteral(": "));
    const ReadResult r = TraceReader::readFile(file.toStdString());
    QVERIFY(r.trace);
    QCOMPARE(strictMessage(r), expected);
    // And read from memory under the bare name, the message is the .expected line itself.
    const ReadResult named = TraceReader::readBytes(readAll(file), bare.toStdString());
    QCOMPARE(strictMessage(named), QString::fromStdString(readAll(expectedPath)).chopped(1));
    if (expected == QLatin1String("VALID")) {
        // The tolerant load adds nothing upstream would not reject.
        QVERIFY(r.problems.empty());
    } else {
        // The tolerant load reports the same problem among its list and keeps the rest:
        // the meta record unless it is the line that failed.
        bool listed = false;
        for (const Problem &p : r.problems)
            listed = listed || QString::fromStdString(p.message) == expected;
        QVERIFY(listed);
        if (r.strictError->ruleId != "E-LINE-PARSE" || r.strictError->line != 1)
            QVERIFY(r.trace->meta.has_value());
        else
            QVERIFY(!r.trace->meta.has_value()); // example 14: the meta line itself failed
    }
}

void TestTraceReader::exampleContents()
{
    const ReadResult r =
        TraceReader::readFile(QString(examplesDir() + QStringLiteral("/01_valid_trace10_forward.jsonl")).toStdString());
    QVERIFY(r.accepted());
    const Trace &t = *r.trace;
    QCOMPARE(t.spans.size(), std::size_t(2));
    QCOMPARE(t.str(t.spans[0].id), std::string_view("span-matmul")); // id order, not stream order
    QCOMPARE(t.spans[0].startLine, 4u);
    QCOMPARE(t.spans[0].endLine, 10u);
    QCOMPARE(t.ops.size(), std::size_t(1));
    QVERIFY(t.ops[0].hasOutputDenseBytes);
    QCOMPARE(t.ops[0].outputDenseBytes, std::uint64_t(393216));
    QCOMPARE(t.idLists.view(t.ops[0].inputs).size(), std::size_t(2));
    QCOMPARE(t.tensors[0].denseBytes, std::uint64_t(1179648));
    QCOMPARE(t.tensorStats.size(), std::size_t(1));
    QCOMPARE(t.tensorStats[0].mean, -0.0078125);
    QCOMPARE(t.memory.size(), std::size_t(2));
    QCOMPARE(t.deviceMemory.size(), std::size_t(2));
    QVERIFY(t.deviceMemory[0].has(DeviceMemorySample::Capacity));
    QCOMPARE(t.edges.size(), std::size_t(2));
    QCOMPARE(t.edges[1].kind, EdgeKind::Data);
    QVERIFY(t.terminal);
    QCOMPARE(t.meta->tags.size(), std::size_t(3));
    QCOMPARE(t.meta->captureContract.requiredSemanticLabels.size(), std::size_t(1));
    QCOMPARE(t.lineCount, std::uint64_t(16));

    const ReadResult r2 =
        TraceReader::readFile(QString(examplesDir() + QStringLiteral("/02_valid_trace9_train.jsonl")).toStdString());
    QVERIFY(r2.accepted());
    QVERIFY(r2.trace->meta->comparisonIdentity);
    QCOMPARE(r2.trace->meta->comparisonIdentity->physicalBatch, std::uint64_t(4));
    QCOMPARE(r2.trace->gradients.size(), std::size_t(2));
    QCOMPARE(r2.trace->gradients[1].norm, 1.0);
    QCOMPARE(r2.trace->spans[1].step, ExecutionStep::Forward);
}

// §5: what decodes and what does not. `cause` is a substring of the expected serde text.
void TestTraceReader::decoding_data()
{
    QTest::addColumn<QByteArray>("line"); // not QString: fromUtf8 would drop a BOM
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("cause");
    auto row = [](const char *name, const std::string &line, bool ok, const char *cause = "") {
        QTest::newRow(name) << QByteArray::fromStdString(line) << ok << QString::fromUtf8(cause);
    };
    const std::string op =
        R"("kind":"op","span_id":"root","op_name":"m","shape":[2,3],"dtype":"f32","device":"cpu","duration_ns":1,"input_dense_bytes":0)";
    row("plain op", "{" + op + "}", true);
    row("kind last",
        R"({"span_id":"root","op_name":"m","shape":[],"dtype":"f32","device":"cpu","duration_ns":1,"input_dense_bytes":0,"kind":"op"})",
        true);
    row("unknown member ignored", "{" + op + R"(,"extra":{"a":[1,2,{"b":null}]}})", true);
    row("escaped key",
        R"({"kind":"op","span_\u0069d":"root","op_name":"m","shape":[],"dtype":"f32","device":"cpu","duration_ns":1,"input_dense_bytes":0})",
        true);
    row("null optional", "{" + op + R"(,"output":null,"output_dense_bytes":null})", true);
    row("missing field",
        R"({"kind":"op","span_id":"root","op_name":"m","shape":[],"dtype":"f32","device":"cpu","duration_ns":1})",
        false, "missing field `input_dense_bytes`");
    row("missing kind", R"({"span_id":"root"})", false, "missing field `kind`");
    row("unknown kind", R"({"kind":"heartbeat"})", false, "unknown variant `heartbeat`, expected one of `meta`");
    row("wrong type", "{" + std::string(R"("kind":"span_end","id":"root","duration_ns":"5")") + "}", false,
        "invalid type: string \"5\", expected u64");
    row("negative", R"({"kind":"span_end","id":"root","duration_ns":-1})", false,
        "invalid value: integer `-1`, expected u64");
    row("fraction in u64", R"({"kind":"span_end","id":"root","duration_ns":1.0})", false,
        "invalid type: floating point `1.0`, expected u64");
    row("exponent in u64", R"({"kind":"span_end","id":"root","duration_ns":1e3})", false,
        "invalid type: floating point");
    row("u64 overflow", R"({"kind":"span_end","id":"root","duration_ns":18446744073709551616})", false,
        "floating point");
    row("u64 max", R"({"kind":"span_end","id":"root","duration_ns":18446744073709551615})", true);
    row("null for default", R"({"kind":"span_end","id":"root","duration_ns":null})", false,
        "invalid type: null, expected u64");
    row("null for defaulted bool",
        R"({"kind":"span_start","id":"x","name":"n","start_ns":0,"span_kind":"op","measured":null})", false,
        "invalid type: null, expected a boolean");
    row("null inputs", "{" + op + R"(,"inputs":null})", false, "invalid type: null, expected a sequence");
    row("duplicate member", R"({"kind":"span_end","id":"root","id":"root"})", false, "duplicate field `id`");
    row("duplicate kind", R"({"kind":"span_end","kind":"span_end","id":"root"})", false, "duplicate field `kind`");
    row("not an object", R"(5)", false, "expected internally tagged enum TraceEvent");
    row("array with a non-string tag", R"([1,2])", false,
        "invalid type: integer `1`, expected variant identifier at line 1 column 2");
    row("array record", R"(["span_end","root",100])", true);
    row("enum casing", R"({"kind":"span_start","id":"x","name":"n","start_ns":0,"span_kind":"Function"})", false,
        "unknown variant `Function`");
    row("trailing characters", R"({"kind":"span_end","id":"root"} x)", false, "trailing characters");
    row("two values", R"({"kind":"span_end","id":"root"}{"kind":"span_end","id":"root"})", false,
        "trailing characters");
    row("truncated", R"({"kind":"span_end","id":"ro)", false, "EOF while parsing");
    row("raw control char", "{\"kind\":\"span_end\",\"id\":\"a\tb\"}", false, "");
    row("bom", "\xEF\xBB\xBF{\"kind\":\"span_end\",\"id\":\"root\"}", false, "expected value at line 1 column 1");
    row("number out of f64 range",
        R"({"kind":"gradient","event_id":"g","root":"r","key":"k","state":"present","norm":1e400})", false,
        "number out of range");
    row("integer in f64", R"({"kind":"gradient","event_id":"g","root":"r","key":"k","state":"present","norm":1})",
        true);
    row("param_key alias gone", R"({"kind":"gradient","event_id":"g","root":"r","param_key":"k","state":"present"})",
        false, "missing field `key`");
    row("edge without edge_kind", R"({"kind":"edge","from_span":"a","to_span":"b","host_duration_ns":1})", false,
        "missing field `edge_kind`");
    row("edge bad edge_kind", R"({"kind":"edge","edge_kind":"x","from_span":"a","to_span":"b","host_duration_ns":1})",
        false, "unknown variant `x`, expected `call` or `data`");
    row("data edge", R"({"kind":"edge","edge_kind":"data","from_tensor":"a","to_tensor":"b"})", true);
    row("deep unknown ok", "{" + op + ",\"deep\":" + std::string(100, '[') + std::string(100, ']') + "}", true);
    row("too deep unknown", "{" + op + ",\"deep\":" + std::string(130, '[') + std::string(130, ']') + "}", false,
        "recursion limit exceeded");
    row("bad literal in unknown", "{" + op + ",\"x\":tru}", false, "");
    row("bad number in unknown", "{" + op + ",\"x\":01}", false, "");
    row("missing comma", R"({"kind":"span_end" "id":"root"})", false, "");
    row("shape element type",
        R"({"kind":"tensor","span_id":"root","tensor_id":"t","shape":[1,"2"],"dtype":"f32","device":"cpu"})", false,
        "expected usize");
    row("tags value not string", "", false, "");
    row("spaced layout", R"({ "kind" : "span_end" , "id" : "root" , "duration_ns" : 100 })", true);
    row("kind in the middle", R"({"id":"root","kind":"span_end","duration_ns":100})", true);
    row("edge_kind not second",
        R"({"kind":"edge","from_span":"a","to_span":"b","host_duration_ns":1,"edge_kind":"call"})", true);
    row("edge_kind first", R"({"edge_kind":"data","kind":"edge","from_tensor":"a","to_tensor":"b"})", true);
    row("edge nested decoy",
        R"({"kind":"edge","x":{"edge_kind":"data"},"edge_kind":"call","from_span":"a","to_span":"b","host_duration_ns":1})",
        true);
    row("edge duplicate edge_kind",
        R"({"kind":"edge","edge_kind":"data","edge_kind":"data","from_tensor":"a","to_tensor":"b"})", false,
        "duplicate field `edge_kind`");
    row("call edge other variant member ignored",
        R"({"kind":"edge","edge_kind":"call","from_span":"a","to_span":"b","host_duration_ns":1,"from_tensor":7})",
        true);
    row("escapes and surrogate pair", R"({"kind":"span_end","id":"r\u00e9\ud83d\ude00\n\"\\\/","duration_ns":1})",
        true);
    row("lone low surrogate", R"({"kind":"span_end","id":"\udc00"})", false, "surrogate");
    row("lone high surrogate", R"({"kind":"span_end","id":"\ud800x"})", false, "unexpected end of hex escape");
    row("bad escape", R"({"kind":"span_end","id":"\q"})", false, "invalid escape");
    row("syntax beats earlier type error", R"({"kind":"span_end","id":5,"x":tru})", false, "expected ident");
    row("type error beats trailing text", R"({"kind":"span_end","id":5} x)", false,
        "invalid type: integer `5`, expected a string");
    row("unknown kind beats later syntax", R"({"kind":"heartbeat","x":tru})", false, "unknown variant `heartbeat`");
    row("first semantic error wins", R"({"kind":"span_end","duration_ns":"x","id":5})", false,
        "invalid type: string \"x\", expected u64");
    row("missing after type", R"({"kind":"op","span_id":"root","op_name":5})", false,
        "invalid type: integer `5`, expected a string");
    row("tiny float is zero", R"({"kind":"gradient","event_id":"g","root":"r","key":"k","state":"zero","norm":1e-400})",
        true);
    row("negative zero float", R"({"kind":"gradient","event_id":"g","root":"r","key":"k","state":"present","norm":-0})",
        true);
    row("negative zero in u64", R"({"kind":"span_end","id":"root","duration_ns":-0})", false, "floating point `-0.0`");
    row("leading zero", R"({"kind":"span_end","id":"root","duration_ns":01})", false, "invalid number");
    row("empty object", R"({})", false, "missing field `kind`");
    row("kind not string", R"({"kind":7})", false, "expected variant identifier");
    row("string root", R"("span_end")", false, "expected internally tagged enum TraceEvent");
    row("null root", R"(null)", false, "expected internally tagged enum TraceEvent");
    row("unclosed object", R"({"kind":"span_end","id":"root")", false, "EOF while parsing an object");
    row("key not string", R"({"kind":"span_end",id:"root"})", false, "key must be a string");
    row("missing colon", R"({"kind":"span_end","id" "root"})", false, "expected `:`");
    row("unicode whitespace trimmed", "\xC2\xA0{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":100}\xE3\x80\x80",
        true);
}
void TestTraceReader::decoding()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, accepted);
    QFETCH(QString, cause);
    std::string text;
    if (line.isEmpty()) {
        // tags values must be strings
        std::string meta = kMeta;
        meta.replace(meta.find("\"tags\":{}"), 9, "\"tags\":{\"a\":1}");
        text = meta + "\n" + kRoot + "\n" + kRootEnd + "\n" + kTerminal + "\n";
    } else {
        text = kMeta + "\n" + kRoot + "\n" + line.toStdString() + "\n" + kTerminal + "\n";
    }
    const ReadResult r = TraceReader::readBytes(text, "case.jsonl");
    bool decodeError = false;
    std::string message;
    for (const Problem &p : r.problems) {
        if (p.ruleId == "E-LINE-PARSE" || p.ruleId == "E-LINE-READ") {
            decodeError = true;
            message = p.message;
        }
    }
    QCOMPARE(!decodeError, accepted);
    if (!accepted) {
        QVERIFY2(message.rfind(line.isEmpty() ? "parse trace JSONL line 1 from case.jsonl: "
                                              : "parse trace JSONL line 3 from case.jsonl: ",
                               0)
                         == 0
                     || message.rfind("read trace JSONL line 3", 0) == 0,
                 message.c_str());
        QVERIFY2(message.find(cause.toStdString()) != std::string::npos, message.c_str());
        QCOMPARE(r.strictError->message, message);
    }
}

void TestTraceReader::lineFraming()
{
    // CRLF, blank lines, no final newline; record indices count non-blank lines only.
    std::string text = "\r\n" + kMeta + "\r\n\r\n" + kRoot + "\r\n" + kRootEnd + "\r\n   \r\n" + kTerminal;
    ReadResult r = TraceReader::readBytes(text, "crlf.jsonl");
    QCOMPARE(strictMessage(r),
             QStringLiteral("meta event must be the first non-empty trace record, found at index 0").left(0)
                 + QStringLiteral("VALID"));
    QCOMPARE(r.trace->lineCount, std::uint64_t(7));
    QCOMPARE(r.trace->metaLine, 2u);
    QCOMPARE(r.trace->terminal->line, 7u);

    // Invalid UTF-8 is a read error (E-LINE-READ), not a parse error.
    std::string bad = kMeta + "\n{\"kind\":\"span_end\",\"id\":\"\xff\"}\n" + kTerminal + "\n";
    r = TraceReader::readBytes(bad, "utf8.jsonl");
    QVERIFY(r.strictError);
    QCOMPARE(r.strictError->ruleId, std::string("E-LINE-READ"));
    QCOMPARE(r.strictError->message,
             std::string("read trace JSONL line 2 from utf8.jsonl: stream did not contain valid UTF-8"));
}

// §6: every hard rule, strict message and tolerant behaviour.
void TestTraceReader::hardRules_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("rule");
    QTest::addColumn<int>("line");
    auto row = [](const char *name, const std::string &text, const char *msg, const char *rule, int line) {
        QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(msg) << QString::fromUtf8(rule)
                            << line;
    };
    row("valid", wrap(""), "VALID", "", 0);
    row("after terminal", wrap("") + kTerminal + "\n",
        "terminal event must be the final trace record; found another event at index 4", "E-AFTER-TERMINAL", 5);
    row("meta not first", kRoot + "\n" + kMeta + "\n" + kRootEnd + "\n" + kTerminal + "\n",
        "meta event must be the first non-empty trace record, found at index 1", "E-META-FIRST", 2);
    row("second meta", kMeta + "\n" + kMeta + "\n" + kRoot + "\n" + kRootEnd + "\n" + kTerminal + "\n",
        "meta event must be the first non-empty trace record, found at index 1", "E-META-FIRST", 2);
    row("span start dup", wrap(kRoot), "duplicate span_start id `root` at index 2", "E-SPAN-START-DUP", 3);
    row("span end unknown", wrap(R"({"kind":"span_end","id":"nope"})"), "span_end for unknown span `nope` at index 2",
        "E-SPAN-END-UNKNOWN", 3);
    row("span end before start", kMeta + "\n" + kRootEnd + "\n" + kRoot + "\n" + kTerminal + "\n",
        "span_end for unknown span `root` at index 1", "E-SPAN-END-UNKNOWN", 2);
    row("span end dup", wrap(kRootEnd), "duplicate span_end for `root` at index 3", "E-SPAN-END-DUP", 4);
    row("tstats elements",
        wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":"l","shape":[2,3],"dtype":"f32","elements":5,"non_finite":0,"rms":1,"abs_max":1,"mean":0})"),
        "invalid tensor_stats event at index 2", "E-TSTATS-INVALID", 3);
    row("tstats blank label",
        wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":" \t","shape":[],"dtype":"f32","elements":1,"non_finite":0,"rms":1,"abs_max":1,"mean":0})"),
        "invalid tensor_stats event at index 2", "E-TSTATS-INVALID", 3);
    row("tstats non_finite",
        wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":"l","shape":[],"dtype":"f32","elements":1,"non_finite":2,"rms":1,"abs_max":1,"mean":0})"),
        "invalid tensor_stats event at index 2", "E-TSTATS-INVALID", 3);
    row("tstats negative rms",
        wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":"l","shape":[],"dtype":"f32","elements":1,"non_finite":0,"rms":-1,"abs_max":1,"mean":0})"),
        "invalid tensor_stats event at index 2", "E-TSTATS-INVALID", 3);
    row("tstats overflow",
        wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":"l","shape":[4294967296,4294967296],"dtype":"f32","elements":0,"non_finite":0,"rms":1,"abs_max":1,"mean":0})"),
        "invalid tensor_stats event at index 2", "E-TSTATS-INVALID", 3);
    row("tstats negative zero ok",
        wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":"l","shape":[0],"dtype":"f32","elements":0,"non_finite":0,"rms":-0.0,"abs_max":-0,"mean":-5})"),
        "VALID", "", 0);
    row("meta missing", kRoot + "\n" + kRootEnd + "\n" + kTerminal + "\n",
        "trace stream is missing a meta event with run metadata", "E-META-MISSING", 0);
    row("empty file", "\n\n", "trace stream is missing a meta event with run metadata", "E-META-MISSING", 0);
    row("terminal missing", kMeta + "\n" + kRoot + "\n" + kRootEnd + "\n", "trace stream is missing its terminal event",
        "E-TERMINAL-MISSING", 0);
    {
        std::string t = wrap("");
        t.replace(t.find("trace/10"), 8, "trace/8");
        row("schema unsupported", t,
            "unsupported trace schema \"candle-graph/trace/8\"; expected \"candle-graph/trace/10\" or \"candle-graph/trace/9\"",
            "E-SCHEMA-UNSUPPORTED", 1);
        std::string t9 = wrap(
            R"({"kind":"tensor_stats","span_id":"root","label":"l","shape":[],"dtype":"f32","elements":1,"non_finite":0,"rms":1,"abs_max":1,"mean":0})");
        t9.replace(t9.find("trace/10"), 8, "trace/9");
        row("schema9 tstats", t9,
            "trace schema \"candle-graph/trace/9\" does not define tensor_stats events; producers emitting tensor statistics must declare \"candle-graph/trace/10\"",
            "E-SCHEMA9-TSTATS", 3);
    }
    auto withTerminal = [](const std::string &terminal) {
        return kMeta + "\n" + kRoot + "\n" + kRootEnd + "\n" + terminal + "\n";
    };
    row("complete with reason",
        withTerminal(R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000,"reason":""})"),
        "complete terminal event cannot contain a failure reason", "E-TERMINAL-COMPLETE-REASON", 4);
    row("complete with null reason",
        withTerminal(R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000,"reason":null})"), "VALID", "", 0);
    row("failed without reason", withTerminal(R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000})"),
        "failed terminal event requires a non-empty reason", "E-TERMINAL-FAILED-NO-REASON", 4);
    row("failed blank reason",
        withTerminal(R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000,"reason":"\u3000 "})"),
        "failed terminal event requires a non-empty reason", "E-TERMINAL-FAILED-NO-REASON", 4);
    row("failed with reason",
        withTerminal(R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000,"reason":"oom"})"), "VALID", "", 0);
    row("terminal early span", withTerminal(R"({"kind":"terminal","outcome":"complete","timestamp_ns":99})"),
        "terminal timestamp 99 precedes host evidence ending at 100", "E-TERMINAL-EARLY", 4);
    row("terminal equal ok", withTerminal(R"({"kind":"terminal","outcome":"complete","timestamp_ns":100})"), "VALID",
        "", 0);
    row("terminal early op",
        kMeta + "\n" + kRoot + "\n" + kRootEnd + "\n"
            + R"({"kind":"op","span_id":"root","op_name":"m","shape":[],"dtype":"f32","device":"cpu","duration_ns":50,"timestamp_ns":1000,"input_dense_bytes":0})"
            + "\n" + kTerminal + "\n",
        "terminal timestamp 1000 precedes host evidence ending at 1050", "E-TERMINAL-EARLY", 5);
    row("device interval not host evidence",
        wrap(
            R"({"kind":"device_interval","span_id":"root","device":"d","stream_id":"s","clock_id":"c","backend":"b","start_ns":5000,"duration_ns":9})"),
        "VALID", "", 0);
    row("open span counts start",
        kMeta + "\n" + R"({"kind":"span_start","id":"a","name":"n","start_ns":2000,"span_kind":"op"})" + "\n"
            + kTerminal + "\n",
        "terminal timestamp 1000 precedes host evidence ending at 2000", "E-TERMINAL-EARLY", 3);
}
void TestTraceReader::hardRules()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    QFETCH(QString, rule);
    QFETCH(int, line);
    const ReadResult r = TraceReader::readBytes(text.toStdString(), "rules.jsonl");
    QCOMPARE(strictMessage(r), message);
    if (!rule.isEmpty()) {
        QCOMPARE(QString::fromStdString(r.strictError->ruleId), rule);
        QCOMPARE(int(r.strictError->line), line);
    } else {
        QVERIFY(r.problems.empty());
    }
}

void TestTraceReader::decodeErrorWinsOverStreamRule()
{
    // A stream rule broken on line 2 loses against a malformed line 4 (§1 stage 1).
    const std::string text =
        kMeta + "\n" + R"({"kind":"span_end","id":"x"})" + "\n" + kRoot + "\n{oops\n" + kTerminal + "\n";
    const ReadResult r = TraceReader::readBytes(text, "p.jsonl");
    QVERIFY(r.strictError);
    QCOMPARE(r.strictError->ruleId, std::string("E-LINE-PARSE"));
    QCOMPARE(int(r.strictError->line), 4);
    QCOMPARE(r.problems.size(), std::size_t(2)); // tolerant: both are listed
    QCOMPARE(int(r.problems[0].line), 2);
}

// NUL bytes and newlines inside ids and causes stay in the message, byte for byte.
void TestTraceReader::messagesCarryEveryByte_data()
{
    QTest::addColumn<QByteArray>("middle");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("NUL in a span id (E-SPAN-END-UNKNOWN)") << QByteArray(R"({"kind":"span_end","id":"a\u0000b"})")
                                                           << bytesOf("span_end for unknown span `a\0b` at index 2");
    QTest::newRow("newline in a span id (E-SPAN-START-DUP)")
        << QByteArray(R"({"kind":"span_start","id":"x\ny","name":"n","start_ns":0,"span_kind":"op"})"
                      "\n"
                      R"({"kind":"span_start","id":"x\ny","name":"n","start_ns":0,"span_kind":"op"})")
        << QByteArray("duplicate span_start id `x\ny` at index 3");
    QTest::newRow("newline and NUL in an unknown variant (E-LINE-PARSE)")
        << QByteArray(R"({"kind":"span_start","id":"x","name":"n","start_ns":0,"span_kind":"a\nb\u0000"})")
        << bytesOf(
               "parse trace JSONL line 3 from m.jsonl: unknown variant `a\nb\0`, expected one of `function`, `op`, `module`");
    QTest::newRow("NUL in a string of a type error is debug-quoted")
        << QByteArray(R"({"kind":"span_end","id":"root","duration_ns":"\u0000"})")
        << QByteArray(R"(parse trace JSONL line 3 from m.jsonl: invalid type: string "\0", expected u64)");
}
void TestTraceReader::messagesCarryEveryByte()
{
    QFETCH(QByteArray, middle);
    QFETCH(QByteArray, message);
    const std::string text =
        kMeta + "\n" + kRoot + "\n" + middle.toStdString() + "\n" + kRootEnd + "\n" + kTerminal + "\n";
    const ReadResult r = TraceReader::readBytes(text, "m.jsonl");
    QVERIFY(r.strictError);
    QCOMPARE(QByteArray::fromStdString(r.strictError->message), message);
}

// The cause counts columns in the trimmed line (§2); the problem's column is the physical one.
void TestTraceReader::problemColumnCountsTrimmedBytes()
{
    const std::string text = kMeta + "\n\t[ ]\n" + kTerminal + "\n";
    const ReadResult r = TraceReader::readBytes(text, "t.jsonl");
    QVERIFY(r.strictError);
    QCOMPARE(r.strictError->message,
             std::string("parse trace JSONL line 2 from t.jsonl: missing field `kind` at line 1 column 3"));
    QCOMPARE(r.strictError->column, 4u);
}

void TestTraceReader::tolerantKeepsValidRecords()
{
    std::string text = wrap(
        std::string(R"({"kind":"span_start","id":"c","parent_id":"root","name":"c","start_ns":1,"span_kind":"op"})")
        + "\n" + "garbage\n" + R"({"kind":"span_end","id":"c","duration_ns":5})" + "\n" + kRoot);
    const ReadResult r = TraceReader::readBytes(text, "t.jsonl");
    QCOMPARE(r.problems.size(), std::size_t(2));
    QCOMPARE(r.trace->spans.size(), std::size_t(2));
    QVERIFY(r.trace->spans[0].closed); // "c"
    QVERIFY(r.trace->terminal);
}

void TestTraceReader::missingFile()
{
    const ReadResult r = TraceReader::readFile("/nonexistent/dir/trace.jsonl");
    QVERIFY(!r.trace);
    QVERIFY(r.strictError);
    QCOMPARE(r.strictError->ruleId, std::string("E-FILE-OPEN"));
    QVERIFY(r.strictError->message.rfind("open trace file /nonexistent/dir/trace.jsonl: No such file or directory", 0)
            == 0);
}

void TestTraceReader::smallChunksMatchOneBuffer()
{
    // Lines straddling chunk boundaries (and lines longer than a chunk) decode the same.
    const std::string path = QString(examplesDir() + QStringLiteral("/01_valid_trace10_forward.jsonl")).toStdString();
    ReadOptions small;
    small.chunkBytes = 1; // clamped to the minimum, still smaller than the meta line twice over
    const ReadResult a = TraceReader::readFile(path, small);
    const ReadResult b = TraceReader::readBytes(readAll(QString::fromStdString(path)), path);
    QVERIFY(a.accepted() && b.accepted());
    QCOMPARE(a.trace->ops.size(), b.trace->ops.size());
    QCOMPARE(a.trace->lineCount, b.trace->lineCount);
}

// gen_trace.py --corrupt: the tolerant load reports exactly the injected lines.
void TestTraceReader::corruptedGeneratedTrace()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("c.jsonl"));
    const QString log = dir.filePath(QStringLiteral("faults.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("20000"), QStringLiteral("--seed"), QStringLiteral("3"),
                 QStringLiteral("--corrupt"), QStringLiteral("0.004"), QStringLiteral("--fault-log"), log,
                 QStringLiteral("--out"), out, QStringLiteral("--quiet")});
    std::set<std::uint64_t> faultLines;
    std::ifstream logIn(log.toStdString());
    for (std::string l; std::getline(logIn, l);) {
        const auto pos = l.find("\"line\":");
        faultLines.insert(std::stoull(l.substr(pos + 7)));
    }
    QVERIFY(faultLines.size() > 20);

    const ReadResult r = TraceReader::readFile(out.toStdString());
    QVERIFY(r.strictError);
    std::set<std::uint64_t> reported;
    for (const Problem &p : r.problems) {
        // A truncated span_start makes its later span_end unknown: a consequence, not an injected fault.
        if (p.ruleId == "E-SPAN-END-UNKNOWN" && !faultLines.count(p.line))
            continue;
        reported.insert(p.line);
    }
    QCOMPARE(reported, faultLines);
    // Every other record was kept: decoded records = kept + the few a rule dropped.
    std::uint64_t decodeFailures = 0, dropped = 0;
    for (const Problem &p : r.problems) {
        decodeFailures += (p.ruleId == "E-LINE-PARSE") ? 1 : 0;
        dropped += (p.ruleId == "E-SPAN-START-DUP" || p.ruleId == "E-SPAN-END-UNKNOWN" || p.ruleId == "E-SPAN-END-DUP"
                    || p.ruleId == "E-TSTATS-INVALID")
                       ? 1
                       : 0;
    }
    QVERIFY(decodeFailures > 0);
    const Trace &t = *r.trace;
    std::uint64_t closed = 0;
    for (const Span &s : t.spans)
        closed += s.closed ? 1 : 0;
    const std::uint64_t kept = t.spans.size() + closed + t.ops.size() + t.tensors.size() + t.tensorStats.size()
                               + t.memory.size() + t.deviceMemory.size() + t.deviceIntervals.size() + t.gradients.size()
                               + t.edges.size() + (t.meta ? 1 : 0) + (t.terminal ? 1 : 0);
    QCOMPARE(kept + dropped, t.recordCount - decodeFailures);
}

void TestTraceReader::segmentsFollowTheCores_data()
{
    QTest::addColumn<quint64>("bytes");
    QTest::addColumn<unsigned>("cores");
    QTest::addColumn<unsigned>("segments");
    constexpr quint64 MiB = quint64(1) << 20;
    QTest::newRow("under the threshold") << 16 * MiB - 1 << 8u << 1u;
    QTest::newRow("one core") << 1000 * MiB << 1u << 1u;
    QTest::newRow("two cores, from the threshold on") << 16 * MiB << 2u << 2u;
    QTest::newRow("two cores, 4 GB") << 4096 * MiB << 2u << 2u;
    QTest::newRow("8 cores, 16 MiB: two") << 16 * MiB << 8u << 2u;
    QTest::newRow("8 cores, 100 MB: 32 MiB a segment") << 100'000'000ull << 8u << 2u;
    QTest::newRow("8 cores, 128 MiB") << 128 * MiB << 8u << 4u;
    QTest::newRow("8 cores, 1 GB: one a core") << 1'000'000'000ull << 8u << 8u;
    QTest::newRow("3 cores, 1 GB") << 1'000'000'000ull << 3u << 3u;
    QTest::newRow("64 cores, 4 GB: at most maxThreads") << 4096 * MiB << 64u << 8u;
}

// One segment (and thread) a core for big files, each worth its fixed cost: the read scales
// with the machine, not with the two cores it was measured on.
void TestTraceReader::segmentsFollowTheCores()
{
    QFETCH(quint64, bytes);
    QFETCH(unsigned, cores);
    QFETCH(unsigned, segments);
    ReadOptions options;
    options.cores = cores;
    QCOMPARE(options.segmentsFor(bytes), segments);
    // Without a count given, the CPUs this process may use.
    ReadOptions machine;
    QCOMPARE(machine.segmentsFor(1'000'000'000ull), std::min(usableCores(), machine.maxThreads));
}

// Splitting the file over threads must not change a single record, line or problem.
void TestTraceReader::segmentsMatchSingleThread()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("s.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("30000"), QStringLiteral("--seed"), QStringLiteral("5"),
                 QStringLiteral("--corrupt"), QStringLiteral("0.002"), QStringLiteral("--out"), out,
                 QStringLiteral("--quiet")});
    ReadOptions one;
    one.maxThreads = 1;
    ReadOptions many;
    many.maxThreads = 3;
    many.cores = 3; // three threads on any machine
    many.parallelThresholdBytes = 0;
    many.minSegmentBytes = 0;
    many.minTakeOverBytes = 0; // threads take over each other's rest as soon as one finishes
    many.takeOverFromFileBytes = 0;
    many.chunkBytes = 1 << 16;
    const ReadResult a = TraceReader::readFile(out.toStdString(), one);
    const ReadResult b = TraceReader::readFile(out.toStdString(), many);
    QVERIFY(a.trace && b.trace);
    QCOMPARE(b.trace->lineCount, a.trace->lineCount);
    QCOMPARE(b.trace->recordCount, a.trace->recordCount);
    QCOMPARE(b.problems.size(), a.problems.size());
    for (std::size_t i = 0; i < a.problems.size(); ++i) {
        QCOMPARE(b.problems[i].line, a.problems[i].line);
        QCOMPARE(b.problems[i].message, a.problems[i].message);
        QCOMPARE(b.problems[i].column, a.problems[i].column);
    }
    QCOMPARE(b.strictError->message, a.strictError->message);
    const Trace &x = *a.trace;
    const Trace &y = *b.trace;
    QCOMPARE(y.spans.size(), x.spans.size());
    for (std::size_t i = 0; i < x.spans.size(); ++i) {
        QCOMPARE(y.str(y.spans[i].id), x.str(x.spans[i].id));
        QCOMPARE(y.str(y.spans[i].parentId), x.str(x.spans[i].parentId));
        QCOMPARE(y.spans[i].durationNs, x.spans[i].durationNs);
        QCOMPARE(y.spans[i].endLine, x.spans[i].endLine);
    }
    QCOMPARE(y.ops.size(), x.ops.size());
    for (std::size_t i = 0; i < x.ops.size(); ++i) {
        QCOMPARE(y.str(y.ops[i].opName), x.str(x.ops[i].opName));
        QCOMPARE(y.ops[i].line, x.ops[i].line);
        const auto xi = x.idLists.view(x.ops[i].inputs);
        const auto yi = y.idLists.view(y.ops[i].inputs);
        QCOMPARE(yi.size(), xi.size());
        for (std::size_t k = 0; k < xi.size(); ++k)
            QCOMPARE(y.str(yi[k]), x.str(xi[k]));
        QVERIFY(std::equal(x.shapes.view(x.ops[i].shape).begin(), x.shapes.view(x.ops[i].shape).end(),
                           y.shapes.view(y.ops[i].shape).begin(), y.shapes.view(y.ops[i].shape).end()));
    }
    QCOMPARE(y.memory.size(), x.memory.size());
    for (std::size_t i = 0; i < x.memory.size(); ++i) {
        QCOMPARE(y.str(y.memory[i].storageId), x.str(x.memory[i].storageId));
        QCOMPARE(y.memory[i].line, x.memory[i].line);
    }
    QCOMPARE(y.edges.size(), x.edges.size());
    QCOMPARE(y.edges.back().line, x.edges.back().line);
    QCOMPARE(y.gradients.size(), x.gradients.size());
    QCOMPARE(y.deviceIntervals.size(), x.deviceIntervals.size());
    QCOMPARE(y.terminal->line, x.terminal->line);
}

void TestTraceReader::spanRulesAcrossSegments_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("chunk");
    QTest::newRow("maxThreads 2, 4 KB chunks") << 2 << 4096;
    QTest::newRow("maxThreads 3, 64 KB chunks") << 3 << (1 << 16);
    QTest::newRow("maxThreads 7, 512 B chunks") << 7 << 512;
}

// Unknown span_ends are not interned and duplicate span_starts not stored when a segment can
// tell (DecodedSegment); whichever segment holds the start, the end or the duplicate, the
// problems, their texts and counts, and the spans must be those of one sequential read.
void TestTraceReader::spanRulesAcrossSegments()
{
    QFETCH(int, threads);
    QFETCH(int, chunk);
    std::string body;
    auto start = [&](const std::string &id, const std::string &name) {
        body += R"({"kind":"span_start","id":")" + id + R"(","name":")" + name
                + R"(","start_ns":1,"span_kind":"function","parent_id":"root"})" + "\n";
    };
    auto end = [&](const std::string &id) {
        body += R"({"kind":"span_end","id":")" + id + R"(","duration_ns":2})" + "\n";
    };
    // More unknown ends than a rule lists, spread over the file, so that the ones whose
    // text is kept and the counted rest fall into every segment.
    for (int i = 0; i < 12000; ++i) {
        const std::string k = std::to_string(i);
        if (i % 3 == 0) {
            start("s" + k, "n" + k);
            start("s" + k, "dup" + k); // a duplicate in the same segment
        }
        end("u" + k); // never started
        if (i % 5 == 0)
            end("late" + k), start("late" + k, "l"); // ended before it starts
        if (i >= 3000 && i % 7 == 0)
            end("s" + std::to_string(i - 2999 - (i - 2999) % 3)); // started far earlier, often in another segment
        if (i >= 3000 && i % 11 == 0)
            start("s" + std::to_string(i - 3000 - i % 3), "d"); // a duplicate of a far earlier start
        if (i % 13 == 0)
            end("s" + std::to_string(i - i % 3)), end("s" + std::to_string(i - i % 3)); // a repeated end
    }
    const std::string text = wrap(body);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("spans.jsonl")).toStdString();
    {
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text.data(), qint64(text.size())), qint64(text.size()));
    }
    ReadOptions one;
    one.maxThreads = 1;
    ReadOptions many;
    many.maxThreads = unsigned(threads);
    many.cores = unsigned(threads);
    many.parallelThresholdBytes = 0;
    many.minSegmentBytes = 0;
    many.minTakeOverBytes = 0; // threads take over each other's rest as soon as one finishes
    many.takeOverFromFileBytes = 0;
    many.chunkBytes = std::size_t(chunk);
    const ReadResult a = TraceReader::readBytes(text, path);
    const ReadResult b = TraceReader::readFile(path, many);
    const ReadResult c = TraceReader::readFile(path, one);
    QVERIFY(a.trace && b.trace && c.trace);
    for (const ReadResult *r : {&b, &c}) {
        QCOMPARE(r->problems.size(), a.problems.size());
        for (std::size_t i = 0; i < a.problems.size(); ++i) {
            QCOMPARE(r->problems[i].line, a.problems[i].line);
            QCOMPARE(r->problems[i].ruleId, a.problems[i].ruleId);
            QCOMPARE(r->problems[i].message, a.problems[i].message);
            QCOMPARE(r->problems[i].relatedId, a.problems[i].relatedId);
        }
        QVERIFY(r->omittedProblems == a.omittedProblems);
        QCOMPARE(r->strictError->message, a.strictError->message);
        QCOMPARE(r->trace->spans.size(), a.trace->spans.size());
        for (std::size_t i = 0; i < a.trace->spans.size(); ++i) {
            const Span &x = a.trace->spans[i];
            const Span &y = r->trace->spans[i];
            QCOMPARE(r->trace->str(y.id), a.trace->str(x.id));
            QCOMPARE(r->trace->str(y.name), a.trace->str(x.name));
            QCOMPARE(y.closed, x.closed);
            QCOMPARE(y.startLine, x.startLine);
            QCOMPARE(y.endLine, x.endLine);
        }
    }
    // What a sequential read must say: 12000 never-started ends plus 2400 ended-before-start,
    // listed up to the per-rule limit with their ids, the rest counted.
    std::uint64_t unknownListed = 0;
    for (const Problem &p : a.problems) {
        if (p.ruleId == "E-SPAN-END-UNKNOWN") {
            ++unknownListed;
            QVERIFY2(p.message.find("span_end for unknown span `" + p.relatedId + "` at index ") == 0,
                     p.message.c_str());
        }
    }
    QCOMPARE(unknownListed, ProblemLimiter::kMaxPerRule);
    std::uint64_t unknownOmitted = 0;
    for (const OmittedProblems &o : a.omittedProblems) {
        if (o.ruleId == "E-SPAN-END-UNKNOWN")
            unknownOmitted = o.count;
    }
    QCOMPARE(unknownListed + unknownOmitted, std::uint64_t(12000 + 2400));
    QCOMPARE(a.strictError->message, std::string("duplicate span_start id `s0` at index 3"));
}

// A line longer than half a read chunk is checked for UTF-8 on the way to its end and, when
// its first bytes decide it (a scan error well before them, or invalid UTF-8 anywhere), is
// never read into memory; everything else is read whole as before. Both must say exactly
// what reading the bytes at once says, and intern the same strings.
void TestTraceReader::longLinesDecidedByTheirStart_data()
{
    QTest::addColumn<QByteArray>("line");
    const QByteArray nested(200000, '[');
    const QByteArray longName(100000, 'n');
    QByteArray accents;
    for (int i = 0; i < 50000; ++i)
        accents += "\xc3\xa9";
    QTest::newRow("nested brackets") << nested;
    QTest::newRow("nested brackets, indented") << QByteArray("  \t") + nested;
    QTest::newRow("nested brackets then invalid UTF-8") << nested + "\xff";
    QTest::newRow("nested brackets then a cut character") << nested + "\xc3";
    QTest::newRow("nested brackets then accents") << nested + accents;
    QTest::newRow("recursion limit after an id")
        << QByteArray(R"({"kind":"span_start","id":"early","name":)") + nested + "]";
    QTest::newRow("scan error at the end")
        << QByteArray(R"({"kind":"span_start","id":")") + longName + "\",\"name\":[[";
    QTest::newRow("valid long name") << QByteArray(R"({"kind":"span_start","id":"x","name":")") + longName
                                            + R"(","start_ns":1,"span_kind":"function","parent_id":"root"})";
    QTest::newRow("accents in a long name") << QByteArray(R"({"kind":"span_start","id":"y","name":")") + accents
                                                   + R"(","start_ns":1,"span_kind":"function","parent_id":"root"})";
    QTest::newRow("accents then brackets") << accents + nested;
    QTest::newRow("trailing text after a long id")
        << QByteArray(R"({"kind":"span_end","id":")") + longName + R"(","duration_ns":1}  x)";
    QTest::newRow("long number") << QByteArray(R"(["span_end",)") + QByteArray(100000, '1') + "]";
}

void TestTraceReader::longLinesDecidedByTheirStart()
{
    QFETCH(QByteArray, line);
    // Once in the middle and once as a last line without LF.
    const std::string text = wrap(line.toStdString()) + line.toStdString();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("long.jsonl")).toStdString();
    {
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text.data(), qint64(text.size())), qint64(text.size()));
    }
    const ReadResult whole = TraceReader::readBytes(text, path);
    for (const std::size_t chunk : {std::size_t(64), std::size_t(16) << 10, std::size_t(1) << 20}) {
        ReadOptions options;
        options.maxThreads = 1;
        options.chunkBytes = chunk;
        const ReadResult r = TraceReader::readFile(path, options);
        QVERIFY(r.trace && whole.trace);
        QCOMPARE(strictMessage(r), strictMessage(whole));
        QCOMPARE(r.problems.size(), whole.problems.size());
        for (std::size_t i = 0; i < whole.problems.size(); ++i) {
            QCOMPARE(r.problems[i].line, whole.problems[i].line);
            QCOMPARE(r.problems[i].column, whole.problems[i].column);
            QCOMPARE(r.problems[i].ruleId, whole.problems[i].ruleId);
            QCOMPARE(r.problems[i].message, whole.problems[i].message);
        }
        QCOMPARE(r.trace->lineCount, whole.trace->lineCount);
        QCOMPARE(r.trace->fileBytes, whole.trace->fileBytes);
        QCOMPARE(r.trace->strings.size(), whole.trace->strings.size());
        for (std::size_t id = 0; id < whole.trace->strings.size(); ++id)
            QVERIFY(r.trace->str(StringId(id)) == whole.trace->str(StringId(id)));
        QCOMPARE(r.trace->spans.size(), whole.trace->spans.size());
    }
}

// The id order is split by the top bits of an 8-byte prefix before it is radix sorted; with
// more spans than one part takes at once, every shape of id must still come out in byte-wise
// order: shared prefixes, ids shorter than 8 bytes, a top digit shared by all, equal prefixes
// over long ids, bytes above 0x7f. A repeated id is reported.
void TestTraceReader::spansInIdOrder_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<int>("count");
    QTest::newRow("numbered") << 0 << 300000;
    QTest::newRow("one top digit") << 1 << 300000;
    QTest::newRow("long shared prefix") << 2 << 200000;
    QTest::newRow("random bytes") << 3 << 300000;
    QTest::newRow("few") << 0 << 1000;
    QTest::newRow("repeated id") << 4 << 200000;
}

void TestTraceReader::spansInIdOrder()
{
    QFETCH(int, shape);
    QFETCH(int, count);
    Trace trace;
    std::mt19937 random(11);
    for (int i = 0; i < count; ++i) {
        std::string id;
        switch (shape) {
        case 0: id = "s" + std::to_string(random() % 10000000); break;
        case 1: id = "ss" + std::to_string(random() % 100000); break;
        case 2: id = "layer.block." + std::to_string(random() % 1000000); break;
        case 3:
            for (std::uint32_t k = 0, n = 1 + random() % 10; k < n; ++k)
                id.push_back(static_cast<char>(random() % 4 == 0 ? 0x80 + random() % 128 : 'a' + random() % 3));
            break;
        default: id = i == count - 1 ? "s17" : "s" + std::to_string(i); break;
        }
        Span span;
        span.id = trace.strings.intern(id);
        trace.spans.push_back(span);
    }
    // Ids are unique in an assembled trace (the walk drops repeated span_starts).
    if (shape != 4) {
        std::set<StringId> seen;
        std::vector<Span> unique;
        for (const Span &span : trace.spans) {
            if (seen.insert(span.id).second)
                unique.push_back(span);
        }
        trace.spans = unique;
    }
    std::vector<std::uint32_t> order;
    const bool unique = orderSpansById(trace, order);
    QCOMPARE(unique, shape != 4);
    if (!unique)
        return;
    QCOMPARE(order.size(), trace.spans.size());
    std::vector<std::string> expected;
    for (const Span &span : trace.spans)
        expected.emplace_back(trace.str(span.id));
    std::sort(expected.begin(), expected.end());
    for (std::size_t k = 0; k < order.size(); ++k)
        QCOMPARE(std::string(trace.str(trace.spans[order[k]].id)), expected[k]);
}

// The assembled spans are each id once, in byte order, with their own ends: few and many
// (the id sort's radix passes), read whole and in segments, and with duplicate starts in a
// later segment than their first start (kept among the spans until the walk drops them).
void TestTraceReader::assembledSpansInIdOrder_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("duplicates");
    QTest::newRow("few") << 1000 << 0;
    QTest::newRow("few, duplicate starts") << 1000 << 3;
    QTest::newRow("many") << 70000 << 0;
    QTest::newRow("many, duplicate starts") << 70000 << 3;
}

void TestTraceReader::assembledSpansInIdOrder()
{
    QFETCH(int, count);
    QFETCH(int, duplicates);
    std::ostringstream text;
    text << kMeta << "\n";
    std::mt19937 random(7);
    std::vector<int> numbers(static_cast<std::size_t>(count));
    std::iota(numbers.begin(), numbers.end(), 0);
    std::shuffle(numbers.begin(), numbers.end(), random);
    for (const int n : numbers) {
        text << R"({"kind":"span_start","id":"s)" << n << R"(","name":"n","start_ns":)" << n
             << R"(,"span_kind":"function"})"
             << "\n";
        // Each span's duration tells whose end it got: its number plus one.
        text << R"({"kind":"span_end","id":"s)" << n << R"(","duration_ns":)" << n + 1 << "}\n";
    }
    // Repeated starts of the first ids, at the end of the file: in the last segment.
    for (std::size_t k = 0; k < static_cast<std::size_t>(duplicates); ++k)
        text << R"({"kind":"span_start","id":"s)" << numbers[k]
             << R"(","name":"again","start_ns":0,"span_kind":"function"})"
             << "\n";
    text << kTerminal << "\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("ordered.jsonl")).toStdString();
    std::ofstream(path, std::ios::binary) << text.str();
    ReadOptions segmented;
    segmented.maxThreads = 2;
    segmented.cores = 2;
    segmented.parallelThresholdBytes = 0;
    segmented.chunkBytes = 1 << 16;
    for (const bool whole : {true, false}) {
        const ReadResult r = whole ? TraceReader::readBytes(text.str(), path) : TraceReader::readFile(path, segmented);
        QVERIFY(r.trace);
        const auto reported = std::count_if(r.problems.begin(), r.problems.end(),
                                            [](const Problem &p) { return p.ruleId == "E-SPAN-START-DUP"; });
        QCOMPARE(reported, duplicates);
        const Trace &t = *r.trace;
        QCOMPARE(t.spans.size(), std::size_t(count));
        std::vector<std::string> expected;
        for (int n = 0; n < count; ++n)
            expected.push_back(std::string("s").append(std::to_string(n)));
        std::sort(expected.begin(), expected.end());
        for (std::size_t k = 0; k < t.spans.size(); ++k) {
            const Span &span = t.spans[k];
            QCOMPARE(std::string(t.str(span.id)), expected[k]);
            const auto n = std::stoull(expected[k].substr(1));
            QCOMPARE(span.startNs, n);
            QVERIFY(span.closed);
            QCOMPARE(span.durationNs, n + 1);
            QCOMPARE(std::string(t.str(span.name)), std::string("n"));
        }
    }
}

QTEST_GUILESS_MAIN(TestTraceReader)
void TestTraceReader::longUnsupportedSchemaHeldOnce_data()
{
    QTest::addColumn<QString>("extra"); // what else is wrong: "", "decode" or "terminal"
    QTest::addColumn<bool>("fromFile"); // read from a file (its lines' pages given back) or from memory
    QTest::newRow("strict error, memory") << QString() << false;
    QTest::newRow("strict error, file") << QString() << true;
    QTest::newRow("after a decode failure") << QStringLiteral("decode") << true;
    QTest::newRow("after a missing terminal") << QStringLiteral("terminal") << true;
}

void TestTraceReader::longUnsupportedSchemaHeldOnce()
{
    // E-SCHEMA-UNSUPPORTED quotes the schema whole; a long one is held once: when the message
    // is the strict error it takes the schema over and the meta keeps the first bytes
    // (schemaBytesNotKept says how many are not kept); otherwise only the cut message is
    // listed and the meta keeps the whole schema. Either way the texts are the ones a whole
    // message gives: the strict error whole, the listed problem cut by ProblemLimiter.
    QFETCH(QString, extra);
    QFETCH(bool, fromFile);
    std::string schema;
    for (int i = 0; schema.size() < 100000; ++i)
        schema += i % 1000 == 999 ? "\\u00e9\\t\\\"" : "s"; // escaped in the line, quoted again in the message
    std::string text = kMeta;
    text.replace(text.find("candle-graph/trace/10"), 21, schema);
    text += "\n" + kRoot + "\n" + (extra == QLatin1String("decode") ? "x\n" : "") + kRootEnd + "\n";
    if (extra != QLatin1String("terminal"))
        text += kTerminal + "\n";
    std::string decoded; // the schema as the meta holds it
    for (std::size_t i = 0; i < schema.size(); ++i) {
        if (schema.compare(i, 8, "\\u00e9\\t") == 0) {
            decoded += "\xC3\xA9\t\"";
            i += 9;
        } else {
            decoded += schema[i];
        }
    }
    const std::string whole = "unsupported trace schema " + rustDebugString(decoded)
                              + "; expected \"candle-graph/trace/10\" or \"candle-graph/trace/9\"";
    std::string cut = whole;
    QVERIFY(ProblemLimiter::shorten(cut));

    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("schema.jsonl")).toStdString();
    ReadResult r;
    if (fromFile) {
        std::ofstream(path, std::ios::binary) << text;
        r = TraceReader::readFile(path);
    } else {
        r = TraceReader::readBytes(text, path);
    }
    QVERIFY(r.strictError && r.trace && r.trace->meta);
    const TraceMeta &meta = *r.trace->meta;
    const auto listed = std::find_if(r.problems.begin(), r.problems.end(),
                                     [](const Problem &p) { return p.ruleId == "E-SCHEMA-UNSUPPORTED"; });
    QVERIFY(listed != r.problems.end());
    QCOMPARE(listed->message, cut);
    QCOMPARE(listed->line, std::uint64_t(1));
    if (extra.isEmpty()) {
        QCOMPARE(r.strictError->ruleId, std::string("E-SCHEMA-UNSUPPORTED"));
        QVERIFY(r.strictError->message == whole);
        QCOMPARE(meta.schema, decoded.substr(0, 65536));
        QCOMPARE(meta.schemaBytesNotKept, std::uint64_t(decoded.size() - 65536));
    } else {
        QCOMPARE(r.strictError->ruleId,
                 std::string(extra == QLatin1String("decode") ? "E-LINE-PARSE" : "E-TERMINAL-MISSING"));
        QVERIFY(meta.schema == decoded);
        QCOMPARE(meta.schemaBytesNotKept, std::uint64_t(0));
    }
}

#include "tst_tracereader.moc"
