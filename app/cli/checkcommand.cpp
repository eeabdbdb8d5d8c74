// SPDX-License-Identifier: MIT
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/standardoutput.h"
#include "app/cli/textescape.h"
#include "app/cli/traceinput.h"
#include "core/analysis/health.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/summary.h"
#include "core/output/jsonwriter.h"
#include "core/output/summaryjson.h"

namespace TraceInspector {

namespace {

struct Counts {
    std::uint64_t loadErrors = 0;
    std::uint64_t loadWarnings = 0;
    std::uint64_t healthErrors = 0;
    std::uint64_t healthWarnings = 0;
    std::uint64_t errors() const { return loadErrors + healthErrors; }
    std::uint64_t warnings() const { return loadWarnings + healthWarnings; }
};

Counts countProblems(const ReadResult &read, const HealthReport &health)
{
    Counts c;
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

std::string plural(std::uint64_t n, const char *word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// \a file is already escaped (oneLine()).
void printProblemLine(std::string &out, const std::string &file, const Problem &p)
{
    out += file;
    if (p.line != 0) {
        out += ':';
        out += std::to_string(p.line);
        if (p.column != 0) {
            out += ':';
            out += std::to_string(p.column);
        }
    }
    out += ": ";
    out += severityName(p.severity);
    out += '[';
    out += p.ruleId;
    out += "]: ";
    appendOneLine(out, p.message);
    out += '\n';
}

/// The problems a rule found beyond those listed, in the --all format with severity `note`.
void printOmittedLine(std::string &out, const std::string &file, const OmittedProblems &o)
{
    out += file + ": note[" + o.ruleId + "]: " + std::to_string(o.count) + " more " + severityName(o.severity)
        + (o.count == 1 ? "" : "s") + " of this rule not listed (each rule lists its first "
        + std::to_string(ProblemLimiter::kMaxPerRule) + ")\n";
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
    w.key("message").string(utf8Lossy(p.message)); // a file name in it may be any bytes
    w.key("stage").string(stage);
    if (p.relatedKind != RelatedKind::None) {
        w.key("related").beginObject();
        w.key("kind").string(relatedKindName(p.relatedKind));
        if (!p.relatedId.empty())
            w.key("id").string(utf8Lossy(p.relatedId));
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

/// Exit code \a code, or ExitUsage with the reason when standard output failed.
int finish(int code)
{
    if (StandardOutput::ok())
        return code;
    printError(StandardOutput::errorMessage());
    return ExitUsage;
}

} // namespace

int runCheck(const CliArgs &args)
{
    TraceSource source = openTraceInput(args.file);
    const TraceInput in = readTraceInput(source);
    if (!in.opened()) {
        printError(in.inputError);
        return ExitUsage;
    }
    const ReadResult &r = in.result;
    const bool rejected = !r.accepted();
    const std::string strictMessage = rejected && r.strictError ? r.strictError->message
                                      : rejected                ? std::string("trace was not loaded")
                                                                : std::string();
    // Every output line starts with the file name; a line break in it must not split one.
    const std::string file = oneLine(args.file);

    // The verdict line comes first on stderr, before any report on stdout is written.
    if (rejected) {
        printError(strictMessage);
        if (r.strictError && r.strictError->line != 0 && !r.strictError->ruleId.starts_with("E-LINE") && !args.json) {
            // Stream rules name record indices; point at the physical line as well.
            std::fprintf(stderr, "note: the record is at %s:%llu\n", file.c_str(),
                         static_cast<unsigned long long>(r.strictError->line));
        }
        if (const std::string hint = compressionHint(in.compression, args.file); !hint.empty() && !args.json)
            std::fprintf(stderr, "%s\n", hint.c_str());
    }

    if (!args.all && !args.json) {
        if (!rejected) {
            const Trace &t = *r.trace;
            StandardOutput::write(file + ": valid (" + (t.meta ? t.meta->schema : std::string("no schema")) + ", "
                                  + std::to_string(t.recordCount) + " records)\n");
        }
        return finish(rejected ? ExitRejected : ExitOk);
    }

    // Health runs on whatever the tolerant load kept, so a rejected trace still gets the
    // full list of what is wrong with it. The summary needs the logical memory peak. The
    // two run one after the other: in parallel they would save ~0.15 s per GB but add
    // their working sets together, pushing peak memory past half the file size.
    const HealthReport health = analyzeHealth(*r.trace);
    const TraceSummary summary = computeSummary(*r.trace, analyzeMemory(*r.trace));
    const Counts counts = countProblems(r, health);

    if (args.json) {
        JsonWriter w([](std::string_view chunk) { return StandardOutput::write(chunk); });
        w.beginObject();
        // JSON text must be UTF-8: a file name that is not gets U+FFFD in "file" and its
        // exact bytes in "file_hex".
        w.key("file").string(utf8Lossy(args.file));
        if (!isValidUtf8(args.file))
            w.key("file_hex").string(hexBytes(args.file));
        w.key("verdict").string(rejected ? "rejected" : "valid");
        w.key("error");
        if (rejected)
            w.string(utf8Lossy(strictMessage));
        else
            w.null();
        w.key("error_line");
        if (rejected && r.strictError && r.strictError->line != 0)
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
        writeSummaryJson(w, summary);
        w.endObject().endLine();
        w.flush();
        return finish(rejected ? ExitRejected : ExitOk);
    }

    std::string out;
    auto flushIfLarge = [&out] {
        if (out.size() > (1u << 20)) {
            StandardOutput::write(out);
            out.clear();
        }
    };
    for (const Problem &p : r.problems) {
        printProblemLine(out, file, p);
        flushIfLarge();
    }
    for (const Problem &p : health.findings) {
        printProblemLine(out, file, p);
        flushIfLarge();
    }
    for (const OmittedProblems &o : r.omittedProblems)
        printOmittedLine(out, file, o);
    for (const OmittedProblems &o : health.omittedFindings)
        printOmittedLine(out, file, o);
    out += file + ": summary: " + plural(summary.opCount, "op") + ", " + plural(summary.spanCount, "span") + " ("
        + plural(summary.rootSpanCount, "root") + ", max depth " + std::to_string(summary.maxDepth) + "), measured "
        + std::to_string(summary.totalNs) + " ns, " + plural(summary.allocCount, "alloc") + ", "
        + plural(summary.freeCount, "free") + ", logical peak "
        + (summary.logicalPeakBytes ? std::to_string(*summary.logicalPeakBytes) + " bytes" : std::string("unknown"))
        + "\n";
    out += file + ": " + plural(counts.errors(), "error") + ", " + plural(counts.warnings(), "warning") + " ("
        + plural(r.problemCount(), "load problem") + ", " + plural(counts.healthErrors, "health error") + ", "
        + plural(counts.healthWarnings, "health warning") + "); "
        + (health.structurallyValid ? "structurally valid" : "not structurally valid") + ", "
        + (health.captureComplete ? "capture complete" : "capture not complete") + "; verdict: "
        + (rejected ? "rejected" : "valid") + "\n";
    StandardOutput::write(out);
    return finish(rejected ? ExitRejected : ExitOk);
}

} // namespace TraceInspector
