// SPDX-License-Identifier: MIT
#include "core/comparison/cohortloader.h"

#include "core/comparison/bundleverifier.h"
#include "core/comparison/replicatedcomparison.h"
#include "core/compat/rustformat.h"
#include "core/io/tracereader.h"
#include "core/output/checkreportjson.h"

namespace TraceInspector {

namespace {

/// Reads one trace with the strict rules; on rejection returns upstream's parse_trace message.
std::optional<RunFacts> readRun(const std::string &path, std::string &error)
{
    const ReadResult read = TraceReader::readFile(path);
    if (!read.accepted()) {
        error = rejectionMessage(read);
        return std::nullopt;
    }
    return RunFacts::fromTrace(*read.trace);
}

bool loadVerified(const std::vector<std::string> &roots, const char *cohort, LoadedCohort &out, std::string &error)
{
    for (std::size_t i = 0; i < roots.size(); ++i) {
        const std::string &root = roots[i];
        const std::string n = std::to_string(i + 1);
        const BundleCheck check = verifyBundle(root);
        if (!check.receipt) {
            error = "verify " + std::string(cohort) + " bundle " + n + " at " + root + ": " + check.error;
            return false;
        }
        std::string cause;
        std::optional<RunFacts> run = readRun(joinBundlePath(root, "trace.jsonl"), cause);
        if (!run) {
            error = "parse verified " + std::string(cohort) + " bundle " + n + " trace at " + root + ": " + cause;
            return false;
        }
        if (run->meta.runId != check.receipt->runId) {
            error = "verified " + std::string(cohort) + " bundle " + n + " manifest run ID "
                    + rustDebugString(check.receipt->runId) + " does not match trace run ID "
                    + rustDebugString(run->meta.runId);
            return false;
        }
        if (std::string post = verifyConsumedBundleFiles(root, *check.receipt, {"trace.jsonl"}); !post.empty()) {
            error = "post-read verify " + std::string(cohort) + " bundle " + n + " trace at " + root + ": " + post;
            return false;
        }
        out.receipts.push_back({check.receipt->runId, check.receipt->manifestSha256});
        out.runs.push_back(std::move(*run));
    }
    return true;
}

bool loadUnverified(const std::vector<std::string> &paths, const char *cohort, LoadedCohort &out, std::string &error)
{
    for (const std::string &path : paths) {
        std::string cause;
        std::optional<RunFacts> run = readRun(path, cause);
        if (!run) {
            error = "parse unverified " + std::string(cohort) + " " + path + ": " + cause;
            return false;
        }
        out.runs.push_back(std::move(*run));
    }
    return true;
}

} // namespace

CohortLoad loadCohorts(const std::vector<std::string> &baseline, const std::vector<std::string> &candidate,
                       bool unverifiedTraces)
{
    CohortLoad load;
    LoadedCohort base, cand;
    auto loadOne = unverifiedTraces ? loadUnverified : loadVerified;
    if (!loadOne(baseline, "baseline", base, load.error) || !loadOne(candidate, "candidate", cand, load.error))
        return load;
    load.baseline = std::move(base);
    load.candidate = std::move(cand);
    return load;
}

ReplicatedComparison compareCohorts(const CohortLoad &load, bool unverifiedTraces)
{
    ComparisonInputs inputs;
    inputs.verification = unverifiedTraces ? InputVerification::UnverifiedTraces : InputVerification::VerifiedBundles;
    if (!unverifiedTraces) {
        inputs.baseline = load.baseline->receipts;
        inputs.candidate = load.candidate->receipts;
    }
    return compareRuns(load.baseline->runs, load.candidate->runs, std::move(inputs));
}

} // namespace TraceInspector
