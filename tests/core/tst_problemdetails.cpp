// SPDX-License-Identifier: MIT
#include <QFile>
#include <QTest>

#include "core/io/tracereader.h"
#include "core/loading/problemdetails.h"
#include "core/loading/rawline.h"
#include "core/model/problem.h"

using namespace TraceInspector;

class TestProblemDetails : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tensorStatsReason_data();
    void tensorStatsReason();
    void example09();
    void indexNote_data();
    void indexNote();
};

namespace {
Problem tstatsProblem()
{
    Problem p;
    p.ruleId = "E-TSTATS-INVALID";
    p.line = 4;
    p.message = "invalid tensor_stats event at index 3";
    return p;
}

RawLine rawOf(const QByteArray &line)
{
    RawLine r;
    r.ok = true;
    r.line = 4;
    r.bytes = line;
    r.length = std::uint64_t(line.size());
    return r;
}
} // namespace

void TestProblemDetails::tensorStatsReason_data()
{
    QTest::addColumn<QByteArray>("fields"); // label, shape, elements, non_finite, rms, abs_max, mean
    QTest::addColumn<QString>("reason");
    const auto row = [](const char *label, const char *shape, const char *elements, const char *nonFinite,
                        const char *rms, const char *absMax, const char *mean) -> QByteArray {
        return QByteArray(R"({"kind":"tensor_stats","span_id":"s","label":")") + label + R"(","shape":)" + shape
               + R"(,"dtype":"bf16","elements":)" + elements + R"(,"non_finite":)" + nonFinite + R"(,"rms":)" + rms
               + R"(,"abs_max":)" + absMax + R"(,"mean":)" + mean + "}";
    };
    QTest::newRow("shape mismatch, the spec's example")
        << row("q", "[2,128,768]", "196600", "0", "0.8125", "6.5", "0")
        << QStringLiteral("elements is 196600, but the shape [2, 128, 768] has 196608 elements");
    QTest::newRow("blank label") << row(" \\t ", "[2]", "2", "0", "1", "1", "0")
                                 << QStringLiteral("label is empty after trimming whitespace");
    QTest::newRow("scalar shape") << row("x", "[]", "2", "0", "1", "1", "0")
                                  << QStringLiteral("elements is 2, but the shape [] has 1 elements");
    QTest::newRow("overflowing shape") << row(
        "x", "[4294967296,4294967296]", "0", "0", "1", "1",
        "0") << QStringLiteral("the product of the shape [4294967296, 4294967296] overflows a 64-bit count");
    QTest::newRow("non_finite above elements")
        << row("x", "[2]", "2", "3", "1", "1", "0") << QStringLiteral("non_finite is 3, more than elements (2)");
    QTest::newRow("negative rms") << row("x", "[2]", "2", "0", "-0.5", "1", "0")
                                  << QStringLiteral("rms is -0.5; it must be finite and not negative");
    QTest::newRow("negative abs_max") << row("x", "[2]", "2", "0", "1", "-2", "0")
                                      << QStringLiteral("abs_max is -2; it must be finite and not negative");
    QTest::newRow("-0.0 passes") << row("x", "[2]", "2", "0", "-0.0", "1", "0") << QString();
    QTest::newRow("valid") << row("x", "[2]", "2", "0", "1", "1", "-3") << QString();
}

void TestProblemDetails::tensorStatsReason()
{
    QFETCH(QByteArray, fields);
    QFETCH(QString, reason);
    const RawLine raw = rawOf(fields);
    QCOMPARE(explainProblem(tstatsProblem(), &raw).reason, reason);
    QVERIFY(explanationNeedsLine(tstatsProblem()));
    // Without the line nothing is made up.
    QCOMPARE(explainProblem(tstatsProblem(), nullptr).reason, QString());
}

void TestProblemDetails::example09()
{
    const QString path = QStringLiteral(TI_EXAMPLES_DIR "/09_invalid_tensor_stats.jsonl");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const ReadResult r =
        TraceReader::readBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())), "09.jsonl");
    QVERIFY(r.strictError);
    // The message stays upstream's; the reason is separate.
    QCOMPARE(QString::fromStdString(r.strictError->message), QStringLiteral("invalid tensor_stats event at index 3"));
    const RawLine raw = RawLine::read(path, r.strictError->line);
    const ProblemExplanation e = explainProblem(*r.strictError, &raw);
    QCOMPARE(e.reason, QStringLiteral("elements is 196600, but the shape [2, 128, 768] has 196608 elements"));
    QCOMPARE(e.note, QStringLiteral("The index counts records (non-blank lines) from 0; this record is on line 4."));
}

void TestProblemDetails::indexNote_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<bool>("noted");
    QTest::newRow("span_end unknown") << QStringLiteral("E-SPAN-END-UNKNOWN") << true;
    QTest::newRow("after terminal") << QStringLiteral("E-AFTER-TERMINAL") << true;
    QTest::newRow("meta first") << QStringLiteral("E-META-FIRST") << true;
    QTest::newRow("line parse has a line, no index") << QStringLiteral("E-LINE-PARSE") << false;
    QTest::newRow("health finding") << QStringLiteral("H-SPAN-UNCLOSED") << false;
}

void TestProblemDetails::indexNote()
{
    QFETCH(QString, rule);
    QFETCH(bool, noted);
    Problem p;
    p.ruleId = rule.toStdString();
    p.line = 3;
    QCOMPARE(!explainProblem(p, nullptr).note.isEmpty(), noted);
    p.line = 0;
    QVERIFY(explainProblem(p, nullptr).note.isEmpty());
}

QTEST_GUILESS_MAIN(TestProblemDetails)
#include "tst_problemdetails.moc"
