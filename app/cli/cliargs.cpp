// SPDX-License-Identifier: MIT
#include "app/cli/cliargs.h"

#include <charconv>
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
    if (name == "diff")
        return CliCommand::Diff;
    if (name == "compare")
        return CliCommand::Compare;
    if (name == "help")
        return CliCommand::Help;
    return CliCommand::None;
}

std::string quoted(std::string_view s)
{
    return "'" + std::string(s) + "'";
}

/// compare's options, with upstream's (clap) rules: --baseline and --candidate each take one
/// or more values up to the next option, may be repeated (values append) and are required.
void parseCompareArgs(const std::vector<std::string_view> &args, CliParse &result)
{
    CliArgs &a = result.args;
    std::vector<std::string> *collecting = nullptr;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--help" || arg == "-h") {
            a = CliArgs{};
            a.command = CliCommand::Help;
            return;
        }
        if (arg.size() > 1 && arg.front() == '-') {
            collecting = nullptr;
            if (arg == "--json") {
                a.json = true;
            } else if (arg == "--unverified-traces") {
                a.unverifiedTraces = true;
            } else if (arg == "--baseline" || arg == "--candidate") {
                collecting = arg == "--baseline" ? &a.baselines : &a.candidates;
                if (i + 1 >= args.size() || (args[i + 1].size() > 1 && args[i + 1].front() == '-')) {
                    result.error = "option " + quoted(arg) + " needs at least one INPUT";
                    return;
                }
            } else if (arg.starts_with("--baseline=") || arg.starts_with("--candidate=")) {
                const bool base = arg.starts_with("--baseline=");
                const std::string_view value = arg.substr(base ? 11 : 12);
                if (value.empty()) {
                    result.error =
                        std::string("option '") + (base ? "--baseline" : "--candidate") + "' needs a non-empty INPUT";
                    return;
                }
                (base ? a.baselines : a.candidates).emplace_back(value);
            } else {
                result.error = "unknown option " + quoted(arg) + " for compare (try 'candle-trace --help')";
                return;
            }
            continue;
        }
        if (!collecting) {
            result.error =
                "unexpected argument " + quoted(arg) + ": compare takes its inputs after --baseline and --candidate";
            return;
        }
        if (arg.empty()) {
            result.error = "INPUT must not be empty";
            return;
        }
        collecting->emplace_back(arg);
    }
    if (a.baselines.empty() || a.candidates.empty()) {
        result.error = std::string("compare: missing ")
                       + (a.baselines.empty() ? "--baseline INPUT..." : "--candidate INPUT...")
                       + " (try 'candle-trace --help')";
        return;
    }
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
    if (a.command == CliCommand::Compare) {
        parseCompareArgs(args, result);
        return result;
    }

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
            if (a.command == CliCommand::Diff && (arg == "--top" || arg.starts_with("--top="))) {
                std::string_view value;
                if (arg == "--top") {
                    if (i + 1 >= args.size()) {
                        result.error = "option '--top' needs a value (a count of rows, at least 1)";
                        return result;
                    }
                    value = args[++i];
                } else {
                    value = arg.substr(6);
                }
                std::size_t n = 0;
                const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
                if (ec != std::errc() || end != value.data() + value.size() || n == 0) {
                    result.error = "option '--top' needs a count of rows, at least 1 (got " + quoted(value) + ")";
                    return result;
                }
                a.top = n;
                continue;
            }
            if ((a.command == CliCommand::Check || a.command == CliCommand::Diff) && arg == "--json") {
                a.json = true;
                continue;
            }
            if (a.command == CliCommand::Normalize && (arg == "--force" || arg == "-f")) {
                a.force = true;
                continue;
            }
            if (a.command == CliCommand::Normalize
                && (arg == "-o" || arg == "--output" || arg.starts_with("--output=")
                    || (arg.starts_with("-o") && arg.size() > 2))) {
                std::string_view value;
                if (arg == "-o" || arg == "--output") {
                    if (i + 1 >= args.size()) {
                        result.error =
                            "option " + quoted(arg) + " needs a value (the output file, or '-' for standard output)";
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
        if (arg.empty()) {
            result.error = "FILE must not be empty";
            return result;
        }
        if (a.command == CliCommand::Diff && haveFile && a.candidate.empty()) {
            a.candidate = std::string(arg);
            continue;
        }
        if (haveFile) {
            result.error =
                "unexpected argument " + quoted(arg) + ": " + cmd
                + (a.command == CliCommand::Diff ? " takes two files, BASE and CANDIDATE" : " takes one FILE");
            return result;
        }
        a.file = std::string(arg);
        haveFile = true;
    }
    if (!haveFile) {
        result.error = cmd + (a.command == CliCommand::Diff ? ": missing BASE and CANDIDATE" : ": missing FILE")
                       + " (try 'candle-trace --help')";
        return result;
    }
    if (a.command == CliCommand::Diff && a.candidate.empty()) {
        result.error = "diff: missing CANDIDATE (try 'candle-trace --help')";
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
    return R"(Usage: candle-trace COMMAND [OPTIONS] FILE...

Checks, normalizes, summarizes and compares candle-graph execution traces (JSONL,
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

  diff BASE CANDIDATE [--json] [--top N]
      Compare two runs: spans are matched by their path of names from the
      root, with the occurrence index among same-named siblings
      ('step/microbatch[2]/forward'); ops within matched spans by op name and
      ordinal; op groups by (op, shape, dtype, device). Prints how much
      matched, the measured totals, the top N (default 10) regressions and
      improvements by span path (self time) and by op group (total time), and
      the largest subtrees only one run has. One run each is indicative, not
      a statistical verdict. --json prints the same as one JSON object.
      Rejected traces are refused (exit 1).

  compare --baseline INPUT... --candidate INPUT... [--unverified-traces] [--json]
      upstream's replicated comparison (candle-graph/comparison/5) of the
      outer wall time of two cohorts of runs. Each INPUT is a finalized
      evidence bundle directory (bundle.json, schema candle-graph/bundle/1):
      it is verified first (every file declared, regular, with its size and
      SHA-256; nothing undeclared, no symbolic link or special file). With
      --unverified-traces each INPUT is a raw trace file instead, and the
      comparison is diagnostic only (always ineligible). An eligible
      comparison needs at least 5 runs per side, complete and structurally
      valid production-equivalent captures with one closed measured region,
      unique run IDs, the same capture semantics and comparison identity and
      one implementation ID per side; runs are paired by pair_id when they
      declare one. The verdict (ineligible, inconclusive, candidate_faster,
      candidate_slower) comes from the 95% bootstrap interval of the median
      delta (10000 deterministic resamples). --json prints upstream's report
      byte for byte; without it, a readable summary. A bundle that fails
      verification, or a trace that cannot be read or is rejected, is an
      error (exit 1) with upstream's message chain on one line.

  help, --help, -h     show this help
  --version, -V        show the version

Exit codes:
  0  success (check: the trace loads)
  1  the trace is rejected by the strict load rules (compare: an input
     fails verification, cannot be read or is rejected)
  2  usage error, unreadable input (also: FILE changed while it was read, or
     is a device) or unwritable output (also: standard output)

FILE may be a regular file, '-' (standard input), a pipe or a FIFO; pipes and
FIFOs are read to their end (a line may be at most 256 MiB there).
)";
}

} // namespace TraceInspector
