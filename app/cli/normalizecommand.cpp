// SPDX-License-Identifier: MIT
#include <cstdio>
#include <string>

#include "app/cli/atomicoutputfile.h"
#include "app/cli/commands.h"
#include "app/cli/traceinput.h"
#include "core/output/jsonwriter.h"
#include "core/output/normalizedwriter.h"

namespace TraceInspector {

int runNormalize(const CliArgs &args)
{
    const bool toStdout = args.output == "-";
    if (!toStdout && args.file != "-" && isSameFile(args.file, args.output)) {
        printError("normalize: refusing to write the output over the input file " + args.file
                   + " (choose another -o OUT)");
        return ExitUsage;
    }

    const TraceInput in = readTraceInput(args.file);
    if (!in.opened()) {
        printError(in.openError);
        return ExitUsage;
    }
    if (!in.result.accepted()) {
        printError(in.result.strictError ? in.result.strictError->message : std::string("trace was not loaded"));
        std::fputs("note: rejected traces are not normalized; no output was written\n", stderr);
        return ExitRejected;
    }
    const Trace &trace = *in.result.trace;

    if (toStdout) {
        JsonWriter w(stdout);
        const bool ok = writeNormalized(trace, w);
        if (!ok || std::fflush(stdout) != 0 || std::ferror(stdout)) {
            printError("write standard output: " + (w.ok() ? std::string("flush failed") : w.errorString()));
            return ExitUsage;
        }
        return ExitOk;
    }

    AtomicOutputFile out(args.output);
    std::string error;
    if (!out.open(&error)) {
        printError(error);
        return ExitUsage;
    }
    std::string writeError;
    {
        JsonWriter w(out.file());
        if (!writeNormalized(trace, w))
            writeError = w.errorString();
    } // the writer is gone before the file is closed or removed
    if (!writeError.empty()) {
        out.discard();
        printError("write " + args.output + ": " + writeError);
        return ExitUsage;
    }
    if (!out.commit(&error)) {
        printError(error);
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace TraceInspector
