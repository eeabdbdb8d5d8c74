// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "tests/testutils/evidencefixture.h"
#include "tests/testutils/fixtures.h"
#include "core/analysis/capabilitymatrix.h"
#include "core/itemmodels/capabilitymodel.h"
#include "core/itemmodels/gradientkeymodel.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/tensorstatsmodel.h"
#include "core/itemmodels/tensortablemodel.h"
#include "core/itemmodels/viewcoverage.h"

using namespace TraceInspector;
using namespace Qt::StringLiterals;

class TestEvidenceModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void tensorJoins();
    void tensorModelTester();
    void tensorSort_data();
    void tensorSort();
    void tensorFilter_data();
    void tensorFilter();
    void sortKeepsSelectionThroughFilter();
    void statsLinks();
    void statsModelTester();
    void gradientEvidence();
    void gradientDigestMismatch();
    void gradientModelTester();
    void capabilities_data();
    void capabilities();
    void capabilityGaps();
    void capabilityModelTester();
    void viewCoverageSaysNotCaptured();
    void noMetaIsUnknown();
    void millionTensors();
    void ranksOfSharedStrings();

private:
    LoadedTracePtr m_loaded;
};

namespace {

QStringList column(const QAbstractItemModel &model, int col)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, col).data().toString();
    return out;
}

} // namespace

void TestEvidenceModels::initTestCase()
{
    m_loaded = TestFixtures::loadedSnapshot(TestFixtures::evidenceTrace());
    QVERIFY(m_loaded);
    QCOMPARE(m_loaded->trace->tensors.size(), std::size_t(3));
}

void TestEvidenceModels::tensorJoins()
{
    const TensorEvidence &ev = m_loaded->evidence->tensors;
    QCOMPARE(ev.producingOp, (std::vector<std::uint32_t>{0, 1, TensorEvidence::kNone}));
    QCOMPARE(m_loaded->trace->str(ev.storageId[0]), std::string_view("st1"));
    QCOMPARE(m_loaded->trace->str(ev.storageId[1]), std::string_view("st2"));
    QCOMPARE(ev.storageId[2], kNoString);
    QCOMPARE(ev.allocNs[0], std::uint64_t(30));
    QCOMPARE(ev.freeNs[0], std::uint64_t(700));
    QCOMPARE(ev.freeNs[1], TensorEvidence::kNoTime);
    QCOMPARE(ev.peakNs.value(), std::uint64_t(650));
    QCOMPARE(ev.ageAtPeakNs(0).value(), std::uint64_t(620));
    QCOMPARE(ev.ageAtPeakNs(1).value(), std::uint64_t(0));
    QVERIFY(!ev.ageAtPeakNs(2));
}

void TestEvidenceModels::tensorModelTester()
{
    TensorTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(m_loaded->trace);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(!model.index(0, TensorTableModel::OpColumn).data().isValid()); // evidence not there yet
    model.setTrace(m_loaded->trace, m_loaded->evidence);
    QCOMPARE(model.index(0, TensorTableModel::OpColumn).data().toString(), QStringLiteral("matmul"));
    QCOMPARE(model.index(0, TensorTableModel::StorageColumn).data().toString(), QStringLiteral("st1"));
    QCOMPARE(model.index(1, TensorTableModel::FreeColumn).data().toString(), QStringLiteral("live at end"));
    QCOMPARE(model.index(1, TensorTableModel::RequiresGradColumn).data().toString(), QStringLiteral("yes"));
    QCOMPARE(model.index(0, TensorTableModel::BytesColumn).data(BytesRole).toULongLong(), 24ULL);
    QCOMPARE(model.index(0, 0).data(SpanIndexRole).toLongLong(), m_loaded->trace->findSpan(std::string_view("s-a")));
    QCOMPARE(model.index(0, 0).data(OpIndexRole).toLongLong(), 0LL);
    QCOMPARE(model.index(2, 0).data(OpIndexRole).toLongLong(), -1LL);
    model.sort(TensorTableModel::BytesColumn, Qt::DescendingOrder);
    model.setFilterText(QStringLiteral("mlp"));
    model.sort(-1);
    model.setFilterText({});
    model.setTrace(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestEvidenceModels::tensorSort_data()
{
    QTest::addColumn<int>("col");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("ids");
    QTest::newRow("bytes asc") << int(TensorTableModel::BytesColumn) << int(Qt::AscendingOrder)
                               << QStringList{u"t2"_s, u"t3"_s, u"t1"_s};
    QTest::newRow("bytes desc") << int(TensorTableModel::BytesColumn) << int(Qt::DescendingOrder)
                                << QStringList{u"t1"_s, u"t2"_s, u"t3"_s};
    QTest::newRow("label asc") << int(TensorTableModel::LabelColumn) << int(Qt::AscendingOrder)
                               << QStringList{u"t1"_s, u"t2"_s, u"t3"_s};
    QTest::newRow("label desc") << int(TensorTableModel::LabelColumn) << int(Qt::DescendingOrder)
                                << QStringList{u"t3"_s, u"t2"_s, u"t1"_s};
    QTest::newRow("alloc asc, none last")
        << int(TensorTableModel::AllocColumn) << int(Qt::AscendingOrder) << QStringList{u"t1"_s, u"t2"_s, u"t3"_s};
    QTest::newRow("alloc desc, none first")
        << int(TensorTableModel::AllocColumn) << int(Qt::DescendingOrder) << QStringList{u"t3"_s, u"t2"_s, u"t1"_s};
    QTest::newRow("age at peak desc") << int(TensorTableModel::AgeAtPeakColumn) << int(Qt::DescendingOrder)
                                      << QStringList{u"t3"_s, u"t1"_s, u"t2"_s};
    QTest::newRow("category asc") << int(TensorTableModel::CategoryColumn) << int(Qt::AscendingOrder)
                                  << QStringList{u"t1"_s, u"t3"_s, u"t2"_s};
    QTest::newRow("shape by elements") << int(TensorTableModel::ShapeColumn) << int(Qt::AscendingOrder)
                                       << QStringList{u"t2"_s, u"t1"_s, u"t3"_s};
    QTest::newRow("op, none last") << int(TensorTableModel::OpColumn) << int(Qt::AscendingOrder)
                                   << QStringList{u"t2"_s, u"t1"_s, u"t3"_s};
}

void TestEvidenceModels::tensorSort()
{
    QFETCH(int, col);
    QFETCH(int, order);
    QFETCH(QStringList, ids);
    TensorTableModel model;
    model.setTrace(m_loaded->trace, m_loaded->evidence);
    model.sort(col, Qt::SortOrder(order));
    QCOMPARE(column(model, TensorTableModel::IdColumn), ids);
}

void TestEvidenceModels::tensorFilter_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QStringList>("ids");
    QTest::newRow("empty") << QString() << QStringList{u"t1"_s, u"t2"_s, u"t3"_s};
    QTest::newRow("label") << u"ATTN"_s << QStringList{u"t1"_s};
    QTest::newRow("span name") << u"mlp"_s << QStringList{u"t2"_s, u"t3"_s};
    QTest::newRow("producing op") << u"matmul"_s << QStringList{u"t1"_s};
    QTest::newRow("storage") << u"st2"_s << QStringList{u"t2"_s};
    QTest::newRow("category") << u"parameter"_s << QStringList{u"t2"_s};
    QTest::newRow("dtype") << u"u8"_s << QStringList{u"t3"_s};
    QTest::newRow("nothing") << u"zzz"_s << QStringList{};
}

void TestEvidenceModels::tensorFilter()
{
    QFETCH(QString, filter);
    QFETCH(QStringList, ids);
    TensorTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(m_loaded->trace, m_loaded->evidence);
    model.setFilterText(filter);
    QCOMPARE(column(model, TensorTableModel::IdColumn), ids);
    QCOMPARE(model.totalRecords(), std::size_t(3));
    // A filter survives a new snapshot of the same trace.
    model.setTrace(m_loaded->trace, m_loaded->evidence);
    QCOMPARE(column(model, TensorTableModel::IdColumn), ids);
}

void TestEvidenceModels::sortKeepsSelectionThroughFilter()
{
    TensorTableModel model;
    model.setTrace(m_loaded->trace, m_loaded->evidence);
    const QPersistentModelIndex t2 = model.index(1, TensorTableModel::LabelColumn);
    model.sort(TensorTableModel::BytesColumn, Qt::AscendingOrder);
    QCOMPARE(t2.row(), 0);
    QCOMPARE(t2.data().toString(), QStringLiteral("mlp.out"));
    model.setFilterText(QStringLiteral("attn"));
    QVERIFY(!t2.isValid());
    QCOMPARE(model.rowOfRecord(1), -1);
    QCOMPARE(model.rowOfRecord(0), 0);
}

void TestEvidenceModels::statsLinks()
{
    const TensorEvidence &ev = m_loaded->evidence->tensors;
    QCOMPARE(ev.statsTensor, (std::vector<std::uint32_t>{0, 1, TensorEvidence::kNone}));
    QCOMPARE(ev.statsOp, (std::vector<std::uint32_t>{0, 1, 1}));
    QCOMPARE(ev.statsOpByShape, (std::vector<std::uint8_t>{0, 0, 1}));
    const auto &v = m_loaded->evidence->tensorStats;
    QCOMPARE(v[1].flags, std::uint8_t(NonFiniteValues));
    QCOMPARE(v[0].flags, std::uint8_t(0));
    QCOMPARE(v[2].flags, std::uint8_t(0));
}

void TestEvidenceModels::statsModelTester()
{
    TensorStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(m_loaded->trace);
    QVERIFY(!model.hasVerdicts());
    QCOMPARE(model.rowCount(), 3);
    model.setTrace(m_loaded->trace, m_loaded->evidence);
    QCOMPARE(model.flaggedCount(), std::size_t(1));
    model.sort(TensorStatsModel::ScoreColumn, Qt::DescendingOrder);
    QCOMPARE(column(model, TensorStatsModel::LabelColumn), (QStringList{u"mlp.out"_s, u"loose"_s, u"attn.out"_s}));
    QCOMPARE(model.index(0, TensorStatsModel::FlagsColumn).data().toString(), QStringLiteral("non-finite"));
    QCOMPARE(model.index(0, TensorStatsModel::FlagsColumn).data(SeverityRole).toInt(), int(Severity::Error));
    QCOMPARE(model.index(0, TensorStatsModel::OpColumn).data().toString(), QStringLiteral("add"));
    QCOMPARE(model.index(0, 0).data(SpanIndexRole).toLongLong(), m_loaded->trace->findSpan(std::string_view("s-b")));
    QCOMPARE(model.index(2, 0).data(OpIndexRole).toLongLong(), 0LL);
    model.setFilterText(QStringLiteral("non-finite"));
    QCOMPARE(column(model, TensorStatsModel::LabelColumn), (QStringList{u"mlp.out"_s}));
    model.setFilterText(QStringLiteral("attention"));
    QCOMPARE(column(model, TensorStatsModel::LabelColumn), (QStringList{u"attn.out"_s}));
    model.setFilterText({});
    for (int c = 0; c < TensorStatsModel::ColumnCount; ++c) {
        model.sort(c, Qt::AscendingOrder);
        QCOMPARE(model.rowCount(), 3);
    }
}

void TestEvidenceModels::gradientEvidence()
{
    const GradientEvidence &g = m_loaded->evidence->gradients;
    QCOMPARE(g.keys.size(), std::size_t(5));
    QStringList keys;
    for (const auto &k : g.keys)
        keys << QString::fromStdString(k.key);
    QCOMPARE(keys, (QStringList{u"w1"_s, u"w2"_s, u"w3"_s, u"w9"_s, u"w4"_s}));
    QCOMPARE(g.keys[0].state, std::optional(GradientState::Present));
    QCOMPARE(g.keys[1].state, std::optional(GradientState::Zero));
    QCOMPARE(g.keys[2].state, std::optional(GradientState::NonFinite));
    QVERIFY(!g.keys[4].state);
    QVERIFY(!g.keys[3].inManifest);
    QCOMPARE(g.keys[0].family, std::string("core"));
    QVERIFY(g.declared == CoverageLevel::Complete);
    QVERIFY(g.hasContract);
    QVERIFY(g.digest && g.digest->matches());
    QCOMPARE(g.families.size(), std::size_t(1));
    QCOMPARE(g.families[0].members, std::uint64_t(4));
    QCOMPARE(g.families[0].observed, std::uint64_t(3));
    QCOMPARE(g.families[0].present, std::uint64_t(1));
    const auto codes = [&](std::size_t k) {
        QStringList out;
        for (const std::uint32_t f : g.keys[k].findings)
            out << QString::fromStdString(m_loaded->health->findings[f].code);
        return out;
    };
    QCOMPARE(codes(3), (QStringList{u"gradient_manifest_undeclared_key"_s}));
    QCOMPARE(codes(4), (QStringList{u"gradient_manifest_missing_key"_s, u"gradient_family_non_finite"_s}));
    QCOMPARE(codes(0), (QStringList{u"gradient_family_non_finite"_s}));
    QCOMPARE(g.families[0].findings.size(), std::size_t(1));
    QVERIFY(g.contractFindings.empty());
}

void TestEvidenceModels::gradientDigestMismatch()
{
    const auto loaded = TestFixtures::loadedSnapshot(
        TestFixtures::evidenceTrace("sha256:0000000000000000000000000000000000000000000000000000000000000000"));
    QVERIFY(loaded);
    const GradientEvidence &g = loaded->evidence->gradients;
    QVERIFY(g.digest);
    QVERIFY(!g.digest->matches());
    QCOMPARE(g.digest->computed,
             gradientManifestDigest(loaded->trace->meta->captureContract.gradientContract->expected));
    // The invalid contract stops the manifest checks: its finding concerns the whole contract.
    QCOMPARE(g.contractFindings.size(), std::size_t(1));
    QCOMPARE(loaded->health->findings[g.contractFindings[0]].code, std::string("gradient_contract_invalid"));
}

void TestEvidenceModels::gradientModelTester()
{
    GradientKeyModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setEvidence(m_loaded->trace, m_loaded->evidence, m_loaded->health);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(column(model, GradientKeyModel::StateColumn),
             (QStringList{u"present"_s, u"zero"_s, u"non-finite"_s, u"present"_s, u"not captured"_s}));
    model.sort(GradientKeyModel::StateColumn, Qt::AscendingOrder);
    QCOMPARE(column(model, GradientKeyModel::KeyColumn), (QStringList{u"w4"_s, u"w3"_s, u"w2"_s, u"w1"_s, u"w9"_s}));
    model.sort(GradientKeyModel::NormColumn, Qt::DescendingOrder);
    QCOMPARE(column(model, GradientKeyModel::KeyColumn).mid(2), (QStringList{u"w9"_s, u"w1"_s, u"w2"_s}));
    model.setFilterText(QStringLiteral("not captured"));
    QCOMPARE(column(model, GradientKeyModel::KeyColumn), (QStringList{u"w4"_s}));
    QCOMPARE(model.findingTexts(4).size(), 2);
    model.setFilterText({});
    QCOMPARE(model.index(0, 0).data(SpanIndexRole).toLongLong(), -1LL);
    model.setEvidence(nullptr, nullptr, nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestEvidenceModels::capabilities_data()
{
    QTest::addColumn<int>("plane");
    QTest::addColumn<int>("level");
    QTest::addColumn<quint64>("records");
    QTest::addColumn<bool>("mismatch");
    QTest::newRow("spans have no contract level")
        << int(EvidencePlane::Spans) << int(CapabilityLevel::Unknown) << 3ULL << false;
    QTest::newRow("operations complete") << int(EvidencePlane::Operations) << int(CapabilityLevel::Complete) << 2ULL
                                         << false;
    QTest::newRow("tensors partial") << int(EvidencePlane::Tensors) << int(CapabilityLevel::Partial) << 3ULL << false;
    QTest::newRow("tensor stats unknown")
        << int(EvidencePlane::TensorStats) << int(CapabilityLevel::Unknown) << 3ULL << false;
    QTest::newRow("gradients complete") << int(EvidencePlane::Gradients) << int(CapabilityLevel::Complete) << 4ULL
                                        << false;
    QTest::newRow("logical memory complete")
        << int(EvidencePlane::LogicalMemory) << int(CapabilityLevel::Complete) << 3ULL << false;
    QTest::newRow("physical memory absent, declared none")
        << int(EvidencePlane::PhysicalMemory) << int(CapabilityLevel::Absent) << 0ULL << false;
    QTest::newRow("device timing declared partial, absent")
        << int(EvidencePlane::DeviceTiming) << int(CapabilityLevel::Absent) << 0ULL << true;
    QTest::newRow("no edges") << int(EvidencePlane::DataEdges) << int(CapabilityLevel::Absent) << 0ULL << false;
}

void TestEvidenceModels::capabilities()
{
    QFETCH(int, plane);
    QFETCH(int, level);
    QFETCH(quint64, records);
    QFETCH(bool, mismatch);
    const PlaneCapability &p = m_loaded->evidence->capabilities.plane(EvidencePlane(plane));
    QCOMPARE(int(p.level), level);
    QCOMPARE(p.records, records);
    QCOMPARE(p.contractMismatch, mismatch);
}

void TestEvidenceModels::capabilityGaps()
{
    QStringList codes;
    for (const EvidenceGap &gap : m_loaded->evidence->capabilities.gaps)
        codes << QString::fromStdString(gap.code);
    QCOMPARE(codes, (QStringList{u"retained_allocations"_s, u"physical_memory_absent"_s, u"device_timing_absent"_s,
                                 u"declared_not_captured"_s}));
    const EvidenceGap &last = m_loaded->evidence->capabilities.gaps.back();
    QVERIFY(last.plane == EvidencePlane::DeviceTiming);
}

void TestEvidenceModels::capabilityModelTester()
{
    CapabilityModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setEvidence(m_loaded->evidence);
    QCOMPARE(model.rowCount(), int(kEvidencePlaneCount));
    const int row = int(EvidencePlane::DeviceTiming);
    QCOMPARE(model.index(row, CapabilityModel::LevelColumn).data().toString(), QStringLiteral("not captured"));
    QCOMPARE(model.index(row, CapabilityModel::DeclaredColumn).data().toString(), QStringLiteral("partial"));
    QCOMPARE(model.index(row, CapabilityModel::NoteColumn).data().toString(),
             QStringLiteral("declared but not captured"));
    QCOMPARE(model.index(row, 0).data(CapabilityModel::LevelRole).toInt(), int(CapabilityLevel::Absent));
    model.setEvidence(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestEvidenceModels::viewCoverageSaysNotCaptured()
{
    const CapabilityMatrix &m = m_loaded->evidence->capabilities;
    const ViewCoverage device = ViewCoverageText::coverage(m, InspectorView::DeviceTime);
    QVERIFY(!device.captured);
    QCOMPARE(device.text, QStringLiteral("Not captured"));
    QVERIFY2(device.detail.contains(QStringLiteral("none captured"))
                 && device.detail.contains(QStringLiteral("declared partial")),
             qPrintable(device.detail));
    const ViewCoverage tensors = ViewCoverageText::coverage(m, InspectorView::Tensors);
    QVERIFY(tensors.captured);
    QCOMPARE(tensors.text, QStringLiteral("Captured: partial"));
    const ViewCoverage memory = ViewCoverageText::coverage(m, InspectorView::MemoryChart);
    QCOMPARE(memory.text, QStringLiteral("Captured: complete"));
    QVERIFY(memory.detail.contains(QStringLiteral("Physical memory: none captured")));
}

void TestEvidenceModels::noMetaIsUnknown()
{
    // A tolerant load of a stream without a meta record still fills the matrix.
    const QByteArray jsonl =
        "{\"kind\":\"span_start\",\"id\":\"s\",\"name\":\"s\",\"start_ns\":0,\"span_kind\":\"function\"}\n"
        "{\"kind\":\"op\",\"span_id\":\"s\",\"op_name\":\"x\",\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\","
        "\"duration_ns\":1,\"input_dense_bytes\":0}\n";
    const auto trace =
        TraceReader::readBytes(std::string_view(jsonl.constData(), std::size_t(jsonl.size())), "x.jsonl").trace;
    QVERIFY(trace);
    const CapabilityMatrix m = analyzeCapabilities(*trace, nullptr);
    QVERIFY(!m.hasMeta);
    QCOMPARE(m.plane(EvidencePlane::Operations).level, CapabilityLevel::Unknown);
    QCOMPARE(m.plane(EvidencePlane::Tensors).level, CapabilityLevel::Absent);
    const GradientEvidence g = analyzeGradientEvidence(*trace, nullptr);
    QVERIFY(!g.declared);
    QVERIFY(g.keys.empty());
}

void TestEvidenceModels::ranksOfSharedStrings()
{
    // One string as a tensor id, a label, a storage id and a span id: the rank passes share
    // a scratch array, and each must leave it as it found it.
    QByteArray text = TestFixtures::kMeta;
    text += "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"s\",\"start_ns\":0,\"span_kind\":\"function\","
            "\"measured\":true}\n"
            "{\"kind\":\"span_start\",\"id\":\"t2\",\"parent_id\":\"s1\",\"name\":\"t\",\"start_ns\":1,"
            "\"span_kind\":\"function\"}\n";
    const auto tensor = [&text](const char *span, const char *id, const char *label) {
        text += QByteArray("{\"kind\":\"tensor\",\"span_id\":\"") + span + "\",\"tensor_id\":\"" + id
                + "\",\"label\":\"" + label + "\",\"shape\":[1],\"dtype\":\"f32\",\"device\":\"cpu\"}\n";
    };
    tensor("s1", "t2", "st9");
    tensor("t2", "st9", "t2");
    tensor("nospan", "zz", "aa");
    const auto alloc = [&text](int ts, const char *storage, const char *id) {
        text += "{\"kind\":\"memory\",\"timestamp_ns\":" + QByteArray::number(ts) + ",\"storage_id\":\"" + storage
                + "\",\"tensor_id\":\"" + id + "\",\"span_id\":\"s1\",\"device\":\"cpu\",\"bytes\":4,"
                + "\"action\":\"alloc\",\"dtype\":\"f32\"}\n";
    };
    alloc(10, "zz", "t2");
    alloc(20, "t2", "st9");
    text +=
        "{\"kind\":\"span_end\",\"id\":\"t2\",\"duration_ns\":5}\n{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":"
        "30}\n{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":40}\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("shared.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(text), qint64(text.size()));
    file.close();
    const auto loaded =
        TestFixtures::loadedSnapshot(TraceReader::readFile(QFile::encodeName(path).toStdString()).trace);
    QVERIFY(loaded);
    const TensorEvidence &ev = loaded->evidence->tensors;
    const std::uint32_t none = TensorEvidence::kNone;
    QCOMPARE(ev.idRank, (std::vector<std::uint32_t>{1, 0, 2}));         // st9 < t2 < zz
    QCOMPARE(ev.labelRank, (std::vector<std::uint32_t>{1, 2, 0}));      // aa < st9 < t2
    QCOMPARE(ev.storageRank, (std::vector<std::uint32_t>{1, 0, none})); // t2 < zz
    const Trace &trace = *loaded->trace;
    QCOMPARE(ev.spanIndex, (std::vector<std::uint32_t>{std::uint32_t(trace.findSpan(std::string_view("s1"))),
                                                       std::uint32_t(trace.findSpan(std::string_view("t2"))), none}));
}

void TestEvidenceModels::millionTensors()
{
    // A big tensor table: 100 000 generated rows here (a shared 2-core CI machine), or the
    // trace named by TI_EVIDENCE_BENCH_FILE (e.g. a million tensor records) for the figures.
    // Sorting and filtering must not take seconds; the bound is generous but catches a
    // quadratic or QVariant-per-row regression.
    const QString benchFile = qEnvironmentVariable("TI_EVIDENCE_BENCH_FILE");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path = benchFile;
    int expected = -1;
    if (path.isEmpty()) {
        constexpr int kTensors = 100'000;
        QByteArray text = TestFixtures::kMeta;
        text +=
            "{\"kind\":\"span_start\",\"id\":\"s\",\"name\":\"s\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n";
        expected = 0;
        for (int i = 0; i < kTensors; ++i) {
            const QByteArray label = "layer" + QByteArray::number(i % 977);
            expected += label.contains("layer97") ? 1 : 0;
            text += "{\"kind\":\"tensor\",\"span_id\":\"s\",\"tensor_id\":\"t" + QByteArray::number(i)
                    + "\",\"label\":\"" + label + "\",\"shape\":[" + QByteArray::number(1 + (i * 7919) % 4096)
                    + "],\"dtype\":\"f32\",\"device\":\"cpu\"}\n";
        }
        text +=
            "{\"kind\":\"span_end\",\"id\":\"s\",\"duration_ns\":1}\n{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":10}\n";
        path = dir.filePath(QStringLiteral("tensors.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(text), qint64(text.size()));
    }
    QElapsedTimer build;
    build.start();
    const auto loaded =
        TestFixtures::loadedSnapshot(TraceReader::readFile(QFile::encodeName(path).toStdString()).trace);
    QVERIFY(loaded);
    qInfo("%zu tensors loaded and analysed in %lld ms", loaded->trace->tensors.size(), build.restart());
    TensorTableModel model;
    QElapsedTimer clock;
    clock.start();
    model.setTrace(loaded->trace, loaded->evidence);
    const qint64 setMs = clock.restart();
    model.sort(TensorTableModel::BytesColumn, Qt::DescendingOrder);
    const qint64 bytesMs = clock.restart();
    model.sort(TensorTableModel::LabelColumn, Qt::AscendingOrder);
    const qint64 labelMs = clock.restart();
    model.sort(TensorTableModel::IdColumn, Qt::AscendingOrder);
    const qint64 idMs = clock.restart();
    model.setFilterText(QStringLiteral("layer97"));
    const qint64 filterMs = clock.restart();
    qInfo("%zu tensors: set %lld ms, sort bytes %lld ms, label %lld ms, id %lld ms, filter %lld ms (%d rows)",
          loaded->trace->tensors.size(), setMs, bytesMs, labelMs, idMs, filterMs, model.rowCount());
    if (expected >= 0)
        QCOMPARE(model.rowCount(), expected);
    QVERIFY2(bytesMs < 1000 && labelMs < 1000 && idMs < 1000 && filterMs < 2000,
             "a million rows must not take seconds");
}

QTEST_GUILESS_MAIN(TestEvidenceModels)
#include "tst_evidencemodels.moc"
