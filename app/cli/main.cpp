// SPDX-License-Identifier: MIT
// candle-trace: command-line checker, normalizer and summarizer for candle-graph traces.
#include <cstdio>
#include <string>

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "core/version.h"

namespace TraceInspector {

void printError(const std::string &message)
{
    // Every byte of the message, as upstream prints it: an id may hold a NUL or a newline.
    std::string line = "error: " + message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace TraceInspector

int main(int argc, char **argv)
{
    using namespace TraceInspector;
    const CliParse parsed = parseCliArgs(argc, argv);
    if (!parsed.ok()) {
        printError(parsed.error);
        return ExitUsage;
    }
    switch (parsed.args.command) {
    case CliCommand::Help: {
        const std::string text = usageText();
        std::fwrite(text.data(), 1, text.size(), stdout);
        return std::fflush(stdout) == 0 ? ExitOk : ExitUsage;
    }
    case CliCommand::Version:
        std::printf("candle-trace %s\n", kVersion);
        return std::fflush(stdout) == 0 ? ExitOk : ExitUsage;
    case CliCommand::Check:
        return runCheck(parsed.args);
    case CliCommand::Normalize:
        return runNormalize(parsed.args);
    case CliCommand::Summary:
        return runSummary(parsed.args);
    case CliCommand::None:
        break;
    }
    printError("no command given (try 'candle-trace --help')");
    return ExitUsage;
}
