// SPDX-License-Identifier: MIT
#include <cstdio>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/standardoutput.h"
#include "core/output/checkreportjson.h"
#include "core/output/textescape.h"
#include "app/cli/traceinput.h"
#include "core/io/fileidentity.h"
#include "core/output/atomicfilewriter.h"
#include "core/output/jsonwriter.h"
#include "core/output/normalizedwriter.h"

namespace TraceInspector {

int runNormalize(const CliArgs &args)
{
    const bool toStdout = args.output == "-";
    TraceSource source = openTraceInput(args.file);
    // Compare what is open, not names: `normalize - -o FILE < FILE`, hard links, symlinks
    // and /dev/stdin all lead to the same device and inode.
    if (!toStdout && source.isOpen()) {
        const auto input = source.identity();
        const auto output = identityOfPath(args.output);
        if (input && output && *input == *output) {
            printError("normalize: refusing to write the output over the input file "
                       + oneLine(args.file == "-" ? std::string("(standard input)") : args.file)
                       + " (choose another -o OUT)");
            return ExitUsage;
        }
    }

    const TraceInput in = readTraceInput(source);
    if (!in.opened()) {
        printError(in.inputError);
        return ExitUsage;
    }
    if (!in.result.accepted()) {
        printError(rejectionMessage(in.result));
        if (const std::string hint = compressionHint(in.compression, args.file); !hint.empty())
            std::fprintf(stderr, "%s\n", hint.c_str());
        std::fputs("note: rejected traces are not normalized; no output was written\n", stderr);
        return ExitRejected;
    }
    const Trace &trace = *in.result.trace;

    if (toStdout) {
        JsonWriter w([](std::string_view chunk) { return StandardOutput::write(chunk); });
        writeNormalized(trace, w);
        w.flush();
        if (!StandardOutput::ok()) {
            printError(StandardOutput::errorMessage());
            return ExitUsage;
        }
        return ExitOk;
    }

    AtomicFileWriter out(args.output, args.force);
    if (!out.open()) {
        printError(outputErrorMessage(out.error()));
        return ExitUsage;
    }
    {
        JsonWriter w([&out](std::string_view chunk) { return out.write(chunk); });
        writeNormalized(trace, w);
        w.flush();
    } // the writer is gone before the file is closed or removed
    if (!out.commit()) {
        printError(outputErrorMessage(out.error()));
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace TraceInspector
