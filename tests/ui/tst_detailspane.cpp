// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <random>

#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/recordfieldsmodel.h"
#include "core/itemmodels/spancontentsmodel.h"
#include "core/model/trace.h"
#include "tests/testutils/timelinefixtures.h"
#include "ui/details/detailspane.h"
#include "ui/details/rawlinereader.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_DetailsPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rawLine_data();
    void rawLine();
    void fieldsAndDerivedValues();
    void contentsListAndClicks();
    void findingsNamingTheSelection();
    void findingSelectionShowsTheFinding();
    void copyButtons();
    void fileChangedOnDisk();
    void lineIndexAcrossStrides();
    void rawLineIndexWaitsForPrepare();

private:
    QByteArray line(int number) const { return m_lines.value(number - 1); }
    qint64 span(const char *id) const { return m_trace->findSpan(std::string_view(id)); }

    QTemporaryDir m_dir;
    QString m_path;
    QList<QByteArray> m_lines;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
};

void tst_DetailsPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QByteArray text = traceJsonl("root:-:0:1000 fwd=forward:root:10:500 mm=matmul:fwd:20:100 late:root:900:open",
                                       opsJsonl("mm:matmul:30:50 fwd:add:200:10") + tensorsJsonl("mm:t1 fwd:t2")
                                           + intervalsJsonl("mm,cuda:0,7,cupti:cuda:0,5000,40"));
    m_path = m_dir.filePath(QStringLiteral("details.jsonl"));
    QFile file(m_path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    m_lines = text.split('\n');
    ReadResult read = TraceReader::readFile(m_path.toStdString());
    QVERIFY(read.trace);
    m_trace = read.trace;
    m_tree = std::make_shared<const SpanTree>(SpanTree::build(*m_trace));
}

void tst_DetailsPane::rawLine_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("expectedStart"); // what the raw text starts with
    QTest::addColumn<int>("lineCount");
    QTest::newRow("span: start and end lines") << int(Selection::Kind::Span) << QStringLiteral("mm")
                                               << QStringLiteral("{\"kind\":\"span_start\",\"id\":\"mm\"") << 2;
    QTest::newRow("open span: start line only") << int(Selection::Kind::Span) << QStringLiteral("late")
                                                << QStringLiteral("{\"kind\":\"span_start\",\"id\":\"late\"") << 1;
    QTest::newRow("op") << int(Selection::Kind::Op) << QStringLiteral("1")
                        << QStringLiteral("{\"kind\":\"op\",\"span_id\":\"fwd\",\"op_name\":\"add\"") << 1;
    QTest::newRow("tensor") << int(Selection::Kind::Tensor) << QStringLiteral("0")
                            << QStringLiteral("{\"kind\":\"tensor\",\"span_id\":\"mm\",\"tensor_id\":\"t1\"") << 1;
    QTest::newRow("device interval") << int(Selection::Kind::DeviceInterval) << QStringLiteral("0")
                                     << QStringLiteral("{\"kind\":\"device_interval\"") << 1;
}

void tst_DetailsPane::rawLine()
{
    QFETCH(int, kind);
    QFETCH(QString, id);
    QFETCH(QString, expectedStart);
    QFETCH(int, lineCount);
    DetailsPane pane;
    pane.setTrace(m_trace, m_tree);
    Selection s{Selection::Kind(kind), -1, -1};
    s.index = s.kind == Selection::Kind::Span ? span(id.toUtf8().constData()) : id.toLongLong();
    QSignalSpy shown(&pane, &DetailsPane::rawLineShown);
    pane.setSelection(s);
    QVERIFY(shown.wait(10000));
    const QStringList lines = pane.rawText().split(u'\n');
    QCOMPARE(lines.size(), lineCount);
    QVERIFY2(lines.front().startsWith(expectedStart), qPrintable(pane.rawText()));
    // Byte for byte the file's lines.
    std::uint32_t first = 0;
    switch (s.kind) {
    case Selection::Kind::Span:
        first = m_trace->spans[std::size_t(s.index)].startLine;
        QCOMPARE(lines.size() == 2 ? lines.at(1).toUtf8() : QByteArray(),
                 lines.size() == 2 ? line(int(m_trace->spans[std::size_t(s.index)].endLine)) : QByteArray());
        break;
    case Selection::Kind::Op: first = m_trace->ops[std::size_t(s.index)].line; break;
    case Selection::Kind::Tensor: first = m_trace->tensors[std::size_t(s.index)].line; break;
    default: first = m_trace->deviceIntervals[std::size_t(s.index)].line; break;
    }
    QCOMPARE(lines.front().toUtf8(), line(int(first)));
    QVERIFY(pane.copyLineButton()->isEnabled());
}

void tst_DetailsPane::fieldsAndDerivedValues()
{
    DetailsPane pane;
    pane.setTrace(m_trace, m_tree);
    RecordFieldsModel *fields = pane.fieldsModel();
    QAbstractItemModelTester tester(fields, QAbstractItemModelTester::FailureReportingMode::QtTest);
    pane.setSelection(Selection::span(span("mm")));
    QCOMPARE(pane.title(), QStringLiteral("span matmul"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("id")), QStringLiteral("mm"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("parent_id")), QStringLiteral("fwd"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("start_ns")), QStringLiteral("20 (20 ns)"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("self")),
             QStringLiteral("100 (100 ns)")); // ops are not child spans
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("% of parent")), QStringLiteral("20.0%"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("depth")), QStringLiteral("2"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("ops")), QStringLiteral("1"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("bytes in (its ops)")), QStringLiteral("64 B"));
    // Run: 0 ns to the last end (open span start 900, root end 1000): 100 of 1000 ns.
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("% of run")), QStringLiteral("10.0%"));

    pane.setSelection(Selection::op(0));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("op_name")), QStringLiteral("matmul"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("% of parent")), QStringLiteral("50.0%"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("depth")), QStringLiteral("3"));
    // f32 [2, 3] = 24 bytes out, 64 in, over 50 ns.
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("bytes per ns")), QStringLiteral("1.76 B/ns"));

    pane.setSelection(Selection::span(span("late")));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("duration_ns")),
             QStringLiteral("\u2014 (open: no span_end)"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("self")), QStringLiteral("unknown (open)"));

    pane.setSelection(Selection::deviceInterval(0));
    QVERIFY(
        fields->value(QStringLiteral("Derived"), QStringLiteral("clock")).contains(u"not comparable with host times"));

    pane.setSelection({});
    QCOMPARE(fields->rowCount(), 0);
    QCOMPARE(pane.title(), QStringLiteral("Nothing selected"));
}

void tst_DetailsPane::contentsListAndClicks()
{
    DetailsPane pane;
    pane.resize(700, 600);
    pane.setTrace(m_trace, m_tree);
    QAbstractItemModelTester tester(pane.contentsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(pane.contentsProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.setSelection(Selection::span(span("fwd")));
    // forward: child matmul, op add, tensor t2.
    QCOMPARE(pane.contentsModel()->childSpanCount(), std::size_t(1));
    QCOMPARE(pane.contentsModel()->opCount(), std::size_t(1));
    QCOMPARE(pane.contentsModel()->tensorCount(), std::size_t(1));
    QCOMPARE(pane.contentsProxy()->rowCount(), 3);
    // Sorting by duration: the op (10 ns) before the child span (100 ns).
    pane.contentsView()->sortByColumn(SpanContentsModel::DurationColumn, Qt::AscendingOrder);
    QCOMPARE(pane.contentsProxy()->index(1, SpanContentsModel::NameColumn).data().toString(), QStringLiteral("add"));
    QCOMPARE(pane.contentsProxy()->index(2, SpanContentsModel::NameColumn).data().toString(), QStringLiteral("matmul"));
    QSignalSpy select(&pane, &DetailsPane::selectRequested);
    QSignalSpy activate(&pane, &DetailsPane::activateRequested);
    const QRect cell = pane.contentsView()->visualRect(pane.contentsProxy()->index(2, SpanContentsModel::NameColumn));
    QTest::mouseClick(pane.contentsView()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(select.count(), 1);
    QCOMPARE(select.at(0).at(0).value<Selection>(), Selection::span(span("mm")));
    QTest::mouseDClick(pane.contentsView()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(activate.count(), 1);
    // An op shows its span's contents.
    pane.setSelection(Selection::op(0));
    QCOMPARE(pane.contentsModel()->spanIndex(), span("mm"));
}

void tst_DetailsPane::findingsNamingTheSelection()
{
    auto findings = std::make_shared<std::vector<Problem>>();
    Problem byIndex;
    byIndex.ruleId = "H-TEST-A";
    byIndex.message = "about matmul by index";
    byIndex.relatedKind = RelatedKind::Span;
    byIndex.relatedIndex = quint64(span("mm"));
    byIndex.line = 4;
    Problem byId = byIndex;
    byId.ruleId = "H-TEST-B";
    byId.relatedIndex = UINT64_MAX;
    byId.relatedId = "mm";
    Problem other = byIndex;
    other.ruleId = "H-TEST-C";
    other.relatedIndex = quint64(span("root"));
    Problem op = byIndex;
    op.ruleId = "H-TEST-D";
    op.relatedKind = RelatedKind::Op;
    op.relatedIndex = 0;
    findings->assign({byIndex, byId, other, op});
    DetailsPane pane;
    pane.setTrace(m_trace, m_tree);
    pane.setFindings(findings);
    pane.setSelection(Selection::span(span("mm")));
    QCOMPARE(pane.findingCount(), 2);
    QVERIFY(pane.findingsView()->item(0)->text().startsWith(u"H-TEST-A"));
    QVERIFY(pane.findingsView()->item(1)->text().startsWith(u"H-TEST-B"));
    pane.setSelection(Selection::op(0));
    QCOMPARE(pane.findingCount(), 1);
    QSignalSpy select(&pane, &DetailsPane::selectRequested);
    Q_EMIT pane.findingsView()->itemClicked(pane.findingsView()->item(0));
    QCOMPARE(select.count(), 1);
    const Selection s = select.at(0).at(0).value<Selection>();
    QCOMPARE(s.kind, Selection::Kind::Op);
    QCOMPARE(s.finding, qint64(3));
}

void tst_DetailsPane::findingSelectionShowsTheFinding()
{
    auto findings = std::make_shared<std::vector<Problem>>();
    Problem p;
    p.ruleId = "W-DEVICE-TIMING-ABSENT";
    p.code = "device_timing_absent";
    p.message = "no device timing intervals were captured";
    p.severity = Severity::Warning;
    findings->push_back(p);
    DetailsPane pane;
    pane.setTrace(m_trace, m_tree);
    pane.setFindings(findings);
    QSignalSpy shown(&pane, &DetailsPane::rawLineShown);
    pane.setSelection(Selection::findingOnly(0));
    QCOMPARE(pane.title(), QStringLiteral("finding W-DEVICE-TIMING-ABSENT"));
    QCOMPARE(pane.fieldsModel()->value(QStringLiteral("Finding"), QStringLiteral("message")),
             QStringLiteral("no device timing intervals were captured"));
    QCOMPARE(pane.fieldsModel()->value(QStringLiteral("Finding"), QStringLiteral("line")),
             QStringLiteral("\u2014 (whole file)"));
    QCOMPARE(pane.findingCount(), 1);
    QVERIFY(pane.rawText().isEmpty());
    QVERIFY(!pane.copyLineButton()->isEnabled());
}

void tst_DetailsPane::copyButtons()
{
    DetailsPane pane;
    pane.setTrace(m_trace, m_tree);
    QSignalSpy shown(&pane, &DetailsPane::rawLineShown);
    pane.setSelection(Selection::op(0));
    QVERIFY(shown.wait(10000));
    QTest::mouseClick(pane.copyLineButton(), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text().toUtf8(), line(int(m_trace->ops[0].line)));
    QTest::mouseClick(pane.copyFieldsButton(), Qt::LeftButton);
    const QString fields = QApplication::clipboard()->text();
    QVERIFY2(fields.startsWith(u"op matmul\n[Record]\nspan_id: mm\nop_name: matmul\n"), qPrintable(fields));
}

void tst_DetailsPane::fileChangedOnDisk()
{
    const QString path = m_dir.filePath(QStringLiteral("changing.jsonl"));
    QVERIFY(QFile::copy(m_path, path));
    ReadResult read = TraceReader::readFile(path.toStdString());
    QVERIFY(read.trace);
    std::shared_ptr<const Trace> trace = read.trace;
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    QFile file(path);
    QVERIFY(file.open(QIODevice::Append));
    file.write("\n");
    file.close();
    DetailsPane pane;
    pane.setTrace(trace, tree);
    QSignalSpy shown(&pane, &DetailsPane::rawLineShown);
    pane.setSelection(Selection::op(0));
    QVERIFY(shown.wait(10000));
    QVERIFY2(pane.rawText().contains(u"changed on disk since it was loaded"), qPrintable(pane.rawText()));
    QVERIFY(!pane.copyLineButton()->isEnabled());
}

void tst_DetailsPane::lineIndexAcrossStrides()
{
    // More lines than three index strides, some long, one with CRLF and none at the end.
    const QString path = m_dir.filePath(QStringLiteral("lines.txt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const int count = int(RawLineReader::kIndexStride) * 3 + 17;
    std::mt19937 rng(3);
    QList<QByteArray> expected;
    for (int i = 1; i <= count; ++i) {
        QByteArray text = "line " + QByteArray::number(i) + ' ' + QByteArray(int(rng() % 200), 'x');
        if (i == 5000)
            text += QByteArray(100000, 'y');
        expected << text;
        file.write(text);
        if (i == 7)
            file.write("\r");
        if (i < count)
            file.write("\n");
    }
    file.close();
    const QList<quint64> wanted{1, 7, 4096, 4097, 5000, 8193, quint64(count), quint64(count + 1)};
    QString error;
    const QList<SourceLine> got = RawLineReader::readLines(path, 0, wanted, &error);
    QCOMPARE(got.size(), wanted.size() - 1);
    for (const SourceLine &l : got)
        QCOMPARE(l.text, expected[int(l.number) - 1]);
    QVERIFY2(error.contains(u"has no line " + QString::number(count + 1)), qPrintable(error));
    // The background path gives the same.
    RawLineReader reader;
    reader.setFile(path, quint64(QFileInfo(path).size()));
    QSignalSpy spy(&reader, &RawLineReader::linesRead);
    const quint64 id = reader.request({4097, 2});
    QVERIFY(spy.wait(10000));
    QCOMPARE(spy.at(0).at(0).toULongLong(), id);
    const auto lines = spy.at(0).at(1).value<QList<SourceLine>>();
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0].text, expected[1]);
    QCOMPARE(lines[1].text, expected[4096]);

    // prepare() scans the file after the load, before the first request needs it (the scan of
    // a big trace then no longer competes with the first click's repaint).
    RawLineReader prepared;
    prepared.setFile(path, quint64(QFileInfo(path).size()));
    QVERIFY(!prepared.isIndexed());
    prepared.prepare();
    QTRY_VERIFY(prepared.isIndexed());
    QSignalSpy preparedSpy(&prepared, &RawLineReader::linesRead);
    prepared.request({8193});
    QVERIFY(preparedSpy.wait(10000));
    const auto preparedLines = preparedSpy.at(0).at(1).value<QList<SourceLine>>();
    QCOMPARE(preparedLines.size(), 1);
    QCOMPARE(preparedLines[0].text, expected[8192]);
    prepared.setFile(m_dir.filePath(QStringLiteral("no-such-file.jsonl")), 0);
    QVERIFY(!prepared.isIndexed());
    prepared.prepare(); // a missing file: no index, nothing shown until a request says why
}

void tst_DetailsPane::rawLineIndexWaitsForPrepare()
{
    // setTrace() does not scan the file: the window asks for it (prepareRawLines()) once the
    // load is drawn, so that the scan of a big trace does not compete with the load's analyses.
    DetailsPane pane;
    pane.setTrace(m_trace, m_tree);
    QTest::qWait(200);
    QVERIFY(!pane.isRawLineIndexed());
    pane.prepareRawLines();
    QTRY_VERIFY(pane.isRawLineIndexed());
    // A new trace starts without an index again.
    pane.setTrace(m_trace, m_tree);
    QVERIFY(!pane.isRawLineIndexed());
}

QTEST_MAIN(tst_DetailsPane)
#include "tst_detailspane.moc"
