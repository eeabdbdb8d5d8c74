// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QFile>
#include <QMenu>
#include <QTest>

#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/opfilterproxymodel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/model/trace.h"
#include "ui/optablepanel.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"

using namespace TraceInspector;

namespace {

using TestFixtures::kMeta;

// Spans s-attn ("attention") and s-mlp ("mlp"); ops as `name/span/device/duration`.
QByteArray opsJsonl(const QList<QByteArray> &ops)
{
    QByteArray text = kMeta;
    text +=
        "{\"kind\":\"span_start\",\"id\":\"s-attn\",\"name\":\"attention\",\"start_ns\":0,\"span_kind\":\"module\"}\n";
    text += "{\"kind\":\"span_start\",\"id\":\"s-mlp\",\"name\":\"mlp\",\"start_ns\":0,\"span_kind\":\"module\"}\n";
    qint64 t = 0;
    for (const QByteArray &op : ops) {
        const QList<QByteArray> f = op.split('/');
        text += "{\"kind\":\"op\",\"span_id\":\"" + f[1] + "\",\"op_name\":\"" + f[0]
                + "\",\"shape\":[2,3],\"dtype\":\"f32\",\"device\":\"" + f[2] + "\",\"timestamp_ns\":"
                + QByteArray::number(t += 10) + ",\"duration_ns\":" + f[3] + ",\"input_dense_bytes\":24}\n";
    }
    text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000000000}\n";
    return text;
}

using Loaded = TestFixtures::Analysed;

Loaded load(const QList<QByteArray> &ops)
{
    // The analyses the loader gives the panel.
    return TestFixtures::analysed(opsJsonl(ops), TestFixtures::SpanTreeAnalysis | TestFixtures::OpStatisticsAnalysis,
                                  QStringLiteral("ops.jsonl"));
}

const QList<QByteArray> kOps = {
    "matmul/s-attn/cuda:0/50",  // 0
    "softmax/s-attn/cuda:0/10", // 1
    "matmul/s-mlp/cuda:1/70",   // 2
    "add/s-mlp/cpu/20",         // 3
    "copy/s-gone/cpu/5",        // 4: unknown span
    "matmul/s-attn/cuda:0/30",  // 5
};

QList<qint64> shownOps(const QTableView &view)
{
    QList<qint64> ops;
    for (int row = 0; row < view.model()->rowCount(); ++row)
        ops << view.model()->index(row, 0).data(OpIndexRole).toLongLong();
    return ops;
}

QStringList shownNames(const QTableView &view)
{
    QStringList names;
    for (int row = 0; row < view.model()->rowCount(); ++row)
        names << view.model()->index(row, 0).data().toString();
    return names;
}

void clickHeader(QTableView *view, int section)
{
    QHeaderView *header = view->horizontalHeader();
    const int x = header->sectionViewportPosition(section) + header->sectionSize(section) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
}

} // namespace

class tst_OpTablePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsBothTabs();
    void filterIsDebouncedAndShared();
    void sortByHeaderClick();
    void selectionSignals();
    void activationEmitsSpan();
    void selectOpRevealsIt();
    void selectOpsOfSpan();
    void aggregateActivationListsOps();
    void lateSpanTreeKeepsState();
    void clear();
    void millionRowsScroll();
    void firstClickSortsCostsDescending_data();
    void firstClickSortsCostsDescending();
    void spanIdsNeverElide();
    void selectSpanFromTheContextMenu();
    void csvExportOfTheFilteredRows();
    void resetView();
    void aggregatesInBackgroundWhenNotGiven();
};

void tst_OpTablePanel::showsBothTabs()
{
    OpTablePanel panel;
    QAbstractItemModelTester opTester(panel.opView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester aggTester(panel.aggregateView()->model(),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.tabs()->count(), 2);
    QCOMPARE(shownOps(*panel.opView()), (QList<qint64>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(shownNames(*panel.aggregateView()), (QStringList{QStringLiteral("matmul"), QStringLiteral("add"),
                                                              QStringLiteral("softmax"), QStringLiteral("copy")}));
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("opStatus"))->text(), QStringLiteral("6 ops"));
    QCOMPARE(panel.opView()->verticalHeader()->sectionResizeMode(0), QHeaderView::Fixed);
}

void tst_OpTablePanel::filterIsDebouncedAndShared()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("MAT"));
    QCOMPARE(panel.opView()->model()->rowCount(), 6); // not applied yet
    QTRY_COMPARE(panel.opView()->model()->rowCount(), 3);
    QCOMPARE(shownOps(*panel.opView()), (QList<qint64>{0, 2, 5}));
    QCOMPARE(shownNames(*panel.aggregateView()), QStringList{QStringLiteral("matmul")});
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("opStatus"))->text(), QStringLiteral("3 of 6 ops"));

    panel.setFilterText(QStringLiteral("attention")); // span name
    QCOMPARE(shownOps(*panel.opView()), (QList<qint64>{0, 1, 5}));
    QTest::keyClick(panel.filterEdit(), Qt::Key_Escape);
    QCOMPARE(panel.opView()->model()->rowCount(), 6);
    QCOMPARE(panel.aggregateView()->model()->rowCount(), 4);
}

void tst_OpTablePanel::sortByHeaderClick()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.resize(1400, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    clickHeader(panel.opView(), OpTableModel::DurationColumn);
    QCOMPARE(panel.opModel()->sortColumn(), int(OpTableModel::DurationColumn));
    const QList<qint64> ascending = {4, 1, 3, 5, 0, 2};
    QList<qint64> descending = ascending;
    std::reverse(descending.begin(), descending.end());
    const QList<qint64> first = shownOps(*panel.opView());
    QVERIFY(first == ascending || first == descending);
    clickHeader(panel.opView(), OpTableModel::DurationColumn);
    QCOMPARE(shownOps(*panel.opView()), first == ascending ? descending : ascending);

    panel.tabs()->setCurrentIndex(OpTablePanel::ByNameTab);
    clickHeader(panel.aggregateView(), OpAggregateModel::CountColumn);
    const QStringList names = shownNames(*panel.aggregateView());
    QVERIFY2(names.first() == QStringLiteral("matmul") || names.last() == QStringLiteral("matmul"),
             qPrintable(names.join(u',')));
}

void tst_OpTablePanel::selectionSignals()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.resize(1400, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy selected(&panel, &OpTablePanel::opSelected);
    QTableView *view = panel.opView();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(view->model()->index(2, 1)).center());
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), 2LL);
    QCOMPARE(panel.selectedOp(), 2LL);
    QTest::keyClick(view, Qt::Key_Down);
    QCOMPARE(selected.count(), 2);
    QCOMPARE(selected.at(1).at(0).toLongLong(), 3LL);
    // After sorting the same row shows another op; the signal carries the op, not the row.
    panel.opProxyModel()->sort(OpTableModel::DurationColumn, Qt::AscendingOrder);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(view->model()->index(0, 1)).center());
    QCOMPARE(selected.last().at(0).toLongLong(), 4LL);
}

void tst_OpTablePanel::activationEmitsSpan()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy activated(&panel, &OpTablePanel::spanActivated);
    panel.selectOp(2);
    QTest::keyClick(panel.opView(), Qt::Key_Return);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), loaded.trace->findSpan(std::string_view("s-mlp")));
    // An op whose span does not exist activates nothing.
    panel.selectOp(4);
    QTest::keyClick(panel.opView(), Qt::Key_Return);
    QCOMPARE(activated.count(), 1);
}

void tst_OpTablePanel::selectOpRevealsIt()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.show();
    panel.tabs()->setCurrentIndex(OpTablePanel::ByNameTab);
    panel.setFilterText(QStringLiteral("softmax"));
    QSignalSpy selected(&panel, &OpTablePanel::opSelected);
    panel.selectOp(3); // hidden by the filter
    QCOMPARE(panel.filterText(), QString());
    QCOMPARE(panel.tabs()->currentIndex(), int(OpTablePanel::AllOpsTab));
    QCOMPARE(panel.selectedOp(), 3LL);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), 3LL);
    panel.setFilterText(QStringLiteral("matmul"));
    panel.selectOp(5); // visible: the filter stays
    QCOMPARE(panel.filterText(), QStringLiteral("matmul"));
    QCOMPARE(panel.selectedOp(), 5LL);
    panel.selectOp(-1);
    panel.selectOp(100);
    QCOMPARE(panel.selectedOp(), 5LL);
}

void tst_OpTablePanel::selectOpsOfSpan()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.show();
    QSignalSpy selected(&panel, &OpTablePanel::opSelected);
    panel.selectOpsOfSpan(loaded.trace->findSpan(std::string_view("s-attn")));
    QList<qint64> ops;
    for (const QModelIndex &index : panel.opView()->selectionModel()->selectedRows())
        ops << index.data(OpIndexRole).toLongLong();
    std::sort(ops.begin(), ops.end());
    QCOMPARE(ops, (QList<qint64>{0, 1, 5}));
    QCOMPARE(selected.count(), 0);
    panel.selectOpsOfSpan(-1); // ignored
    QCOMPARE(panel.opView()->selectionModel()->selectedRows().size(), 3);
}

void tst_OpTablePanel::aggregateActivationListsOps()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.tabs()->setCurrentIndex(OpTablePanel::ByNameTab);
    QTableView *view = panel.aggregateView();
    const QModelIndex softmax = view->model()->index(2, 0);
    QCOMPARE(softmax.data().toString(), QStringLiteral("softmax"));
    // QTest delivers a double click only after a first press/release pair.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(softmax).center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(softmax).center());
    QCOMPARE(panel.tabs()->currentIndex(), int(OpTablePanel::AllOpsTab));
    QCOMPARE(panel.filterText(), QStringLiteral("softmax"));
    QCOMPARE(shownOps(*panel.opView()), QList<qint64>{1});
}

void tst_OpTablePanel::lateSpanTreeKeepsState()
{
    OpTablePanel panel;
    QAbstractItemModelTester tester(panel.opView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, {}, loaded.stats); // as the main window does: ops first, tree later
    panel.show();
    panel.opProxyModel()->sort(OpTableModel::DurationColumn, Qt::DescendingOrder);
    panel.setFilterText(QStringLiteral("cuda"));
    panel.selectOp(5);
    panel.setSpanTree(loaded.tree);
    QCOMPARE(panel.opModel()->tree(), loaded.tree.get());
    QCOMPARE(panel.opModel()->sortColumn(), int(OpTableModel::DurationColumn));
    QCOMPARE(shownOps(*panel.opView()), (QList<qint64>{2, 0, 5, 1}));
    QCOMPARE(panel.selectedOp(), 5LL);
    QCOMPARE(panel.filterText(), QStringLiteral("cuda"));
}

void tst_OpTablePanel::clear()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.selectOp(1);
    panel.clear();
    QCOMPARE(panel.opView()->model()->rowCount(), 0);
    QCOMPARE(panel.aggregateView()->model()->rowCount(), 0);
    QCOMPARE(panel.selectedOp(), -1LL);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("opStatus"))->text(), QStringLiteral("No ops"));
    panel.setSpanTree(loaded.tree); // no trace: ignored
    QCOMPARE(panel.opView()->model()->rowCount(), 0);
}

// A million rows: jumping to the end and repainting must stay interactive. Timings are
// printed, not asserted (shared machine).
void tst_OpTablePanel::millionRowsScroll()
{
    constexpr std::size_t kCount = 1000000;
    auto trace = std::make_shared<Trace>();
    const StringId names[] = {trace->strings.intern("matmul"), trace->strings.intern("softmax"),
                              trace->strings.intern("add")};
    const StringId device = trace->strings.intern("cuda:0");
    const StringId dtype = trace->strings.intern("bf16");
    const std::uint64_t dims[] = {2, 128, 768};
    const ShapeId shape = trace->shapes.intern(dims);
    trace->ops.resize(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        Op &op = trace->ops[i];
        op.opName = names[i % 3];
        op.spanId = names[i % 3];
        op.device = device;
        op.dtype = dtype;
        op.shape = shape;
        op.timestampNs = i * 1000;
        op.durationNs = (i * 7919) % 100000;
    }
    OpTablePanel panel;
    panel.resize(1400, 800);
    QElapsedTimer timer;
    timer.start();
    panel.setTrace(trace);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    qInfo("setTrace + first paint of %zu ops: %lld ms", kCount, timer.restart());
    QTableView *view = panel.opView();
    view->scrollToBottom();
    view->viewport()->repaint();
    qInfo("scroll to bottom + repaint: %lld ms", timer.restart());
    QCOMPARE(view->rowAt(view->viewport()->height() - 2), int(kCount) - 1);
    for (int i = 0; i < 20; ++i) {
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() * i / 20);
        view->viewport()->repaint();
    }
    qInfo("20 scroll jumps with repaint: %lld ms", timer.restart());
    clickHeader(view, OpTableModel::DurationColumn);
    view->viewport()->repaint();
    qInfo("sort by duration from the header + repaint: %lld ms", timer.restart());
    QCOMPARE(panel.opModel()->sortColumn(), int(OpTableModel::DurationColumn));
    panel.setFilterText(QStringLiteral("softmax"));
    view->viewport()->repaint();
    qInfo("filter + repaint: %lld ms", timer.restart());
    QCOMPARE(view->model()->rowCount(), int(kCount / 3));
}

void tst_OpTablePanel::firstClickSortsCostsDescending_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("duration: longest first")
        << int(OpTableModel::DurationColumn) << int(Qt::DescendingOrder) << QList<qint64>{2, 0, 5, 3, 1, 4};
    QTest::newRow("start: earliest first")
        << int(OpTableModel::StartColumn) << int(Qt::AscendingOrder) << QList<qint64>{0, 1, 2, 3, 4, 5};
}

void tst_OpTablePanel::firstClickSortsCostsDescending()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QList<qint64>, expected);
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.resize(1400, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    clickHeader(panel.opView(), column);
    QCOMPARE(int(panel.opModel()->sortOrder()), order);
    QCOMPARE(shownOps(*panel.opView()), expected);
    // The sort arrow never clips the header text.
    QHeaderView *header = panel.opView()->horizontalHeader();
    for (int c = 0; c < OpTableModel::ColumnCount; ++c)
        QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c), qPrintable(QString::number(c)));
}

void tst_OpTablePanel::spanIdsNeverElide()
{
    QList<QByteArray> ops = kOps;
    ops << "gelu/span-with-a-long-id-0123456789-abcdefghijklmnop/cpu/3";
    OpTablePanel panel;
    const Loaded loaded = load(ops);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QHeaderView *header = panel.opView()->horizontalHeader();
    // The widest span id fits (its op is the last row, so it is measured from the trace, not
    // from the rows sampled), and the column cannot be dragged narrower.
    const int idWidth = panel.opView()->fontMetrics().horizontalAdvance(
        QStringLiteral("span-with-a-long-id-0123456789-abcdefghijklmnop"));
    QTRY_VERIFY(header->sectionSize(OpTableModel::SpanColumn) >= idWidth);
    header->resizeSection(OpTableModel::SpanColumn, 30);
    QTRY_VERIFY(header->sectionSize(OpTableModel::SpanColumn) >= idWidth);
    QCOMPARE(panel.opView()->textElideMode(), Qt::ElideRight);
}

void tst_OpTablePanel::selectSpanFromTheContextMenu()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    QSignalSpy spans(&panel, &OpTablePanel::spanActivated);
    std::unique_ptr<QMenu> menu(panel.opActions()->buildContextMenu(panel.opView()->model()->index(2, 3)));
    QAction *select = nullptr;
    for (QAction *a : menu->actions())
        if (a->text().remove(u'&') == QStringLiteral("Select Span"))
            select = a;
    QVERIFY(select);
    QVERIFY(select->isEnabled());
    select->trigger();
    QCOMPARE(spans.count(), 1);
    QCOMPARE(spans.at(0).at(0).toLongLong(), loaded.trace->findSpan(std::string_view("s-mlp")));
    // An op whose span does not exist cannot select it.
    std::unique_ptr<QMenu> other(panel.opActions()->buildContextMenu(panel.opView()->model()->index(4, 0)));
    QVERIFY(!select->isEnabled());
}

void tst_OpTablePanel::csvExportOfTheFilteredRows()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.setFilterText(QStringLiteral("matmul"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ops.csv"));
    QSignalSpy done(panel.opActions(), &TableActions::exportFinished);
    panel.opActions()->exportCsv(path);
    QTRY_COMPARE(done.count(), 1);
    QVERIFY(done.at(0).at(0).toBool());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), 5); // header, three matmuls, the empty rest after the last CRLF
    QCOMPARE(
        lines.at(0),
        QByteArray("Op,Span,Shape,Dtype,Device,Start,Duration,In bytes,Out bytes,Bytes moved,Bytes/ns,% of span\r"));
    QCOMPARE(lines.at(1),
             QByteArray("matmul,s-attn,\"[2, 3]\",f32,cuda:0,10 ns,50 ns,24 B,24 B,48 B,0.960 B/ns,n/a\r"));
}

void tst_OpTablePanel::resetView()
{
    OpTablePanel panel;
    const Loaded loaded = load(kOps);
    panel.setTrace(loaded.trace, loaded.tree, loaded.stats);
    panel.setFilterText(QStringLiteral("matmul"));
    panel.opView()->sortByColumn(OpTableModel::DurationColumn, Qt::DescendingOrder);
    panel.selectOp(2);
    panel.tabs()->setCurrentIndex(OpTablePanel::ByNameTab);
    panel.resetView();
    QVERIFY(panel.filterText().isEmpty());
    QCOMPARE(panel.opModel()->sortColumn(), -1);
    QCOMPARE(panel.selectedOp(), qint64(-1));
    QCOMPARE(panel.tabs()->currentIndex(), int(OpTablePanel::AllOpsTab));
    QCOMPARE(shownOps(*panel.opView()), (QList<qint64>{0, 1, 2, 3, 4, 5}));
}

QTEST_MAIN(tst_OpTablePanel)
void tst_OpTablePanel::aggregatesInBackgroundWhenNotGiven()
{
    // Without the loader's statistics the panel must not walk every op on the GUI thread
    // (0.8 M at 1 GB): the aggregate is computed in the background and says so meanwhile.
    OpTablePanel panel;
    QAbstractItemModelTester aggTester(panel.aggregateView()->model(),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded loaded = load(kOps);
    QSignalSpy applied(&panel, &OpTablePanel::timeRangeApplied);
    panel.setTrace(loaded.trace, loaded.tree);
    QCOMPARE(panel.aggregateView()->model()->rowCount(), 0);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("opStatus"))->text(), QStringLiteral("6 ops (aggregating…)"));
    QVERIFY(applied.wait());
    QCOMPARE(shownNames(*panel.aggregateView()), (QStringList{QStringLiteral("matmul"), QStringLiteral("add"),
                                                              QStringLiteral("softmax"), QStringLiteral("copy")}));
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("opStatus"))->text(), QStringLiteral("6 ops"));
}

#include "tst_optablepanel.moc"
