// SPDX-License-Identifier: MIT
#include "core/output/comparisonreport.h"

#include <cmath>
#include <cstdio>

#include "core/output/prettyjsonwriter.h"
#include "core/output/textescape.h"

namespace TraceInspector {

namespace {

void writeOptionalString(PrettyJsonWriter &w, const std::optional<std::string> &s)
{
    if (s)
        w.string(*s);
    else
        w.null();
}

void writeOptionalFloat(PrettyJsonWriter &w, const std::optional<double> &v)
{
    if (v)
        w.f64(*v);
    else
        w.null();
}

void writeReceipts(PrettyJsonWriter &w, const std::vector<VerifiedBundleInput> &receipts)
{
    w.beginArray();
    for (const VerifiedBundleInput &r : receipts) {
        w.beginObject();
        w.key("run_id").string(r.runId);
        w.key("manifest_sha256").string(r.manifestSha256);
        w.endObject();
    }
    w.endArray();
}

// implementation_id and pair_id are skipped when absent, as upstream's serde attributes say.
void writeIdentity(PrettyJsonWriter &w, const ComparisonIdentity &c)
{
    w.beginObject();
    if (c.implementationId)
        w.key("implementation_id").string(*c.implementationId);
    w.key("workload_id").string(c.workloadId);
    w.key("model_id").string(c.modelId);
    w.key("config_id").string(c.configId);
    w.key("data_id").string(c.dataId);
    w.key("seed_policy").string(c.seedPolicy);
    w.key("physical_batch").u64(c.physicalBatch);
    w.key("accumulation_steps").u64(c.accumulationSteps);
    w.key("precision").string(c.precision);
    w.key("device_state").string(c.deviceState);
    if (c.pairId)
        w.key("pair_id").string(*c.pairId);
    w.endObject();
}

void writeStatistics(PrettyJsonWriter &w, const SampleStatistics &s)
{
    w.beginObject();
    w.key("samples_ns").beginArray();
    for (const std::uint64_t v : s.samplesNs)
        w.u64(v);
    w.endArray();
    w.key("median_ns").f64(s.medianNs);
    w.key("p95_ns").f64(s.p95Ns);
    w.key("mad_ns").f64(s.madNs);
    w.endObject();
}

void writeStringArray(PrettyJsonWriter &w, const std::vector<std::string> &values)
{
    w.beginArray();
    for (const std::string &v : values)
        w.string(v);
    w.endArray();
}

void writeTensorStats(PrettyJsonWriter &w, const TensorStatsComparison &t)
{
    w.beginObject();
    w.key("baseline_runs").u64(t.baselineRuns);
    w.key("candidate_runs").u64(t.candidateRuns);
    w.key("matched").beginArray();
    for (const TensorStatsComparisonRow &r : t.matched) {
        w.beginObject();
        w.key("label").string(r.label);
        w.key("rms_a").f64(r.rmsA);
        w.key("rms_b").f64(r.rmsB);
        w.key("rms_ratio");
        writeOptionalFloat(w, r.rmsRatio);
        w.key("abs_max_ratio");
        writeOptionalFloat(w, r.absMaxRatio);
        w.key("non_finite_a").u64(r.nonFiniteA);
        w.key("non_finite_b").u64(r.nonFiniteB);
        w.key("samples_a").u64(r.samplesA);
        w.key("samples_b").u64(r.samplesB);
        w.key("runs_a").u64(r.runsA);
        w.key("runs_b").u64(r.runsB);
        w.endObject();
    }
    w.endArray();
    w.key("unmatched_a");
    writeStringArray(w, t.unmatchedA);
    w.key("unmatched_b");
    writeStringArray(w, t.unmatchedB);
    w.endObject();
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

/// Nanoseconds as the most readable unit (`12.34 ms`).
std::string duration(double ns)
{
    const double a = std::fabs(ns);
    if (a >= 1e9)
        return fixed(ns / 1e9, 3) + " s";
    if (a >= 1e6)
        return fixed(ns / 1e6, 3) + " ms";
    if (a >= 1e3)
        return fixed(ns / 1e3, 3) + " us";
    return fixed(ns, 1) + " ns";
}

std::string signedDuration(double ns)
{
    return (ns > 0 ? "+" : "") + duration(ns);
}

std::string verdictSentence(ComparisonVerdict v)
{
    switch (v) {
    case ComparisonVerdict::Ineligible: return "ineligible: no statistical verdict (reasons below)";
    case ComparisonVerdict::Inconclusive: return "inconclusive: the 95% interval of the median delta includes zero";
    case ComparisonVerdict::CandidateFaster:
        return "candidate faster: the whole 95% interval of the median delta is below zero";
    case ComparisonVerdict::CandidateSlower:
        return "candidate slower: the whole 95% interval of the median delta is above zero";
    }
    return {};
}

void appendCohort(std::string &out, const char *name, const SampleStatistics &s, const std::optional<std::string> &impl)
{
    out += "  ";
    out += name;
    out += ": " + std::to_string(s.samplesNs.size()) + (s.samplesNs.size() == 1 ? " run" : " runs");
    if (impl)
        out += " of " + oneLine(*impl);
    out += ", median " + duration(s.medianNs) + ", p95 " + duration(s.p95Ns) + ", MAD " + duration(s.madNs) + "\n";
}

} // namespace

std::string comparisonReportJson(const ReplicatedComparison &c)
{
    PrettyJsonWriter w;
    w.beginObject();
    w.key("schema").string(c.schema);
    w.key("metric").string(c.metric);
    w.key("inputs").beginObject();
    w.key("verification").string(inputVerificationName(c.inputs.verification));
    w.key("baseline");
    writeReceipts(w, c.inputs.baseline);
    w.key("candidate");
    writeReceipts(w, c.inputs.candidate);
    w.endObject();
    w.key("comparable").boolean(c.comparable);
    w.key("paired").boolean(c.paired);
    w.key("verdict").string(comparisonVerdictName(c.verdict));
    w.key("reasons");
    writeStringArray(w, c.reasons);
    w.key("baseline_implementation_id");
    writeOptionalString(w, c.baselineImplementationId);
    w.key("candidate_implementation_id");
    writeOptionalString(w, c.candidateImplementationId);
    w.key("identity");
    if (c.identity)
        writeIdentity(w, *c.identity);
    else
        w.null();
    w.key("baseline");
    writeStatistics(w, c.baseline);
    w.key("candidate");
    writeStatistics(w, c.candidate);
    w.key("median_delta_ns").f64(c.medianDeltaNs);
    w.key("median_delta_percent");
    writeOptionalFloat(w, c.medianDeltaPercent);
    w.key("confidence_interval");
    if (c.confidenceInterval) {
        w.beginObject();
        w.key("level").f64(c.confidenceInterval->level);
        w.key("lower_delta_ns").f64(c.confidenceInterval->lowerDeltaNs);
        w.key("upper_delta_ns").f64(c.confidenceInterval->upperDeltaNs);
        w.endObject();
    } else {
        w.null();
    }
    w.key("tensor_stats");
    writeTensorStats(w, c.tensorStats);
    w.endObject();
    std::string out = w.take();
    out.push_back('\n');
    return out;
}

std::string comparisonReportText(const ReplicatedComparison &c)
{
    std::string out;
    out += "Replicated comparison (" + c.schema + "), metric " + c.metric + "\n";
    out += "Inputs: ";
    out += c.inputs.verification == InputVerification::VerifiedBundles ? "verified bundles"
                                                                       : "unverified raw traces (diagnostic only)";
    out += c.paired ? ", paired by pair_id\n" : ", unpaired\n";
    out += "Verdict: " + verdictSentence(c.verdict) + "\n";
    if (!c.reasons.empty()) {
        out += "Reasons it is not eligible:\n";
        for (const std::string &r : c.reasons)
            out += "  - " + oneLine(r) + "\n";
    }
    out += "Cohorts:\n";
    appendCohort(out, "baseline ", c.baseline, c.baselineImplementationId);
    appendCohort(out, "candidate", c.candidate, c.candidateImplementationId);
    out += "Median delta (candidate - baseline): " + signedDuration(c.medianDeltaNs);
    if (c.medianDeltaPercent)
        out += " (" + std::string(*c.medianDeltaPercent > 0 ? "+" : "") + fixed(*c.medianDeltaPercent, 2) + " %)";
    out += c.paired ? ", median of the paired deltas\n" : ", difference of the medians\n";
    if (c.confidenceInterval)
        out += "95% bootstrap interval: [" + signedDuration(c.confidenceInterval->lowerDeltaNs) + ", "
               + signedDuration(c.confidenceInterval->upperDeltaNs) + "]\n";
    else
        out += "95% bootstrap interval: none (the comparison is ineligible)\n";
    if (c.identity) {
        const ComparisonIdentity &i = *c.identity;
        out += "Identity: workload " + oneLine(i.workloadId) + ", model " + oneLine(i.modelId) + ", config "
               + oneLine(i.configId) + ", data " + oneLine(i.dataId) + ", seed " + oneLine(i.seedPolicy) + ", batch "
               + std::to_string(i.physicalBatch) + " x " + std::to_string(i.accumulationSteps) + ", precision "
               + oneLine(i.precision) + ", device state " + oneLine(i.deviceState) + "\n";
    }
    const TensorStatsComparison &t = c.tensorStats;
    out += "Tensor statistics: " + std::to_string(t.matched.size()) + " labels in both, "
           + std::to_string(t.unmatchedA.size()) + " only in baseline, " + std::to_string(t.unmatchedB.size())
           + " only in candidate\n";
    const std::size_t shown = std::min<std::size_t>(t.matched.size(), 10);
    for (std::size_t i = 0; i < shown; ++i) {
        const TensorStatsComparisonRow &r = t.matched[i];
        out += "  " + oneLine(r.label) + ": rms " + fixed(r.rmsA, 6) + " -> " + fixed(r.rmsB, 6) + ", ratio "
               + (r.rmsRatio ? fixed(*r.rmsRatio, 4) : std::string("none")) + ", non-finite "
               + std::to_string(r.nonFiniteA) + " -> " + std::to_string(r.nonFiniteB) + ", runs "
               + std::to_string(r.runsA) + "/" + std::to_string(t.baselineRuns) + " -> " + std::to_string(r.runsB) + "/"
               + std::to_string(t.candidateRuns) + "\n";
    }
    if (t.matched.size() > shown)
        out += "  ... " + std::to_string(t.matched.size() - shown) + " more (--json lists all)\n";
    return out;
}

} // namespace TraceInspector
