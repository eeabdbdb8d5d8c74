// SPDX-License-Identifier: MIT
#include "core/output/checkreportjson.h"

#include "core/analysis/health.h"
#include "core/analysis/summary.h"
#include "core/io/tracereader.h"
#include "core/output/jsonwriter.h"
#include "core/output/summaryjson.h"
#include "core/output/textescape.h"

namespace TraceInspector {

namespace {

const char *relatedKindName(RelatedKind k)
{
    switch (k) {
    case RelatedKind::None: return "none";
    case RelatedKind::Span: return "span";
    case RelatedKind::Op: return "op";
    case RelatedKind::Tensor: return "tensor";
    case RelatedKind::Storage: return "storage";
    case RelatedKind::Gradient: return "gradient";
    case RelatedKind::Edge: return "edge";
    case RelatedKind::DeviceMemory: return "device_memory";
    case RelatedKind::DeviceInterval: return "device_interval";
    case RelatedKind::Meta: return "meta";
    case RelatedKind::Terminal: return "terminal";
    case RelatedKind::TensorStats: return "tensor_stats";
    }
    return "none";
}

void writeOmittedJson(JsonWriter &w, const OmittedProblems &o, const char *stage)
{
    w.beginObject();
    w.key("rule").string(o.ruleId);
    w.key("severity").string(severityName(o.severity));
    w.key("count").u64(o.count);
    w.key("stage").string(stage);
    w.endObject();
}

namespace {

/// The JSON string of \a text with invalid UTF-8 replaced (utf8Lossy()); a valid text, as
/// nearly all are, is written without the copy (a message may quote a 200 MB value).
void lossyString(JsonWriter &w, std::string_view text)
{
    if (isValidUtf8(text))
        w.string(text);
    else
        w.string(utf8Lossy(text));
}

} // namespace

void writeProblemJson(JsonWriter &w, const Problem &p, const char *stage)
{
    w.beginObject();
    w.key("line").u64(p.line);
    if (p.column != 0)
        w.key("column").u64(p.column);
    w.key("severity").string(severityName(p.severity));
    w.key("rule").string(p.ruleId);
    if (!p.code.empty())
        w.key("code").string(p.code);
    w.key("message");
    lossyString(w, p.message); // a file name in it may be any bytes
    w.key("stage").string(stage);
    if (p.relatedKind != RelatedKind::None) {
        w.key("related").beginObject();
        w.key("kind").string(relatedKindName(p.relatedKind));
        if (!p.relatedId.empty()) {
            w.key("id");
            lossyString(w, p.relatedId);
        }
        if (p.relatedIndex != UINT64_MAX)
            w.key("index").u64(p.relatedIndex);
        w.endObject();
    }
    w.endObject();
}

void writeCoverageJson(JsonWriter &w, const CoverageCounts &c)
{
    w.beginObject();
    w.key("spans").u64(c.spans);
    w.key("closed_spans").u64(c.closedSpans);
    w.key("root_spans").u64(c.rootSpans);
    w.key("measured_spans").u64(c.measuredSpans);
    w.key("operations").u64(c.operations);
    w.key("tensors").u64(c.tensors);
    w.key("memory_events").u64(c.memoryEvents);
    w.key("device_memory_samples").u64(c.deviceMemorySamples);
    w.key("device_intervals").u64(c.deviceIntervals);
    w.key("gradients").u64(c.gradients);
    w.key("call_edges").u64(c.callEdges);
    w.key("data_edges").u64(c.dataEdges);
    w.key("forward_spans").u64(c.forwardSpans);
    w.key("backward_spans").u64(c.backwardSpans);
    w.key("optimizer_spans").u64(c.optimizerSpans);
    w.endObject();
}

} // namespace

ProblemCounts countProblems(const ReadResult &read, const HealthReport &health)
{
    ProblemCounts c;
    for (const Problem &p : read.problems)
        (p.severity == Severity::Error ? c.loadErrors : c.loadWarnings)++;
    for (const OmittedProblems &o : read.omittedProblems)
        (o.severity == Severity::Error ? c.loadErrors : c.loadWarnings) += o.count;
    for (const Problem &p : health.findings)
        (p.severity == Severity::Error ? c.healthErrors : c.healthWarnings)++;
    for (const OmittedProblems &o : health.omittedFindings)
        (o.severity == Severity::Error ? c.healthErrors : c.healthWarnings) += o.count;
    return c;
}

const std::string &rejectionMessage(const ReadResult &read)
{
    static const std::string none;
    static const std::string notLoaded = "trace was not loaded";
    if (read.accepted())
        return none;
    return read.strictError ? read.strictError->message : notLoaded;
}

void writeCheckReportJson(JsonWriter &w, const CheckReport &report)
{
    const ReadResult &r = report.read;
    const HealthReport &health = report.health;
    const ProblemCounts counts = countProblems(r, health);
    w.beginObject();
    // JSON text must be UTF-8: a file name that is not gets U+FFFD in "file" and its
    // exact bytes in "file_hex".
    w.key("file").string(utf8Lossy(report.file));
    if (!isValidUtf8(report.file))
        w.key("file_hex").string(hexBytes(report.file));
    w.key("verdict").string(r.accepted() ? "valid" : "rejected");
    w.key("error");
    if (!r.accepted())
        lossyString(w, rejectionMessage(r));
    else
        w.null();
    w.key("error_line");
    if (!r.accepted() && r.strictError && r.strictError->line != 0)
        w.u64(r.strictError->line);
    else
        w.null();
    w.key("problems").beginArray();
    for (const Problem &p : r.problems)
        writeProblemJson(w, p, "load");
    for (const Problem &p : health.findings)
        writeProblemJson(w, p, "health");
    w.endArray();
    // Problems counted but not listed: each rule lists its first ProblemLimiter::kMaxPerRule.
    w.key("omitted_problems").beginArray();
    for (const OmittedProblems &o : r.omittedProblems)
        writeOmittedJson(w, o, "load");
    for (const OmittedProblems &o : health.omittedFindings)
        writeOmittedJson(w, o, "health");
    w.endArray();
    w.key("health").beginObject();
    w.key("structurally_valid").boolean(health.structurallyValid);
    w.key("capture_complete").boolean(health.captureComplete);
    w.key("coverage");
    writeCoverageJson(w, health.coverage);
    w.endObject();
    w.key("summary").beginObject();
    w.key("errors").u64(counts.errors());
    w.key("warnings").u64(counts.warnings());
    w.key("load_errors").u64(counts.loadErrors);
    w.key("health_errors").u64(counts.healthErrors);
    w.key("health_warnings").u64(counts.healthWarnings);
    w.key("lines").u64(r.trace->lineCount);
    w.key("records").u64(r.trace->recordCount);
    w.key("bytes").u64(r.trace->fileBytes);
    w.endObject();
    w.key("trace_summary");
    writeSummaryJson(w, report.summary);
    w.endObject().endLine();
}

} // namespace TraceInspector
