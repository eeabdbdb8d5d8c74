// SPDX-License-Identifier: MIT
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/standardoutput.h"
#include "core/output/textescape.h"
#include "app/cli/traceinput.h"
#include "core/analysis/health.h"
#include "core/analysis/logicalmemory.h"
#include "core/analysis/summary.h"
#include "core/model/sidebyside.h"
#include "core/output/checkreportjson.h"
#include "core/output/jsonwriter.h"

namespace TraceInspector {

namespace {

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
    const std::string &strictMessage = rejectionMessage(r);
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
    // full list of what is wrong with it. The summary needs only the logical memory peak,
    // not the whole memory profile. That walk of the memory records shares nothing with
    // health but the trace, so it runs on the other core meanwhile (~0.1 s at 1 GB); the
    // span depths come after health, so that their scratch (8 bytes a span) is never alive
    // beside health's (on a million unclosed spans the two together took check --all to
    // 1.13x plain check's peak RSS).
    const Trace &trace = *r.trace;
    HealthReport health;
    std::optional<std::uint64_t> logicalPeak;
    runSideBySide([&] { health = analyzeHealth(trace); },
                  [&] { logicalPeak = LogicalMemoryProfile::peakLiveBytes(trace); });
    const TraceSummary summary = computeSummary(trace, logicalPeak);
    const ProblemCounts counts = countProblems(r, health);

    if (args.json) {
        JsonWriter w([](std::string_view chunk) { return StandardOutput::write(chunk); });
        writeCheckReportJson(w, CheckReport{args.file, r, health, summary});
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
           + (health.captureComplete ? "capture complete" : "capture not complete")
           + "; verdict: " + (rejected ? "rejected" : "valid") + "\n";
    StandardOutput::write(out);
    return finish(rejected ? ExitRejected : ExitOk);
}

} // namespace TraceInspector
