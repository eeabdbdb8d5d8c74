// SPDX-License-Identifier: MIT
// The span tree's comparison columns (issue #15 item 3): while a comparison is shown, the
// span tree of the window's trace (the candidate) gains baseline, Δ and Δ% columns for
// duration and self time, sortable by Δ through its proxy (on a worker thread for big trees)
// and coloured faster / slower from the palette; closing the comparison removes them.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTableView>
#include <QTreeView>

#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "ui/compare/comparecontroller.h"
#include "ui/compare/comparepanel.h"
#include "ui/delegates/spanitemdelegate.h"
#include "ui/mainwindow.h"
#include "ui/optablepanel.h"
#include "ui/spantreepanel.h"
#include "ui/style/deltapalette.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_CompareColumns : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void columns_data();
    void columns();
    void sortByDelta_data();
    void sortByDelta();
    void closeRemovesColumns();
    void closeReleasesTheBaseline();
    void recompareWhileSortedByDelta_data();
    void recompareWhileSortedByDelta();
    void opAggregate_data();
    void opAggregate();

private:
    QString write(const QString &name, const QByteArray &content);
    bool compare(MainWindow &window, const QString &baseline, const QString &candidate);

    QTemporaryDir m_dir;
};

namespace {

QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

class ProbeDelegate : public SpanItemDelegate
{
public:
    using SpanItemDelegate::initStyleOption;
};

// Self times: step 0 -> 5, fwd 50 -> 40, bwd 50 -> 110; `new` only in the candidate.
const QByteArray kBaseline("r=step*:-:0:100 a=fwd:r:0:50 b=bwd:r:50:50");
const QByteArray kCandidate("r=step*:-:0:160 a=fwd:r:0:40 b=bwd:r:50:110 n=new:r:150:5");

/// The proxy index of the span named \a id's row (top level or under the root).
QModelIndex rowOf(const SpanTreePanel *panel, const char *id, int column)
{
    const SpanTreeModel *model = panel->model();
    const Trace *trace = model->trace();
    for (std::size_t s = 0; s < trace->spans.size(); ++s) {
        if (trace->str(trace->spans[s].id) == std::string_view(id))
            return panel->proxyModel()->mapFromSource(model->indexForSpan(std::int64_t(s), column));
    }
    return {};
}

QByteArray op(const char *name, int duration, int bytes)
{
    return QByteArray("{\"kind\":\"op\",\"span_id\":\"a\",\"op_name\":\"") + name
           + "\",\"inputs\":[],\"output\":\"t\",\"shape\":[4],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":"
           + QByteArray::number(duration)
           + ",\"timestamp_ns\":1,\"input_dense_bytes\":0,\"output_dense_bytes\":" + QByteArray::number(bytes) + "}\n";
}

QByteArray withOps(const QByteArray &spec, const QByteArray &ops)
{
    QByteArray text = TestFixtures::spansJsonl(spec);
    text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), ops);
    return text;
}

QString text(const SpanTreePanel *panel, const char *id, int column)
{
    return rowOf(panel, id, column).data().toString();
}

} // namespace

QString tst_CompareColumns::write(const QString &name, const QByteArray &content)
{
    return TestFixtures::writeFile(m_dir.filePath(name), content);
}

bool tst_CompareColumns::compare(MainWindow &window, const QString &baseline, const QString &candidate)
{
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    window.openFile(candidate);
    window.compareWith(baseline);
    if (!compared.wait(20000))
        return false;
    return compared.at(0).at(0).toBool();
}

void tst_CompareColumns::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_CompareColumns::cleanup()
{
    BackgroundSort::setBackgroundRows(100000);
}

void tst_CompareColumns::columns_data()
{
    QTest::addColumn<QByteArray>("span");
    QTest::addColumn<QStringList>("cells"); // baseline, Δ, Δ% duration; baseline, Δ, Δ% self

    QTest::newRow("slower") << QByteArray("b") << list({"50 ns", "+60 ns", "+120 %", "50 ns", "+60 ns", "+120 %"});
    QTest::newRow("faster") << QByteArray("a") << list({"50 ns", "−10 ns", "−20 %", "50 ns", "−10 ns", "−20 %"});
    // The step's own time grew from 0: no percentage of nothing.
    QTest::newRow("from zero self") << QByteArray("r") << list({"100 ns", "+60 ns", "+60 %", "0 ns", "+5 ns", "—"});
    QTest::newRow("only in candidate") << QByteArray("n") << list({"—", "—", "—", "—", "—", "—"});
}

void tst_CompareColumns::columns()
{
    QFETCH(QByteArray, span);
    QFETCH(QStringList, cells);

    MainWindow window;
    window.show();
    SpanTreePanel *tree = window.spanTreePanel();
    QAbstractItemModelTester modelTester(tree->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(tree->proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(compare(window, write(QStringLiteral("base.jsonl"), TestFixtures::spansJsonl(kBaseline)),
                    write(QStringLiteral("cand.jsonl"), TestFixtures::spansJsonl(kCandidate))));
    QTRY_COMPARE(tree->proxyModel()->columnCount(), int(SpanTreeModel::ComparisonColumnCount));
    QCOMPARE(tree->view()->header()->count(), int(SpanTreeModel::ComparisonColumnCount));
    QCOMPARE(tree->proxyModel()->headerData(SpanTreeModel::DeltaSelfColumn, Qt::Horizontal).toString(),
             QStringLiteral("Δ self"));
    const int columns[] = {SpanTreeModel::BaselineTotalColumn,     SpanTreeModel::DeltaTotalColumn,
                           SpanTreeModel::DeltaTotalPercentColumn, SpanTreeModel::BaselineSelfColumn,
                           SpanTreeModel::DeltaSelfColumn,         SpanTreeModel::DeltaSelfPercentColumn};
    QStringList got;
    for (const int c : columns)
        got << text(tree, span.constData(), c);
    QCOMPARE(got, cells);

    // Colour: slower / faster from the palette on the Δ cells, plain text without a Δ.
    ProbeDelegate probe;
    QStyleOptionViewItem o;
    o.initFrom(tree->view());
    const QModelIndex delta = rowOf(tree, span.constData(), SpanTreeModel::DeltaSelfColumn);
    probe.initStyleOption(&o, delta);
    const QString shown = delta.data().toString();
    const QColor want = shown.startsWith(u'+')            ? DeltaPalette::slower(tree->view()->palette())
                        : shown.startsWith(QChar(0x2212)) ? DeltaPalette::faster(tree->view()->palette())
                                                          : tree->view()->palette().color(QPalette::Text);
    QCOMPARE(o.palette.color(QPalette::Text), want);
}

void tst_CompareColumns::sortByDelta_data()
{
    QTest::addColumn<bool>("background");
    QTest::newRow("on the GUI thread") << false;
    QTest::newRow("on a worker") << true;
}

void tst_CompareColumns::sortByDelta()
{
    QFETCH(bool, background);
    if (background)
        BackgroundSort::setBackgroundRows(1); // every tree takes the worker path

    MainWindow window;
    window.show();
    SpanTreePanel *tree = window.spanTreePanel();
    QVERIFY(compare(window, write(QStringLiteral("sort-base.jsonl"), TestFixtures::spansJsonl(kBaseline)),
                    write(QStringLiteral("sort-cand.jsonl"), TestFixtures::spansJsonl(kCandidate))));
    QTRY_COMPARE(tree->proxyModel()->columnCount(), int(SpanTreeModel::ComparisonColumnCount));
    SpanFilterProxyModel *proxy = tree->proxyModel();
    const QModelIndex root = proxy->index(0, 0);
    QCOMPARE(proxy->rowCount(root), 3);
    const auto childNames = [&] {
        QStringList names;
        for (int r = 0; r < proxy->rowCount(root); ++r)
            names << proxy->index(r, SpanTreeModel::NameColumn, root).data().toString();
        return names;
    };

    // The header click's first order is descending: the largest slowdown first; a span
    // without a baseline (unknown Δ) comes after every known value in ascending order.
    QCOMPARE(proxy->headerData(SpanTreeModel::DeltaSelfColumn, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
             int(Qt::DescendingOrder));
    tree->view()->sortByColumn(SpanTreeModel::DeltaSelfColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!proxy->isSorting());
    QTRY_COMPARE(childNames(), list({"fwd", "bwd", "new"}));
    tree->view()->sortByColumn(SpanTreeModel::DeltaSelfColumn, Qt::DescendingOrder);
    QTRY_VERIFY(!proxy->isSorting());
    QTRY_COMPARE(childNames(), list({"new", "bwd", "fwd"}));
    tree->view()->sortByColumn(SpanTreeModel::DeltaTotalPercentColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!proxy->isSorting());
    QTRY_COMPARE(childNames(), list({"fwd", "bwd", "new"}));
    tree->view()->sortByColumn(SpanTreeModel::BaselineTotalColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!proxy->isSorting());
    QTRY_COMPARE(childNames().first(), QStringLiteral("fwd")); // 50 = 50: tree order
}

void tst_CompareColumns::closeRemovesColumns()
{
    MainWindow window;
    window.show();
    SpanTreePanel *tree = window.spanTreePanel();
    QAbstractItemModelTester modelTester(tree->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(tree->proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(compare(window, write(QStringLiteral("close-base.jsonl"), TestFixtures::spansJsonl(kBaseline)),
                    write(QStringLiteral("close-cand.jsonl"), TestFixtures::spansJsonl(kCandidate))));
    QTRY_COMPARE(tree->proxyModel()->columnCount(), int(SpanTreeModel::ComparisonColumnCount));
    // Sorted by a comparison column when it goes: the tree falls back to tree order.
    tree->view()->sortByColumn(SpanTreeModel::DeltaSelfColumn, Qt::DescendingOrder);
    QPushButton *close = window.comparePanel()->closeButton();
    QVERIFY(close->isVisible());
    close->click();
    QTRY_COMPARE(tree->proxyModel()->columnCount(), int(SpanTreeModel::ColumnCount));
    QCOMPARE(tree->view()->header()->count(), int(SpanTreeModel::ColumnCount));
    QCOMPARE(tree->proxyModel()->sortColumn(), -1);
    QVERIFY(!tree->model()->comparison());
    QVERIFY(!close->isVisible());
    const QModelIndex root = tree->proxyModel()->index(0, 0);
    QCOMPARE(tree->proxyModel()->index(0, SpanTreeModel::NameColumn, root).data().toString(), QStringLiteral("fwd"));
    QVERIFY(!window.comparePanel()->summaryLabel()->isVisible());
}

void tst_CompareColumns::closeReleasesTheBaseline()
{
    // Closing frees the baseline run (on a worker: a big one takes longer than a GUI pass),
    // and nothing is left that shows it.
    MainWindow window;
    window.show();
    QVERIFY(compare(window, write(QStringLiteral("free-base.jsonl"), TestFixtures::spansJsonl(kBaseline)),
                    write(QStringLiteral("free-cand.jsonl"), TestFixtures::spansJsonl(kCandidate))));
    std::weak_ptr<const LoadedTrace> baseline = window.compareController()->baseline();
    std::weak_ptr<const TraceComparison> comparison = window.compareController()->comparison();
    QVERIFY(!baseline.expired());
    window.comparePanel()->closeButton()->click();
    QVERIFY(!window.spanTreePanel()->model()->comparison());
    QVERIFY(!window.opTablePanel()->aggregateModel()->comparison());
    QCOMPARE(window.opTablePanel()->aggregateModel()->columnCount(), int(OpAggregateModel::ColumnCount));
    QCOMPARE(window.spanTreePanel()->proxyModel()->columnCount(), int(SpanTreeModel::ColumnCount));
    QTRY_VERIFY(comparison.expired());
    QTRY_VERIFY(baseline.expired());
    QVERIFY(window.loadedTrace()); // the window's own run stays
}

void tst_CompareColumns::recompareWhileSortedByDelta_data()
{
    QTest::addColumn<bool>("background");
    QTest::newRow("on the GUI thread") << false;
    QTest::newRow("on a worker") << true;
}

void tst_CompareColumns::recompareWhileSortedByDelta()
{
    // Comparing again (another baseline) while the tree is sorted by a Δ column keeps that
    // order with the new values: the Δ columns go while the new baseline loads and come back
    // sorted as they were.
    QFETCH(bool, background);
    if (background)
        BackgroundSort::setBackgroundRows(1); // every tree takes the worker path
    MainWindow window;
    window.show();
    SpanTreePanel *tree = window.spanTreePanel();
    QAbstractItemModelTester proxyTester(tree->proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(compare(window, write(QStringLiteral("re-base.jsonl"), TestFixtures::spansJsonl(kBaseline)),
                    write(QStringLiteral("re-cand.jsonl"), TestFixtures::spansJsonl(kCandidate))));
    QTRY_COMPARE(tree->proxyModel()->columnCount(), int(SpanTreeModel::ComparisonColumnCount));
    SpanFilterProxyModel *proxy = tree->proxyModel();
    const auto childNames = [&] {
        const QModelIndex root = proxy->index(0, 0);
        QStringList names;
        for (int r = 0; r < proxy->rowCount(root); ++r)
            names << proxy->index(r, SpanTreeModel::NameColumn, root).data().toString();
        return names;
    };
    tree->view()->sortByColumn(SpanTreeModel::DeltaSelfColumn, Qt::DescendingOrder);
    QTRY_VERIFY(!proxy->isSorting());
    QTRY_COMPARE(childNames(), list({"new", "bwd", "fwd"}));

    // Against this baseline fwd got slower (+30 ns self) and bwd faster (−40 ns).
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    window.compareWith(write(QStringLiteral("re-base2.jsonl"),
                             TestFixtures::spansJsonl("r=step*:-:0:100 a=fwd:r:0:10 b=bwd:r:50:150")));
    QVERIFY(compared.wait(20000));
    QVERIFY(compared.at(0).at(0).toBool());
    QTRY_COMPARE(proxy->columnCount(), int(SpanTreeModel::ComparisonColumnCount));
    QTRY_COMPARE(proxy->sortColumn(), int(SpanTreeModel::DeltaSelfColumn)); // from the event loop
    QTRY_VERIFY(!proxy->isSorting());
    QCOMPARE(proxy->sortOrder(), Qt::DescendingOrder);
    QCOMPARE(tree->view()->header()->sortIndicatorSection(), int(SpanTreeModel::DeltaSelfColumn));
    QCOMPARE(tree->view()->header()->sortIndicatorOrder(), Qt::DescendingOrder);
    QTRY_COMPARE(childNames(), list({"new", "fwd", "bwd"}));
    QCOMPARE(text(tree, "a", SpanTreeModel::DeltaSelfColumn), QStringLiteral("+30 ns"));

    // Closed, the tree goes back to tree order.
    window.comparePanel()->closeButton()->click();
    QCOMPARE(proxy->sortColumn(), -1);
    QTRY_COMPARE(childNames(), list({"fwd", "bwd", "new"}));
}

void tst_CompareColumns::opAggregate_data()
{
    QTest::addColumn<bool>("byShape");
    QTest::newRow("by op name") << false;
    QTest::newRow("by op, shape, dtype and device") << true;
}

void tst_CompareColumns::opAggregate()
{
    QFETCH(bool, byShape);
    // softmax 3x slower and twice the bytes; matmul unchanged; gelu only in the candidate.
    const QByteArray spec("r=step*:-:0:1000 a=fwd:r:0:500");
    MainWindow window;
    window.show();
    OpAggregateModel *model = window.opTablePanel()->aggregateModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(compare(
        window, write(QStringLiteral("ops-base.jsonl"), withOps(spec, op("softmax", 100, 16) + op("matmul", 50, 32))),
        write(QStringLiteral("ops-cand.jsonl"),
              withOps(spec, op("softmax", 300, 32) + op("matmul", 50, 32) + op("gelu", 7, 16)))));
    QTRY_COMPARE(model->columnCount(), int(OpAggregateModel::ComparisonColumnCount));
    if (byShape) {
        window.opTablePanel()->setGrouping(OpGrouping::NameShapeDtypeDevice);
        QTRY_COMPARE(model->grouping(), OpGrouping::NameShapeDtypeDevice);
        QTRY_VERIFY(!model->isPending());
    }
    QCOMPARE(model->columnCount(), int(OpAggregateModel::ComparisonColumnCount));
    const auto row = [&](const QString &name) {
        QStringList cells;
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, OpAggregateModel::NameColumn).data().toString() != name)
                continue;
            for (int c = OpAggregateModel::BaselineTotalColumn; c < OpAggregateModel::ComparisonColumnCount; ++c)
                cells << model->index(r, c).data().toString();
        }
        return cells;
    };
    QCOMPARE(row(QStringLiteral("softmax")), list({"100 ns", "+200 ns", "+200 %", "16 B", "+16 B", "+100 %"}));
    QCOMPARE(row(QStringLiteral("matmul")), list({"50 ns", "0 ns", "0 %", "32 B", "0 B", "0 %"}));
    QCOMPARE(row(QStringLiteral("gelu")), list({"—", "+7 ns", "new", "—", "+16 B", "new"}));

    // Sorted by Δ total, largest slowdown first, through the panel's proxy.
    QTableView *view = window.opTablePanel()->aggregateView();
    view->sortByColumn(OpAggregateModel::DeltaTotalColumn, Qt::DescendingOrder);
    QCOMPARE(view->model()->index(0, OpAggregateModel::NameColumn).data().toString(), QStringLiteral("softmax"));
    QCOMPARE(view->model()->index(0, OpAggregateModel::DeltaTotalColumn).data(DeltaRole).toLongLong(), 200);

    window.comparePanel()->closeButton()->click();
    QTRY_COMPARE(model->columnCount(), int(OpAggregateModel::ColumnCount));
}

QTEST_MAIN(tst_CompareColumns)
#include "tst_comparecolumns.moc"
