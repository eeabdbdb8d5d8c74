// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include "core/analysis/health.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/loadedtrace.h"
#include "ui/validationpanel.h"

using namespace TraceInspector;

namespace {

// Root `a` (closed, measured), child `b` never closed (H-SPAN-UNCLOSED), an op in `a` and an
// op in the unknown span `ghost` (H-UNKNOWN-SPAN), a span_end for an unknown span (rejected:
// E-SPAN-END-UNKNOWN) and a line that is not JSON (E-LINE-PARSE).
const char *kTrace = R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}}
{"kind":"span_start","id":"a","name":"root","start_ns":0,"span_kind":"function","measured":true}
{"kind":"span_start","id":"b","parent_id":"a","name":"child","start_ns":10,"span_kind":"module"}
{"kind":"op","span_id":"a","op_name":"matmul","shape":[2,2],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":20,"input_dense_bytes":32}
{"kind":"op","span_id":"ghost","op_name":"add","shape":[2],"dtype":"f32","device":"cpu","duration_ns":1,"timestamp_ns":30,"input_dense_bytes":16}
{"kind":"span_end","id":"nope","duration_ns":1}
{"kind":"span_end","id":"a","duration_ns":100}
this is not json
{"kind":"terminal","outcome":"complete","timestamp_ns":200}
)";

LoadedTracePtr load(bool withHealth)
{
    ReadResult r = TraceReader::readBytes(kTrace, "panel.jsonl");
    auto loaded = std::make_shared<LoadedTrace>();
    loaded->generation = 1;
    loaded->path = QStringLiteral("panel.jsonl");
    loaded->trace = r.trace;
    loaded->readProblems = std::make_shared<const std::vector<Problem>>(std::move(r.problems));
    loaded->strictError = r.strictError;
    if (withHealth) {
        loaded->health = std::make_shared<const HealthReport>(analyzeHealth(*loaded->trace));
        loaded->stage = LoadStage::Health;
    }
    return loaded;
}

int findRow(const QAbstractItemModel *model, const QString &rule)
{
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, ValidationIssueModel::RuleColumn).data().toString() == rule)
            return r;
    }
    return -1;
}

} // namespace

class TestValidationPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsReaderThenHealth();
    void activationSelectsRelated_data();
    void activationSelectsRelated();
    void filterIsDebounced();
    void severityFilter();
    void clearEmptiesThePanel();
};

void TestValidationPanel::showsReaderThenHealth()
{
    ValidationPanel panel;
    QAbstractItemModelTester modelTester(panel.issueModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy counts(&panel, &ValidationPanel::countsChanged);
    panel.show();

    const LoadedTracePtr readOnly = load(false);
    QVERIFY(readOnly->strictError);
    panel.setLoadedTrace(readOnly);
    const int readerRows = int(readOnly->readProblems->size());
    QVERIFY(readerRows >= 2);
    QCOMPARE(panel.issueModel()->rowCount(), readerRows);
    QVERIFY(findRow(panel.issueModel(), QStringLiteral("E-LINE-PARSE")) >= 0);
    QVERIFY(findRow(panel.issueModel(), QStringLiteral("E-SPAN-END-UNKNOWN")) >= 0);

    // The health stage of the same load adds its findings below the reader's problems.
    auto withHealth = std::make_shared<LoadedTrace>(*readOnly);
    withHealth->health = std::make_shared<const HealthReport>(analyzeHealth(*withHealth->trace));
    withHealth->stage = LoadStage::Health;
    panel.setLoadedTrace(withHealth);
    QCOMPARE(panel.issueModel()->rowCount(), readerRows + int(withHealth->health->findings.size()));
    QVERIFY(findRow(panel.issueModel(), QStringLiteral("H-SPAN-UNCLOSED")) >= readerRows);
    QVERIFY(findRow(panel.issueModel(), QStringLiteral("H-UNKNOWN-SPAN")) >= readerRows);
    QVERIFY(counts.count() >= 2);
    QCOMPARE(counts.last().at(0).toInt(), panel.issueModel()->errorCount());
}

void TestValidationPanel::activationSelectsRelated_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<qint64>("span");
    QTest::addColumn<qint64>("op");

    // Spans sorted by id: a = 0, b = 1; ops in stream order.
    QTest::newRow("unclosed span") << QStringLiteral("H-SPAN-UNCLOSED") << qint64(1) << qint64(-1);
    QTest::newRow("op in unknown span") << QStringLiteral("H-UNKNOWN-SPAN") << qint64(-1) << qint64(1);
}

void TestValidationPanel::activationSelectsRelated()
{
    QFETCH(QString, rule);
    QFETCH(qint64, span);
    QFETCH(qint64, op);

    ValidationPanel panel;
    panel.setLoadedTrace(load(true));
    QSignalSpy spans(&panel, &ValidationPanel::spanRequested);
    QSignalSpy ops(&panel, &ValidationPanel::opRequested);
    const int row = findRow(panel.proxyModel(), rule);
    QVERIFY2(row >= 0, qPrintable(rule));
    Q_EMIT panel.view()->activated(panel.proxyModel()->index(row, ValidationIssueModel::MessageColumn));
    QCOMPARE(spans.count(), span >= 0 ? 1 : 0);
    if (span >= 0)
        QCOMPARE(spans.at(0).at(0).toLongLong(), span);
    QCOMPARE(ops.count(), op >= 0 ? 1 : 0);
    if (op >= 0)
        QCOMPARE(ops.at(0).at(0).toLongLong(), op);
}

void TestValidationPanel::filterIsDebounced()
{
    ValidationPanel panel;
    panel.setLoadedTrace(load(true));
    const int all = panel.proxyModel()->rowCount();
    QVERIFY(all > 2);
    panel.filterEdit()->setText(QStringLiteral("not closed"));
    // Not applied while the user is typing...
    QCOMPARE(panel.proxyModel()->rowCount(), all);
    // ...but shortly after.
    QTRY_COMPARE(panel.proxyModel()->rowCount(), 1);
    QCOMPARE(panel.proxyModel()->index(0, ValidationIssueModel::RuleColumn).data().toString(),
             QStringLiteral("H-SPAN-UNCLOSED"));
    panel.filterEdit()->clear();
    QTRY_COMPARE(panel.proxyModel()->rowCount(), all);
}

void TestValidationPanel::severityFilter()
{
    ValidationPanel panel;
    panel.setLoadedTrace(load(true));
    panel.proxyModel()->setSeverityFilter(ValidationFilterProxyModel::SeverityFilter::Errors);
    for (int r = 0; r < panel.proxyModel()->rowCount(); ++r)
        QCOMPARE(panel.proxyModel()->index(r, 0).data(SeverityRole).toInt(), int(Severity::Error));
    QCOMPARE(panel.proxyModel()->rowCount(), panel.issueModel()->errorCount());
}

void TestValidationPanel::clearEmptiesThePanel()
{
    ValidationPanel panel;
    panel.setLoadedTrace(load(true));
    QVERIFY(panel.issueModel()->rowCount() > 0);
    panel.clear();
    QCOMPARE(panel.issueModel()->rowCount(), 0);
    QCOMPARE(panel.proxyModel()->rowCount(), 0);
}

QTEST_MAIN(TestValidationPanel)
#include "tst_validationpanel.moc"
