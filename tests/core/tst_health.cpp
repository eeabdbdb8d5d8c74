// SPDX-License-Identifier: MIT
#include <QFile>
#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/testutils/generator.h"
#include "core/analysis/health.h"
#include "core/analysis/recordextents.h"
#include "core/io/tracereader.h"

using namespace TraceInspector;
using namespace Qt::Literals::StringLiterals;
using json = nlohmann::json;

namespace {

// --- Building traces from JSONL snippets -------------------------------------------------
// Line 1 is the meta record (a JSON merge patch over kBaseMeta), body lines follow from
// line 2, the terminal record comes last (kComplete unless the row says otherwise).

const char *const kBaseMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"run-1","correlation_id":"corr-1",
"entrypoint":"model::forward","phase":"infer","timestamp":"2026-08-04T18:00:00Z","capture_step":1,"warmup_steps":0,
"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"unknown","operations":"none",
"logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}})";

const QByteArray kComplete = R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000000000})";
const QByteArray kFailed = R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000000000,"reason":"boom"})";
const QByteArray kNoTerminal = "-";

// Root span [0, 1000], the one measured region.
const QByteArray kRoot =
    R"({"kind":"span_start","id":"root","name":"root","start_ns":0,"span_kind":"function","measured":true})";
const QByteArray kRootEnd = R"({"kind":"span_end","id":"root","duration_ns":1000})";

// The manifest of the gradient rows; its digest was computed independently (Python hashlib)
// from the §9.4 byte layout.
const QByteArray kContract = R"({"capture_contract":{"gradients":"complete","gradient_contract":{
"manifest_sha256":"sha256:d1d8e7257d8dfa80d8cf6adaaaef8be67e9ad5460819c5e464bbdb52f451ca95",
"expected":[{"root":"train_vb","key":"a","family":"active"},{"root":"train_vb","key":"b","family":"active"},
{"root":"train_vb","key":"c","family":"frozen"},{"root":"train_vb","key":"d","family":"cond"},
{"root":"train_vb","key":"e","family":"cond"}],
"families":[{"family":"active","expectation":"active","min_present":2},
{"family":"frozen","expectation":"inactive","min_present":0},
{"family":"cond","expectation":"data_conditional","min_present":2}]}}})";

QByteArray q(const QByteArray &s)
{
    return QByteArray::fromStdString(json(s.toStdString()).dump());
}

QByteArray num(std::uint64_t v)
{
    return QByteArray::number(qulonglong(v));
}

QByteArray span(const QByteArray &id, const QByteArray &parent, std::uint64_t start, const QByteArray &extra = {})
{
    QByteArray out = R"({"kind":"span_start","id":)" + q(id);
    if (!parent.isEmpty())
        out += R"(,"parent_id":)" + q(parent);
    out += R"(,"name":)" + q(id) + R"(,"start_ns":)" + num(start) + R"(,"span_kind":"function")" + extra + "}";
    return out;
}

QByteArray named(const QByteArray &id, const QByteArray &parent, const QByteArray &name)
{
    return R"({"kind":"span_start","id":)" + q(id) + R"(,"parent_id":)" + q(parent) + R"(,"name":)" + q(name)
           + R"(,"start_ns":10,"span_kind":"module"})";
}

QByteArray end(const QByteArray &id, std::uint64_t duration)
{
    return R"({"kind":"span_end","id":)" + q(id) + R"(,"duration_ns":)" + num(duration) + "}";
}

QByteArray op(const QByteArray &spanId, const QByteArray &name, std::uint64_t ts, std::uint64_t duration,
              const QByteArray &io = {})
{
    return R"({"kind":"op","span_id":)" + q(spanId) + R"(,"op_name":)" + q(name) + io
           + R"(,"shape":[2],"dtype":"f32","device":"cpu","duration_ns":)" + num(duration) + R"(,"timestamp_ns":)"
           + num(ts) + R"(,"input_dense_bytes":0})";
}

QByteArray tensor(const QByteArray &spanId, const QByteArray &tensorId)
{
    return R"({"kind":"tensor","span_id":)" + q(spanId) + R"(,"tensor_id":)" + q(tensorId)
           + R"(,"label":"lbl","shape":[2],"dtype":"f32","device":"cpu"})";
}

QByteArray tstats(const QByteArray &spanId)
{
    return R"({"kind":"tensor_stats","span_id":)" + q(spanId)
           + R"(,"label":"l","shape":[2],"dtype":"f32","elements":2,"non_finite":0,"rms":1.0,"abs_max":1.0,"mean":0.0})";
}

QByteArray mem(std::uint64_t ts, const QByteArray &storage, const QByteArray &tensorId, const char *action,
               std::uint64_t bytes, const QByteArray &spanId = "root", const QByteArray &device = "cpu")
{
    return R"({"kind":"memory","timestamp_ns":)" + num(ts) + R"(,"storage_id":)" + q(storage) + R"(,"tensor_id":)"
           + q(tensorId) + R"(,"span_id":)" + q(spanId) + R"(,"device":)" + q(device) + R"(,"bytes":)" + num(bytes)
           + R"(,"action":")" + action + R"(","dtype":"f32"})";
}

QByteArray devmem(std::uint64_t ts, const QByteArray &fields)
{
    return R"({"kind":"device_memory","timestamp_ns":)" + num(ts) + R"(,"device":"cuda:0")" + fields + "}";
}

QByteArray interval(const QByteArray &spanId, std::uint64_t duration)
{
    return R"({"kind":"device_interval","span_id":)" + q(spanId)
           + R"(,"device":"cuda:0","stream_id":"s","clock_id":"c","backend":"cuda","start_ns":0,"duration_ns":)"
           + num(duration) + "}";
}

QByteArray call(const QByteArray &from, const QByteArray &to, std::uint64_t duration)
{
    return R"({"kind":"edge","edge_kind":"call","from_span":)" + q(from) + R"(,"to_span":)" + q(to)
           + R"(,"host_duration_ns":)" + num(duration) + "}";
}

QByteArray data(const QByteArray &from, const QByteArray &to)
{
    return R"({"kind":"edge","edge_kind":"data","from_tensor":)" + q(from) + R"(,"to_tensor":)" + q(to) + "}";
}

/// \a norm is raw JSON (e.g. "0.0", "-0") or empty for none.
QByteArray grad(const QByteArray &eventId, const QByteArray &root, const QByteArray &key, const char *state,
                const QByteArray &norm = {})
{
    QByteArray out = R"({"kind":"gradient","event_id":)" + q(eventId) + R"(,"root":)" + q(root) + R"(,"key":)" + q(key)
                     + R"(,"state":")" + state + "\"";
    if (!norm.isEmpty())
        out += R"(,"norm":)" + norm;
    return out + "}";
}

QByteArray tv(const QByteArray &key, const char *state, const QByteArray &norm = {})
{
    return grad("g-" + key, "train_vb", key, state, norm);
}

/// Meta patch declaring the semantic labels of the capture contract; each argument is a raw
/// JSON array, a class list is left out when null.
QByteArray labelContract(const char *required, const char *gpu = nullptr, const char *cpu = nullptr)
{
    QByteArray patch = R"({"capture_contract":{"required_semantic_labels":)" + QByteArray(required);
    if (gpu)
        patch += R"(,"gpu_expected_semantic_labels":)" + QByteArray(gpu);
    if (cpu)
        patch += R"(,"cpu_only_semantic_labels":)" + QByteArray(cpu);
    return patch + "}}";
}

/// Spans named `root`, `a` and `b` (lines 2-7); the terminal is line 8.
QByteArrayList labelSpans()
{
    return {kRoot, named("s-a", "root", "a"), end("s-a", 1), named("s-b", "root", "b"), end("s-b", 1), kRootEnd};
}

std::shared_ptr<Trace> build(const QByteArray &metaPatch, const QByteArrayList &body, const QByteArray &terminal)
{
    json meta = json::parse(kBaseMeta);
    if (!metaPatch.isEmpty())
        meta.merge_patch(json::parse(metaPatch.toStdString()));
    std::string text = meta.dump() + "\n";
    for (const QByteArray &line : body)
        text += line.toStdString() + "\n";
    if (terminal != kNoTerminal)
        text += (terminal.isEmpty() ? kComplete : terminal).toStdString() + "\n";
    ReadResult r = TraceReader::readBytes(text, "snippet.jsonl");
    for (const Problem &p : r.problems)
        if (p.ruleId == "E-LINE-PARSE" || p.ruleId == "E-LINE-READ")
            qWarning("snippet line %llu does not decode: %s", qulonglong(p.line), p.message.c_str());
    return r.trace;
}

// --- Comparing findings ------------------------------------------------------------------

const QHash<QString, QString> &codeTable()
{
    // TRACE_FORMAT.md §10.1 and §10.4: rule id -> upstream code.
    static const QHash<QString, QString> table{
        {u"H-RUN-PROVENANCE"_s, u"run_provenance_invalid"_s},
        {u"H-TERMINAL-COMPLETE-REASON"_s, u"complete_with_failure_reason"_s},
        {u"H-TERMINAL-FAILED-NO-REASON"_s, u"failed_without_reason"_s},
        {u"H-TERMINAL-EARLY"_s, u"terminal_precedes_evidence"_s},
        {u"W-CAPTURE-FAILED"_s, u"capture_failed"_s},
        {u"H-SPAN-ID-DUP"_s, u"duplicate_span_id"_s},
        {u"H-ROOT-COUNT"_s, u"root_count"_s},
        {u"H-MEASURED-COUNT"_s, u"measurement_count"_s},
        {u"H-SPAN-UNCLOSED"_s, u"open_span"_s},
        {u"W-SPAN-INTERRUPTED"_s, u"open_span"_s},
        {u"H-SPAN-PARENT-UNKNOWN"_s, u"unknown_parent"_s},
        {u"H-SPAN-OUTSIDE-PARENT"_s, u"child_outside_parent"_s},
        {u"H-SPAN-CYCLE"_s, u"span_cycle"_s},
        {u"H-UNKNOWN-SPAN"_s, u"unknown_span"_s},
        {u"H-DEVICE-INTERVAL-EMPTY"_s, u"empty_device_interval"_s},
        {u"H-OP-OUTSIDE-SPAN"_s, u"operation_outside_span"_s},
        {u"H-MEMORY-OUTSIDE-SPAN"_s, u"memory_outside_span"_s},
        {u"H-DEVICE-MEMORY-EMPTY"_s, u"empty_device_memory_sample"_s},
        {u"H-CALL-EDGE-SPAN-UNKNOWN"_s, u"unknown_call_edge_span"_s},
        {u"H-CALL-EDGE-HIERARCHY"_s, u"call_edge_hierarchy_mismatch"_s},
        {u"H-CALL-EDGE-DURATION"_s, u"call_edge_duration_mismatch"_s},
        {u"H-DATA-EDGE-EMPTY"_s, u"empty_data_edge_endpoint"_s},
        {u"H-DATA-EDGE-UNKNOWN"_s, u"unknown_data_edge_tensor"_s},
        {u"H-ALLOC-SIZE-CONFLICT"_s, u"allocation_size_mismatch"_s},
        {u"H-ALLOC-DUP"_s, u"duplicate_allocation"_s},
        {u"H-FREE-UNPAIRED"_s, u"unpaired_free"_s},
        {u"H-FREE-SIZE-MISMATCH"_s, u"allocation_size_mismatch"_s},
        {u"W-RETAINED-ALLOCATIONS"_s, u"retained_allocations"_s},
        {u"H-GRAD-EVENT-ID-EMPTY"_s, u"empty_gradient_event_id"_s},
        {u"H-GRAD-KEY-EMPTY"_s, u"empty_gradient_parameter_key"_s},
        {u"H-GRAD-EVENT-ID-DUP"_s, u"duplicate_gradient_event_id"_s},
        {u"H-GRAD-NORM"_s, u"gradient_state_norm_inconsistent"_s},
        {u"H-GRAD-CONTRACT-MISSING"_s, u"gradient_contract_missing"_s},
        {u"H-GRAD-CONTRACT-UNEXPECTED"_s, u"gradient_contract_without_complete_coverage"_s},
        {u"H-GRAD-CONTRACT-INVALID"_s, u"gradient_contract_invalid"_s},
        {u"H-GRAD-MANIFEST-DUP-KEY"_s, u"gradient_manifest_duplicate_key"_s},
        {u"H-GRAD-MANIFEST-UNDECLARED"_s, u"gradient_manifest_undeclared_key"_s},
        {u"HW-GRAD-MANIFEST-MISSING"_s, u"gradient_manifest_missing_key"_s},
        {u"H-GRAD-FAMILY-NONFINITE"_s, u"gradient_family_non_finite"_s},
        {u"H-GRAD-ACTIVE-BELOW-MIN"_s, u"gradient_active_family_below_minimum"_s},
        {u"H-GRAD-INACTIVE-LEAK"_s, u"gradient_inactive_family_leakage"_s},
        {u"H-GRAD-CONDITIONAL-BELOW-MIN"_s, u"gradient_conditional_family_below_minimum"_s},
        {u"W-OPS-ABSENT"_s, u"operations_absent"_s},
        {u"W-TENSORS-ABSENT"_s, u"tensors_absent"_s},
        {u"W-LOGICAL-MEMORY-ABSENT"_s, u"logical_memory_absent"_s},
        {u"W-PHYSICAL-MEMORY-ABSENT"_s, u"physical_memory_absent"_s},
        {u"W-DEVICE-TIMING-ABSENT"_s, u"device_timing_absent"_s},
        {u"W-GRADIENTS-ABSENT"_s, u"gradients_absent"_s},
        {u"W-FORWARD-ABSENT"_s, u"forward_absent"_s},
        {u"W-BACKWARD-ABSENT"_s, u"backward_absent"_s},
        {u"W-OPTIMIZER-ABSENT"_s, u"optimizer_absent"_s},
        {u"HW-LABEL-EMPTY"_s, u"empty_required_semantic_label"_s},
        {u"HW-LABEL-DUP"_s, u"duplicate_required_semantic_label"_s},
        {u"HW-LABEL-CARDINALITY"_s, u"required_semantic_label_cardinality"_s},
        {u"HW-CLASS-EMPTY"_s, u"empty_semantic_label_classification"_s},
        {u"HW-CLASS-DUP"_s, u"duplicate_semantic_label_classification"_s},
        {u"HW-CLASS-UNREQUIRED"_s, u"unrequired_semantic_label_classification"_s},
        {u"HW-CLASS-OVERLAP"_s, u"overlapping_semantic_label_classification"_s},
        {u"HW-CLASS-PARTITION"_s, u"incomplete_semantic_label_partition"_s},
    };
    return table;
}

bool isCoverageWarning(const std::string &ruleId)
{
    static const char *const ids[] = {
        "W-OPS-ABSENT",           "W-TENSORS-ABSENT",   "W-LOGICAL-MEMORY-ABSENT", "W-PHYSICAL-MEMORY-ABSENT",
        "W-DEVICE-TIMING-ABSENT", "W-GRADIENTS-ABSENT", "W-FORWARD-ABSENT",        "W-BACKWARD-ABSENT",
        "W-OPTIMIZER-ABSENT"};
    for (const char *id : ids)
        if (ruleId == id)
            return true;
    return false;
}

QString describe(const Problem &p)
{
    return QStringLiteral("%1 %2 %3: %4")
        .arg(QString::fromStdString(p.ruleId), QLatin1String(severityName(p.severity)), QString::number(p.line),
             QString::fromStdString(p.message));
}

QStringList describeAll(const HealthReport &report, bool withCoverage)
{
    QStringList out;
    for (const Problem &p : report.findings)
        if (withCoverage || !isCoverageWarning(p.ruleId))
            out << describe(p);
    return out;
}

/// Every finding: known rule id, its upstream code, severity from the id prefix.
void verifyCodesAndSeverities(const HealthReport &report, bool failed)
{
    for (const Problem &p : report.findings) {
        const QString id = QString::fromStdString(p.ruleId);
        QVERIFY2(codeTable().contains(id), qPrintable(id));
        QCOMPARE(QString::fromStdString(p.code), codeTable().value(id));
        Severity expected = Severity::Error;
        if (id.startsWith(u"W-"))
            expected = Severity::Warning;
        else if (id.startsWith(u"HW-") && failed)
            expected = Severity::Warning;
        QCOMPARE(severityName(p.severity), severityName(expected));
    }
}

QString examplePath(const char *name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1String(name);
}

} // namespace

class TestHealth : public QObject
{
    Q_OBJECT

private:
    static void addRow(const char *name, const QByteArray &meta, const QByteArrayList &body, const QByteArray &terminal,
                       const QStringList &expected, bool withCoverage = false)
    {
        QTest::newRow(name) << meta << body << terminal << withCoverage << expected;
    }
    static void columns()
    {
        QTest::addColumn<QByteArray>("meta");
        QTest::addColumn<QByteArrayList>("body");
        QTest::addColumn<QByteArray>("terminal");
        QTest::addColumn<bool>("withCoverage");
        QTest::addColumn<QStringList>("expected");
    }
    static void runRow();

private Q_SLOTS:
    void structure_data();
    void structure() { runRow(); }
    void evidence_data();
    void evidence() { runRow(); }
    void edges_data();
    void edges() { runRow(); }
    void memoryPairing_data();
    void memoryPairing() { runRow(); }
    void gradientRecords_data();
    void gradientRecords() { runRow(); }
    void gradientContract_data();
    void gradientContract() { runRow(); }
    void coverage_data();
    void coverage() { runRow(); }
    void labels_data();
    void labels() { runRow(); }
    void blankRequiredLabels_data();
    void blankRequiredLabels() { runRow(); }
    void blankClassEntries_data();
    void blankClassEntries() { runRow(); }

    void examples_data();
    void examples();
    void flags_data();
    void flags();
    void coverageCounts();
    void relatedRecords();
    void unreachableAfterLoad();
    void missingMetaOrTerminal();
    void emptyTrace();
    void generatedTraceIsStructurallyValid();
};

void TestHealth::runRow()
{
    QFETCH(QByteArray, meta);
    QFETCH(QByteArrayList, body);
    QFETCH(QByteArray, terminal);
    QFETCH(bool, withCoverage);
    QFETCH(QStringList, expected);
    const auto trace = build(meta, body, terminal);
    QVERIFY(trace);
    const HealthReport report = analyzeHealth(*trace);
    QCOMPARE(describeAll(report, withCoverage), expected);
    verifyCodesAndSeverities(report, trace->terminal && trace->terminal->outcome == RunOutcome::Failed);
    // Given the record extents, as the window's loader does: the same findings.
    const RecordExtents extents = RecordExtents::compute(*trace);
    QCOMPARE(describeAll(analyzeHealth(*trace, &extents), withCoverage), expected);
}

void TestHealth::structure_data()
{
    columns();
    addRow("clean", {}, {kRoot, kRootEnd}, {}, {});
    addRow("run provenance", R"({"capture_step":0})", {kRoot, kRootEnd}, {},
           {u"H-RUN-PROVENANCE error 1: capture_step must be one-based and greater than zero"_s});
    addRow(
        "run provenance from identity",
        R"({"comparison_identity":{"workload_id":"w","model_id":"m","config_id":"c","data_id":"d","seed_policy":"s","physical_batch":0,"accumulation_steps":1,"precision":"p","device_state":"warm"}})",
        {kRoot, kRootEnd}, {},
        {u"H-RUN-PROVENANCE error 1: comparison identity physical_batch must be greater than zero"_s});
    addRow("complete with reason", {}, {kRoot, kRootEnd},
           R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000000000,"reason":""})",
           {u"H-TERMINAL-COMPLETE-REASON error 4: complete terminal outcome cannot contain a failure reason"_s});
    addRow("failed with blank reason", {}, {kRoot, kRootEnd},
           R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000000000,"reason":" \u3000"})",
           {u"H-TERMINAL-FAILED-NO-REASON error 4: failed terminal outcome requires a non-empty reason"_s,
            u"W-CAPTURE-FAILED warning 4:  \u3000"_s});
    addRow("failed without reason", {}, {kRoot, kRootEnd},
           R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000000000})",
           {u"H-TERMINAL-FAILED-NO-REASON error 4: failed terminal outcome requires a non-empty reason"_s,
            u"W-CAPTURE-FAILED warning 4: capture ended with a failed outcome"_s});
    addRow("terminal before span end", {}, {kRoot, kRootEnd},
           R"({"kind":"terminal","outcome":"complete","timestamp_ns":999})",
           {u"H-TERMINAL-EARLY error 4: terminal timestamp 999 precedes host evidence ending at 1000"_s});
    addRow("terminal before device memory, device interval ignored", {},
           {kRoot, kRootEnd, devmem(5000, R"(,"used_bytes":1)"), interval("root", 999999999)},
           R"({"kind":"terminal","outcome":"complete","timestamp_ns":4000})",
           {u"H-TERMINAL-EARLY error 6: terminal timestamp 4000 precedes host evidence ending at 5000"_s});
    addRow("terminal equal to latest evidence", {}, {kRoot, kRootEnd, op("root", "matmul", 990, 10)},
           R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000})", {});
    addRow("failed capture", {}, {kRoot}, kFailed,
           {u"W-CAPTURE-FAILED warning 3: boom"_s, u"W-SPAN-INTERRUPTED warning 2: span `root` was interrupted"_s});
    addRow("no spans", {}, {}, {},
           {u"H-ROOT-COUNT error 0: expected exactly one root span, found 0"_s,
            u"H-MEASURED-COUNT error 0: expected exactly one measured region, found 0"_s});
    addRow("no spans, failed", {}, {}, kFailed,
           {u"W-CAPTURE-FAILED warning 2: boom"_s, u"H-ROOT-COUNT error 0: expected exactly one root span, found 0"_s});
    addRow("two roots", {}, {kRoot, span("r2", {}, 0), end("r2", 1), kRootEnd}, {},
           {u"H-ROOT-COUNT error 0: expected exactly one root span, found 2"_s});
    addRow("two measured", {}, {kRoot, span("m", "root", 10, R"(,"measured":true)"), end("m", 10), kRootEnd}, {},
           {u"H-MEASURED-COUNT error 0: expected exactly one measured region, found 2"_s});
    addRow("two measured, failed", {}, {kRoot, span("m", "root", 10, R"(,"measured":true)"), end("m", 10), kRootEnd},
           kFailed, {u"W-CAPTURE-FAILED warning 6: boom"_s});
    addRow("unclosed child", {}, {kRoot, span("child", "root", 10), kRootEnd}, {},
           {u"H-SPAN-UNCLOSED error 3: span `child` was not closed"_s});
    addRow("unknown parent", {}, {kRoot, span("orphan", "ghost", 10), end("orphan", 5), kRootEnd}, {},
           {u"H-SPAN-PARENT-UNKNOWN error 3: span `orphan` refers to missing parent `ghost`"_s});
    addRow("children outside parent", {},
           {span("root", {}, 100, R"(,"measured":true)"), span("c1", "root", 50), end("c1", 10),
            span("c2", "root", 150), end("c2", 100), span("c3", "root", 100), end("c3", 100), span("c4", "root", 50),
            end("root", 100)},
           {},
           {u"H-SPAN-OUTSIDE-PARENT error 3: span `c1` lies outside parent `root`"_s,
            u"H-SPAN-OUTSIDE-PARENT error 5: span `c2` lies outside parent `root`"_s,
            u"H-SPAN-UNCLOSED error 9: span `c4` was not closed"_s});
    addRow("child end saturates", {},
           {span("root", {}, 10, R"(,"measured":true)"), span("c", "root", 10), end("c", 18446744073709551615ull),
            end("root", 18446744073709551615ull)},
           R"({"kind":"terminal","outcome":"complete","timestamp_ns":18446744073709551615})", {});
    addRow("cycles", {},
           {kRoot, span("a", "b", 10), end("a", 1), span("b", "a", 10), end("b", 1), span("c", "a", 10), end("c", 1),
            span("s", "s", 10), end("s", 1), kRootEnd},
           {},
           {u"H-SPAN-CYCLE error 3: span `a` participates in a parent cycle"_s,
            u"H-SPAN-CYCLE error 5: span `b` participates in a parent cycle"_s,
            u"H-SPAN-CYCLE error 7: span `c` participates in a parent cycle"_s,
            u"H-SPAN-CYCLE error 9: span `s` participates in a parent cycle"_s});
    addRow("chain into a missing parent is no cycle", {},
           {kRoot, span("x", "y", 10), end("x", 1), span("y", "ghost", 10), end("y", 1), kRootEnd}, {},
           {u"H-SPAN-PARENT-UNKNOWN error 5: span `y` refers to missing parent `ghost`"_s});
    addRow(
        "spans in byte-wise id order", {}, {kRoot, span("a", "root", 10), span("B", "root", 10), kRootEnd}, {},
        {u"H-SPAN-UNCLOSED error 4: span `B` was not closed"_s, u"H-SPAN-UNCLOSED error 3: span `a` was not closed"_s});
    addRow("per-span block order", {}, {kRoot, span("x", "ghost", 10), span("y", "y", 10), kRootEnd}, {},
           {u"H-SPAN-UNCLOSED error 3: span `x` was not closed"_s,
            u"H-SPAN-PARENT-UNKNOWN error 3: span `x` refers to missing parent `ghost`"_s,
            u"H-SPAN-UNCLOSED error 4: span `y` was not closed"_s,
            u"H-SPAN-CYCLE error 4: span `y` participates in a parent cycle"_s});
}

void TestHealth::evidence_data()
{
    columns();
    addRow("unknown spans, by record kind", {},
           {kRoot, interval("ghost-di", 5), mem(10, "st", "t", "alloc", 8, "ghost-m"), tstats("ghost-ts"),
            tensor("ghost-t", "t1"), op("ghost-op", "matmul", 0, 1), kRootEnd},
           {},
           {u"H-UNKNOWN-SPAN error 7: operation evidence refers to missing span `ghost-op`"_s,
            u"H-UNKNOWN-SPAN error 6: tensor evidence refers to missing span `ghost-t`"_s,
            u"H-UNKNOWN-SPAN error 5: tensor stats evidence refers to missing span `ghost-ts`"_s,
            u"H-UNKNOWN-SPAN error 4: memory evidence refers to missing span `ghost-m`"_s,
            u"H-UNKNOWN-SPAN error 3: device interval evidence refers to missing span `ghost-di`"_s,
            u"W-RETAINED-ALLOCATIONS warning 0: 1 storages remained live at capture end"_s});
    addRow("zero-duration device intervals", {},
           {kRoot, interval("ghost", 0), interval("root", 0), interval("root", 1), kRootEnd}, {},
           {u"H-UNKNOWN-SPAN error 3: device interval evidence refers to missing span `ghost`"_s,
            u"H-DEVICE-INTERVAL-EMPTY error 3: device interval for `ghost` has zero duration"_s,
            u"H-DEVICE-INTERVAL-EMPTY error 4: device interval for `root` has zero duration"_s});
    addRow("operations outside their span", {},
           {kRoot, span("c", "root", 100), op("root", "fits", 0, 1000), op("c", "early", 50, 10),
            op("c", "late", 150, 100), end("c", 100), span("o", "root", 10), op("o", "in-open-span", 0, 5),
            op("c", "edge", 100, 100), kRootEnd},
           {},
           {u"H-SPAN-UNCLOSED error 8: span `o` was not closed"_s,
            u"H-OP-OUTSIDE-SPAN error 5: operation `early` lies outside span `c`"_s,
            u"H-OP-OUTSIDE-SPAN error 6: operation `late` lies outside span `c`"_s});
    addRow("memory outside its span", {},
           {kRoot, span("c", "root", 100), mem(100, "m1", "t", "alloc", 8, "c"), mem(200, "m1", "t", "free", 8, "c"),
            mem(99, "m2", "t", "alloc", 8, "c"), mem(201, "m2", "t", "free", 8, "c"), end("c", 100),
            span("o", "root", 10), mem(0, "m3", "t", "alloc", 8, "o"), mem(5, "m3", "t", "free", 8, "o"), kRootEnd},
           {},
           {u"H-SPAN-UNCLOSED error 9: span `o` was not closed"_s,
            u"H-MEMORY-OUTSIDE-SPAN error 6: memory event for storage `m2` lies outside span `c`"_s,
            u"H-MEMORY-OUTSIDE-SPAN error 7: memory event for storage `m2` lies outside span `c`"_s});
    // Each rule's findings in the §10 order whichever record kinds have them (ops, memory and
    // intervals are first checked for any finding at all, each in one walk).
    addRow("findings of several kinds, in the rules' order", {},
           {kRoot, span("c", "root", 100), op("c", "late", 150, 100), mem(10, "st", "t", "alloc", 8, "ghost-m"),
            interval("root", 0), op("ghost-op", "mm", 0, 1), mem(300, "st", "t", "free", 8, "c"), end("c", 100),
            kRootEnd},
           {},
           {u"H-UNKNOWN-SPAN error 7: operation evidence refers to missing span `ghost-op`"_s,
            u"H-UNKNOWN-SPAN error 5: memory evidence refers to missing span `ghost-m`"_s,
            u"H-DEVICE-INTERVAL-EMPTY error 6: device interval for `root` has zero duration"_s,
            u"H-OP-OUTSIDE-SPAN error 4: operation `late` lies outside span `c`"_s,
            u"H-MEMORY-OUTSIDE-SPAN error 8: memory event for storage `st` lies outside span `c`"_s});
    // trace/9 documents get the trace/10 health code (§14 Q6), memory_outside_span included.
    addRow("memory outside span under trace/9", R"({"schema":"candle-graph/trace/9"})",
           {kRoot, kRootEnd, mem(2000, "m", "t", "alloc", 8), mem(2001, "m", "t", "free", 8)}, {},
           {u"H-MEMORY-OUTSIDE-SPAN error 4: memory event for storage `m` lies outside span `root`"_s,
            u"H-MEMORY-OUTSIDE-SPAN error 5: memory event for storage `m` lies outside span `root`"_s});
    addRow("device-memory sample without measurements", {},
           {kRoot, devmem(10, {}), devmem(20, R"(,"free_bytes":5)"), devmem(30, R"(,"capacity_bytes":0)"),
            devmem(40, R"(,"reserved_bytes":1)"), devmem(50, R"(,"used_bytes":null)"), kRootEnd},
           {},
           {u"H-DEVICE-MEMORY-EMPTY error 3: device-memory sample for `cuda:0` contains no measurements"_s,
            u"H-DEVICE-MEMORY-EMPTY error 7: device-memory sample for `cuda:0` contains no measurements"_s});
}

void TestHealth::edges_data()
{
    columns();
    addRow("call edges", {},
           {kRoot, span("c", "root", 100), end("c", 100), span("d", "c", 150), kRootEnd, call("root", "c", 100),
            call("root", "ghost", 1), call("ghost", "c", 1), call("d", "c", 100), call("root", "c", 7),
            call("d", "c", 5), call("root", "d", 5)},
           {},
           {u"H-SPAN-UNCLOSED error 5: span `d` was not closed"_s,
            u"H-CALL-EDGE-SPAN-UNKNOWN error 8: call edge `root` -> `ghost` refers to a missing span"_s,
            u"H-CALL-EDGE-SPAN-UNKNOWN error 9: call edge `ghost` -> `c` refers to a missing span"_s,
            u"H-CALL-EDGE-HIERARCHY error 10: call edge `d` -> `c` does not match the span hierarchy"_s,
            u"H-CALL-EDGE-DURATION error 11: call edge `root` -> `c` reports 7 ns but the span reports 100 ns"_s,
            u"H-CALL-EDGE-HIERARCHY error 12: call edge `d` -> `c` does not match the span hierarchy"_s,
            u"H-CALL-EDGE-DURATION error 12: call edge `d` -> `c` reports 5 ns but the span reports 100 ns"_s,
            u"H-CALL-EDGE-HIERARCHY error 13: call edge `root` -> `d` does not match the span hierarchy"_s});
    addRow("call edge into the root", {}, {kRoot, kRootEnd, call("root", "root", 1000)}, {},
           {u"H-CALL-EDGE-HIERARCHY error 4: call edge `root` -> `root` does not match the span hierarchy"_s});
    addRow("data edges", {},
           {kRoot, op("root", "matmul", 0, 1, R"(,"inputs":["in1"],"output":"out1")"), tensor("root", "t1"),
            mem(1, "s", "mt", "alloc", 8), mem(2, "s", "mt", "free", 8), kRootEnd, data("in1", "out1"),
            data("t1", "in1"), data("", "t1"), data("t1", ""), data(" ", "t1"), data("t1", "ghost"), data("lbl", "t1"),
            data("mt", "t1"), data("", "ghost")},
           {},
           {u"H-DATA-EDGE-EMPTY error 10: data-edge tensor IDs cannot be empty"_s,
            u"H-DATA-EDGE-EMPTY error 11: data-edge tensor IDs cannot be empty"_s,
            u"H-DATA-EDGE-UNKNOWN error 12: data edge ` ` -> `t1` refers to unknown tensor evidence"_s,
            u"H-DATA-EDGE-UNKNOWN error 13: data edge `t1` -> `ghost` refers to unknown tensor evidence"_s,
            u"H-DATA-EDGE-UNKNOWN error 14: data edge `lbl` -> `t1` refers to unknown tensor evidence"_s,
            u"H-DATA-EDGE-UNKNOWN error 15: data edge `mt` -> `t1` refers to unknown tensor evidence"_s,
            u"H-DATA-EDGE-EMPTY error 16: data-edge tensor IDs cannot be empty"_s});
}

void TestHealth::memoryPairing_data()
{
    columns();
    addRow("aliases share one storage", {},
           {kRoot, mem(1, "s", "base", "alloc", 64), mem(2, "s", "view", "alloc", 64), mem(3, "s", "view", "free", 64),
            kRootEnd},
           {}, {});
    addRow(
        "conflicting allocation size", {},
        {kRoot, mem(1, "s", "a", "alloc", 64), mem(2, "s", "b", "alloc", 32), mem(3, "s", "a", "free", 64), kRootEnd},
        {}, {u"H-ALLOC-SIZE-CONFLICT error 4: storage `s` on `cpu` has conflicting allocation sizes"_s});
    addRow(
        "repeated allocation", {},
        {kRoot, mem(1, "s", "a", "alloc", 64), mem(2, "s", "a", "alloc", 64), mem(3, "s", "a", "free", 64), kRootEnd},
        {}, {u"H-ALLOC-DUP error 4: tensor `a` repeated an allocation for storage `s` on `cpu`"_s});
    addRow("a conflicting alloc attaches no tensor", {},
           {kRoot, mem(1, "s", "a", "alloc", 64), mem(2, "s", "b", "alloc", 32), mem(3, "s", "b", "alloc", 64),
            mem(4, "s", "b", "alloc", 64), mem(5, "s", "b", "free", 64), kRootEnd},
           {},
           {u"H-ALLOC-SIZE-CONFLICT error 4: storage `s` on `cpu` has conflicting allocation sizes"_s,
            u"H-ALLOC-DUP error 6: tensor `b` repeated an allocation for storage `s` on `cpu`"_s});
    addRow("free while not live", {}, {kRoot, mem(1, "s", "a", "free", 64), kRootEnd}, {},
           {u"H-FREE-UNPAIRED error 3: storage `s` on `cpu` was freed while not live"_s});
    addRow("double free", {},
           {kRoot, mem(1, "s", "a", "alloc", 64), mem(2, "s", "a", "free", 64), mem(3, "s", "a", "free", 64), kRootEnd},
           {}, {u"H-FREE-UNPAIRED error 5: storage `s` on `cpu` was freed while not live"_s});
    addRow("free size mismatch releases the key", {},
           {kRoot, mem(1, "s", "a", "alloc", 64), mem(2, "s", "a", "free", 32), mem(3, "s", "a", "alloc", 16),
            mem(4, "s", "a", "free", 16), kRootEnd},
           {}, {u"H-FREE-SIZE-MISMATCH error 4: storage `s` allocated 64 bytes but freed 32"_s});
    addRow("retained storages", {},
           {kRoot, mem(1, "s1", "a", "alloc", 8), mem(2, "s2", "b", "alloc", 8), mem(3, "s3", "c", "alloc", 8),
            mem(4, "s2", "b", "free", 8), kRootEnd},
           {}, {u"W-RETAINED-ALLOCATIONS warning 0: 2 storages remained live at capture end"_s});
    addRow("sorted by timestamp", {}, {kRoot, mem(20, "s", "a", "free", 8), mem(10, "s", "a", "alloc", 8), kRootEnd},
           {}, {});
    addRow("equal timestamps keep stream order", {},
           {kRoot, mem(10, "s", "a", "free", 8), mem(10, "s", "a", "alloc", 8), kRootEnd}, {},
           {u"H-FREE-UNPAIRED error 3: storage `s` on `cpu` was freed while not live"_s,
            u"W-RETAINED-ALLOCATIONS warning 0: 1 storages remained live at capture end"_s});
    addRow("findings in timestamp order", {},
           {kRoot, mem(50, "x", "a", "free", 8), mem(10, "y", "a", "free", 8), kRootEnd}, {},
           {u"H-FREE-UNPAIRED error 4: storage `y` on `cpu` was freed while not live"_s,
            u"H-FREE-UNPAIRED error 3: storage `x` on `cpu` was freed while not live"_s});
    addRow("device is part of the key", {},
           {kRoot, mem(1, "s", "a", "alloc", 8, "root", "cpu"), mem(2, "s", "a", "alloc", 16, "root", "cuda:0"),
            mem(3, "s", "a", "free", 8, "root", "cpu"), mem(4, "s", "a", "free", 16, "root", "cuda:0"),
            mem(5, "s", "a", "free", 16, "root", "cuda:1"), kRootEnd},
           {}, {u"H-FREE-UNPAIRED error 7: storage `s` on `cuda:1` was freed while not live"_s});
    addRow("freeing tensor is not compared", {},
           {kRoot, mem(1, "s", "a", "alloc", 8), mem(2, "s", "zzz", "free", 8), kRootEnd}, {}, {});
}

void TestHealth::gradientRecords_data()
{
    columns();
    addRow("consistent norms", {},
           {kRoot, kRootEnd, grad("g1", "r", "k1", "present", "1e-300"), grad("g2", "r", "k2", "zero", "0.0"),
            grad("g3", "r", "k3", "zero", "0"), grad("g4", "r", "k4", "missing"), grad("g5", "r", "k5", "non_finite"),
            grad("g6", "r", "k6", "missing", "null")},
           {}, {});
    addRow("inconsistent norms", {},
           {kRoot, kRootEnd, grad("g1", "r", "k", "present"), grad("g2", "r", "k", "present", "0.0"),
            grad("g3", "r", "k", "present", "-1"), grad("g4", "r", "k", "zero", "-0.0"),
            grad("g5", "r", "k", "zero", "-0"), grad("g6", "r", "k", "zero", "1e-7"), grad("g7", "r", "k", "zero"),
            grad("g8", "r", "k", "missing", "0.5"), grad("g9", "r", "k", "non_finite", "2e16"),
            grad("g10", "r", "k", "missing", "0.0"), grad("g11", "r", "k", "present", "-0.0")},
           {},
           {uR"(H-GRAD-NORM error 4: gradient ("r", "k") state `present` is inconsistent with norm None)"_s,
            uR"(H-GRAD-NORM error 5: gradient ("r", "k") state `present` is inconsistent with norm Some(0.0))"_s,
            uR"(H-GRAD-NORM error 6: gradient ("r", "k") state `present` is inconsistent with norm Some(-1.0))"_s,
            uR"(H-GRAD-NORM error 7: gradient ("r", "k") state `zero` is inconsistent with norm Some(-0.0))"_s,
            uR"(H-GRAD-NORM error 8: gradient ("r", "k") state `zero` is inconsistent with norm Some(-0.0))"_s,
            uR"(H-GRAD-NORM error 9: gradient ("r", "k") state `zero` is inconsistent with norm Some(1e-7))"_s,
            uR"(H-GRAD-NORM error 10: gradient ("r", "k") state `zero` is inconsistent with norm None)"_s,
            uR"(H-GRAD-NORM error 11: gradient ("r", "k") state `missing` is inconsistent with norm Some(0.5))"_s,
            uR"(H-GRAD-NORM error 12: gradient ("r", "k") state `non_finite` is inconsistent with norm Some(2e16))"_s,
            uR"(H-GRAD-NORM error 13: gradient ("r", "k") state `missing` is inconsistent with norm Some(0.0))"_s,
            uR"(H-GRAD-NORM error 14: gradient ("r", "k") state `present` is inconsistent with norm Some(-0.0))"_s});
    addRow("per-record order", {},
           {kRoot, kRootEnd, grad("", " ", "k", "present"), grad("", "r", "\u2028", "zero", "0.0"),
            grad("\xc2\xa0", "r", "k", "missing")},
           {},
           {u"H-GRAD-EVENT-ID-EMPTY error 4: gradient event IDs must not be empty"_s,
            u"H-GRAD-KEY-EMPTY error 4: gradient roots and parameter keys must not be empty"_s,
            uR"(H-GRAD-NORM error 4: gradient (" ", "k") state `present` is inconsistent with norm None)"_s,
            u"H-GRAD-EVENT-ID-EMPTY error 5: gradient event IDs must not be empty"_s,
            u"H-GRAD-KEY-EMPTY error 5: gradient roots and parameter keys must not be empty"_s,
            uR"(H-GRAD-EVENT-ID-DUP error 5: gradient event ID "" occurs more than once)"_s,
            u"H-GRAD-EVENT-ID-EMPTY error 6: gradient event IDs must not be empty"_s});
    addRow(
        "debug quoting", {},
        {kRoot, kRootEnd, grad("e\t1", "r\"", "k\xc3\xa9\xe2\x80\x8b", "missing", "1"),
         grad("e\t1", "r\"", "k\xc3\xa9\xe2\x80\x8b", "missing", "1.5e-7")},
        {},
        {u"H-GRAD-NORM error 4: gradient (\"r\\\"\", \"k\u00e9\\u{200b}\") state `missing` is inconsistent with norm Some(1.0)"_s,
         u"H-GRAD-EVENT-ID-DUP error 5: gradient event ID \"e\\t1\" occurs more than once"_s,
         u"H-GRAD-NORM error 5: gradient (\"r\\\"\", \"k\u00e9\\u{200b}\") state `missing` is inconsistent with norm Some(1.5e-7)"_s});
}

void TestHealth::gradientContract_data()
{
    columns();
    const QByteArrayList spans{kRoot, kRootEnd};
    const auto with = [&](const QByteArrayList &gradients) { return spans + gradients; };
    const QByteArray labelsAndNoContract =
        R"({"capture_contract":{"gradients":"complete","required_semantic_labels":["nope"]}})";

    addRow("contract satisfied", kContract,
           with({tv("a", "present", "1"), tv("b", "present", "2"), tv("c", "missing"), tv("d", "present", "3"),
                 tv("e", "present", "4")}),
           {}, {});
    addRow("no contract, partial coverage: silent", R"({"capture_contract":{"gradients":"partial"}})",
           with({grad("g", "x", "y", "present", "1"), grad("h", "x", "y", "present", "1")}), {}, {});
    addRow("contract missing; label checks still run", labelsAndNoContract, with({tv("a", "present", "1")}), {},
           {u"H-GRAD-CONTRACT-MISSING error 1: complete gradient coverage requires an exact gradient contract"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `nope` must occur exactly once; observed 0"_s});
    QByteArray partial = kContract;
    partial.replace(R"("gradients":"complete")", R"("gradients":"partial")");
    addRow(
        "contract without complete coverage", partial, with({tv("zz", "present", "1")}), {},
        {u"H-GRAD-CONTRACT-UNEXPECTED error 1: an exact gradient contract requires complete declared gradient coverage"_s});
    QByteArray wrongDigest = kContract;
    wrongDigest.replace("sha256:d1d8", "sha256:0000");
    addRow(
        "invalid contract stops the checks", wrongDigest,
        with({tv("zz", "present", "1"), grad("g-zz2", "train_vb", "zz", "present", "1")}), {},
        {u"H-GRAD-CONTRACT-INVALID error 1: gradient manifest SHA-256 does not match its ordered parameter manifest"_s});
    addRow("duplicate and undeclared keys in byte-wise order", kContract,
           with({tv("a", "present", "1"), tv("b", "present", "2"), tv("c", "missing"), tv("d", "present", "3"),
                 tv("e", "present", "4"), grad("g-a2", "train_vb", "a", "present", "1"),
                 grad("g-z", "a_root", "z", "present", "1"), grad("g-zz", "train_vb", "zz", "present", "1"),
                 grad("g-zz2", "train_vb", "zz", "missing")}),
           {},
           {uR"(H-GRAD-MANIFEST-UNDECLARED error 10: gradient ("a_root", "z") is absent from the manifest)"_s,
            uR"(H-GRAD-MANIFEST-DUP-KEY error 4: gradient ("train_vb", "a") occurs 2 times; expected exactly once)"_s,
            uR"(H-GRAD-MANIFEST-DUP-KEY error 11: gradient ("train_vb", "zz") occurs 2 times; expected exactly once)"_s,
            uR"(H-GRAD-MANIFEST-UNDECLARED error 11: gradient ("train_vb", "zz") is absent from the manifest)"_s});
    addRow(
        "manifest keys not captured", kContract,
        with({tv("a", "present", "1"), tv("c", "missing"), tv("d", "present", "1")}), {},
        {uR"(HW-GRAD-MANIFEST-MISSING error 1: manifest gradient ("train_vb", "b") was not captured)"_s,
         uR"(HW-GRAD-MANIFEST-MISSING error 1: manifest gradient ("train_vb", "e") was not captured)"_s,
         uR"(H-GRAD-ACTIVE-BELOW-MIN error 1: active gradient family "active" has 1 present gradients; requires at least 2)"_s,
         uR"(H-GRAD-CONDITIONAL-BELOW-MIN error 1: data-conditional gradient family "cond" was attached but has 1 present gradients; requires at least 2)"_s});
    addRow("manifest keys not captured, failed capture", kContract,
           with({tv("a", "present", "1"), tv("c", "missing"), tv("d", "present", "1")}), kFailed,
           {u"W-CAPTURE-FAILED warning 7: boom"_s,
            uR"(HW-GRAD-MANIFEST-MISSING warning 1: manifest gradient ("train_vb", "b") was not captured)"_s,
            uR"(HW-GRAD-MANIFEST-MISSING warning 1: manifest gradient ("train_vb", "e") was not captured)"_s});
    addRow(
        "failed capture still judges complete families", kContract,
        with({tv("a", "present", "1"), tv("b", "zero", "0.0"), tv("c", "missing"), tv("d", "present", "1"),
              tv("e", "present", "1")}),
        kFailed,
        {u"W-CAPTURE-FAILED warning 9: boom"_s,
         uR"(H-GRAD-ACTIVE-BELOW-MIN error 1: active gradient family "active" has 1 present gradients; requires at least 2)"_s});
    addRow(
        "non-finite, leakage, conditional minimum", kContract,
        with({tv("a", "present", "1"), tv("b", "present", "1"), tv("c", "zero", "0.0"), tv("d", "non_finite"),
              tv("e", "present", "1")}),
        {},
        {uR"(H-GRAD-INACTIVE-LEAK error 1: inactive gradient family "frozen" has 1 attached gradients)"_s,
         uR"(H-GRAD-FAMILY-NONFINITE error 1: gradient family "cond" contains 1 non-finite gradients)"_s,
         uR"(H-GRAD-CONDITIONAL-BELOW-MIN error 1: data-conditional gradient family "cond" was attached but has 1 present gradients; requires at least 2)"_s});
    addRow("non-finite inactive member leaks too", kContract,
           with({tv("a", "present", "1"), tv("b", "present", "1"), tv("c", "non_finite"), tv("d", "missing"),
                 tv("e", "missing")}),
           {},
           {uR"(H-GRAD-FAMILY-NONFINITE error 1: gradient family "frozen" contains 1 non-finite gradients)"_s,
            uR"(H-GRAD-INACTIVE-LEAK error 1: inactive gradient family "frozen" has 1 attached gradients)"_s});
    // trace/10 rule: an attached but all-zero conditional family passes (trace/9 code flagged it).
    addRow("all-zero conditional family passes", kContract,
           with({tv("a", "present", "1"), tv("b", "present", "1"), tv("c", "missing"), tv("d", "zero", "0.0"),
                 tv("e", "zero", "0.0")}),
           {}, {});
    QByteArray trace9 = kContract;
    trace9.insert(1, R"("schema":"candle-graph/trace/9",)");
    addRow("all-zero conditional family passes under trace/9 too", trace9,
           with({tv("a", "present", "1"), tv("b", "present", "1"), tv("c", "missing"), tv("d", "zero", "0.0"),
                 tv("e", "zero", "0.0")}),
           {}, {});
    addRow("family uses the first record of a pair", kContract,
           with({tv("a", "present", "1"), tv("b", "present", "1"), tv("c", "missing"), tv("d", "present", "1"),
                 tv("e", "present", "1"), grad("g-d2", "train_vb", "d", "zero", "0.0")}),
           {},
           {uR"(H-GRAD-MANIFEST-DUP-KEY error 7: gradient ("train_vb", "d") occurs 2 times; expected exactly once)"_s});
}

void TestHealth::coverage_data()
{
    columns();
    const QStringList basic{u"W-OPS-ABSENT warning 0: no operation evidence was captured"_s,
                            u"W-TENSORS-ABSENT warning 0: no tensor checkpoints were captured"_s,
                            u"W-LOGICAL-MEMORY-ABSENT warning 0: no logical storage events were captured"_s,
                            u"W-PHYSICAL-MEMORY-ABSENT warning 0: no physical device-memory samples were captured"_s,
                            u"W-DEVICE-TIMING-ABSENT warning 0: no device timing intervals were captured"_s};
    const QStringList training{u"W-GRADIENTS-ABSENT warning 0: no gradient facts were captured for this training run"_s,
                               u"W-FORWARD-ABSENT warning 0: no forward span was tagged"_s,
                               u"W-BACKWARD-ABSENT warning 0: no backward span was tagged"_s,
                               u"W-OPTIMIZER-ABSENT warning 0: no optimizer span was tagged"_s};
    addRow("inference, spans only", {}, {kRoot, kRootEnd}, {}, basic, true);
    addRow("training, spans only", R"({"phase":"train"})", {kRoot, kRootEnd}, {}, basic + training, true);
    addRow("tensor stats are not tensors", {}, {kRoot, tstats("root"), kRootEnd}, {}, basic, true);
    const QByteArrayList everything{kRoot,
                                    span("f", "root", 10, R"(,"step":"forward")"),
                                    end("f", 10),
                                    span("b", "root", 20, R"(,"step":"backward")"),
                                    end("b", 10),
                                    span("o", "root", 30, R"(,"step":"optimizer")"),
                                    end("o", 10),
                                    op("root", "matmul", 0, 1),
                                    tensor("root", "t"),
                                    mem(1, "s", "t", "alloc", 8),
                                    mem(2, "s", "t", "free", 8),
                                    devmem(3, R"(,"used_bytes":1)"),
                                    interval("root", 5),
                                    grad("g", "r", "k", "present", "1"),
                                    kRootEnd};
    addRow("training, all evidence", R"({"phase":"train"})", everything, {}, {}, true);
    addRow("training, forward only", R"({"phase":"train"})",
           {kRoot, span("f", "root", 10, R"(,"step":"forward")"), end("f", 10), kRootEnd}, {},
           basic + QStringList{training[0], training[2], training[3]}, true);
    addRow(
        "coverage follows gradients and precedes labels", R"({"capture_contract":{"required_semantic_labels":["x"]}})",
        {kRoot, kRootEnd, grad("", "r", "k", "missing")}, {},
        QStringList{u"H-GRAD-EVENT-ID-EMPTY error 4: gradient event IDs must not be empty"_s} + basic
            + QStringList{u"HW-LABEL-CARDINALITY error 1: required semantic label `x` must occur exactly once; observed 0"_s},
        true);
}

void TestHealth::labels_data()
{
    columns();
    const QByteArrayList spans = labelSpans();
    addRow("labels occur once", labelContract(R"(["root","a","b"])"), spans, {}, {});
    addRow("label never observed", labelContract(R"(["nope"])"), spans, {},
           {u"HW-LABEL-CARDINALITY error 1: required semantic label `nope` must occur exactly once; observed 0"_s});
    addRow("label observed twice", labelContract(R"(["a"])"),
           spans + QByteArrayList{named("s-a2", "root", "a"), end("s-a2", 1)}, {},
           {u"HW-LABEL-CARDINALITY error 1: required semantic label `a` must occur exactly once; observed 2"_s});
    addRow("labels match exactly", labelContract(R"(["Root","a "])"), spans, {},
           {u"HW-LABEL-CARDINALITY error 1: required semantic label `Root` must occur exactly once; observed 0"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `a ` must occur exactly once; observed 0"_s});
    addRow("duplicate label, cardinality per entry", labelContract(R"(["x","root","x","root"])"), spans, {},
           {u"HW-LABEL-CARDINALITY error 1: required semantic label `x` must occur exactly once; observed 0"_s,
            u"HW-LABEL-DUP error 1: required semantic label `x` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `x` must occur exactly once; observed 0"_s,
            u"HW-LABEL-DUP error 1: required semantic label `root` is declared more than once"_s});
    addRow("blank label", labelContract(R"([" ","root",""])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s});
    addRow("label findings are warnings for a failed capture", labelContract(R"(["nope","nope",""])"), spans, kFailed,
           {u"W-CAPTURE-FAILED warning 8: boom"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label `nope` must occur exactly once; observed 0"_s,
            u"HW-LABEL-DUP warning 1: required semantic label `nope` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label `nope` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label `` must occur exactly once; observed 0"_s});
    addRow("classes partition the labels", labelContract(R"(["root","a","b"])", R"(["root","a"])", R"(["b"])"), spans,
           {}, {});
    addRow("no class lists, no class findings", labelContract(R"(["root","a","b"])", "[]", "[]"), spans, {}, {});
    addRow(
        "class findings", labelContract(R"(["root","a","b"])", R"(["","a","a","zz"])", R"(["a","b"," "])"), spans, {},
        {u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
         u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label `` is not a required application label"_s,
         u"HW-CLASS-DUP error 1: GPU-expected semantic label `a` is declared more than once"_s,
         u"HW-CLASS-OVERLAP error 1: semantic label `a` is classified as both GPU-expected and CPU-only"_s,
         u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label `zz` is not a required application label"_s,
         u"HW-CLASS-OVERLAP error 1: semantic label `a` is classified as both GPU-expected and CPU-only"_s,
         u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
         u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label ` ` is not a required application label"_s,
         u"HW-CLASS-PARTITION error 1: GPU-expected and CPU-only semantic labels must partition all required application labels"_s});
    addRow(
        "unrequired duplicate", labelContract(R"(["root"])", R"(["root"])", R"(["q","q"])"), spans, {},
        {u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `q` is not a required application label"_s,
         u"HW-CLASS-DUP error 1: CPU-only semantic label `q` is declared more than once"_s,
         u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `q` is not a required application label"_s,
         u"HW-CLASS-OVERLAP error 1: semantic label `q` is classified as both GPU-expected and CPU-only"_s,
         u"HW-CLASS-PARTITION error 1: GPU-expected and CPU-only semantic labels must partition all required application labels"_s});
    addRow(
        "only a CPU list", labelContract(R"(["root","a","b"])", nullptr, R"(["b"])"), spans, {},
        {u"HW-CLASS-PARTITION error 1: GPU-expected and CPU-only semantic labels must partition all required application labels"_s});
    addRow(
        "class findings are warnings for a failed capture", labelContract(R"(["root"])", R"(["zz"])"), spans, kFailed,
        {u"W-CAPTURE-FAILED warning 8: boom"_s,
         u"HW-CLASS-UNREQUIRED warning 1: GPU-expected semantic label `zz` is not a required application label"_s,
         u"HW-CLASS-PARTITION warning 1: GPU-expected and CPU-only semantic labels must partition all required application labels"_s});
}

// TRACE_FORMAT.md §10.1, note below the table: a blank required label (empty or whitespace
// only) gets its "empty" finding and still goes through the duplicate and cardinality checks.
void TestHealth::blankRequiredLabels_data()
{
    columns();
    const QByteArrayList spans = labelSpans();
    addRow("whitespace label alone", labelContract(R"([" "])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s});
    addRow("empty label alone", labelContract(R"([""])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s});
    addRow("non-ASCII whitespace is blank", labelContract(R"(["\u2003", "\u00a0\n"])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `\u2003` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `\u00a0\n` must occur exactly once; observed 0"_s});
    addRow("whitespace label duplicated", labelContract(R"([" "," "])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-DUP error 1: required semantic label ` ` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s});
    addRow("empty label duplicated", labelContract(R"(["","",""])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-DUP error 1: required semantic label `` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-DUP error 1: required semantic label `` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s});
    addRow("different blank texts are different labels", labelContract(R"([""," ","  ","\t"])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `  ` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `\t` must occur exactly once; observed 0"_s});
    addRow("blank labels among others", labelContract(R"(["root"," ","a","nope","","b"," ","a"])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `nope` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-DUP error 1: required semantic label ` ` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-LABEL-DUP error 1: required semantic label `a` is declared more than once"_s});
    addRow("blank label naming one span", labelContract(R"([" "])"),
           spans + QByteArrayList{named("s-blank", "root", " "), end("s-blank", 1)}, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s});
    addRow("blank label naming two spans", labelContract(R"(["", " "])"),
           spans + QByteArrayList{named("s-e1", "root", ""), end("s-e1", 1), named("s-e2", "root", ""), end("s-e2", 1)},
           {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 2"_s,
            u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s});
    addRow("failed capture: blank label alone", labelContract(R"([" "])"), spans, kFailed,
           {u"W-CAPTURE-FAILED warning 8: boom"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label ` ` must occur exactly once; observed 0"_s});
    addRow("failed capture: blank labels duplicated among others", labelContract(R"(["",  "root", "", "a"])"), spans,
           kFailed,
           {u"W-CAPTURE-FAILED warning 8: boom"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-DUP warning 1: required semantic label `` is declared more than once"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label `` must occur exactly once; observed 0"_s});
    addRow("failed capture: blank label naming one span", labelContract(R"([" "])"),
           spans + QByteArrayList{named("s-blank", "root", " "), end("s-blank", 1)}, kFailed,
           {u"W-CAPTURE-FAILED warning 10: boom"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s});
}

// TRACE_FORMAT.md §10.1, note below the table: a blank entry of the GPU-expected or CPU-only
// list gets its "empty" finding and is still checked for duplicates, against the required
// labels and for overlap, and it counts among the classified labels of the partition check.
void TestHealth::blankClassEntries_data()
{
    columns();
    const QByteArrayList spans = labelSpans();
    const QString partition =
        u"HW-CLASS-PARTITION error 1: GPU-expected and CPU-only semantic labels must partition all required application labels"_s;
    const QString partitionWarning =
        u"HW-CLASS-PARTITION warning 1: GPU-expected and CPU-only semantic labels must partition all required application labels"_s;

    addRow("GPU list: blank entry alone", labelContract(R"(["root","a","b"])", R"([" "])", R"(["root","a","b"])"),
           spans, {},
           {u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label ` ` is not a required application label"_s,
            partition});
    addRow("CPU list: blank entry alone", labelContract(R"(["root","a","b"])", R"(["root","a","b"])", R"([""])"), spans,
           {},
           {u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `` is not a required application label"_s,
            partition});
    addRow("CPU list only: blank entry alone", labelContract(R"(["root","a","b"])", nullptr, R"(["\t"])"), spans, {},
           {u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `\t` is not a required application label"_s,
            partition});
    addRow("no required labels, blank GPU entry", labelContract("[]", R"([" "])"), spans, {},
           {u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label ` ` is not a required application label"_s,
            partition});
    addRow("GPU list: blank entry duplicated",
           labelContract(R"(["root","a","b"])", R"(["root"," ","a"," "])", R"(["b"])"), spans, {},
           {u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label ` ` is not a required application label"_s,
            u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-DUP error 1: GPU-expected semantic label ` ` is declared more than once"_s,
            u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label ` ` is not a required application label"_s,
            u"HW-CLASS-OVERLAP error 1: semantic label ` ` is classified as both GPU-expected and CPU-only"_s,
            partition});
    addRow("CPU list: blank entry duplicated",
           labelContract(R"(["root","a","b"])", R"(["root","a","b"])", R"(["",""])"), spans, {},
           {u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `` is not a required application label"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-DUP error 1: CPU-only semantic label `` is declared more than once"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `` is not a required application label"_s,
            u"HW-CLASS-OVERLAP error 1: semantic label `` is classified as both GPU-expected and CPU-only"_s,
            partition});
    addRow("blank entry in both lists", labelContract(R"(["root","a","b"])", R"(["root","a"," "])", R"(["b"," "])"),
           spans, {},
           {u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label ` ` is not a required application label"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label ` ` is not a required application label"_s,
            u"HW-CLASS-OVERLAP error 1: semantic label ` ` is classified as both GPU-expected and CPU-only"_s,
            partition});
    addRow("different blank texts in the two lists",
           labelContract(R"(["root","a","b"])", R"(["root","a"," "])", R"(["b","  "])"), spans, {},
           {u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: GPU-expected semantic label ` ` is not a required application label"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `  ` is not a required application label"_s,
            partition});
    // Required as well: the blank entry completes the partition, so no partition finding.
    addRow("GPU list: blank entry also required",
           labelContract(R"(["root"," ","a","b"])", R"(["root"," ","a"])", R"(["b"])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s});
    addRow("CPU list: blank entry also required",
           labelContract(R"(["root","a","b",""])", R"(["root","a"])", R"(["b",""])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s});
    addRow("blank entry as the only label", labelContract(R"([" "])", R"([" "])"),
           spans + QByteArrayList{named("s-blank", "root", " "), end("s-blank", 1)}, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s});
    addRow("blank entry duplicated, also required",
           labelContract(R"(["root","a","b",""])", R"(["root","a","b"])", R"(["",""])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-DUP error 1: CPU-only semantic label `` is declared more than once"_s,
            u"HW-CLASS-OVERLAP error 1: semantic label `` is classified as both GPU-expected and CPU-only"_s});
    addRow("blank entry in both lists, also required",
           labelContract(R"(["root","a","b","\t"])", R"(["root","a","\t"])", R"(["b","\t"])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label `\t` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY error 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-OVERLAP error 1: semantic label `\t` is classified as both GPU-expected and CPU-only"_s});
    // A required blank label left unclassified leaves the partition incomplete.
    addRow("blank required label not classified",
           labelContract(R"(["root","a","b"," "])", R"(["root","a"])", R"(["b"])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            partition});
    addRow("required blank label, other blank text classified",
           labelContract(R"(["root","a","b"," "])", R"(["root","a","b"])", R"(["  "])"), spans, {},
           {u"HW-LABEL-EMPTY error 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY error 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY error 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED error 1: CPU-only semantic label `  ` is not a required application label"_s,
            partition});

    addRow("failed capture: blank entry alone",
           labelContract(R"(["root","a","b"])", R"(["root","a","b"])", R"(["\t"])"), spans, kFailed,
           {u"W-CAPTURE-FAILED warning 8: boom"_s,
            u"HW-CLASS-EMPTY warning 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED warning 1: CPU-only semantic label `\t` is not a required application label"_s,
            partitionWarning});
    addRow("failed capture: blank entries duplicated and in both lists",
           labelContract(R"(["root","a","b"," "])", R"(["root"," "," "])", R"(["a","b",""," "])"), spans, kFailed,
           {u"W-CAPTURE-FAILED warning 8: boom"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label ` ` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY warning 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-EMPTY warning 1: GPU-expected semantic labels must not be empty"_s,
            u"HW-CLASS-DUP warning 1: GPU-expected semantic label ` ` is declared more than once"_s,
            u"HW-CLASS-OVERLAP warning 1: semantic label ` ` is classified as both GPU-expected and CPU-only"_s,
            u"HW-CLASS-EMPTY warning 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-UNREQUIRED warning 1: CPU-only semantic label `` is not a required application label"_s,
            u"HW-CLASS-EMPTY warning 1: CPU-only semantic labels must not be empty"_s,
            u"HW-CLASS-OVERLAP warning 1: semantic label ` ` is classified as both GPU-expected and CPU-only"_s,
            partitionWarning});
    addRow("failed capture: blank entry also required completes the partition",
           labelContract(R"(["root","a","b",""])", R"(["root","a",""])", R"(["b"])"), spans, kFailed,
           {u"W-CAPTURE-FAILED warning 8: boom"_s,
            u"HW-LABEL-EMPTY warning 1: required semantic labels must not be empty"_s,
            u"HW-LABEL-CARDINALITY warning 1: required semantic label `` must occur exactly once; observed 0"_s,
            u"HW-CLASS-EMPTY warning 1: GPU-expected semantic labels must not be empty"_s});
}

void TestHealth::examples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("01") << examplePath("01_valid_trace10_forward.jsonl") << QStringList{};
    QTest::newRow("02") << examplePath("02_valid_trace9_train.jsonl")
                        << QStringList{u"W-TENSORS-ABSENT warning 0: no tensor checkpoints were captured"_s,
                                       u"W-LOGICAL-MEMORY-ABSENT warning 0: no logical storage events were captured"_s,
                                       u"W-DEVICE-TIMING-ABSENT warning 0: no device timing intervals were captured"_s};
}

void TestHealth::examples()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    const ReadResult r = TraceReader::readFile(file.toStdString());
    QVERIFY(r.accepted());
    const HealthReport report = analyzeHealth(*r.trace);
    QCOMPARE(describeAll(report, true), expected);
    verifyCodesAndSeverities(report, false);
    QVERIFY(report.structurallyValid);
    QVERIFY(report.captureComplete);
}

void TestHealth::flags_data()
{
    QTest::addColumn<QByteArrayList>("body");
    QTest::addColumn<QByteArray>("terminal");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<bool>("complete");
    QTest::newRow("clean") << QByteArrayList{kRoot, kRootEnd} << kComplete << true << true;
    QTest::newRow("warnings only") << QByteArrayList{kRoot, kRootEnd, mem(1, "s", "t", "alloc", 8)} << kComplete << true
                                   << true;
    QTest::newRow("error") << QByteArrayList{kRoot} << kComplete << false << true;
    QTest::newRow("failed, warnings only") << QByteArrayList{kRoot} << kFailed << true << false;
    QTest::newRow("failed with error") << QByteArrayList{kRoot, span("x", "ghost", 1)} << kFailed << false << false;
    QTest::newRow("no terminal") << QByteArrayList{kRoot, kRootEnd} << kNoTerminal << true << false;
}

void TestHealth::flags()
{
    QFETCH(QByteArrayList, body);
    QFETCH(QByteArray, terminal);
    QFETCH(bool, valid);
    QFETCH(bool, complete);
    const auto trace = build({}, body, terminal);
    QVERIFY(trace);
    const HealthReport report = analyzeHealth(*trace);
    QCOMPARE(report.structurallyValid, valid);
    QCOMPARE(report.captureComplete, complete);
}

void TestHealth::coverageCounts()
{
    const auto trace = build({},
                             {kRoot,
                              span("f", "root", 10, R"(,"step":"forward")"),
                              end("f", 10),
                              span("b", "root", 20, R"(,"step":"backward","measured":true)"),
                              span("o", "root", 30, R"(,"step":"optimizer")"),
                              end("o", 1),
                              span("o2", {}, 30, R"(,"step":"optimizer")"),
                              op("root", "a", 0, 1),
                              op("root", "b", 0, 1),
                              tensor("root", "t"),
                              tstats("root"),
                              mem(1, "s", "t", "alloc", 8),
                              mem(2, "s", "t", "free", 8),
                              mem(3, "s", "t", "free", 8),
                              devmem(3, {}),
                              interval("root", 5),
                              interval("root", 6),
                              grad("g", "r", "k", "missing"),
                              call("root", "f", 10),
                              data("t", "t"),
                              data("t", "t"),
                              data("t", "t"),
                              kRootEnd},
                             {});
    QVERIFY(trace);
    const CoverageCounts c = analyzeHealth(*trace).coverage;
    QCOMPARE(c.spans, 5u);
    QCOMPARE(c.closedSpans, 3u);
    QCOMPARE(c.rootSpans, 2u);
    QCOMPARE(c.measuredSpans, 2u);
    QCOMPARE(c.operations, 2u);
    QCOMPARE(c.tensors, 1u);
    QCOMPARE(c.memoryEvents, 3u);
    QCOMPARE(c.deviceMemorySamples, 1u);
    QCOMPARE(c.deviceIntervals, 2u);
    QCOMPARE(c.gradients, 1u);
    QCOMPARE(c.callEdges, 1u);
    QCOMPARE(c.dataEdges, 3u);
    QCOMPARE(c.forwardSpans, 1u);
    QCOMPARE(c.backwardSpans, 1u);
    QCOMPARE(c.optimizerSpans, 2u);
}

void TestHealth::relatedRecords()
{
    // Lines: 1 meta, 2 root, 3 child (open), 4 op, 5 memory free, 6 device memory, 7 edge,
    // 8 gradient, 9 root end, 10 terminal.
    const auto trace = build(R"({"capture_step":0})",
                             {kRoot, span("child", "root", 10), op("ghost", "mm", 0, 1), mem(5, "st-1", "t", "free", 8),
                              devmem(6, {}), data("x", "y"), grad("g1", "r", "k", "zero"), kRootEnd},
                             R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000000000})");
    QVERIFY(trace);
    const HealthReport report = analyzeHealth(*trace);
    struct Want {
        const char *ruleId;
        std::uint64_t line;
        RelatedKind kind;
        const char *id;
        std::uint64_t index;
    };
    const std::int64_t child = trace->findSpan(std::string_view("child"));
    QVERIFY(child >= 0);
    const Want wants[] = {
        {"H-RUN-PROVENANCE", 1, RelatedKind::Meta, "", UINT64_MAX},
        {"H-TERMINAL-FAILED-NO-REASON", 10, RelatedKind::Terminal, "", UINT64_MAX},
        {"W-CAPTURE-FAILED", 10, RelatedKind::Terminal, "", UINT64_MAX},
        {"W-SPAN-INTERRUPTED", 3, RelatedKind::Span, "child", std::uint64_t(child)},
        {"H-UNKNOWN-SPAN", 4, RelatedKind::Op, "ghost", 0},
        {"H-DEVICE-MEMORY-EMPTY", 6, RelatedKind::DeviceMemory, "cuda:0", 0},
        {"H-DATA-EDGE-UNKNOWN", 7, RelatedKind::Edge, "x", 0},
        {"H-FREE-UNPAIRED", 5, RelatedKind::Storage, "st-1", 0},
        {"H-GRAD-NORM", 8, RelatedKind::Gradient, "g1", 0},
    };
    QCOMPARE(report.findings.size() >= std::size(wants), true);
    std::size_t next = 0;
    for (const Problem &p : report.findings) {
        if (next < std::size(wants) && p.ruleId == wants[next].ruleId) {
            const Want &w = wants[next++];
            QCOMPARE(p.line, w.line);
            QCOMPARE(int(p.relatedKind), int(w.kind));
            QCOMPARE(p.relatedId, std::string(w.id));
            QCOMPARE(p.relatedIndex, w.index);
        }
    }
    QCOMPARE(next, std::size(wants));
}

void TestHealth::unreachableAfterLoad()
{
    // Rules a strict load already rejects can still be met by a hand-built document.
    auto trace = build({}, {kRoot, span("c", "root", 10), end("c", 5), kRootEnd}, {});
    QVERIFY(trace);
    const std::int64_t c = trace->findSpan(std::string_view("c"));
    QVERIFY(c >= 0);
    trace->spans.insert(trace->spans.begin() + c, trace->spans[std::size_t(c)]);
    trace->terminal->reason = "why";
    trace->terminal->timestampNs = 3;
    const HealthReport report = analyzeHealth(*trace);
    QCOMPARE(
        describeAll(report, false),
        (QStringList{u"H-TERMINAL-COMPLETE-REASON error 6: complete terminal outcome cannot contain a failure reason"_s,
                     u"H-TERMINAL-EARLY error 6: terminal timestamp 3 precedes host evidence ending at 1000"_s,
                     u"H-SPAN-ID-DUP error 3: span IDs must be unique"_s}));
}

void TestHealth::missingMetaOrTerminal()
{
    const QByteArray meta =
        R"({"capture_step":0,"phase":"train","capture_contract":{"gradients":"complete","required_semantic_labels":["x"]}})";
    const QByteArrayList body{kRoot, grad("", "r", "k", "missing")};
    {
        auto trace = build(meta, body, kFailed);
        QVERIFY(trace);
        trace->meta.reset();
        const HealthReport report = analyzeHealth(*trace);
        QCOMPARE(describeAll(report, true),
                 (QStringList{u"W-CAPTURE-FAILED warning 4: boom"_s,
                              u"W-SPAN-INTERRUPTED warning 2: span `root` was interrupted"_s,
                              u"H-GRAD-EVENT-ID-EMPTY error 3: gradient event IDs must not be empty"_s,
                              u"W-OPS-ABSENT warning 0: no operation evidence was captured"_s,
                              u"W-TENSORS-ABSENT warning 0: no tensor checkpoints were captured"_s,
                              u"W-LOGICAL-MEMORY-ABSENT warning 0: no logical storage events were captured"_s,
                              u"W-PHYSICAL-MEMORY-ABSENT warning 0: no physical device-memory samples were captured"_s,
                              u"W-DEVICE-TIMING-ABSENT warning 0: no device timing intervals were captured"_s}));
        QVERIFY(!report.captureComplete);
    }
    {
        // A tolerant load of a stream without its terminal record: not failed, not complete.
        auto trace = build(meta, body, kNoTerminal);
        QVERIFY(trace);
        QVERIFY(!trace->terminal);
        const HealthReport report = analyzeHealth(*trace);
        QCOMPARE(
            describeAll(report, false),
            (QStringList{
                u"H-RUN-PROVENANCE error 1: capture_step must be one-based and greater than zero"_s,
                u"H-SPAN-UNCLOSED error 2: span `root` was not closed"_s,
                u"H-GRAD-EVENT-ID-EMPTY error 3: gradient event IDs must not be empty"_s,
                u"H-GRAD-CONTRACT-MISSING error 1: complete gradient coverage requires an exact gradient contract"_s,
                u"HW-LABEL-CARDINALITY error 1: required semantic label `x` must occur exactly once; observed 0"_s}));
        QVERIFY(!report.captureComplete);
        QVERIFY(!report.structurallyValid);
    }
}

void TestHealth::emptyTrace()
{
    const Trace trace;
    const HealthReport report = analyzeHealth(trace);
    QCOMPARE(describeAll(report, false),
             (QStringList{u"H-ROOT-COUNT error 0: expected exactly one root span, found 0"_s,
                          u"H-MEASURED-COUNT error 0: expected exactly one measured region, found 0"_s}));
    QVERIFY(!report.captureComplete);
}

void TestHealth::generatedTraceIsStructurallyValid()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("gen.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("20000"), QStringLiteral("--seed"), QStringLiteral("7"),
                 QStringLiteral("--out"), path, QStringLiteral("--quiet")});

    const ReadResult r = TraceReader::readFile(path.toStdString());
    QVERIFY(r.accepted());
    const HealthReport report = analyzeHealth(*r.trace);
    QStringList errors;
    for (const Problem &p : report.findings)
        if (p.severity == Severity::Error)
            errors << describe(p);
    QCOMPARE(errors, QStringList{});
    QVERIFY(report.structurallyValid);
    QCOMPARE(report.coverage.spans, std::uint64_t(r.trace->spans.size()));
    QCOMPARE(report.coverage.memoryEvents, std::uint64_t(r.trace->memory.size()));
    verifyCodesAndSeverities(report, !report.captureComplete);
}

QTEST_GUILESS_MAIN(TestHealth)
#include "tst_health.moc"
