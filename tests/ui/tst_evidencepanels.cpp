// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

#include "core/analysis/devicetime.h"
#include "core/analysis/spantree.h"
#include "core/display/format.h"
#include "tests/testutils/evidencefixture.h"
#include "tests/testutils/fixtures.h"
#include "core/itemmodels/capabilitymodel.h"
#include "core/itemmodels/flattablemodel.h"
#include "core/itemmodels/gradientkeymodel.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/outsidedeviceworkmodel.h"
#include "core/itemmodels/tensorstatsmodel.h"
#include "core/itemmodels/tensortablemodel.h"
#include "ui/evidencepanel.h"
#include "ui/gradienthistogram.h"
#include "ui/gradientspanel.h"
#include "ui/mainwindow.h"
#include "ui/tensorspanel.h"
#include "ui/tensorstatspanel.h"
#include "ui/widgets/coveragebadge.h"

using namespace TraceInspector;
using namespace Qt::StringLiterals;

class TestEvidencePanels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void tensorsActivationSelectsSpanAndOp_data();
    void tensorsActivationSelectsSpanAndOp();
    void statsSortedByScoreAndActivation();
    void gradientsShowContractAndFindings();
    void evidenceMatrixAndCoverage();
    void notCapturedIsSaidInWords();
    void outsideDeviceWorkIsShown_data();
    void outsideDeviceWorkIsShown();
    void outsideRowsSelectTheirInterval();
    void outsideRowsAreFetchedInChunks();
    void mainWindowJoinsSelection_data();
    void mainWindowJoinsSelection();

private:
    LoadedTracePtr m_loaded;
    qint64 m_spanA = -1;
    qint64 m_spanB = -1;
};

void TestEvidencePanels::initTestCase()
{
    m_loaded = TestFixtures::loadedSnapshot(TestFixtures::evidenceTrace());
    QVERIFY(m_loaded);
    m_spanA = m_loaded->trace->findSpan(std::string_view("s-a"));
    m_spanB = m_loaded->trace->findSpan(std::string_view("s-b"));
    QVERIFY(m_spanA >= 0 && m_spanB >= 0);
}

void TestEvidencePanels::tensorsActivationSelectsSpanAndOp_data()
{
    QTest::addColumn<qint64>("record");
    QTest::addColumn<QString>("span");
    QTest::addColumn<qint64>("op"); // -1 = no op signal
    QTest::newRow("t1: matmul in s-a") << qint64(0) << u"s-a"_s << qint64(0);
    QTest::newRow("t2: add in s-b") << qint64(1) << u"s-b"_s << qint64(1);
    QTest::newRow("t3: no producing op") << qint64(2) << u"s-b"_s << qint64(-1);
}

void TestEvidencePanels::tensorsActivationSelectsSpanAndOp()
{
    QFETCH(qint64, record);
    QFETCH(QString, span);
    QFETCH(qint64, op);
    TensorsPanel panel;
    panel.setLoadedTrace(m_loaded);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.badge()->isVisible());
    QCOMPARE(panel.statusText(), QStringLiteral("3 tensors"));
    QSignalSpy spans(&panel, &EvidenceTablePanel::spanActivated);
    QSignalSpy ops(&panel, &EvidenceTablePanel::opActivated);
    panel.view()->setFocus();
    panel.selectRecord(record);
    QCOMPARE(panel.currentRecord(), record);
    QTest::keyClick(panel.view(), Qt::Key_Return);
    QCOMPARE(spans.count(), 1);
    QCOMPARE(spans.at(0).at(0).toLongLong(), m_loaded->trace->findSpan(std::string_view(span.toStdString())));
    QCOMPARE(ops.count(), op >= 0 ? 1 : 0);
    if (op >= 0)
        QCOMPARE(ops.at(0).at(0).toLongLong(), op);
}

void TestEvidencePanels::statsSortedByScoreAndActivation()
{
    TensorStatsPanel panel;
    panel.setLoadedTrace(m_loaded);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // The outliers come first without the user sorting.
    QCOMPARE(panel.statsModel()->sortColumn(), int(TensorStatsModel::ScoreColumn));
    QCOMPARE(panel.statsModel()->index(0, TensorStatsModel::LabelColumn).data().toString(), QStringLiteral("mlp.out"));
    QVERIFY2(panel.statusText().contains(QStringLiteral("1 flagged")), qPrintable(panel.statusText()));
    QSignalSpy spans(&panel, &EvidenceTablePanel::spanActivated);
    QSignalSpy ops(&panel, &EvidenceTablePanel::opActivated);
    panel.view()->setFocus();
    panel.view()->setCurrentIndex(panel.statsModel()->index(0, 0));
    QTest::keyClick(panel.view(), Qt::Key_Return);
    QCOMPARE(spans.count(), 1);
    QCOMPARE(spans.at(0).at(0).toLongLong(), m_spanB);
    QCOMPARE(ops.count(), 1);
    QCOMPARE(ops.at(0).at(0).toLongLong(), 1LL);
    // A filter hiding the record is cleared when the record is selected by API.
    panel.model()->setFilterText(QStringLiteral("attn"));
    QCOMPARE(panel.model()->rowCount(), 1);
    panel.selectRecord(1);
    QCOMPARE(panel.currentRecord(), 1LL);
    QCOMPARE(panel.model()->rowCount(), 3);
}

void TestEvidencePanels::gradientsShowContractAndFindings()
{
    GradientsPanel panel;
    panel.setLoadedTrace(m_loaded);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY2(panel.contractText().contains(QStringLiteral("digest matches")), qPrintable(panel.contractText()));
    QVERIFY(panel.contractText().contains(QStringLiteral("Declared gradient coverage: complete")));
    QCOMPARE(panel.keyModel()->rowCount(), 5);
    // Two positive norms (0.5 and 1200) on the log axis; zero, non-finite and the uncaptured key in words.
    int counted = 0;
    for (const GradientHistogram::Bin &b : panel.histogram()->bins())
        counted += b.count;
    QCOMPARE(counted, 2);
    QSignalSpy spans(&panel, &EvidenceTablePanel::spanActivated);
    panel.selectRecord(4); // w4, never captured
    QVERIFY2(panel.detailText().contains(QStringLiteral("not captured")), qPrintable(panel.detailText()));
    QVERIFY(panel.detailText().contains(QStringLiteral("gradient_manifest_missing_key")));
    QVERIFY(panel.detailText().contains(QStringLiteral("gradient_family_non_finite")));
    // Gradient records name no span: activation selects nothing elsewhere.
    panel.view()->setFocus();
    QTest::keyClick(panel.view(), Qt::Key_Return);
    QCOMPARE(spans.count(), 0);

    const auto mismatch = TestFixtures::loadedSnapshot(
        TestFixtures::evidenceTrace("sha256:0000000000000000000000000000000000000000000000000000000000000000"));
    panel.setLoadedTrace(mismatch);
    QVERIFY2(panel.contractText().contains(QStringLiteral("digest MISMATCH")), qPrintable(panel.contractText()));
    QVERIFY(panel.contractText().contains(QStringLiteral("gradient_contract_invalid")));
}

void TestEvidencePanels::evidenceMatrixAndCoverage()
{
    EvidencePanel panel;
    panel.setLoadedTrace(m_loaded);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.capabilityModel()->rowCount(), 10);
    QVERIFY(panel.contractText().contains(QStringLiteral("measurement scope profiled_work")));
    QCOMPARE(panel.gapList()->topLevelItemCount(), 4);
    QCOMPARE(panel.gapList()->topLevelItem(3)->text(0), QStringLiteral("declared_not_captured"));
    QCOMPARE(panel.viewList()->topLevelItemCount(), kInspectorViewCount);
    QTreeWidgetItem *device = panel.viewList()->topLevelItem(int(InspectorView::DeviceTime));
    QCOMPARE(device->text(0), QStringLiteral("Device time"));
    QCOMPARE(device->text(1), QStringLiteral("Not captured"));
    QCOMPARE(panel.viewList()->topLevelItem(int(InspectorView::Tensors))->text(1), QStringLiteral("Captured: partial"));
}

void TestEvidencePanels::notCapturedIsSaidInWords()
{
    // A trace with spans only: the tensor, statistics and gradient views say "Not captured",
    // not an empty table that reads as zero.
    const auto loaded = TestFixtures::loadedSnapshot(TestFixtures::spansJsonl("root*:-:0:100"));
    QVERIFY(loaded);
    TensorsPanel tensors;
    TensorStatsPanel stats;
    GradientsPanel gradients;
    for (EvidenceTablePanel *panel : std::initializer_list<EvidenceTablePanel *>{&tensors, &stats, &gradients}) {
        panel->setLoadedTrace(loaded);
        QCOMPARE(panel->model()->rowCount(), 0);
        QVERIFY2(panel->badge()->text().startsWith(QStringLiteral("Not captured")), qPrintable(panel->badge()->text()));
        QVERIFY(!panel->badge()->isHidden());
    }
    // Before the evidence stage the badge is hidden rather than guessing.
    auto early = std::make_shared<LoadedTrace>(*loaded);
    early->evidence.reset();
    tensors.setLoadedTrace(early);
    QVERIFY(tensors.badge()->isHidden());
}

namespace {

// Space-separated `span:device:stream:clock:start:duration` device_interval records.
QByteArray intervalsJsonl(const QByteArray &spec)
{
    QByteArray out;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        out += "{\"kind\":\"device_interval\",\"span_id\":\"" + f[0] + "\",\"device\":\"" + f[1] + "\",\"stream_id\":\""
               + f[2] + "\",\"clock_id\":\"" + f[3] + "\",\"backend\":\"cuda\",\"start_ns\":" + f[4]
               + ",\"duration_ns\":" + f[5] + "}\n";
    }
    return out;
}

} // namespace

void TestEvidencePanels::outsideDeviceWorkIsShown_data()
{
    QTest::addColumn<QByteArray>("intervals");
    // A lane row "device|stream|clock|intervals|busy|start|end|" and below it its intervals as
    // "> span_id||||duration|start|end|line" (the intervals are lines 6.. of the file); or one note.
    QTest::addColumn<QStringList>("rows");
    QTest::newRow("no intervals: not captured") << QByteArray() << QStringList{u"Not captured*"_s};
    QTest::newRow("all inside spans") << QByteArray("r:cuda:0:c:0:10 a:cuda:0:c:5:10")
                                      << QStringList{u"None: each of the 2 device intervals belongs to a span."_s};
    // ghost names no span: its two overlapping intervals count once (0..30), the one on the
    // other stream is its own lane, and the interval inside `a` is not outside work.
    QTest::newRow("overlapping and per lane")
        << QByteArray("ghost:cuda:0:c:10:20 ghost:cuda:0:c:0:20 other:cuda:1:c:0:7 a:cuda:0:c:0:1000")
        << QStringList{u"cuda|0|c|2|30 ns|0 ns|30 ns|"_s, u"> ghost||||20 ns|0 ns|20 ns|7"_s,
                       u"> ghost||||20 ns|10 ns|30 ns|6"_s, u"cuda|1|c|1|7 ns|0 ns|7 ns|"_s,
                       u"> other||||7 ns|0 ns|7 ns|8"_s};
    QTest::newRow("another clock is another lane")
        << QByteArray("ghost:cuda:0:c1:0:20 ghost:cuda:0:c2:0:20")
        << QStringList{u"cuda|0|c1|1|20 ns|0 ns|20 ns|"_s, u"> ghost||||20 ns|0 ns|20 ns|6"_s,
                       u"cuda|0|c2|1|20 ns|0 ns|20 ns|"_s, u"> ghost||||20 ns|0 ns|20 ns|7"_s};
}

void TestEvidencePanels::outsideDeviceWorkIsShown()
{
    QFETCH(QByteArray, intervals);
    QFETCH(QStringList, rows);
    QByteArray text = TestFixtures::spansJsonl("r:-:0:100 a:r:0:50");
    text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), intervalsJsonl(intervals));
    const LoadedTracePtr base = TestFixtures::loadedSnapshot(text);
    QVERIFY(base);
    auto loaded = std::make_shared<LoadedTrace>(*base);
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*loaded->trace));
    loaded->deviceTime = std::make_shared<const DeviceTime>(DeviceTime::compute(*loaded->trace, *tree));
    loaded->spanTree = tree;

    EvidencePanel panel;
    QAbstractItemModelTester tester(panel.outsideDeviceModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setLoadedTrace(loaded);
    QTreeView *view = panel.outsideDeviceView();
    QVERIFY(view);
    QCOMPARE(view->objectName(), u"outsideDeviceWork"_s);
    QAbstractItemModel *model = view->model();
    QCOMPARE(model, panel.outsideDeviceModel());
    const auto cellsOf = [model](const QModelIndex &parent, int row) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(parent); ++c)
            cells << model->index(row, c, parent).data().toString();
        return cells.join(u'|');
    };
    QStringList shown;
    for (int i = 0; i < model->rowCount(); ++i) {
        const QModelIndex lane = model->index(i, 0);
        if (lane.data(IsSyntheticRole).toBool()) {
            QVERIFY(view->isFirstColumnSpanned(i, {}));
            shown << lane.data().toString();
            continue;
        }
        shown << cellsOf({}, i);
        for (int k = 0; k < model->rowCount(lane); ++k)
            shown << u"> "_s + cellsOf(lane, k);
    }
    QCOMPARE(shown.size(), rows.size());
    for (int i = 0; i < rows.size(); ++i) {
        if (rows[i].endsWith(u'*'))
            QVERIFY2(shown[i].startsWith(rows[i].chopped(1)), qPrintable(shown[i]));
        else
            QCOMPARE(shown[i], rows[i]);
    }

    // Before the device time is computed the panel says so rather than "none".
    if (!intervals.isEmpty()) {
        auto early = std::make_shared<LoadedTrace>(*loaded);
        early->deviceTime.reset();
        EvidencePanel fresh;
        fresh.setLoadedTrace(early);
        QCOMPARE(fresh.outsideDeviceModel()->rowCount(), 1);
        QVERIFY(fresh.outsideDeviceModel()->index(0, 0).data().toString().startsWith(u"Computing"_s));
    }
}

void TestEvidencePanels::outsideRowsSelectTheirInterval()
{
    // ghost's two intervals (lines 6, 7) and other's (line 8) are outside every span.
    QByteArray text = TestFixtures::spansJsonl("r:-:0:100 a:r:0:50");
    text.insert(text.lastIndexOf("{\"kind\":\"terminal\""),
                intervalsJsonl("ghost:cuda:0:c:10:20 ghost:cuda:0:c:0:20 other:cuda:1:c:0:7 a:cuda:0:c:0:5"));
    const LoadedTracePtr base = TestFixtures::loadedSnapshot(text);
    QVERIFY(base);
    auto loaded = std::make_shared<LoadedTrace>(*base);
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*loaded->trace));
    loaded->deviceTime = std::make_shared<const DeviceTime>(DeviceTime::compute(*loaded->trace, *tree));
    loaded->spanTree = tree;
    EvidencePanel panel;
    panel.resize(900, 700);
    panel.setLoadedTrace(loaded);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy selected(&panel, &EvidencePanel::deviceIntervalSelected);
    QTreeView *view = panel.outsideDeviceView();
    OutsideDeviceWorkModel *model = panel.outsideDeviceModel();

    // The lane row selects its earliest interval (index 1) and opens the lane.
    const QModelIndex lane = model->index(0, OutsideDeviceWorkModel::BusyColumn);
    view->scrollTo(lane);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(lane).center());
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), qint64(1));
    QVERIFY(view->isExpanded(lane.siblingAtColumn(0)));
    // An interval row selects that interval.
    const QModelIndex second = model->index(1, OutsideDeviceWorkModel::StartColumn, lane.siblingAtColumn(0));
    QCOMPARE(model->intervalAt(second), qint64(0));
    view->scrollTo(second);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(second).center());
    QCOMPARE(selected.count(), 2);
    QCOMPARE(selected.at(1).at(0).toLongLong(), qint64(0));

    // Shown from elsewhere: its row becomes current (its lane opened), nothing is emitted;
    // an interval inside a span clears the current row.
    panel.showDeviceInterval(2);
    QCOMPARE(model->intervalAt(view->currentIndex()), qint64(2));
    QVERIFY(view->isExpanded(view->currentIndex().parent()));
    panel.showDeviceInterval(3);
    QVERIFY(!view->selectionModel()->hasSelection());
    QCOMPARE(selected.count(), 2);
    QVERIFY(!model->indexOfInterval(3).isValid());
    QVERIFY(!model->indexOfInterval(99).isValid());
}

void TestEvidencePanels::outsideRowsAreFetchedInChunks()
{
    // One lane with more intervals outside every span than one fetch: the view gets them
    // chunk by chunk, and revealing the last one fetches up to it.
    const int count = OutsideDeviceWorkModel::kFetchChunk + 5;
    QByteArray spec;
    for (int i = 0; i < count; ++i)
        spec += "ghost:cuda:0:c:" + QByteArray::number(count - i) + ":1 ";
    QByteArray text = TestFixtures::spansJsonl("r:-:0:100");
    text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), intervalsJsonl(spec));
    const LoadedTracePtr base = TestFixtures::loadedSnapshot(text);
    QVERIFY(base);
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*base->trace));
    auto device = std::make_shared<const DeviceTime>(DeviceTime::compute(*base->trace, *tree));
    OutsideDeviceWorkModel model;
    model.setDeviceTime(base->trace, device);
    const QModelIndex lane = model.index(0, 0);
    QCOMPARE(model.rowCount(lane), OutsideDeviceWorkModel::kFetchChunk);
    QVERIFY(model.canFetchMore(lane));
    model.fetchMore(lane);
    QCOMPARE(model.rowCount(lane), count);
    QVERIFY(!model.canFetchMore(lane));
    // The tester walks (and fetches) every row of a fresh model.
    model.setDeviceTime(base->trace, device);
    QCOMPARE(model.rowCount(lane), OutsideDeviceWorkModel::kFetchChunk);
    {
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    model.setDeviceTime(base->trace, device);
    // Interval 0 starts last.
    const QModelIndex last = model.indexOfInterval(0);
    QVERIFY(last.isValid());
    QCOMPARE(last.row(), count - 1);
    QCOMPARE(model.rowCount(lane), count);
    QVERIFY(!model.canFetchMore(lane));
    QCOMPARE(model.index(0, OutsideDeviceWorkModel::IntervalsColumn).data().toString(), formatCount(quint64(count)));
}

void TestEvidencePanels::mainWindowJoinsSelection_data()
{
    QTest::addColumn<QString>("panel");
    QTest::addColumn<qint64>("record");
    QTest::addColumn<QString>("span");
    QTest::addColumn<qint64>("op");
    QTest::newRow("tensor t1") << u"tensorsPanel"_s << qint64(0) << u"s-a"_s << qint64(0);
    QTest::newRow("tensor t3") << u"tensorsPanel"_s << qint64(2) << u"s-b"_s << qint64(-1);
    QTest::newRow("stats attn.out") << u"tensorStatsPanel"_s << qint64(0) << u"s-a"_s << qint64(0);
    QTest::newRow("stats loose") << u"tensorStatsPanel"_s << qint64(2) << u"s-b"_s << qint64(1);
}

void TestEvidencePanels::mainWindowJoinsSelection()
{
    QFETCH(QString, panel);
    QFETCH(qint64, record);
    QFETCH(QString, span);
    QFETCH(qint64, op);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("evidence.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(TestFixtures::evidenceTrace());
    }
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    QVERIFY(finished.wait(30000));
    QVERIFY(window.showTab(panel));
    auto *evidencePanel = window.findChild<EvidenceTablePanel *>(panel);
    QVERIFY(evidencePanel);
    QCOMPARE(window.sideTabs()->currentWidget(), evidencePanel);
    evidencePanel->selectRecord(record);
    evidencePanel->view()->setFocus();
    QTest::keyClick(evidencePanel->view(), Qt::Key_Return);
    QCOMPARE(window.selectedSpanIndex(), window.loadedTrace()->trace->findSpan(std::string_view(span.toStdString())));
    if (op >= 0)
        QCOMPARE(window.selectedOpIndex(), op);
}

QTEST_MAIN(TestEvidencePanels)
#include "tst_evidencepanels.moc"
