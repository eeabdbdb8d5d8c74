// SPDX-License-Identifier: MIT
#include "app/cli/cliargs.h"

#include <string_view>
#include <vector>

namespace TraceInspector {

namespace {

CliCommand commandFromName(std::string_view name)
{
    if (name == "check")
        return CliCommand::Check;
    if (name == "normalize")
        return CliCommand::Normalize;
    if (name == "summary")
        return CliCommand::Summary;
    if (name == "help")
        return CliCommand::Help;
    return CliCommand::None;
}

std::string quoted(std::string_view s)
{
    return "'" + std::string(s) + "'";
}

} // namespace

CliParse parseCliArgs(int argc, const char *const *argv)
{
    CliParse result;
    CliArgs &a = result.args;
    std::vector<std::string_view> args(argv + 1, argv + argc);

    if (args.empty()) {
        result.error = "no command given (try 'candle-trace --help')";
        return result;
    }
    const std::string_view first = args.front();
    if (first == "--help" || first == "-h") {
        a.command = CliCommand::Help;
        return result;
    }
    if (first == "--version" || first == "-V") {
        a.command = CliCommand::Version;
        return result;
    }
    a.command = commandFromName(first);
    if (a.command == CliCommand::None) {
        result.error = first.starts_with('-') ? "unknown option " + quoted(first) + " (try 'candle-trace --help')"
                                              : "unknown command " + quoted(first) + " (try 'candle-trace --help')";
        return result;
    }
    if (a.command == CliCommand::Help)
        return result;

    const std::string cmd(first);
    bool haveFile = false;
    bool haveOutput = false;
    bool optionsEnded = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (!optionsEnded && arg.size() > 1 && arg.front() == '-') {
            if (arg == "--") {
                optionsEnded = true;
                continue;
            }
            if (arg == "--help" || arg == "-h") {
                a = CliArgs{};
                a.command = CliCommand::Help;
                return result;
            }
            if (a.command == CliCommand::Check && arg == "--all") {
                a.all = true;
                continue;
            }
            if (a.command == CliCommand::Check && arg == "--json") {
                a.json = true;
                continue;
            }
            if (a.command == CliCommand::Normalize && (arg == "--force" || arg == "-f")) {
                a.force = true;
                continue;
            }
            if (a.command == CliCommand::Normalize
                && (arg == "-o" || arg == "--output" || arg.starts_with("--output=") || (arg.starts_with("-o") && arg.size() > 2))) {
                std::string_view value;
                if (arg == "-o" || arg == "--output") {
                    if (i + 1 >= args.size()) {
                        result.error = "option " + quoted(arg) + " needs a value (the output file, or '-' for standard output)";
                        return result;
                    }
                    value = args[++i];
                } else if (arg.starts_with("--output=")) {
                    value = arg.substr(9);
                } else {
                    value = arg.substr(2);
                }
                if (haveOutput) {
                    result.error = "option " + quoted("-o") + " given more than once";
                    return result;
                }
                if (value.empty()) {
                    result.error = "option " + quoted("-o") + " needs a non-empty value";
                    return result;
                }
                a.output = std::string(value);
                haveOutput = true;
                continue;
            }
            result.error = "unknown option " + quoted(arg) + " for " + cmd + " (try 'candle-trace --help')";
            return result;
        }
        if (haveFile) {
            result.error = "unexpected argument " + quoted(arg) + ": " + cmd + " takes one FILE";
            return result;
        }
        if (arg.empty()) {
            result.error = "FILE must not be empty";
            return result;
        }
        a.file = std::string(arg);
        haveFile = true;
    }
    if (!haveFile) {
        result.error = cmd + ": missing FILE (try 'candle-trace --help')";
        return result;
    }
    if (a.command == CliCommand::Normalize && !haveOutput) {
        result.error = "normalize: missing -o OUT (use '-o -' for standard output)";
        return result;
    }
    return result;
}

std::string usageText()
{
    return R"(Usage: candle-trace COMMAND [OPTIONS] FILE

Checks, normalizes and summarizes candle-graph execution traces (JSONL,
candle-graph/trace/10 and trace/9). FILE may be '-' for standard input.

Commands:
  check FILE [--all] [--json]
      Load FILE with upstream's strict rules. Exit 0 when it loads, 1 when it
      is rejected; the first line on standard error is then 'error: ' followed
      by upstream's message.
      --all   print every problem, one per line, as
              FILE:LINE[:COL]: SEVERITY[RULE]: MESSAGE
              (load problems, then the health findings), then a summary line;
              each rule lists its first 10000 problems, the rest are counted
              in one 'FILE: note[RULE]: N more ...' line, and the summary
              line gives the true totals
      --json  print a machine-readable report (one JSON object) on standard
              output instead: file, verdict, error, every problem (as with
              --all), health (structurally_valid, capture_complete, coverage)
              and summary counts
      Health findings, errors included, are a report about a loaded trace and
      never change the exit code: only a strict rejection does, as upstream
      loads such traces too.

  normalize FILE -o OUT [--force]
      Write the normalized form of FILE (one record per line in upstream's
      re-emission order and layout) to OUT; '-o -' writes to standard output.
      Rejected traces are refused (exit 1). OUT must not be FILE (compared by
      device and inode, so also through links and for '-'). OUT is replaced
      atomically: the output goes to a temporary file '.ct.tmp-XXXXXX' in
      OUT's directory, is synced and renamed over OUT; on any failure or
      interruption the temporary file is removed and OUT is left untouched.
      A symlink OUT is written through (the file it points to is replaced,
      the link stays); a symlink to nothing is refused. The new file keeps
      OUT's permissions, owner and group. A read-only OUT, or one whose owner
      could not be kept, is refused unless --force (-f) is given. A device or
      FIFO OUT is written directly. Other hard links of OUT keep the old
      content.

  summary FILE
      Print one JSON object with the trace summary and the memory profile.
      Rejected traces are refused (exit 1).

  help, --help, -h     show this help
  --version, -V        show the version

Exit codes:
  0  success (check: the trace loads)
  1  the trace is rejected by the strict load rules
  2  usage error, unreadable input (also: FILE changed while it was read, or
     is a device) or unwritable output (also: standard output)

FILE may be a regular file, '-' (standard input), a pipe or a FIFO; pipes and
FIFOs are read to their end (a line may be at most 256 MiB there).
)";
}

} // namespace TraceInspector
