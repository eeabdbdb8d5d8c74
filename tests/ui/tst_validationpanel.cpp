// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QApplication>
#include <QClipboard>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include "core/analysis/health.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/loadedtrace.h"
#include "core/model/problemlimiter.h"
#include "core/itemmodels/validationgroupmodel.h"
#include "ui/validationpanel.h"
#include "ui/widgets/tableactions.h"

using namespace TraceInspector;

namespace {

// Root `a` (closed, measured), child `b` never closed (H-SPAN-UNCLOSED), an op in `a` and an
// op in the unknown span `ghost` (H-UNKNOWN-SPAN), a span_end for an unknown span (rejected:
// E-SPAN-END-UNKNOWN) and a line that is not JSON (E-LINE-PARSE).
const char *kTrace =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}}
{"kind":"span_start","id":"a","name":"root","start_ns":0,"span_kind":"function","measured":true}
{"kind":"span_start","id":"b","parent_id":"a","name":"child","start_ns":10,"span_kind":"module"}
{"kind":"op","span_id":"a","op_name":"matmul","shape":[2,2],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":20,"input_dense_bytes":32}
{"kind":"op","span_id":"ghost","op_name":"add","shape":[2],"dtype":"f32","device":"cpu","duration_ns":1,"timestamp_ns":30,"input_dense_bytes":16}
{"kind":"span_end","id":"nope","duration_ns":1}
{"kind":"span_end","id":"a","duration_ns":100}
this is not json
{"kind":"terminal","outcome":"complete","timestamp_ns":200}
)";

LoadedTracePtr load(bool withHealth, const QString &path = QStringLiteral("panel.jsonl"),
                    const QByteArray &text = kTrace)
{
    ReadResult r =
        TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), path.toStdString());
    auto loaded = std::make_shared<LoadedTrace>();
    loaded->generation = 1;
    loaded->path = path;
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
    void pathOnceAndFilteredCount();
    void groupByRule();
    void selectProblemClearsWhatHidesIt();
    void selectProblemWithACutMessage();
    void detailShowsTheLineFromTheFile();
    void tensorStatsSaysWhy();
    void resetView();
    void copyAndContextMenu();
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

namespace {
QString writeTrace(const QTemporaryDir &dir, const QByteArray &text, const QString &name = QStringLiteral("run.jsonl"))
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return {};
    return path;
}
} // namespace

void TestValidationPanel::pathOnceAndFilteredCount()
{
    QTemporaryDir dir;
    const QString path = writeTrace(dir, kTrace);
    ValidationPanel panel;
    panel.setLoadedTrace(load(true, path));
    // The path is named once, above the list; the E-LINE-PARSE row shows its line and cause only.
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("validationFile"))->text(),
             QStringLiteral("Findings in ") + path);
    const int parse = findRow(panel.proxyModel(), QStringLiteral("E-LINE-PARSE"));
    const QString message = panel.proxyModel()->index(parse, ValidationIssueModel::MessageColumn).data().toString();
    QVERIFY2(!message.contains(path) && message.startsWith(QStringLiteral("parse trace JSONL line 8: ")),
             qPrintable(message));
    // The count follows the filter.
    const int errors = panel.issueModel()->errorCount();
    const int warnings = panel.issueModel()->warningCount();
    QVERIFY(panel.countText().startsWith(QStringLiteral("%1 errors").arg(errors)));
    panel.filterEdit()->setText(QStringLiteral("not closed"));
    QTRY_COMPARE(panel.proxyModel()->rowCount(), 1);
    QCOMPARE(panel.countText(), QStringLiteral("1 of %1 shown (1 error, 0 warnings)").arg(errors + warnings));
    panel.severityBox()->setCurrentIndex(2); // warnings only
    QCOMPARE(panel.countText(), QStringLiteral("0 of %1 shown (0 errors, 0 warnings)").arg(errors + warnings));
}

void TestValidationPanel::groupByRule()
{
    ValidationPanel panel;
    QAbstractItemModelTester tester(panel.groupModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setLoadedTrace(load(true));
    panel.show();
    panel.findChild<QCheckBox *>(QStringLiteral("validationGroupByRule"))->setChecked(true);
    QVERIFY(panel.isGrouped());
    QCOMPARE(panel.view()->model(), static_cast<QAbstractItemModel *>(panel.groupModel()));
    int rows = 0;
    QStringList rules;
    for (int g = 0; g < panel.groupModel()->rowCount(); ++g) {
        rules << panel.groupModel()->groupRule(g);
        rows += panel.groupModel()->groupSize(g);
    }
    QCOMPARE(rows, panel.issueModel()->rowCount());
    QCOMPARE(rules.removeDuplicates(), 0);
    QVERIFY(rules.contains(QStringLiteral("H-SPAN-UNCLOSED")));
    // Activating a finding inside a group still leads to its span.
    QSignalSpy spans(&panel, &ValidationPanel::spanRequested);
    const int g = int(rules.indexOf(QStringLiteral("H-SPAN-UNCLOSED")));
    panel.activate(panel.groupModel()->index(0, 0, panel.groupModel()->index(g, 0)));
    QCOMPARE(spans.count(), 1);
    panel.activate(panel.groupModel()->index(g, 0)); // a group row is no finding
    QCOMPARE(spans.count(), 1);
    panel.setGrouped(false);
    QCOMPARE(panel.view()->model(), static_cast<QAbstractItemModel *>(panel.proxyModel()));
}

void TestValidationPanel::selectProblemClearsWhatHidesIt()
{
    ValidationPanel panel;
    const LoadedTracePtr loaded = load(true);
    panel.setLoadedTrace(loaded);
    panel.show();
    panel.severityBox()->setCurrentIndex(2); // warnings: hides the strict error
    QVERIFY(panel.selectProblem(*loaded->strictError));
    QCOMPARE(panel.severityBox()->currentIndex(), 0);
    const Problem *current = panel.currentProblem();
    QVERIFY(current);
    QCOMPARE(current->ruleId, loaded->strictError->ruleId);
    QCOMPARE(current->line, loaded->strictError->line);
    panel.setGrouped(true);
    QVERIFY(panel.selectProblem(*loaded->strictError));
    QCOMPARE(panel.currentProblem()->line, loaded->strictError->line);
    Problem none;
    none.ruleId = "E-NOTHING";
    QVERIFY(!panel.selectProblem(none));
}

void TestValidationPanel::selectProblemWithACutMessage()
{
    // The strict error quotes a 70 KB id whole; the list keeps its message cut at 64 KB
    // (ProblemLimiter), and another problem of the same rule follows on the next line.
    QByteArray text(kTrace);
    const QByteArray longId(70 * 1024, 'q');
    text.replace("{\"kind\":\"span_end\",\"id\":\"nope\"",
                 QByteArray("{\"kind\":\"span_end\",\"id\":\"").append(longId).append('"'));
    text.replace("{\"kind\":\"span_end\",\"id\":\"a\"", "{\"kind\":\"span_end\",\"id\":\"x\",\"duration_ns\":1}\n"
                                                        "{\"kind\":\"span_end\",\"id\":\"a\"");
    text.replace("this is not json\n", "");
    ValidationPanel panel;
    const LoadedTracePtr loaded = load(true, QStringLiteral("panel.jsonl"), text);
    QVERIFY(loaded->strictError);
    QCOMPARE(loaded->strictError->ruleId, std::string("E-SPAN-END-UNKNOWN"));
    QVERIFY(loaded->strictError->message.size() > ProblemLimiter::kMaxMessageBytes);
    panel.setLoadedTrace(loaded);
    panel.show();
    QVERIFY(panel.selectProblem(*loaded->strictError));
    const Problem *current = panel.currentProblem();
    QVERIFY(current);
    QCOMPARE(current->ruleId, loaded->strictError->ruleId);
    QCOMPARE(current->line, loaded->strictError->line);
    QVERIFY(current->message.size() < loaded->strictError->message.size()); // the cut copy
    // The other unknown span_end (`x`, one line further) is a different problem.
    Problem other = *loaded->strictError;
    other.line += 1;
    QVERIFY(!panel.selectProblem(other));

    // A decode error's stored message is cut before its line prefix is added.
    QByteArray bad(kTrace);
    bad.replace("this is not json", QByteArray(R"({"kind":"span_start","id":"c","name":"n","start_ns":0,"span_kind":")")
                                        .append(longId)
                                        .append("\"}"));
    const LoadedTracePtr decode = load(true, QStringLiteral("panel.jsonl"), bad);
    QVERIFY(decode->strictError);
    QCOMPARE(decode->strictError->ruleId, std::string("E-LINE-PARSE"));
    QVERIFY(decode->strictError->message.size() > ProblemLimiter::kMaxMessageBytes);
    panel.setLoadedTrace(decode);
    QVERIFY(panel.selectProblem(*decode->strictError));
    QCOMPARE(panel.currentProblem()->line, decode->strictError->line);
    QCOMPARE(panel.currentProblem()->ruleId, std::string("E-LINE-PARSE"));
}

void TestValidationPanel::detailShowsTheLineFromTheFile()
{
    QTemporaryDir dir;
    const QString path = writeTrace(dir, kTrace);
    ValidationPanel panel;
    panel.setLoadedTrace(load(true, path));
    panel.show();
    const int parse = findRow(panel.proxyModel(), QStringLiteral("E-LINE-PARSE"));
    QSignalSpy shown(&panel, &ValidationPanel::detailShown);
    panel.view()->setCurrentIndex(panel.proxyModel()->index(parse, 0));
    QVERIFY(shown.wait(10000));
    const QString detail = panel.detailText();
    QVERIFY2(detail.contains(QStringLiteral("Line 8 as it is in the file:")), qPrintable(detail));
    QVERIFY(detail.contains(QStringLiteral("this is not json")));
    QVERIFY(detail.contains(path)); // the exact message, path included
    // Any finding with a line: the unknown span_end, with what its index counts.
    shown.clear();
    panel.view()->setCurrentIndex(
        panel.proxyModel()->index(findRow(panel.proxyModel(), QStringLiteral("E-SPAN-END-UNKNOWN")), 0));
    QVERIFY(shown.wait(10000));
    QVERIFY(panel.detailText().contains(QStringLiteral("{\"kind\":\"span_end\",\"id\":\"nope\",\"duration_ns\":1}")));
    QVERIFY(panel.detailText().contains(
        QStringLiteral("The index counts records (non-blank lines) from 0; this record is on line 6.")));
}

void TestValidationPanel::tensorStatsSaysWhy()
{
    const QString path = QStringLiteral(TI_EXAMPLES_DIR "/09_invalid_tensor_stats.jsonl");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    ValidationPanel panel;
    panel.setLoadedTrace(load(false, path, f.readAll()));
    const int row = findRow(panel.issueModel(), QStringLiteral("E-TSTATS-INVALID"));
    QVERIFY(row >= 0);
    // Worked out from the line in the background, then shown after upstream's message.
    QTRY_COMPARE(panel.issueModel()->reason(row),
                 QStringLiteral("elements is 196600, but the shape [2, 128, 768] has 196608 elements"));
    QCOMPARE(
        panel.issueModel()->index(row, ValidationIssueModel::MessageColumn).data().toString(),
        QStringLiteral(
            "invalid tensor_stats event at index 3 \u2014 elements is 196600, but the shape [2, 128, 768] has 196608 elements"));
    QCOMPARE(QString::fromStdString(panel.issueModel()->problemAt(row)->message),
             QStringLiteral("invalid tensor_stats event at index 3"));
}

void TestValidationPanel::resetView()
{
    ValidationPanel panel;
    panel.setLoadedTrace(load(true));
    panel.filterEdit()->setText(QStringLiteral("closed"));
    QTRY_VERIFY(panel.proxyModel()->rowCount() < panel.issueModel()->rowCount());
    panel.severityBox()->setCurrentIndex(1);
    panel.setGrouped(true);
    panel.resetView();
    QVERIFY(panel.filterEdit()->text().isEmpty());
    QCOMPARE(panel.severityBox()->currentIndex(), 0);
    QVERIFY(!panel.isGrouped());
    QCOMPARE(panel.proxyModel()->rowCount(), panel.issueModel()->rowCount());
    QVERIFY(!panel.view()->currentIndex().isValid());
}

void TestValidationPanel::copyAndContextMenu()
{
    ValidationPanel panel;
    panel.setLoadedTrace(load(true));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.view()->setFocus();
    const int row = findRow(panel.proxyModel(), QStringLiteral("E-SPAN-END-UNKNOWN"));
    panel.view()->setCurrentIndex(panel.proxyModel()->index(row, 0));
    QSignalSpy copied(panel.tableActions(), &TableActions::copied);
    QTest::keyClick(panel.view(), Qt::Key_C, Qt::ControlModifier);
    QTRY_COMPARE(copied.count(), 1);
    const QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    // Header in the order shown; code and column are exported although the list hides them.
    QCOMPARE(lines.at(0), QStringLiteral("Severity\tLine\tRule\tMessage\tCode\tColumn"));
    QVERIFY(lines.at(1).startsWith(
        QStringLiteral("Error\t6\tE-SPAN-END-UNKNOWN\tspan_end for unknown span `nope` at index 5")));
}

QTEST_MAIN(TestValidationPanel)
#include "tst_validationpanel.moc"
