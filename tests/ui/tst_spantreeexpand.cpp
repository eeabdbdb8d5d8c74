// SPDX-License-Identifier: MIT
// Expand All in the span tree: level by level, in slices, bounded, stoppable; '*' and Expand
// All Below open one subtree; a sort of a big tree runs off the GUI thread and keeps what is open.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <cstdio>

#include "core/analysis/spantree.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"
#include "ui/spantreepanel.h"

using namespace TraceInspector;

class tst_SpanTreeExpand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanup();
    void expandsEverythingOfASmallTree_data();
    void expandsEverythingOfASmallTree();
    void stopsAtTheRowLimitInLevelOrder();
    void stopKeepsWhatIsOpen();
    void expandAllBelowAndAsterisk();
    void backgroundSortKeepsExpandedRows();
    void filterAndRangeOfASortedTreeInBackground_data();
    void filterAndRangeOfASortedTreeInBackground();
    void landingKeepsExpansionAndSelection_data();
    void landingKeepsExpansionAndSelection();
    void newTreeInASortedViewSortsInBackground();
};

namespace {

struct Shape {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const SpanTree> tree;
};

// One root "r" with \a fanout children "c<i>", each with \a leaves children "c<i>.<j>";
// durations fall with the index so that a sort by duration reverses them.
Shape wideTree(int fanout, int leaves)
{
    auto trace = std::make_shared<Trace>();
    const StringId name = trace->strings.intern("work");
    const auto add = [&](const std::string &id, const std::string &parent, std::uint64_t start,
                         std::uint64_t duration) {
        Span s;
        s.id = trace->strings.intern(id);
        s.parentId = parent.empty() ? kNoString : trace->strings.intern(parent);
        s.name = name;
        s.startNs = start;
        s.durationNs = duration;
        s.closed = true;
        trace->spans.push_back(s);
    };
    add("r", "", 0, 1000000000);
    char id[32];
    char parent[32];
    for (int i = 0; i < fanout; ++i) {
        std::snprintf(parent, sizeof parent, "c%05d", i);
        add(parent, "r", std::uint64_t(i) * 1000, std::uint64_t(fanout - i) * 1000);
        for (int j = 0; j < leaves; ++j) {
            std::snprintf(id, sizeof id, "c%05d.%05d", i, j);
            add(id, parent, std::uint64_t(i) * 1000 + std::uint64_t(j), std::uint64_t(leaves - j));
        }
    }
    std::sort(trace->spans.begin(), trace->spans.end(),
              [&trace](const Span &a, const Span &b) { return trace->strings.less(a.id, b.id); });
    Shape shape;
    shape.tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    shape.trace = std::move(trace);
    return shape;
}

QModelIndex rowOf(const SpanTreePanel &panel, const Shape &shape, const char *id)
{
    return panel.proxyModel()->mapFromSource(panel.model()->indexForSpan(shape.trace->findSpan(std::string_view(id))));
}

} // namespace

void tst_SpanTreeExpand::cleanup()
{
    BackgroundSort::setBackgroundRows(100000);
}

void tst_SpanTreeExpand::expandsEverythingOfASmallTree_data()
{
    QTest::addColumn<int>("fanout");
    QTest::addColumn<int>("leaves");
    QTest::newRow("one level") << 30 << 0;
    QTest::newRow("two levels") << 20 << 5;
    QTest::newRow("many slices") << 400 << 40; // 16 421 rows: more than one slice
}

void tst_SpanTreeExpand::expandsEverythingOfASmallTree()
{
    QFETCH(int, fanout);
    QFETCH(int, leaves);
    const Shape shape = wideTree(fanout, leaves);
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    QSignalSpy finished(&panel, &SpanTreePanel::expandAllFinished);
    panel.expandAll();
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(!panel.isExpandingAll());
    QVERIFY(!panel.expandAllTruncated());
    QCOMPARE(panel.expandAllRowCount(), std::size_t(1 + fanout + fanout * leaves));
    QTreeView *view = panel.view();
    QVERIFY(view->isExpanded(rowOf(panel, shape, "r")));
    for (int i = 0; i < fanout; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "c%05d", i);
        if (leaves > 0)
            QVERIFY(view->isExpanded(rowOf(panel, shape, id)));
    }
}

void tst_SpanTreeExpand::stopsAtTheRowLimitInLevelOrder()
{
    // 1 + 100 + 100 × 300 rows: the root and its children open, then children one by one
    // until the next would pass the limit.
    const Shape shape = wideTree(100, 300);
    SpanTreePanel panel;
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    panel.collapseAll(); // a small trace opens two levels when it loads
    QSignalSpy finished(&panel, &SpanTreePanel::expandAllFinished);
    panel.expandAll();
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(panel.expandAllTruncated());
    const std::size_t opened = (SpanTreePanel::kExpandAllRowLimit - 101) / 300;
    QCOMPARE(panel.expandAllRowCount(), 101 + opened * 300);
    QVERIFY(panel.expandAllRowCount() <= SpanTreePanel::kExpandAllRowLimit);
    QTreeView *view = panel.view();
    for (std::size_t i = 0; i < 100; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "c%05zu", i);
        QCOMPARE(view->isExpanded(rowOf(panel, shape, id)), i < opened);
    }
    // The status says where it stopped and how to go on.
    QVERIFY(
        panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text().contains(QStringLiteral("Expand All Below")));
}

void tst_SpanTreeExpand::stopKeepsWhatIsOpen()
{
    const Shape shape = wideTree(2000, 8); // 18 001 rows: many slices
    SpanTreePanel panel;
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    panel.collapseAll(); // a small trace opens two levels when it loads
    QSignalSpy finished(&panel, &SpanTreePanel::expandAllFinished);
    panel.expandAll();
    // The first slice has opened the root at least; the rest waits for the event loop.
    QVERIFY(panel.view()->isExpanded(rowOf(panel, shape, "r")));
    if (!panel.isExpandingAll())
        QSKIP("this machine opened everything in the first slice");
    // Whether the first slice reached the last parent depends on the machine's speed (under
    // ASan it may open every parent and stop among the leaves): what Stop promises is that what
    // is open stays open and nothing more opens afterwards.
    const auto openParents = [&] {
        int open = 0;
        char id[32];
        for (int i = 0; i < 2000; ++i) {
            std::snprintf(id, sizeof id, "c%05d", i);
            open += panel.view()->isExpanded(rowOf(panel, shape, id)) ? 1 : 0;
        }
        return open;
    };
    panel.stopExpandAll();
    QCOMPARE(finished.size(), 1);
    QVERIFY(!panel.isExpandingAll());
    const int openAtStop = openParents();
    for (int i = 0; i < 20; ++i)
        QCoreApplication::processEvents();
    QCOMPARE(finished.size(), 1);
    QVERIFY(!panel.isExpandingAll());
    QVERIFY(panel.view()->isExpanded(rowOf(panel, shape, "r")));
    QCOMPARE(openParents(), openAtStop);
}

void tst_SpanTreeExpand::expandAllBelowAndAsterisk()
{
    const Shape shape = wideTree(10, 4);
    SpanTreePanel panel;
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    panel.collapseAll(); // a small trace opens two levels when it loads
    QTreeView *view = panel.view();
    QSignalSpy finished(&panel, &SpanTreePanel::expandAllFinished);
    panel.expandAllBelow(shape.trace->findSpan(std::string_view("c00003")));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(view->isExpanded(rowOf(panel, shape, "r"))); // its ancestors open to show it
    QVERIFY(view->isExpanded(rowOf(panel, shape, "c00003")));
    QVERIFY(!view->isExpanded(rowOf(panel, shape, "c00004")));

    // '*' on the current row does the same, bounded, instead of QTreeView's eager expand.
    view->setCurrentIndex(rowOf(panel, shape, "c00007"));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Asterisk);
    QTRY_COMPARE(finished.size(), 2);
    QVERIFY(view->isExpanded(rowOf(panel, shape, "c00007")));
    QVERIFY(!view->isExpanded(rowOf(panel, shape, "c00008")));

    panel.collapseAll();
    QVERIFY(!view->isExpanded(rowOf(panel, shape, "r")));
}

void tst_SpanTreeExpand::backgroundSortKeepsExpandedRows()
{
    BackgroundSort::setBackgroundRows(0); // this small tree takes the big trees' path
    const Shape shape = wideTree(50, 3);
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    QSignalSpy finished(&panel, &SpanTreePanel::expandAllFinished);
    panel.expandAll();
    QTRY_COMPARE(finished.size(), 1);
    QTreeView *view = panel.view();
    view->setCurrentIndex(rowOf(panel, shape, "c00010.00001"));
    view->sortByColumn(SpanTreeModel::DurationColumn, Qt::AscendingOrder);
    QVERIFY(panel.proxyModel()->isSorting());
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text().contains(QStringLiteral("sorting")));
    QTRY_VERIFY(!panel.proxyModel()->isSorting());
    QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text().contains(QStringLiteral("sorting")));
    // Shortest first: the last child comes first now, and everything open stays open.
    const QModelIndex root = rowOf(panel, shape, "r");
    QCOMPARE(panel.proxyModel()->index(0, 0, root).internalId(),
             quintptr(shape.trace->findSpan(std::string_view("c00049"))));
    for (int i = 0; i < 50; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "c%05d", i);
        QVERIFY(view->isExpanded(rowOf(panel, shape, id)));
    }
    QCOMPARE(view->currentIndex().internalId(), quintptr(shape.trace->findSpan(std::string_view("c00010.00001"))));
}

void tst_SpanTreeExpand::filterAndRangeOfASortedTreeInBackground_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<quint64>("rangeBegin");
    QTest::addColumn<quint64>("rangeEnd"); // begin == end: no range
    QTest::addColumn<QString>("status");
    QTest::addColumn<int>("children"); // of the root, once laid out
    QTest::newRow("filter") << QStringLiteral("c00010") << quint64(0) << quint64(0)
                            << QStringLiteral("4 of 201 spans match") << 1;
    QTest::newRow("time range") << QString() << quint64(10000) << quint64(12000)
                                << QStringLiteral("19 of 201 spans in the time range") << 12;
}

void tst_SpanTreeExpand::filterAndRangeOfASortedTreeInBackground()
{
    // A filter or time range of a sorted big tree is laid out on a worker with a busy state;
    // selecting a span the filter hides clears the filter and selects it once laid out.
    QFETCH(QString, text);
    QFETCH(quint64, rangeBegin);
    QFETCH(quint64, rangeEnd);
    QFETCH(QString, status);
    QFETCH(int, children);
    BackgroundSort::setBackgroundRows(0); // this small tree takes the big trees' path
    const Shape shape = wideTree(50, 3);
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    QTreeView *view = panel.view();
    auto *statusLabel = panel.findChild<QLabel *>(QStringLiteral("spanStatus"));
    view->sortByColumn(SpanTreeModel::DurationColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!panel.proxyModel()->isSorting());

    if (!text.isEmpty())
        panel.setFilterText(text);
    else
        panel.setTimeRange({rangeBegin, rangeEnd});
    QVERIFY(panel.proxyModel()->isSorting());
    QVERIFY(statusLabel->text().contains(QStringLiteral("sorting")));
    QCOMPARE(view->viewport()->cursor().shape(), Qt::BusyCursor);
    QTRY_VERIFY(!panel.proxyModel()->isSorting());
    QVERIFY2(statusLabel->text().startsWith(status), qPrintable(statusLabel->text()));
    const QModelIndex root = rowOf(panel, shape, "r");
    QCOMPARE(panel.proxyModel()->rowCount(root), children);
    // Still sorted by duration, shortest first, within what is kept.
    for (int row = 1; row < children; ++row) {
        const auto duration = [&](int r) {
            return shape.tree->durationNs(panel.proxyModel()->index(r, 0, root).internalId());
        };
        QVERIFY(duration(row - 1) <= duration(row));
    }

    if (text.isEmpty())
        return; // a time range stays when a span is selected; the rest is about the filter
    const qint64 hidden = shape.trace->findSpan(std::string_view("c00020.00001"));
    QVERIFY(!rowOf(panel, shape, "c00020.00001").isValid());
    panel.selectSpan(hidden);
    QCOMPARE(panel.filterText(), QString());
    QTRY_COMPARE(qint64(view->currentIndex().internalId()), hidden);
    QVERIFY(!panel.proxyModel()->isSorting());
    QVERIFY(view->isExpanded(rowOf(panel, shape, "c00020")));
}

void tst_SpanTreeExpand::landingKeepsExpansionAndSelection_data()
{
    QTest::addColumn<bool>("background");
    QTest::newRow("on the GUI thread") << false;
    QTest::newRow("laid out on a worker") << true;
}

void tst_SpanTreeExpand::landingKeepsExpansionAndSelection()
{
    // However a new layout of a sorted tree lands, the rows still shown keep their state:
    // open nodes stay open, the current and selected span stay current and selected.
    QFETCH(bool, background);
    if (background)
        BackgroundSort::setBackgroundRows(0); // this small tree takes the big trees' path
    const Shape shape = wideTree(50, 3);
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setTrace(shape.trace, shape.tree);
    panel.show();
    QSignalSpy finished(&panel, &SpanTreePanel::expandAllFinished);
    panel.expandAll();
    QTRY_COMPARE(finished.size(), 1);
    QTreeView *view = panel.view();
    view->sortByColumn(SpanTreeModel::DurationColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!panel.proxyModel()->isSorting());
    view->collapse(rowOf(panel, shape, "c00011"));
    const qint64 selected = shape.trace->findSpan(std::string_view("c00010.00001"));
    view->setCurrentIndex(rowOf(panel, shape, "c00010.00001"));
    const auto expanded = [&](int i) {
        char id[32];
        std::snprintf(id, sizeof id, "c%05d", i);
        return view->isExpanded(rowOf(panel, shape, id));
    };

    // A time range: nothing opens on its own (a filter opens the way to its matches).
    panel.setTimeRange({10000, 12000});
    QCOMPARE(panel.proxyModel()->isSorting(), background);
    QTRY_VERIFY(!panel.proxyModel()->isSorting());
    const QModelIndex root = rowOf(panel, shape, "r");
    QCOMPARE(panel.proxyModel()->rowCount(root), 12);
    QVERIFY(view->isExpanded(root));
    QVERIFY(expanded(10));
    QVERIFY(!expanded(11));
    QCOMPARE(qint64(view->currentIndex().internalId()), selected);
    QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), view->currentIndex().parent()));

    // Every row back, in the same order: the rows shown throughout keep their state.
    panel.setTimeRange({});
    QTRY_VERIFY(!panel.proxyModel()->isSorting());
    QCOMPARE(panel.proxyModel()->rowCount(root), 50);
    QCOMPARE(panel.proxyModel()->index(0, 0, root).internalId(),
             quintptr(shape.trace->findSpan(std::string_view("c00049"))));
    QVERIFY(view->isExpanded(root));
    QVERIFY(expanded(10));
    QVERIFY(!expanded(11));
    QCOMPARE(qint64(view->currentIndex().internalId()), selected);
    QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), view->currentIndex().parent()));
}

void tst_SpanTreeExpand::newTreeInASortedViewSortsInBackground()
{
    // A trace loaded into a sorted big tree (the same file again keeps the order) shows in
    // tree order at once and is sorted on the worker, like any other sort of a big tree.
    BackgroundSort::setBackgroundRows(0); // this small tree takes the big trees' path
    const Shape first = wideTree(20, 2);
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setTrace(first.trace, first.tree);
    panel.show();
    panel.view()->sortByColumn(SpanTreeModel::DurationColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!panel.proxyModel()->isSorting());

    const Shape second = wideTree(50, 3);
    panel.setTrace(second.trace, second.tree);
    QVERIFY(panel.proxyModel()->isSorting());
    QCOMPARE(panel.proxyModel()->sortColumn(), int(SpanTreeModel::DurationColumn));
    QCOMPARE(panel.view()->header()->sortIndicatorSection(), int(SpanTreeModel::DurationColumn));
    const QModelIndex root = rowOf(panel, second, "r");
    QCOMPARE(panel.proxyModel()->rowCount(root), 50);
    QCOMPARE(panel.proxyModel()->index(0, 0, root).internalId(),
             quintptr(second.trace->findSpan(std::string_view("c00000")))); // tree order
    QTRY_VERIFY(!panel.proxyModel()->isSorting());
    // Shortest first once the order lands.
    QCOMPARE(panel.proxyModel()->index(0, 0, root).internalId(),
             quintptr(second.trace->findSpan(std::string_view("c00049"))));
    QVERIFY(panel.view()->isExpanded(rowOf(panel, second, "r")));
}

QTEST_MAIN(tst_SpanTreeExpand)
#include "tst_spantreeexpand.moc"
