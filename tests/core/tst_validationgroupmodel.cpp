// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationgroupmodel.h"
#include "core/itemmodels/validationissuemodel.h"

using namespace TraceInspector;

namespace {

Problem problem(std::uint64_t line, Severity severity, const char *rule, std::string message)
{
    Problem p;
    p.line = line;
    p.severity = severity;
    p.ruleId = rule;
    p.message = std::move(message);
    return p;
}

std::shared_ptr<const std::vector<Problem>> reader(const QString &path)
{
    const std::string p = path.toStdString();
    return std::make_shared<const std::vector<Problem>>(std::vector<Problem>{
        problem(4, Severity::Error, "E-LINE-PARSE", "parse trace JSONL line 4 from " + p + ": missing field `key`"),
        problem(7, Severity::Error, "E-SPAN-END-UNKNOWN", "span_end for unknown span `zz` at index 5"),
        problem(9, Severity::Error, "E-LINE-PARSE",
                "parse trace JSONL line 9 from " + p + ": EOF while parsing an object"),
        problem(12, Severity::Error, "E-LINE-PARSE", "parse trace JSONL line 12 from " + p),
    });
}

std::shared_ptr<const std::vector<Problem>> health()
{
    return std::make_shared<const std::vector<Problem>>(std::vector<Problem>{
        problem(3, Severity::Error, "H-SPAN-UNCLOSED", "span `b` was not closed"),
        problem(0, Severity::Warning, "W-TENSORS-ABSENT", "no tensor evidence was captured"),
        problem(5, Severity::Warning, "H-SPAN-UNCLOSED", "span `c` was not closed"),
    });
}

QStringList groups(const ValidationGroupModel &m)
{
    QStringList out;
    for (int g = 0; g < m.rowCount(); ++g)
        out << QStringLiteral("%1 %2")
                   .arg(m.index(g, ValidationIssueModel::RuleColumn).data().toString())
                   .arg(m.rowCount(m.index(g, 0)));
    return out;
}

} // namespace

class TestValidationGroupModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupsByRuleWithCounts();
    void followsFilterAndSort();
    void pathShownOnceAndReasons();
};

void TestValidationGroupModel::groupsByRuleWithCounts()
{
    ValidationIssueModel issues;
    ValidationFilterProxyModel filter;
    ValidationGroupModel groups_;
    QAbstractItemModelTester tester(&groups_, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&issues);
    groups_.setSourceModel(&filter);
    issues.setProblems(reader(QStringLiteral("/data/run.jsonl")), nullptr);
    QCOMPARE(groups(groups_), (QStringList{QStringLiteral("E-LINE-PARSE 3"), QStringLiteral("E-SPAN-END-UNKNOWN 1")}));
    issues.setHealthFindings(health());
    QCOMPARE(groups(groups_), (QStringList{QStringLiteral("E-LINE-PARSE 3"), QStringLiteral("E-SPAN-END-UNKNOWN 1"),
                                           QStringLiteral("H-SPAN-UNCLOSED 2"), QStringLiteral("W-TENSORS-ABSENT 1")}));
    const QModelIndex unclosed = groups_.index(2, 0);
    QCOMPARE(groups_.index(2, ValidationIssueModel::MessageColumn).data().toString(), QStringLiteral("2 findings"));
    QCOMPARE(unclosed.data(SeverityRole).toInt(), int(Severity::Error)); // the worst of the group
    QCOMPARE(unclosed.data(CountRole).toULongLong(), 2ull);
    QVERIFY(unclosed.data(IsSyntheticRole).toBool());
    QVERIFY(!groups_.mapToSource(unclosed).isValid());
    // Children are the findings themselves, mapped both ways.
    const QModelIndex child = groups_.index(1, ValidationIssueModel::LineColumn, unclosed);
    QCOMPARE(child.data().toString(), QStringLiteral("5"));
    QCOMPARE(groups_.mapFromSource(groups_.mapToSource(child)), child);
    QCOMPARE(child.parent(), unclosed);
    issues.clear();
    QCOMPARE(groups_.rowCount(), 0);
}

void TestValidationGroupModel::followsFilterAndSort()
{
    ValidationIssueModel issues;
    ValidationFilterProxyModel filter;
    ValidationGroupModel groups_;
    QAbstractItemModelTester tester(&groups_, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&issues);
    groups_.setSourceModel(&filter);
    filter.sort(ValidationIssueModel::LineColumn, Qt::AscendingOrder);
    issues.setProblems(reader(QStringLiteral("run.jsonl")), health());
    // Groups come in the order of their first row: H-SPAN-UNCLOSED (line 3) first.
    QCOMPARE(groups(groups_).constFirst(), QStringLiteral("H-SPAN-UNCLOSED 2"));
    filter.setSeverityFilter(ValidationFilterProxyModel::SeverityFilter::Warnings);
    QCOMPARE(groups(groups_), (QStringList{QStringLiteral("H-SPAN-UNCLOSED 1"), QStringLiteral("W-TENSORS-ABSENT 1")}));
    filter.setSeverityFilter(ValidationFilterProxyModel::SeverityFilter::All);
    filter.setText(QStringLiteral("EOF"));
    QCOMPARE(groups(groups_), QStringList{QStringLiteral("E-LINE-PARSE 1")});
    filter.setText(QString());
    groups_.sort(ValidationIssueModel::LineColumn, Qt::DescendingOrder);
    // Whole-file findings sort after every line, so first when descending; then line 12.
    QCOMPARE(groups(groups_).mid(0, 2),
             (QStringList{QStringLiteral("W-TENSORS-ABSENT 1"), QStringLiteral("E-LINE-PARSE 3")}));
}

void TestValidationGroupModel::pathShownOnceAndReasons()
{
    ValidationIssueModel issues;
    QAbstractItemModelTester tester(&issues, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString path = QStringLiteral("/very/long/path/to/the/trace/run.jsonl");
    issues.setProblems(reader(path), nullptr);
    issues.setTracePath(path);
    const auto message = [&](int row) {
        return issues.index(row, ValidationIssueModel::MessageColumn).data().toString();
    };
    QCOMPARE(message(0), QStringLiteral("parse trace JSONL line 4: missing field `key`"));
    QCOMPARE(message(3), QStringLiteral("parse trace JSONL line 12"));
    QCOMPARE(message(1), QStringLiteral("span_end for unknown span `zz` at index 5"));
    // Upstream's text is kept for the tooltip and the problem itself.
    QVERIFY(issues.index(0, ValidationIssueModel::MessageColumn).data(Qt::ToolTipRole).toString().contains(path));
    QVERIFY(QString::fromStdString(issues.problemAt(0)->message).contains(path));
    // A reason follows the message.
    QSignalSpy changed(&issues, &QAbstractItemModel::dataChanged);
    issues.setReason(1, QStringLiteral("because"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(message(1), QStringLiteral("span_end for unknown span `zz` at index 5 \u2014 because"));
    QVERIFY(issues.index(1, ValidationIssueModel::MessageColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .endsWith(QStringLiteral("because")));
    issues.setProblems(reader(path), nullptr);
    QCOMPARE(issues.reason(1), QString()); // reasons belong to the problems they were given for
}

QTEST_GUILESS_MAIN(TestValidationGroupModel)
#include "tst_validationgroupmodel.moc"
