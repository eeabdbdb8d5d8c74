// SPDX-License-Identifier: MIT
#include <cstdio>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/traceinput.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/summary.h"
#include "core/output/jsonwriter.h"
#include "core/output/memoryjson.h"
#include "core/output/summaryjson.h"

namespace TraceInspector {

int runSummary(const CliArgs &args)
{
    const TraceInput in = readTraceInput(args.file);
    if (!in.opened()) {
        printError(in.openError);
        return ExitUsage;
    }
    if (!in.result.accepted()) {
        // Upstream cannot summarize what it cannot load.
        printError(in.result.strictError ? in.result.strictError->message : std::string("trace was not loaded"));
        return ExitRejected;
    }
    const Trace &trace = *in.result.trace;
    const MemoryProfile memory = analyzeMemory(trace);
    const TraceSummary summary = computeSummary(trace, memory);

    JsonWriter w(stdout);
    w.beginObject();
    w.key("summary");
    writeSummaryJson(w, summary);
    w.key("memory");
    writeMemoryProfileJson(w, trace, memory);
    w.endObject().endLine();
    if (!w.flush() || std::fflush(stdout) != 0) {
        printError("write standard output: " + (w.ok() ? std::string("flush failed") : w.errorString()));
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace TraceInspector
