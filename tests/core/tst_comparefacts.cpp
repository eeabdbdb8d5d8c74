// SPDX-License-Identifier: MIT
// The engine facts the GUI's A/B comparison adds to the diff (issue #15 items 3 and 4): which
// meta fields make two runs unfair to compare, with upstream's reason texts; both logical
// memory curves on one axis with the peak delta by category; bytes per op group.
#include <QTest>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/spantree.h"
#include "core/diff/fairness.h"
#include "core/diff/memorydiff.h"
#include "core/diff/tracediff.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_CompareFacts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fairness_data();
    void fairness();
    void missingMeta();
    void invalidIdentity_data();
    void invalidIdentity();
    void memoryDiff();
    void memoryCurveKeepsPeak();
    void opGroupBytes();
};

namespace {

TraceMeta baseMeta()
{
    TraceMeta m;
    m.entrypoint = "model::forward";
    m.phase = ExecutionPhase::Infer;
    m.device = "cuda:0";
    m.timingMode = TimingMode::DeviceSynchronized;
    m.measuredRegionDeviceSynchronized = true;
    m.captureStep = 6;
    m.warmupSteps = 5;
    m.captureContract.measurementScope = MeasurementScope::ProductionEquivalent;
    m.captureContract.operations = CoverageLevel::Complete;
    ComparisonIdentity id;
    id.implementationId = "a";
    id.workloadId = "w";
    id.modelId = "m";
    id.configId = "c";
    id.dataId = "d";
    id.seedPolicy = "fixed";
    id.physicalBatch = 8;
    id.accumulationSteps = 1;
    id.precision = "f32";
    id.deviceState = "exclusive";
    m.comparisonIdentity = id;
    return m;
}

using Change = void (*)(TraceMeta &);

std::shared_ptr<const Trace> read(const QByteArray &text)
{
    auto trace = TestFixtures::acceptedTraceFrom(text, QStringLiteral("t.jsonl"));
    if (!trace)
        qFatal("fixture rejected");
    return trace;
}

QByteArray memoryLine(const char *action, const char *storage, int bytes, int ts, const char *category)
{
    return QByteArray("{\"kind\":\"memory\",\"action\":\"") + action + "\",\"storage_id\":\"" + storage
           + "\",\"tensor_id\":\"t" + storage + "\",\"span_id\":\"r\",\"op_name\":null,\"device\":\"cpu\",\"bytes\":"
           + QByteArray::number(bytes) + ",\"shape\":[1],\"dtype\":\"f32\",\"category\":\"" + category
           + "\",\"timestamp_ns\":" + QByteArray::number(ts) + "}\n";
}

std::shared_ptr<const Trace> withMemory(const QByteArray &memory)
{
    QByteArray text = TestFixtures::spansJsonl("r=step*:-:1000:500");
    text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), memory);
    return read(text);
}

} // namespace

Q_DECLARE_METATYPE(Change)

void tst_CompareFacts::fairness_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<QByteArrayList>("fields"); // field or field.member per difference
    QTest::addColumn<QByteArrayList>("values"); // "baseline -> candidate" per difference
    QTest::addColumn<QByteArrayList>("reasons");

    const QByteArray semantics(kCaptureSemanticsReason);
    const QByteArray conditions(kIdentityConditionsReason);
    QTest::newRow("same") << Change([](TraceMeta &) {}) << QByteArrayList() << QByteArrayList() << QByteArrayList();
    QTest::newRow("entrypoint") << Change([](TraceMeta &m) { m.entrypoint = "model::train"; })
                                << QByteArrayList{"entrypoint"} << QByteArrayList{"model::forward -> model::train"}
                                << QByteArrayList{semantics};
    QTest::newRow("phase") << Change([](TraceMeta &m) { m.phase = ExecutionPhase::Train; }) << QByteArrayList{"phase"}
                           << QByteArrayList{"infer -> train"} << QByteArrayList{semantics};
    QTest::newRow("device") << Change([](TraceMeta &m) { m.device = "cuda:1"; }) << QByteArrayList{"device"}
                            << QByteArrayList{"cuda:0 -> cuda:1"} << QByteArrayList{semantics};
    QTest::newRow("timing mode") << Change([](TraceMeta &m) { m.timingMode = TimingMode::Host; })
                                 << QByteArrayList{"timing_mode"} << QByteArrayList{"device_synchronized -> host"}
                                 << QByteArrayList{semantics};
    QTest::newRow("synchronization") << Change([](TraceMeta &m) { m.measuredRegionDeviceSynchronized = false; })
                                     << QByteArrayList{"measured_region_device_synchronized"}
                                     << QByteArrayList{"true -> false"} << QByteArrayList{semantics};
    QTest::newRow("warm-up and capture step") << Change([](TraceMeta &m) {
        m.warmupSteps = 2;
        m.captureStep = 3;
    }) << QByteArrayList{"warmup_steps", "capture_step"}
                                              << QByteArrayList{"5 -> 2", "6 -> 3"} << QByteArrayList{semantics};
    QTest::newRow("capture contract") << Change([](TraceMeta &m) {
        m.captureContract.measurementScope = MeasurementScope::ProfiledWork;
        m.captureContract.requiredSemanticLabels = {"forward"};
    }) << QByteArrayList{"capture_contract.measurement_scope", "capture_contract.required_semantic_labels"}
                                      << QByteArrayList{"production_equivalent -> profiled_work", "[] -> [forward]"}
                                      << QByteArrayList{semantics};
    QTest::newRow("identity conditions") << Change([](TraceMeta &m) {
        m.comparisonIdentity->precision = "bf16";
        m.comparisonIdentity->physicalBatch = 16;
    }) << QByteArrayList{"comparison_identity.physical_batch", "comparison_identity.precision"}
                                         << QByteArrayList{"8 -> 16", "f32 -> bf16"} << QByteArrayList{conditions};
    // The implementation under test and the pairing are what may differ.
    QTest::newRow("implementation and pair ids") << Change([](TraceMeta &m) {
        m.comparisonIdentity->implementationId = "b";
        m.comparisonIdentity->pairId = "p1";
    }) << QByteArrayList() << QByteArrayList() << QByteArrayList();
    QTest::newRow("identity missing in candidate")
        << Change([](TraceMeta &m) { m.comparisonIdentity.reset(); }) << QByteArrayList{"comparison_identity"}
        << QByteArrayList{"present -> (none)"} << QByteArrayList{kIdentityMissingFromSomeReason};
}

void tst_CompareFacts::fairness()
{
    QFETCH(Change, change);
    QFETCH(QByteArrayList, fields);
    QFETCH(QByteArrayList, values);
    QFETCH(QByteArrayList, reasons);

    const TraceMeta baseline = baseMeta();
    TraceMeta candidate = baseMeta();
    change(candidate);
    const FairnessCheck check = FairnessCheck::compare(&baseline, &candidate);
    QByteArrayList gotFields, gotValues, gotReasons;
    for (const FairnessDifference &d : check.differences) {
        std::string f = fairnessFieldName(d.field);
        if (!d.member.empty())
            f += '.' + d.member;
        gotFields << QByteArray::fromStdString(f);
        gotValues << QByteArray::fromStdString(d.baseline + " -> " + d.candidate);
    }
    for (const std::string &r : check.reasons)
        gotReasons << QByteArray::fromStdString(r);
    QCOMPARE(gotFields, fields);
    QCOMPARE(gotValues, values);
    QCOMPARE(gotReasons, reasons);
    QCOMPARE(check.isFair(), fields.isEmpty() && reasons.isEmpty());
}

void tst_CompareFacts::invalidIdentity_data()
{
    QTest::addColumn<Change>("baselineChange");
    QTest::addColumn<Change>("candidateChange");
    QTest::addColumn<QByteArrayList>("reasons");

    const Change none = [](TraceMeta &) {};
    const Change blankModel = [](TraceMeta &m) { m.comparisonIdentity->modelId = "  "; };
    const Change zeroBatch = [](TraceMeta &m) { m.comparisonIdentity->physicalBatch = 0; };
    // Upstream validates the first run's (the baseline's) identity, then stops.
    QTest::newRow("both blank model id") << blankModel << blankModel
                                         << QByteArrayList{"comparison identity is invalid: comparison identity "
                                                           "model_id must not be empty"};
    QTest::newRow("baseline zero batch, candidate valid")
        << zeroBatch << none
        << QByteArrayList{
               "comparison identity is invalid: comparison identity physical_batch must be greater than zero"};
    QTest::newRow("blank implementation id")
        << Change([](TraceMeta &m) { m.comparisonIdentity->implementationId = ""; }) << none
        << QByteArrayList{"comparison identity is invalid: comparison identity implementation_id must not be empty "
                          "when declared"};
    // A valid baseline: the candidate's invalid member is a differing condition.
    QTest::newRow("candidate zero batch") << none << zeroBatch << QByteArrayList{kIdentityConditionsReason};
    // Capture semantics are checked before the identity, as upstream.
    QTest::newRow("semantics and invalid identity")
        << Change([](TraceMeta &m) {
               m.comparisonIdentity->dataId = "";
               m.warmupSteps = 1;
           })
        << none
        << QByteArrayList{kCaptureSemanticsReason,
                          "comparison identity is invalid: comparison identity data_id must not be empty"};
}

void tst_CompareFacts::invalidIdentity()
{
    QFETCH(Change, baselineChange);
    QFETCH(Change, candidateChange);
    QFETCH(QByteArrayList, reasons);

    TraceMeta baseline = baseMeta();
    TraceMeta candidate = baseMeta();
    baselineChange(baseline);
    candidateChange(candidate);
    const FairnessCheck check = FairnessCheck::compare(&baseline, &candidate);
    QByteArrayList got;
    for (const std::string &r : check.reasons)
        got << QByteArray::fromStdString(r);
    QCOMPARE(got, reasons);
    QVERIFY(!check.isFair());
}

void tst_CompareFacts::missingMeta()
{
    const TraceMeta meta = baseMeta();
    const FairnessCheck check = FairnessCheck::compare(&meta, nullptr);
    QCOMPARE(check.differences.size(), std::size_t(1));
    QCOMPARE(check.differences[0].field, FairnessField::Meta);
    QVERIFY(!check.isFair());

    // Neither run declares an identity: no difference between them, but upstream's reason.
    TraceMeta a = baseMeta(), b = baseMeta();
    a.comparisonIdentity.reset();
    b.comparisonIdentity.reset();
    const FairnessCheck none = FairnessCheck::compare(&a, &b);
    QVERIFY(none.differences.empty());
    QCOMPARE(none.reasons, std::vector<std::string>{kIdentityMissingReason});
}

void tst_CompareFacts::memoryDiff()
{
    // Baseline peaks at 300 bytes (100 parameter + 200 activation) 20 ns after its start;
    // the candidate, on a clock 1000 ns later, at 700 bytes (100 + 600) 30 ns after its start.
    const auto baseline =
        withMemory(memoryLine("alloc", "p", 100, 1000, "parameter") + memoryLine("alloc", "a", 200, 1020, "activation")
                   + memoryLine("free", "a", 200, 1040, "activation"));
    QByteArray candidateText = TestFixtures::spansJsonl("r=step*:-:2000:500");
    candidateText.insert(candidateText.lastIndexOf("{\"kind\":\"terminal\""),
                         memoryLine("alloc", "p", 100, 2000, "parameter")
                             + memoryLine("alloc", "a", 600, 2030, "activation"));
    const auto candidate = read(candidateText);
    const MemoryProfile bm = analyzeMemory(*baseline), cm = analyzeMemory(*candidate);
    const MemoryDiff d = MemoryDiff::compute(*baseline, &bm, *candidate, &cm);
    QVERIFY(d.baseline && d.candidate);
    QCOMPARE(d.baseline->originNs, 1000ull);
    QCOMPARE(d.candidate->originNs, 2000ull);
    QCOMPARE(d.baseline->peakBytes, 300ull);
    QCOMPARE(d.baseline->peakOffsetNs, 20ull);
    QCOMPARE(d.candidate->peakBytes, 700ull);
    QCOMPARE(d.candidate->peakOffsetNs, 30ull);
    QCOMPARE(d.peakDeltaBytes(), std::optional<std::int64_t>(400));
    QCOMPARE(d.categoryDeltaBytes(MemoryCategory::Activation), std::optional<std::int64_t>(400));
    QCOMPARE(d.categoryDeltaBytes(MemoryCategory::Parameter), std::optional<std::int64_t>(0));
    QCOMPARE(d.baseline->offsetNs, (std::vector<std::uint64_t>{0, 20, 40}));
    QCOMPARE(d.baseline->liveBytes, (std::vector<std::uint64_t>{100, 300, 100}));

    // A run without memory records has no curve and no delta: absent, not zero.
    const auto plain = read(TestFixtures::spansJsonl("r=step*:-:0:10"));
    const MemoryProfile pm = analyzeMemory(*plain);
    const MemoryDiff none = MemoryDiff::compute(*baseline, &bm, *plain, &pm);
    QVERIFY(none.baseline && !none.candidate);
    QVERIFY(!none.peakDeltaBytes());
}

void tst_CompareFacts::memoryCurveKeepsPeak()
{
    QByteArray memory;
    for (int i = 0; i < 100; ++i)
        memory += memoryLine("alloc", QByteArray::number(i).constData(), i == 57 ? 5000 : 10, 1000 + i, "other")
                  + memoryLine("free", QByteArray::number(i).constData(), i == 57 ? 5000 : 10, 1000 + i, "other");
    // Frees in the same timestamp group as their alloc: the live bytes stay small except
    // at one point, which the reduction to 8 points must keep.
    const auto trace = withMemory(memory);
    const MemoryProfile m = analyzeMemory(*trace);
    const MemoryDiff d = MemoryDiff::compute(*trace, &m, *trace, &m, 8);
    QVERIFY(d.baseline);
    QVERIFY(d.baseline->offsetNs.size() <= 8);
    const std::uint64_t top = *std::max_element(d.baseline->liveBytes.begin(), d.baseline->liveBytes.end());
    QCOMPARE(top, d.baseline->peakBytes);
}

void tst_CompareFacts::opGroupBytes()
{
    auto withOps = [](const QByteArray &ops) {
        QByteArray text = TestFixtures::spansJsonl("r=step*:-:0:100");
        text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), ops);
        return read(text);
    };
    auto op = [](int bytes) -> QByteArray {
        return QByteArray("{\"kind\":\"op\",\"span_id\":\"r\",\"op_name\":\"matmul\",\"inputs\":[],\"output\":\"t\","
                          "\"shape\":[2],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":5,\"timestamp_ns\":1,"
                          "\"input_dense_bytes\":0,\"output_dense_bytes\":")
               + QByteArray::number(bytes) + "}\n";
    };
    const auto a = withOps(op(8) + op(8));
    const auto b = withOps(op(8) + op(8) + op(8));
    const SpanTree ta = SpanTree::build(*a), tb = SpanTree::build(*b);
    const TraceDiff d = TraceDiff::compute(*a, ta, *b, tb);
    QCOMPARE(d.opGroups.size(), std::size_t(1));
    QCOMPARE(d.opGroups[0].baselineBytes, 16ull);
    QCOMPARE(d.opGroups[0].candidateBytes, 24ull);
    QCOMPARE(d.opGroups[0].deltaBytes(), 8ll);
}

QTEST_GUILESS_MAIN(tst_CompareFacts)
#include "tst_comparefacts.moc"
