// SPDX-License-Identifier: MIT
// upstream's replicated comparison (docs/COMPARISON.md): statistics, the deterministic
// bootstrap, every eligibility reason, pairing, the tensor-statistics comparison and the
// report's exact JSON text. Expected numbers come from tools/comparison_reference.py, an
// independent transcription of upstream's algorithm, and are written here.
#include <QTest>

#include <functional>
#include <string>
#include <vector>

#include "core/comparison/replicatedcomparison.h"
#include "core/comparison/samplestatistics.h"
#include "core/comparison/tensorstatscomparison.h"
#include "core/compat/floatformat.h"
#include "core/output/comparisonreport.h"

using namespace TraceInspector;

class TestComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void statistics_data();
    void statistics();
    void pairedEvenMedianAveragesTheMiddle();
    void generatorSequence();
    void bootstrap_data();
    void bootstrap();
    void eligibility_data();
    void eligibility();
    void reasonsKeepUpstreamOrder();
    void tensorStats();
    void tensorStatsOrderAndRatios();
    void reportJson();
    void reportJsonIneligibleNulls();
};

namespace {

using Samples = std::vector<std::uint64_t>;

/// upstream's test run: a complete, valid, production-equivalent cpu run with one measured span.
RunFacts run(const std::string &cohort, std::size_t index, std::uint64_t durationNs,
             std::optional<std::string> pairId = std::nullopt)
{
    RunFacts r;
    r.meta.schema = "candle-graph/trace/10";
    r.meta.runId = cohort + "-" + std::to_string(index);
    r.meta.correlationId = r.meta.runId;
    r.meta.entrypoint = "demo::infer";
    r.meta.phase = ExecutionPhase::Infer;
    r.meta.timestamp = "2026-08-19T00:00:00Z";
    r.meta.captureStep = 6;
    r.meta.warmupSteps = 5;
    r.meta.device = "cpu";
    r.meta.timingMode = TimingMode::Host;
    r.meta.captureContract.measurementScope = MeasurementScope::ProductionEquivalent;
    ComparisonIdentity id;
    id.implementationId = cohort;
    id.workloadId = "infer";
    id.modelId = "m1";
    id.configId = "c1";
    id.dataId = "d1";
    id.seedPolicy = "fixed";
    id.physicalBatch = 1;
    id.accumulationSteps = 1;
    id.precision = "f32";
    id.deviceState = "exclusive";
    id.pairId = std::move(pairId);
    r.meta.comparisonIdentity = id;
    r.structurallyValid = true;
    r.captureComplete = true;
    r.measuredClosedNs = {durationNs};
    return r;
}

std::vector<RunFacts> cohort(const std::string &name, const Samples &durations, bool paired = false)
{
    std::vector<RunFacts> runs;
    for (std::size_t i = 0; i < durations.size(); ++i)
        runs.push_back(run(name, i, durations[i],
                           paired ? std::optional<std::string>("pair-" + std::to_string(i)) : std::nullopt));
    return runs;
}

ComparisonInputs verifiedInputs(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate)
{
    ComparisonInputs in;
    in.verification = InputVerification::VerifiedBundles;
    for (const RunFacts &r : baseline)
        in.baseline.push_back({r.meta.runId, std::string(64, '0')});
    for (const RunFacts &r : candidate)
        in.candidate.push_back({r.meta.runId, std::string(64, '0')});
    return in;
}

ReplicatedComparison compareVerified(const std::vector<RunFacts> &baseline, const std::vector<RunFacts> &candidate)
{
    return compareRuns(baseline, candidate, verifiedInputs(baseline, candidate));
}

QByteArray f(double v)
{
    return QByteArray::fromStdString(formatJsonFloat(v));
}

QByteArray joined(const std::vector<std::string> &reasons)
{
    QByteArrayList out;
    for (const std::string &r : reasons)
        out << QByteArray::fromStdString(r);
    return out.join('|');
}

using Mutator = std::function<void(std::vector<RunFacts> &base, std::vector<RunFacts> &cand, ComparisonInputs &in)>;

} // namespace

Q_DECLARE_METATYPE(Samples)
Q_DECLARE_METATYPE(Mutator)

void TestComparison::statistics_data()
{
    QTest::addColumn<Samples>("samples");
    QTest::addColumn<QByteArray>("median");
    QTest::addColumn<QByteArray>("p95");
    QTest::addColumn<QByteArray>("mad");
    // upstream's own fact (statistics_expose_raw_median_p95_and_mad).
    QTest::newRow("upstream 10 11 12 13 100")
        << Samples{10, 11, 12, 13, 100} << QByteArray("12.0") << QByteArray("82.6") << QByteArray("1.0");
    QTest::newRow("unsorted input") << Samples{100, 13, 10, 12, 11} << QByteArray("12.0") << QByteArray("82.6")
                                    << QByteArray("1.0");
    // Even count: the median interpolates, the MAD centre rounds half away from zero (1001.5 -> 1002).
    QTest::newRow("even count") << Samples{1000, 1001, 1002, 1003} << QByteArray("1001.5")
                                << QByteArray("1002.8499999999999") << QByteArray("1.0");
    QTest::newRow("one sample") << Samples{7} << QByteArray("7.0") << QByteArray("7.0") << QByteArray("0.0");
    QTest::newRow("none") << Samples{} << QByteArray("0.0") << QByteArray("0.0") << QByteArray("0.0");
    QTest::newRow("five equal") << Samples{5, 5, 5, 5, 5} << QByteArray("5.0") << QByteArray("5.0")
                                << QByteArray("0.0");
}

void TestComparison::statistics()
{
    QFETCH(Samples, samples);
    QFETCH(QByteArray, median);
    QFETCH(QByteArray, p95);
    QFETCH(QByteArray, mad);
    const SampleStatistics s = ComparisonStatistics::statistics(samples);
    QCOMPARE(s.samplesNs, samples); // raw samples kept in cohort order
    QCOMPARE(f(s.medianNs), median);
    QCOMPARE(f(s.p95Ns), p95);
    QCOMPARE(f(s.madNs), mad);
}

void TestComparison::pairedEvenMedianAveragesTheMiddle()
{
    // upstream's paired_even_median_averages_the_middle_deltas: [-5, -1, 3, 9] -> 1.0.
    QCOMPARE(f(ComparisonStatistics::medianOfSorted({-5, -1, 3, 9})), QByteArrayLiteral("1.0"));
    QCOMPARE(f(ComparisonStatistics::medianOfSorted({})), QByteArrayLiteral("0.0"));
    QCOMPARE(f(ComparisonStatistics::pairedMedianDelta({{10, 3}, {0, 5}, {7, 7}})), QByteArrayLiteral("0.0"));
    // Deltas beyond the i64 range stay exact (upstream takes them as i128).
    QCOMPARE(f(ComparisonStatistics::pairedMedianDelta({{UINT64_MAX, 0}})),
             QByteArrayLiteral("-1.8446744073709552e+19"));
}

void TestComparison::generatorSequence()
{
    // xorshift64 (<<13, >>7, <<17) from 0x4d595df4d0f33173, modulo the length; the first
    // states by hand: tools/comparison_reference.py's Rng gives the same.
    ComparisonStatistics::Xorshift64 rng;
    std::uint64_t s = ComparisonStatistics::Xorshift64::kSeed;
    for (int i = 0; i < 1000; ++i) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        const std::size_t length = static_cast<std::size_t>(i % 9 + 1);
        QCOMPARE(rng.index(length), static_cast<std::size_t>(s % length));
    }
}

void TestComparison::bootstrap_data()
{
    QTest::addColumn<bool>("paired");
    QTest::addColumn<Samples>("baseline");
    QTest::addColumn<Samples>("candidate");
    QTest::addColumn<QByteArray>("delta");
    QTest::addColumn<QByteArray>("lower");
    QTest::addColumn<QByteArray>("upper");
    QTest::addColumn<QByteArray>("verdict");
    // Values from tools/comparison_reference.py (unpaired|paired BASE CAND).
    QTest::newRow("upstream confirms faster (unpaired)")
        << false << Samples{100, 102, 99, 101, 103} << Samples{75, 80, 78, 79, 77} << QByteArray("-23.0")
        << QByteArray("-26.0") << QByteArray("-20.0") << QByteArray("candidate_faster");
    QTest::newRow("paired, six pairs") << true << Samples{100, 104, 98, 101, 107, 99}
                                       << Samples{97, 101, 99, 95, 104, 96} << QByteArray("-3.0") << QByteArray("-4.5")
                                       << QByteArray("-1.0") << QByteArray("candidate_faster");
    QTest::newRow("unpaired, even, inconclusive")
        << false << Samples{10, 12, 11, 13, 12, 14} << Samples{11, 13, 10, 12, 15, 11} << QByteArray("-0.5")
        << QByteArray("-2.0") << QByteArray("2.0") << QByteArray("inconclusive");
    QTest::newRow("unpaired, 7 vs 6, seconds")
        << false << Samples{1200000123, 1210000456, 1195000789, 1203000012, 1199999999, 1201234567, 1250000000}
        << Samples{1190000000, 1201000000, 1185000333, 1193000777, 1188000000, 1240000000} << QByteArray("-9734178.5")
        << QByteArray("-21000456.0") << QByteArray("19265433.0") << QByteArray("inconclusive");
    QTest::newRow("paired, inconclusive")
        << true << Samples{1000000007, 1000000100, 999999000, 1000005000, 1000000999}
        << Samples{1000000500, 1000000050, 1000001000, 1000004000, 1000002001} << QByteArray("493.0")
        << QByteArray("-1000.0") << QByteArray("2000.0") << QByteArray("inconclusive");
    QTest::newRow("unpaired, slower") << false << Samples{75, 80, 78, 79, 77} << Samples{100, 102, 99, 101, 103}
                                      << QByteArray("23.0") << QByteArray("20.0") << QByteArray("26.0")
                                      << QByteArray("candidate_slower");
}

void TestComparison::bootstrap()
{
    QFETCH(bool, paired);
    QFETCH(Samples, baseline);
    QFETCH(Samples, candidate);
    QFETCH(QByteArray, delta);
    QFETCH(QByteArray, lower);
    QFETCH(QByteArray, upper);
    QFETCH(QByteArray, verdict);
    const ReplicatedComparison c = compareVerified(cohort("base", baseline, paired), cohort("next", candidate, paired));
    QCOMPARE(joined(c.reasons), QByteArray());
    QVERIFY(c.comparable);
    QCOMPARE(c.paired, paired);
    QCOMPARE(f(c.medianDeltaNs), delta);
    QVERIFY(c.confidenceInterval.has_value());
    QCOMPARE(f(c.confidenceInterval->level), QByteArrayLiteral("0.95"));
    QCOMPARE(f(c.confidenceInterval->lowerDeltaNs), lower);
    QCOMPARE(f(c.confidenceInterval->upperDeltaNs), upper);
    QCOMPARE(QByteArray(comparisonVerdictName(c.verdict).data(), qsizetype(comparisonVerdictName(c.verdict).size())),
             verdict);
    QCOMPARE(c.baselineImplementationId, std::optional<std::string>("base"));
    QCOMPARE(c.candidateImplementationId, std::optional<std::string>("next"));
    QVERIFY(c.identity.has_value());
    QVERIFY(!c.identity->implementationId && !c.identity->pairId);
}

void TestComparison::eligibility_data()
{
    QTest::addColumn<Mutator>("mutate");
    QTest::addColumn<QByteArray>("reasons");
    QTest::addColumn<bool>("paired");

    auto each = [](std::vector<RunFacts> &runs, const std::function<void(RunFacts &)> &fn) {
        for (RunFacts &r : runs)
            fn(r);
    };
    QTest::newRow("eligible") << Mutator([](auto &, auto &, auto &) {}) << QByteArray() << false;
    QTest::newRow("unverified traces")
        << Mutator([](auto &, auto &, ComparisonInputs &in) { in = ComparisonInputs{}; })
        << QByteArray(
               "unverified raw trace inputs are diagnostic only; finalized verified bundles are required for an eligible comparison")
        << false;
    QTest::newRow("receipts not one-to-one")
        << Mutator([](auto &, auto &, ComparisonInputs &in) { in.candidate.pop_back(); })
        << QByteArray("candidate bundle receipts must correspond one-to-one with trace documents") << false;
    QTest::newRow("receipt run id") << Mutator(
        [](auto &, auto &, ComparisonInputs &in) { in.baseline[1].runId = "other"; })
                                    << QByteArray("baseline bundle 2 receipt run ID does not match its trace") << false;
    QTest::newRow("receipt digest") << Mutator([](auto &, auto &, ComparisonInputs &in) {
        in.candidate[2].manifestSha256 = std::string(63, 'a') + "g";
    }) << QByteArray("candidate bundle 3 receipt has an invalid manifest SHA-256")
                                    << false;
    QTest::newRow("incomplete capture") << Mutator([](auto &b, auto &, auto &) { b[0].captureComplete = false; })
                                        << QByteArray("baseline run 1 is not a complete, structurally valid capture")
                                        << false;
    QTest::newRow("structurally invalid")
        << Mutator([](auto &, auto &c, auto &) { c[4].structurallyValid = false; })
        << QByteArray("candidate run 5 is not a complete, structurally valid capture") << false;
    QTest::newRow("not production-equivalent")
        << Mutator([each](auto &b, auto &c, ComparisonInputs &in) {
               each(b, [](RunFacts &r) { r.meta.captureContract.measurementScope = MeasurementScope::ProfiledWork; });
               each(c, [](RunFacts &r) { r.meta.captureContract.measurementScope = MeasurementScope::ProfiledWork; });
               b.resize(1);
               c.resize(1);
               in.baseline.resize(1);
               in.candidate.resize(1);
           })
        << QByteArray(
               "baseline run 1 is not declared production-equivalent|candidate run 1 is not declared production-equivalent|"
               "at least 5 independent baseline and candidate runs are required")
        << false;
    QTest::newRow("unsynchronized device")
        << Mutator([each](auto &b, auto &c, auto &) {
               each(b, [](RunFacts &r) { r.meta.device = "cuda:0"; });
               each(c, [](RunFacts &r) { r.meta.device = "cuda:0"; });
               c[1].meta.measuredRegionDeviceSynchronized = true;
           })
        << QByteArray(
               "baseline run 1 does not synchronize its measured device region|"
               "baseline run 2 does not synchronize its measured device region|"
               "baseline run 3 does not synchronize its measured device region|"
               "baseline run 4 does not synchronize its measured device region|"
               "baseline run 5 does not synchronize its measured device region|"
               "candidate run 1 does not synchronize its measured device region|"
               "candidate run 3 does not synchronize its measured device region|"
               "candidate run 4 does not synchronize its measured device region|"
               "candidate run 5 does not synchronize its measured device region|"
               "entrypoint, phase, device, timing mode, synchronization, warmup, capture step, and capture contract must match")
        << false;
    QTest::newRow("cpu device needs no synchronization") << Mutator([each](auto &b, auto &c, auto &) {
        each(b, [](RunFacts &r) { r.meta.device = "cpu:1"; });
        each(c, [](RunFacts &r) { r.meta.device = "cpu:1"; });
    }) << QByteArray() << false;
    QTest::newRow("no measured region") << Mutator([](auto &b, auto &, auto &) {
        b[2].measuredClosedNs.clear();
    }) << QByteArray("baseline run 3 does not contain exactly one closed measured region")
                                        << false;
    QTest::newRow("two measured regions")
        << Mutator([](auto &, auto &c, auto &) { c[0].measuredClosedNs.push_back(5); })
        << QByteArray("candidate run 1 does not contain exactly one closed measured region") << false;
    QTest::newRow("four runs") << Mutator([](auto &b, auto &, ComparisonInputs &in) {
        b.pop_back();
        in.baseline.pop_back();
    }) << QByteArray("at least 5 independent baseline and candidate runs are required")
                               << false;
    QTest::newRow("duplicate run id") << Mutator([](auto &, auto &c, ComparisonInputs &in) {
        c[4].meta.runId = c[3].meta.runId;
        in.candidate[4].runId = c[3].meta.runId;
    }) << QByteArray("run IDs must be unique across all replicates")
                                      << false;
    QTest::newRow("run id shared across cohorts") << Mutator([](auto &b, auto &c, ComparisonInputs &in) {
        c[0].meta.runId = b[0].meta.runId;
        in.candidate[0].runId = b[0].meta.runId;
    }) << QByteArray("run IDs must be unique across all replicates")
                                                  << false;
    const QByteArray semantics =
        QByteArrayLiteral("entrypoint, phase, device, timing mode, synchronization, warmup, capture step, "
                          "and capture contract must match");
    QTest::newRow("entrypoint differs") << Mutator([](auto &, auto &c, auto &) { c[0].meta.entrypoint = "other"; })
                                        << semantics << false;
    QTest::newRow("phase differs") << Mutator([](auto &, auto &c, auto &) { c[0].meta.phase = ExecutionPhase::Train; })
                                   << semantics << false;
    QTest::newRow("timing mode differs") << Mutator([](auto &, auto &c, auto &) {
        c[0].meta.timingMode = TimingMode::DeviceSynchronized;
    }) << semantics << false;
    QTest::newRow("warmup differs") << Mutator([](auto &, auto &c, auto &) { c[0].meta.warmupSteps = 4; }) << semantics
                                    << false;
    QTest::newRow("capture step differs")
        << Mutator([](auto &, auto &c, auto &) { c[0].meta.captureStep = 7; }) << semantics << false;
    QTest::newRow("synchronization differs")
        << Mutator([](auto &, auto &c, auto &) { c[0].meta.measuredRegionDeviceSynchronized = true; }) << semantics
        << false;
    QTest::newRow("capture contract differs")
        << Mutator([](auto &, auto &c, auto &) { c[0].meta.captureContract.requiredSemanticLabels = {"x"}; })
        << semantics << false;
    QTest::newRow("identity missing") << Mutator([](auto &b, auto &, auto &) {
        b[0].meta.comparisonIdentity.reset();
    }) << QByteArray("comparison identity is missing|baseline implementation ID is missing")
                                      << false;
    QTest::newRow("identity missing from one run")
        << Mutator([](auto &, auto &c, auto &) { c[2].meta.comparisonIdentity.reset(); })
        << QByteArray(
               "comparison identity is missing from one or more runs|candidate implementation ID is missing from one or more runs")
        << false;
    QTest::newRow("identity invalid") << Mutator([each](auto &b, auto &c, auto &) {
        each(b, [](RunFacts &r) { r.meta.comparisonIdentity->physicalBatch = 0; });
        each(c, [](RunFacts &r) { r.meta.comparisonIdentity->physicalBatch = 0; });
    }) << QByteArray("comparison identity is invalid: comparison identity physical_batch must be greater than zero")
                                      << false;
    QTest::newRow("identity blank member")
        << Mutator([](auto &b, auto &, auto &) { b[0].meta.comparisonIdentity->modelId = " "; })
        << QByteArray("comparison identity is invalid: comparison identity model_id must not be empty") << false;
    QTest::newRow("conditions differ") << Mutator([](auto &, auto &c, auto &) {
        c[3].meta.comparisonIdentity->seedPolicy = "random";
    }) << QByteArray("workload, model, configuration, data, seed, batch, precision, or device state differs")
                                       << false;
    QTest::newRow("implementation id missing")
        << Mutator([](auto &b, auto &, auto &) { b[0].meta.comparisonIdentity->implementationId.reset(); })
        << QByteArray("baseline implementation ID is missing") << false;
    QTest::newRow("implementation id missing later")
        << Mutator([](auto &b, auto &, auto &) { b[3].meta.comparisonIdentity->implementationId.reset(); })
        << QByteArray("baseline implementation ID is missing from one or more runs") << false;
    QTest::newRow("implementation id blank")
        << Mutator([](auto &b, auto &, auto &) { b[0].meta.comparisonIdentity->implementationId = "   "; })
        << QByteArray(
               "comparison identity is invalid: comparison identity implementation_id must not be empty when declared|"
               "baseline implementation ID must not be empty")
        << false;
    QTest::newRow("implementation id differs")
        << Mutator([](auto &, auto &c, auto &) { c[4].meta.comparisonIdentity->implementationId = "another-build"; })
        << QByteArray("candidate implementation ID differs within the cohort") << false;
    QTest::newRow("paired") << Mutator([each](auto &b, auto &c, auto &) {
        int i = 0;
        each(b, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
        i = 0;
        each(c, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
    }) << QByteArray() << true;
    QTest::newRow("pair id on one run only")
        << Mutator([](auto &, auto &c, auto &) { c[0].meta.comparisonIdentity->pairId = "pair-0"; })
        << QByteArray("pair IDs must be present on every run when pairing is requested") << false;
    QTest::newRow("paired without measured region")
        << Mutator([each](auto &b, auto &c, auto &) {
               int i = 0;
               each(b, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
               i = 0;
               each(c, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
               b[1].measuredClosedNs.clear();
           })
        << QByteArray("baseline run 2 does not contain exactly one closed measured region|"
                      "paired runs require one closed measured region")
        << false;
    QTest::newRow("pair id repeated") << Mutator([each](auto &b, auto &c, auto &) {
        int i = 0;
        each(b, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
        i = 0;
        each(c, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
        c[4].meta.comparisonIdentity->pairId = "pair-0";
    }) << QByteArray("pair IDs must be unique within each cohort")
                                      << false;
    QTest::newRow("pair sets differ") << Mutator([each](auto &b, auto &c, auto &) {
        int i = 0;
        each(b, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
        i = 0;
        each(c, [&i](RunFacts &r) { r.meta.comparisonIdentity->pairId = "pair-" + std::to_string(i++); });
        c[4].meta.comparisonIdentity->pairId = "pair-9";
    }) << QByteArray("baseline and candidate pair-ID sets must match exactly")
                                      << false;
    QTest::newRow("no runs")
        << Mutator([](auto &b, auto &c, ComparisonInputs &in) {
               b.clear();
               c.clear();
               in.baseline.clear();
               in.candidate.clear();
           })
        << QByteArray(
               "at least 5 independent baseline and candidate runs are required|comparison contains no runs|"
               "comparison identity is missing|baseline implementation ID is missing|candidate implementation ID is missing")
        << false;
}

void TestComparison::eligibility()
{
    QFETCH(Mutator, mutate);
    QFETCH(QByteArray, reasons);
    QFETCH(bool, paired);
    std::vector<RunFacts> base = cohort("base", {100, 101, 102, 103, 104});
    std::vector<RunFacts> cand = cohort("next", {90, 91, 92, 93, 94});
    ComparisonInputs in = verifiedInputs(base, cand);
    mutate(base, cand, in);
    const ReplicatedComparison c = compareRuns(base, cand, in);
    QCOMPARE(joined(c.reasons), reasons);
    QCOMPARE(c.comparable, reasons.isEmpty());
    QCOMPARE(c.paired, paired);
    QCOMPARE(c.confidenceInterval.has_value(), reasons.isEmpty());
    if (!reasons.isEmpty())
        QCOMPARE(c.verdict, ComparisonVerdict::Ineligible);
    else
        QCOMPARE(c.verdict, ComparisonVerdict::CandidateFaster);
}

void TestComparison::reasonsKeepUpstreamOrder()
{
    // Provenance, per-run facts (baseline, then candidate), run count, run ids, semantics,
    // identity, implementation ids, pairing: all reasons, in that order.
    std::vector<RunFacts> base = cohort("base", {100, 101, 102, 103});
    std::vector<RunFacts> cand = cohort("base", {90, 91, 92, 93, 94});
    base[0].captureComplete = false;
    cand[0].meta.warmupSteps = 0;
    cand[1].meta.comparisonIdentity->workloadId = "train";
    cand[2].meta.comparisonIdentity->implementationId = "x";
    cand[3].meta.comparisonIdentity->pairId = "p";
    const ReplicatedComparison c = compareRuns(base, cand, ComparisonInputs{});
    QCOMPARE(joined(c.reasons),
             QByteArrayLiteral(
                 "unverified raw trace inputs are diagnostic only; finalized verified bundles are required for an "
                 "eligible comparison|baseline run 1 is not a complete, structurally valid capture|"
                 "at least 5 independent baseline and candidate runs are required|"
                 "run IDs must be unique across all replicates|"
                 "entrypoint, phase, device, timing mode, synchronization, warmup, capture step, and capture "
                 "contract must match|"
                 "workload, model, configuration, data, seed, batch, precision, or device state differs|"
                 "candidate implementation ID differs within the cohort|"
                 "pair IDs must be present on every run when pairing is requested"));
    // Statistics are reported even when ineligible; the delta is the difference of the medians.
    QCOMPARE(f(c.medianDeltaNs), QByteArrayLiteral("-9.5"));
    QCOMPARE(f(*c.medianDeltaPercent), QByteArrayLiteral("-9.35960591133005"));
    QVERIFY(!c.identity);
}

void TestComparison::tensorStats()
{
    // upstream's tensor_stats_average_every_event_and_expose_sample_and_run_coverage.
    auto stats = [](const char *label, double rms, double absMax) {
        return TensorStatsFact{label, rms, absMax, rms == 100.0 ? 1u : 0u};
    };
    RunFacts base = run("base", 0, 100);
    base.tensorStats = {stats("stable", 2.0, 4.0), stats("drift", 1.0, 2.0), stats("drift", 100.0, 200.0),
                        stats("only_a", 3.0, 3.0)};
    RunFacts cand = run("next", 0, 90);
    cand.tensorStats = {stats("stable", 2.2, 4.4), stats("drift", 4.0, 8.0), stats("only_b", 5.0, 5.0)};
    const ReplicatedComparison c = compareRuns({base}, {cand}, ComparisonInputs{});
    const TensorStatsComparison &t = c.tensorStats;
    QCOMPARE(t.matched.size(), std::size_t(2));
    const TensorStatsComparisonRow &drift = t.matched[0];
    QCOMPARE(drift.label, std::string("drift"));
    QCOMPARE(f(drift.rmsA), QByteArrayLiteral("50.5"));
    QCOMPARE(f(*drift.rmsRatio), f(4.0 / 50.5));
    QCOMPARE(drift.nonFiniteA, std::uint64_t(1));
    QCOMPARE(drift.samplesA, std::uint64_t(2));
    QCOMPARE(drift.samplesB, std::uint64_t(1));
    QCOMPARE(drift.runsA, std::uint64_t(1));
    QCOMPARE(drift.runsB, std::uint64_t(1));
    QCOMPARE(t.matched[1].label, std::string("stable"));
    QCOMPARE(t.baselineRuns, std::uint64_t(1));
    QCOMPARE(t.candidateRuns, std::uint64_t(1));
    QCOMPARE(t.unmatchedA, std::vector<std::string>{"only_a"});
    QCOMPARE(t.unmatchedB, std::vector<std::string>{"only_b"});
}

void TestComparison::tensorStatsOrderAndRatios()
{
    // Zero baseline: ratio 1 when both are zero, none otherwise (sorted first: infinite distance);
    // equal distances by label; runs count each run once however often a label repeats.
    std::vector<RunFacts> base(2, run("base", 0, 1));
    base[1].meta.runId = "base-1";
    base[0].tensorStats = {{"zero", 0.0, 0.0, 0}, {"grow", 0.0, 1.0, 0}, {"b", 1.0, 1.0, 0}, {"a", 1.0, 1.0, 0}};
    base[1].tensorStats = {{"b", 1.0, 1.0, 0}, {"b", 1.0, 1.0, 0}};
    std::vector<RunFacts> cand(1, run("next", 0, 1));
    cand[0].tensorStats = {
        {"zero", 0.0, 0.0, 0}, {"grow", 2.0, 1.0, UINT64_MAX}, {"a", 2.0, 0.5, 0}, {"b", 0.5, 2.0, 0}};
    const TensorStatsComparison t = compareTensorStats(base, cand);
    std::vector<std::string> order;
    for (const auto &row : t.matched)
        order.push_back(row.label);
    QCOMPARE(order, (std::vector<std::string>{"grow", "a", "b", "zero"}));
    QVERIFY(!t.matched[0].rmsRatio);
    QCOMPARE(f(*t.matched[0].absMaxRatio), QByteArrayLiteral("1.0"));
    QCOMPARE(t.matched[0].nonFiniteB, UINT64_MAX);
    QCOMPARE(t.matched[2].runsA, std::uint64_t(2));
    QCOMPARE(t.matched[2].samplesA, std::uint64_t(3));
    QCOMPARE(f(*t.matched[3].rmsRatio), QByteArrayLiteral("1.0"));
}

void TestComparison::reportJson()
{
    // A paired, eligible comparison: the identity drops implementation_id and pair_id (skipped
    // when absent, as upstream's serde attributes say); receipts, interval and verdict in place.
    const Samples b{100, 104, 98, 101, 107, 99}, c{97, 101, 99, 95, 104, 96};
    const std::string json = comparisonReportJson(compareVerified(cohort("base", b, true), cohort("next", c, true)));
    const std::string zeros(64, '0');
    const std::string head = "{\n  \"schema\": \"candle-graph/comparison/5\",\n  \"metric\": \"outer_wall_time_ns\",\n"
                             "  \"inputs\": {\n    \"verification\": \"verified_bundles\",\n    \"baseline\": [\n"
                             "      {\n        \"run_id\": \"base-0\",\n        \"manifest_sha256\": \""
                             + zeros + "\"\n      },\n";
    QVERIFY2(json.starts_with(head), json.c_str());
    const std::string middle =
        "  \"comparable\": true,\n  \"paired\": true,\n  \"verdict\": \"candidate_faster\",\n"
        "  \"reasons\": [],\n  \"baseline_implementation_id\": \"base\",\n"
        "  \"candidate_implementation_id\": \"next\",\n  \"identity\": {\n"
        "    \"workload_id\": \"infer\",\n    \"model_id\": \"m1\",\n    \"config_id\": \"c1\",\n"
        "    \"data_id\": \"d1\",\n    \"seed_policy\": \"fixed\",\n    \"physical_batch\": 1,\n"
        "    \"accumulation_steps\": 1,\n    \"precision\": \"f32\",\n"
        "    \"device_state\": \"exclusive\"\n  },\n  \"baseline\": {\n    \"samples_ns\": [\n"
        "      100,\n      104,\n      98,\n      101,\n      107,\n      99\n    ],\n"
        "    \"median_ns\": 100.5,\n    \"p95_ns\": 106.25,\n    \"mad_ns\": 2.5\n  },\n";
    QVERIFY2(json.find(middle) != std::string::npos, json.c_str());
    const std::string tail = "  \"median_delta_ns\": -3.0,\n  \"median_delta_percent\": -2.9850746268656714,\n"
                             "  \"confidence_interval\": {\n    \"level\": 0.95,\n    \"lower_delta_ns\": -4.5,\n"
                             "    \"upper_delta_ns\": -1.0\n  },\n  \"tensor_stats\": {\n    \"baseline_runs\": 6,\n"
                             "    \"candidate_runs\": 6,\n    \"matched\": [],\n    \"unmatched_a\": [],\n"
                             "    \"unmatched_b\": []\n  }\n}\n";
    QVERIFY2(json.ends_with(tail), json.c_str());
}

void TestComparison::reportJsonIneligibleNulls()
{
    RunFacts base = run("base", 0, 0);
    base.meta.comparisonIdentity.reset();
    base.tensorStats = {{"x", 0.0, 0.0, 0}};
    RunFacts cand = run("next", 0, 5);
    cand.meta.comparisonIdentity.reset();
    cand.tensorStats = {{"x", 1.5, 3.0, 2}, {"y\"\n\xc3\xa9", 1.0, 1.0, 0}};
    const std::string json = comparisonReportJson(compareRuns({base}, {cand}, ComparisonInputs{}));
    const std::string expected = R"({
  "schema": "candle-graph/comparison/5",
  "metric": "outer_wall_time_ns",
  "inputs": {
    "verification": "unverified_traces",
    "baseline": [],
    "candidate": []
  },
  "comparable": false,
  "paired": false,
  "verdict": "ineligible",
  "reasons": [
    "unverified raw trace inputs are diagnostic only; finalized verified bundles are required for an eligible comparison",
    "at least 5 independent baseline and candidate runs are required",
    "comparison identity is missing",
    "baseline implementation ID is missing",
    "candidate implementation ID is missing"
  ],
  "baseline_implementation_id": null,
  "candidate_implementation_id": null,
  "identity": null,
  "baseline": {
    "samples_ns": [
      0
    ],
    "median_ns": 0.0,
    "p95_ns": 0.0,
    "mad_ns": 0.0
  },
  "candidate": {
    "samples_ns": [
      5
    ],
    "median_ns": 5.0,
    "p95_ns": 5.0,
    "mad_ns": 0.0
  },
  "median_delta_ns": 5.0,
  "median_delta_percent": null,
  "confidence_interval": null,
  "tensor_stats": {
    "baseline_runs": 1,
    "candidate_runs": 1,
    "matched": [
      {
        "label": "x",
        "rms_a": 0.0,
        "rms_b": 1.5,
        "rms_ratio": null,
        "abs_max_ratio": null,
        "non_finite_a": 0,
        "non_finite_b": 2,
        "samples_a": 1,
        "samples_b": 1,
        "runs_a": 1,
        "runs_b": 1
      }
    ],
    "unmatched_a": [],
    "unmatched_b": [
      "y\"\n)"
                                 "\xc3\xa9"
                                 R"("
    ]
  }
}
)";
    QCOMPARE(QString::fromStdString(json), QString::fromStdString(expected));
}

QTEST_APPLESS_MAIN(TestComparison)
#include "tst_comparison.moc"
