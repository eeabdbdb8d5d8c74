// SPDX-License-Identifier: MIT
#include "app/cli/comparecommand.h"

#include "app/cli/commands.h"
#include "app/cli/standardoutput.h"
#include "core/comparison/cohortloader.h"
#include "core/output/comparisonreport.h"

namespace TraceInspector {

int runCompare(const CliArgs &args)
{
    const CohortLoad load = loadCohorts(args.baselines, args.candidates, args.unverifiedTraces);
    if (!load.ok()) {
        // upstream's anyhow chain, context first, on one line as `{:#}` prints it.
        printError(load.error);
        return ExitRejected;
    }
    const ReplicatedComparison comparison = compareCohorts(load, args.unverifiedTraces);
    StandardOutput::write(args.json ? comparisonReportJson(comparison) : comparisonReportText(comparison));
    if (!StandardOutput::ok()) {
        printError(StandardOutput::errorMessage());
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace TraceInspector
