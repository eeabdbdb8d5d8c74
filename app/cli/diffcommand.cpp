// SPDX-License-Identifier: MIT
#include <string>

#include "app/cli/commands.h"
#include "app/cli/standardoutput.h"
#include "app/cli/traceinput.h"
#include "core/output/checkreportjson.h"
#include "core/analysis/spantree.h"
#include "core/diff/tracediff.h"
#include "core/output/diffreport.h"
#include "core/output/jsonwriter.h"
#include "core/output/textescape.h"

namespace TraceInspector {

namespace {

/// Reads one side of the diff; on failure prints why (naming the side) and sets \a exitCode.
bool readSide(const char *side, const std::string &path, TraceInput &in, int &exitCode)
{
    TraceSource source = openTraceInput(path);
    in = readTraceInput(source);
    if (!in.opened()) {
        printError(std::string(side) + ": " + in.inputError);
        exitCode = ExitUsage;
        return false;
    }
    if (!in.result.accepted()) {
        // A diff of what a tolerant load kept could rank records upstream refuses to read.
        printError(std::string(side) + " " + oneLine(path) + " is rejected: " + rejectionMessage(in.result));
        exitCode = ExitRejected;
        return false;
    }
    return true;
}

} // namespace

int runDiff(const CliArgs &args)
{
    if (args.file == "-" && args.candidate == "-") {
        printError("diff: standard input can be only one of BASE and CANDIDATE");
        return ExitUsage;
    }
    int exitCode = ExitOk;
    TraceInput base;
    if (!readSide("baseline", args.file, base, exitCode))
        return exitCode;
    TraceInput cand;
    if (!readSide("candidate", args.candidate, cand, exitCode))
        return exitCode;
    const Trace &bt = *base.result.trace;
    const Trace &ct = *cand.result.trace;
    const SpanTree btree = SpanTree::build(bt);
    const SpanTree ctree = SpanTree::build(ct);
    const TraceDiff diff = TraceDiff::compute(bt, btree, ct, ctree);

    if (args.json) {
        const std::string baseName = utf8Lossy(args.file);
        const std::string candName = utf8Lossy(args.candidate);
        JsonWriter w([](std::string_view chunk) { return StandardOutput::write(chunk); });
        writeDiffReportJson(w, DiffReportInput{baseName, bt, btree, candName, ct, ctree, diff, args.top});
        w.flush();
    } else {
        const std::string baseName = oneLine(args.file);
        const std::string candName = oneLine(args.candidate);
        StandardOutput::write(
            diffReportText(DiffReportInput{baseName, bt, btree, candName, ct, ctree, diff, args.top}));
    }
    if (!StandardOutput::ok()) {
        printError(StandardOutput::errorMessage());
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace TraceInspector
