// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QTest>

#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/analysis/problemlocator.h"

using namespace TraceInspector;

namespace {

Problem problem(std::uint64_t line, Severity severity, const char *rule, const char *code, const char *message,
                RelatedKind kind = RelatedKind::None, const char *relatedId = "")
{
    Problem p;
    p.line = line;
    p.severity = severity;
    p.ruleId = rule;
    p.code = code;
    p.message = message;
    p.relatedKind = kind;
    p.relatedId = relatedId;
    return p;
}

std::shared_ptr<const std::vector<Problem>> readerProblems()
{
    return std::make_shared<const std::vector<Problem>>(std::vector<Problem>{
        problem(4, Severity::Error, "E-LINE-PARSE", "", "parse trace JSONL line 4 from t.jsonl: missing field `key`"),
        problem(9, Severity::Error, "E-SPAN-END-UNKNOWN", "", "span_end for unknown span `zz` at index 7",
                RelatedKind::Span, "zz"),
    });
}

std::shared_ptr<const std::vector<Problem>> healthFindings()
{
    return std::make_shared<const std::vector<Problem>>(std::vector<Problem>{
        problem(0, Severity::Error, "H-ROOT-COUNT", "root_count", "expected exactly one root span, found 2"),
        problem(3, Severity::Error, "H-SPAN-UNCLOSED", "open_span", "span `b` was not closed", RelatedKind::Span, "b"),
        problem(0, Severity::Warning, "W-TENSORS-ABSENT", "tensors_absent", "no tensor evidence was captured"),
    });
}

// A small trace: root `a` (closed), child `b` (open), one op in `a` on line 5.
const char *kTrace =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}}
{"kind":"span_start","id":"a","name":"root","start_ns":0,"span_kind":"function","measured":true}
{"kind":"span_start","id":"b","parent_id":"a","name":"child","start_ns":10,"span_kind":"module"}
{"kind":"span_end","id":"a","duration_ns":100}
{"kind":"op","span_id":"a","op_name":"matmul","shape":[2,2],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":20,"input_dense_bytes":32}
{"kind":"terminal","outcome":"complete","timestamp_ns":200}
)";

QStringList L(std::initializer_list<const char *> items)
{
    QStringList list;
    for (const char *item : items)
        list << QString::fromUtf8(item);
    return list;
}

} // namespace

class TestValidationIssueModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void testerOnModelAndProxy();
    void rowsAndRoles();
    void healthStageAppends();
    void proxyFilters_data();
    void proxyFilters();
    void proxySortsByLine();
    void locatesProblems_data();
    void locatesProblems();
};

void TestValidationIssueModel::testerOnModelAndProxy()
{
    ValidationIssueModel model;
    ValidationFilterProxyModel proxy;
    QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(ValidationIssueModel::LineColumn);

    model.setProblems(readerProblems(), nullptr);
    model.setHealthFindings(healthFindings());
    proxy.setSeverityFilter(ValidationFilterProxyModel::SeverityFilter::Warnings);
    proxy.setText(QStringLiteral("tensor"));
    proxy.setText(QString());
    proxy.setSeverityFilter(ValidationFilterProxyModel::SeverityFilter::All);
    model.setHealthFindings(nullptr);
    model.clear();
    model.setProblems(nullptr, healthFindings());
    QCOMPARE(proxy.rowCount(), 3);
}

void TestValidationIssueModel::rowsAndRoles()
{
    ValidationIssueModel model;
    model.setProblems(readerProblems(), healthFindings());
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.columnCount(), int(ValidationIssueModel::ColumnCount));
    QCOMPARE(model.errorCount(), 4);
    QCOMPARE(model.warningCount(), 1);

    const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return model.index(row, column).data(role);
    };
    QCOMPARE(cell(0, ValidationIssueModel::SeverityColumn).toString(), QStringLiteral("Error"));
    QCOMPARE(cell(0, ValidationIssueModel::LineColumn).toString(), QStringLiteral("4"));
    QCOMPARE(cell(0, ValidationIssueModel::RuleColumn).toString(), QStringLiteral("E-LINE-PARSE"));
    QCOMPARE(cell(2, ValidationIssueModel::CodeColumn).toString(), QStringLiteral("root_count"));
    QCOMPARE(cell(2, ValidationIssueModel::LineColumn).toString(), QString()); // whole-file finding
    QCOMPARE(cell(4, ValidationIssueModel::SeverityColumn).toString(), QStringLiteral("Warning"));
    QCOMPARE(cell(4, ValidationIssueModel::SeverityColumn, SeverityRole).toInt(), int(Severity::Warning));
    QCOMPARE(cell(1, ValidationIssueModel::MessageColumn, SpanIdRole).toString(), QStringLiteral("zz"));
    QCOMPARE(cell(1, ValidationIssueModel::MessageColumn, RelatedKindRole).toInt(), int(RelatedKind::Span));
    QCOMPARE(cell(1, ValidationIssueModel::MessageColumn, RelatedIndexRole).toLongLong(), qint64(-1));
    QCOMPARE(cell(3, ValidationIssueModel::LineColumn, LineRole).toULongLong(), quint64(3));
    QCOMPARE(model.sourceAt(1), ValidationIssueModel::Source::Reader);
    QCOMPARE(model.sourceAt(2), ValidationIssueModel::Source::Health);
    QVERIFY(!model.problemAt(5));
    QVERIFY(!model.problemAt(-1));
    QCOMPARE(model.headerData(ValidationIssueModel::MessageColumn, Qt::Horizontal).toString(),
             QStringLiteral("Message"));
}

void TestValidationIssueModel::healthStageAppends()
{
    ValidationIssueModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProblems(readerProblems(), nullptr);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.warningCount(), 0);
    model.setHealthFindings(healthFindings());
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.index(0, ValidationIssueModel::RuleColumn).data().toString(), QStringLiteral("E-LINE-PARSE"));
    QCOMPARE(model.index(2, ValidationIssueModel::RuleColumn).data().toString(), QStringLiteral("H-ROOT-COUNT"));
    QCOMPARE(model.warningCount(), 1);
}

void TestValidationIssueModel::proxyFilters_data()
{
    QTest::addColumn<int>("severity");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("rules");

    using F = ValidationFilterProxyModel::SeverityFilter;
    QTest::newRow("all") << int(F::All) << QString()
                         << L({"E-LINE-PARSE", "E-SPAN-END-UNKNOWN", "H-ROOT-COUNT", "H-SPAN-UNCLOSED",
                               "W-TENSORS-ABSENT"});
    QTest::newRow("errors") << int(F::Errors) << QString()
                            << L({"E-LINE-PARSE", "E-SPAN-END-UNKNOWN", "H-ROOT-COUNT", "H-SPAN-UNCLOSED"});
    QTest::newRow("warnings") << int(F::Warnings) << QString() << L({"W-TENSORS-ABSENT"});
    QTest::newRow("text in message, any case") << int(F::All) << QStringLiteral("NOT CLOSED") << L({"H-SPAN-UNCLOSED"});
    QTest::newRow("text in code") << int(F::All) << QStringLiteral("root_count") << L({"H-ROOT-COUNT"});
    QTest::newRow("text in rule") << int(F::All) << QStringLiteral("E-SPAN") << L({"E-SPAN-END-UNKNOWN"});
    QTest::newRow("text and severity") << int(F::Warnings) << QStringLiteral("span") << QStringList{};
    QTest::newRow("surrounding blanks ignored")
        << int(F::All) << QStringLiteral("  tensors_absent ") << L({"W-TENSORS-ABSENT"});
}

void TestValidationIssueModel::proxyFilters()
{
    QFETCH(int, severity);
    QFETCH(QString, text);
    QFETCH(QStringList, rules);

    ValidationIssueModel model;
    model.setProblems(readerProblems(), healthFindings());
    ValidationFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSeverityFilter(ValidationFilterProxyModel::SeverityFilter(severity));
    proxy.setText(text);
    QStringList shown;
    for (int r = 0; r < proxy.rowCount(); ++r)
        shown << proxy.index(r, ValidationIssueModel::RuleColumn).data().toString();
    QCOMPARE(shown, rules);
}

void TestValidationIssueModel::proxySortsByLine()
{
    ValidationIssueModel model;
    model.setProblems(readerProblems(), healthFindings());
    ValidationFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(ValidationIssueModel::LineColumn, Qt::AscendingOrder);
    QStringList lines;
    for (int r = 0; r < proxy.rowCount(); ++r)
        lines << proxy.index(r, ValidationIssueModel::LineColumn).data().toString();
    // Whole-file findings (no line) come last.
    QCOMPARE(lines, (L({"3", "4", "9", "", ""})));
}

void TestValidationIssueModel::locatesProblems_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("relatedId");
    QTest::addColumn<qint64>("relatedIndex");
    QTest::addColumn<quint64>("line");
    QTest::addColumn<qint64>("spanIndex");
    QTest::addColumn<qint64>("opIndex");

    // Spans are sorted by id: a = 0, b = 1.
    QTest::newRow("span by id") << int(RelatedKind::Span) << QStringLiteral("b") << qint64(-1) << quint64(0)
                                << qint64(1) << qint64(-1);
    QTest::newRow("span by index") << int(RelatedKind::Span) << QString() << qint64(0) << quint64(0) << qint64(0)
                                   << qint64(-1);
    QTest::newRow("op by index") << int(RelatedKind::Op) << QString() << qint64(0) << quint64(0) << qint64(0)
                                 << qint64(0);
    QTest::newRow("op by line") << int(RelatedKind::None) << QString() << qint64(-1) << quint64(5) << qint64(0)
                                << qint64(0);
    QTest::newRow("span_start line") << int(RelatedKind::None) << QString() << qint64(-1) << quint64(3) << qint64(1)
                                     << qint64(-1);
    QTest::newRow("span_end line") << int(RelatedKind::None) << QString() << qint64(-1) << quint64(4) << qint64(0)
                                   << qint64(-1);
    QTest::newRow("unknown span id") << int(RelatedKind::Span) << QStringLiteral("zz") << qint64(-1) << quint64(0)
                                     << qint64(-1) << qint64(-1);
    QTest::newRow("index out of range") << int(RelatedKind::Op) << QString() << qint64(99) << quint64(0) << qint64(-1)
                                        << qint64(-1);
    QTest::newRow("meta line") << int(RelatedKind::None) << QString() << qint64(-1) << quint64(1) << qint64(-1)
                               << qint64(-1);
}

void TestValidationIssueModel::locatesProblems()
{
    QFETCH(int, kind);
    QFETCH(QString, relatedId);
    QFETCH(qint64, relatedIndex);
    QFETCH(quint64, line);
    QFETCH(qint64, spanIndex);
    QFETCH(qint64, opIndex);

    const ReadResult read = TraceReader::readBytes(kTrace, "t.jsonl");
    QVERIFY(read.trace);
    QVERIFY2(!read.strictError, read.strictError ? read.strictError->message.c_str() : "");
    Problem p;
    p.relatedKind = RelatedKind(kind);
    p.relatedId = relatedId.toStdString();
    p.relatedIndex = relatedIndex < 0 ? UINT64_MAX : std::uint64_t(relatedIndex);
    p.line = line;
    const ProblemLocation where = locateProblem(*read.trace, p);
    QCOMPARE(where.spanIndex, spanIndex);
    QCOMPARE(where.opIndex, opIndex);
}

QTEST_GUILESS_MAIN(TestValidationIssueModel)
#include "tst_validationissuemodel.moc"
