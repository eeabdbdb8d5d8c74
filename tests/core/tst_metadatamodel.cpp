// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QFile>
#include <QLocale>
#include <QTest>

#include "core/io/tracereader.h"
#include "core/itemmodels/metadatamodel.h"

using namespace TraceInspector;

namespace {

std::shared_ptr<const Trace> readExample(const char *name)
{
    const std::string path = std::string(TI_EXAMPLES_DIR "/") + name;
    ReadResult r = TraceReader::readFile(path);
    return r.trace;
}

/// The value in column 1 of the child named \a field under the top-level \a group, or a null
/// QString when there is no such row.
QString valueOf(const MetadataModel &model, const QString &group, const QString &field)
{
    const QModelIndex g = model.groupIndex(group);
    if (!g.isValid())
        return {};
    for (int r = 0; r < model.rowCount(g); ++r) {
        if (model.index(r, MetadataModel::FieldColumn, g).data().toString() == field)
            return model.index(r, MetadataModel::ValueColumn, g).data().toString();
    }
    return {};
}

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

} // namespace

class TestMetadataModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tester();
    void fields_data();
    void fields();
    void comparisonIdentity();
    void withoutMeta();
    void longUnsupportedSchema();
};

void TestMetadataModel::tester()
{
    MetadataModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(readExample("01_valid_trace10_forward.jsonl"));
    QVERIFY(model.rowCount() >= 5);
    model.setTrace(readExample("02_valid_trace9_train.jsonl"));
    model.setTrace(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestMetadataModel::fields_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");

    QTest::newRow("schema") << S("Run") << S("schema") << S("candle-graph/trace/10");
    QTest::newRow("run id") << S("Run") << S("run_id") << S("run-2026-08-04-0001");
    QTest::newRow("entrypoint") << S("Run") << S("entrypoint") << S("model::forward");
    QTest::newRow("phase") << S("Run") << S("phase") << S("infer");
    QTest::newRow("device synchronized") << S("Run") << S("measured_region_device_synchronized") << S("true");
    QTest::newRow("scope") << S("Capture contract") << S("measurement_scope") << S("profiled_work");
    QTest::newRow("operations") << S("Capture contract") << S("operations") << S("complete");
    QTest::newRow("tensors") << S("Capture contract") << S("tensors") << S("partial");
    QTest::newRow("required labels") << S("Capture contract") << S("required_semantic_labels") << S("1 label");
    QTest::newRow("no gradient contract") << S("Capture contract") << S("gradient_contract") << S("— (not declared)");
    QTest::newRow("tag") << S("Tags") << S("model") << S("bert-base-uncased");
    QTest::newRow("terminal outcome") << S("Terminal") << S("outcome") << S("complete");
    QTest::newRow("terminal without reason") << S("Terminal") << S("reason") << S("— (not declared)");
    QTest::newRow("file lines") << S("File") << S("lines") << S("16");
}

void TestMetadataModel::fields()
{
    QFETCH(QString, group);
    QFETCH(QString, field);
    QFETCH(QString, value);
    MetadataModel model;
    model.setTrace(readExample("01_valid_trace10_forward.jsonl"));
    QCOMPARE(valueOf(model, group, field), value);
}

void TestMetadataModel::comparisonIdentity()
{
    MetadataModel model;
    model.setTrace(readExample("02_valid_trace9_train.jsonl"));
    QCOMPARE(valueOf(model, QStringLiteral("Run"), QStringLiteral("schema")), QStringLiteral("candle-graph/trace/9"));
    QVERIFY(!valueOf(model, QStringLiteral("Comparison identity"), QStringLiteral("workload_id")).isEmpty());
    QVERIFY(!valueOf(model, QStringLiteral("Comparison identity"), QStringLiteral("physical_batch")).isEmpty());
}

void TestMetadataModel::withoutMeta()
{
    MetadataModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ReadResult r = TraceReader::readBytes(
        "{\"kind\":\"span_start\",\"id\":\"a\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n",
        "nometa.jsonl");
    QVERIFY(r.trace);
    model.setTrace(r.trace);
    const QModelIndex run = model.groupIndex(QStringLiteral("Run"));
    QVERIFY(run.isValid());
    QCOMPARE(model.rowCount(run), 0);
    QVERIFY(model.index(run.row(), MetadataModel::ValueColumn)
                .data()
                .toString()
                .contains(QStringLiteral("No meta record")));
    QVERIFY(model.index(model.groupIndex(QStringLiteral("Terminal")).row(), MetadataModel::ValueColumn)
                .data()
                .toString()
                .contains(QStringLiteral("No terminal record")));
    QVERIFY(!model.groupIndex(QStringLiteral("Tags")).isValid());
}

QTEST_GUILESS_MAIN(TestMetadataModel)
void TestMetadataModel::longUnsupportedSchema()
{
    // A 100 000-byte unsupported schema is quoted whole by the rejection, which takes it over:
    // the meta keeps its first 65 536 bytes, and the view says where the rest is.
    const std::string example = [] {
        QFile f(QStringLiteral(TI_EXAMPLES_DIR "/01_valid_trace10_forward.jsonl"));
        return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
    }();
    const std::size_t at = example.find("candle-graph/trace/10");
    QVERIFY(at != std::string::npos);
    std::string text = example;
    text.replace(at, 21, std::string(100000, 's'));
    ReadResult r = TraceReader::readBytes(text, "schema.jsonl");
    QVERIFY(r.strictError && r.trace && r.trace->meta);
    QCOMPARE(r.trace->meta->schemaBytesNotKept, std::uint64_t(100000 - 65536));
    MetadataModel model;
    model.setTrace(r.trace);
    const QString value = valueOf(model, QStringLiteral("Run"), QStringLiteral("schema"));
    QVERIFY(value.startsWith(QString(65536, u's') + QStringLiteral("… [")));
    QVERIFY2(
        value.endsWith(QStringLiteral(" more bytes: the rejection (E-SCHEMA-UNSUPPORTED) quotes the whole schema]")),
        qPrintable(value.right(120)));
    QVERIFY(value.contains(QLocale::system().toString(qulonglong(100000 - 65536))));
}

#include "tst_metadatamodel.moc"
