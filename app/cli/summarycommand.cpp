// SPDX-License-Identifier: MIT
#include <cstdio>
#include <future>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/standardoutput.h"
#include "app/cli/traceinput.h"
#include "core/output/checkreportjson.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/summary.h"
#include "core/output/jsonwriter.h"
#include "core/output/memoryjson.h"
#include "core/output/summaryjson.h"

namespace TraceInspector {

int runSummary(const CliArgs &args)
{
    TraceSource source = openTraceInput(args.file);
    const TraceInput in = readTraceInput(source);
    if (!in.opened()) {
        printError(in.inputError);
        return ExitUsage;
    }
    if (!in.result.accepted()) {
        // Upstream cannot summarize what it cannot load.
        printError(rejectionMessage(in.result));
        return ExitRejected;
    }
    const Trace &trace = *in.result.trace;
    // The span figures need no memory analysis, which runs on one core: they are computed
    // beside it, on the other.
    std::future<TraceSummary> spanFigures =
        std::async(std::launch::async, [&trace] { return computeSummary(trace, std::nullopt); });
    const MemoryProfile memory = analyzeMemory(trace);
    TraceSummary summary = spanFigures.get();
    summary.logicalPeakBytes = memory.logicalPeakBytes();

    JsonWriter w([](std::string_view chunk) { return StandardOutput::write(chunk); });
    w.beginObject();
    w.key("summary");
    writeSummaryJson(w, summary);
    w.key("memory");
    writeMemoryProfileJson(w, trace, memory);
    w.endObject().endLine();
    w.flush();
    if (!StandardOutput::ok()) {
        printError(StandardOutput::errorMessage());
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace TraceInspector
