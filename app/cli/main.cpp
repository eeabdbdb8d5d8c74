// SPDX-License-Identifier: MIT
// candle-trace: command-line checker, normalizer and summarizer for candle-graph traces.
#include <cstdio>
#include <string>

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/comparecommand.h"
#include "app/cli/standardoutput.h"
#include "core/model/malloctuning.h"
#include "core/output/atomicfilewriter.h"
#include "core/version.h"

namespace TraceInspector {

void printError(const std::string &message)
{
    // Every byte of the message, as upstream prints it: an id may hold a NUL or a newline.
    if (message.size() > (std::size_t(1) << 16)) {
        // Not copied into one line: a message may quote a 200 MB value.
        std::fputs("error: ", stderr);
        std::fwrite(message.data(), 1, message.size(), stderr);
        std::fputc('\n', stderr);
        return;
    }
    std::string line = "error: " + message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace TraceInspector

int main(int argc, char **argv)
{
    using namespace TraceInspector;
    tuneMallocForBigTraces(kCommandLineArenas); // before any thread starts
    reserveStandardDescriptors();
    AtomicFileWriter::installSignalCleanup();
    const CliParse parsed = parseCliArgs(argc, argv);
    if (!parsed.ok()) {
        printError(parsed.error);
        return ExitUsage;
    }
    switch (parsed.args.command) {
    case CliCommand::Help: {
        if (StandardOutput::write(usageText()))
            return ExitOk;
        printError(StandardOutput::errorMessage());
        return ExitUsage;
    }
    case CliCommand::Version:
        if (StandardOutput::write(std::string("candle-trace ") + kVersion + "\n"))
            return ExitOk;
        printError(StandardOutput::errorMessage());
        return ExitUsage;
    case CliCommand::Check: return runCheck(parsed.args);
    case CliCommand::Normalize: return runNormalize(parsed.args);
    case CliCommand::Summary: return runSummary(parsed.args);
    case CliCommand::Diff: return runDiff(parsed.args);
    case CliCommand::Compare: return runCompare(parsed.args);
    case CliCommand::None: break;
    }
    printError("no command given (try 'candle-trace --help')");
    return ExitUsage;
}
