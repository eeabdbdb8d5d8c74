// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"
#include "ui/delegates/spanitemdelegate.h"
#include "ui/spantreepanel.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"

using namespace TraceInspector;

namespace {

using TestFixtures::spansJsonl;

using Loaded = TestFixtures::Analysed;

Loaded load(const QByteArray &spec)
{
    return TestFixtures::analysed(spansJsonl(spec), TestFixtures::SpanTreeAnalysis, QStringLiteral("panel.jsonl"));
}

// Shows \a loaded in \a panel at \a size, as a user sees it; false if the window never shows.
bool showTrace(SpanTreePanel &panel, const Loaded &loaded, QSize size = {900, 500})
{
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(size);
    panel.show();
    return QTest::qWaitForWindowExposed(&panel);
}

qint64 spanIndex(const Loaded &loaded, const char *id)
{
    return loaded.trace->findSpan(std::string_view(id));
}

// `id[children]` of the rows the view shows (expanded parents only).
QString visible(const QTreeView &view, const QModelIndex &parent = {})
{
    QString out;
    const QAbstractItemModel *model = view.model();
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex index = model->index(row, 0, parent);
        if (!out.isEmpty())
            out += u' ';
        out += index.data(SpanIdRole).toString();
        if (model->rowCount(index) > 0 && view.isExpanded(index))
            out += u'[' + visible(view, index) + u']';
    }
    return out;
}

// Exposes the protected style-option hook for checking what the delegate derives from roles.
class InspectableDelegate : public SpanItemDelegate
{
public:
    QStyleOptionViewItem optionFor(const QModelIndex &index) const
    {
        QStyleOptionViewItem option;
        initStyleOption(&option, index);
        return option;
    }
};

const QByteArray kTree = "r*:-:0:1000 a=Attention:r:10:400 b=matmul:a:20:100 c=softmax:a:150:open "
                         "d=mlp:r:500:300 e=add:d:510:50 x=deep:e:511:5 f=ghostchild:nobody:900:5 g:g:950:1";

} // namespace

class tst_SpanTreePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTrace();
    void filterIsDebounced();
    void filterKeepsAncestorsExpanded();
    void filterEscapeAndReturn();
    void selectionSignals();
    void activation();
    void selectSpanRevealsIt();
    void sortByHeaderClick();
    void delegateMarksSpans();
    void clearAndInvalid();
    void firstClickSortsCostsDescending_data();
    void firstClickSortsCostsDescending();
    void namesElideAtTheEndAndNameStretches();
    void manyMatchesOpenProgressively();
    void nextAndPreviousMatch();
    void measuredTimeUnknownNeverZero();
    void resetView();
    void copyRowsWithSpanIds();
    void longStatusElidesInsteadOfWidening();
};

void tst_SpanTreePanel::showsTrace()
{
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded loaded = load(kTree);
    QVERIFY(showTrace(panel, loaded));
    // Small trees open two levels.
    QCOMPARE(visible(*panel.view()), QStringLiteral("r[a[b c] d[e]] f g"));
    const QString status = panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text();
    QVERIFY2(status.contains(QStringLiteral("9 spans")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("1 open")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("1 dangling")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("1 parent cycles")), qPrintable(status));
    QVERIFY(panel.view()->uniformRowHeights());
    QCOMPARE(panel.view()->model()->columnCount(), int(SpanTreeModel::ColumnCount));
}

void tst_SpanTreePanel::filterIsDebounced()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy applied(panel.filterEdit(), &FilterLineEdit::filterChanged);
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("soft"));
    // Four key strokes, no event loop yet: nothing applied.
    QCOMPARE(applied.count(), 0);
    QCOMPARE(panel.filterText(), QString());
    QTRY_COMPARE(panel.filterText(), QStringLiteral("soft"));
    QCOMPARE(applied.count(), 1); // once, after typing paused
    QCOMPARE(applied.at(0).at(0).toString(), QStringLiteral("soft"));
    QCOMPARE(visible(*panel.view()), QStringLiteral("r[a[c]]"));
}

void tst_SpanTreePanel::filterKeepsAncestorsExpanded()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.show();
    panel.view()->collapseAll();
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("DEEP"));
    QTRY_COMPARE(panel.filterText(), QStringLiteral("DEEP"));
    // x sits three levels down; its ancestors are kept and opened so the match is visible.
    QCOMPARE(visible(*panel.view()), QStringLiteral("r[d[e[x]]]"));
    const QString status = panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text();
    QVERIFY2(status.contains(QStringLiteral("1 of 9 spans match")), qPrintable(status));

    panel.filterEdit()->clear();
    QTRY_COMPARE(panel.filterText(), QString());
    QCOMPARE(panel.view()->model()->rowCount(), 3);
}

void tst_SpanTreePanel::filterEscapeAndReturn()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::keyClicks(panel.filterEdit(), QStringLiteral("ghost"));
    QTest::keyClick(panel.filterEdit(), Qt::Key_Return);
    QCOMPARE(panel.filterText(), QStringLiteral("ghost")); // Return applies at once
    QCOMPARE(visible(*panel.view()), QStringLiteral("f"));
    QTest::keyClick(panel.filterEdit(), Qt::Key_Escape);
    QCOMPARE(panel.filterEdit()->text(), QString());
    QCOMPARE(panel.filterText(), QString());
    QCOMPARE(panel.view()->model()->rowCount(), 3);
}

void tst_SpanTreePanel::selectionSignals()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    QVERIFY(showTrace(panel, loaded));
    QSignalSpy selected(&panel, &SpanTreePanel::spanSelected);
    QTreeView *view = panel.view();
    const QModelIndex a = view->model()->index(0, 0, view->model()->index(0, 0));
    QCOMPARE(a.data(SpanIdRole).toString(), QStringLiteral("a"));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(a).center());
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), spanIndex(loaded, "a"));
    QCOMPARE(panel.selectedSpan(), spanIndex(loaded, "a"));

    QTest::keyClick(view, Qt::Key_Down);
    QCOMPARE(selected.count(), 2);
    QCOMPARE(selected.at(1).at(0).toLongLong(), spanIndex(loaded, "b"));
}

void tst_SpanTreePanel::activation()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    QVERIFY(showTrace(panel, loaded));
    QSignalSpy activated(&panel, &SpanTreePanel::spanActivated);
    panel.selectSpan(spanIndex(loaded, "e"));
    QTest::keyClick(panel.view(), Qt::Key_Return);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), spanIndex(loaded, "e"));
}

void tst_SpanTreePanel::selectSpanRevealsIt()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.show();
    panel.view()->collapseAll();
    panel.setFilterText(QStringLiteral("ghost")); // hides x
    QSignalSpy selected(&panel, &SpanTreePanel::spanSelected);
    panel.selectSpan(spanIndex(loaded, "x"));
    QCOMPARE(panel.filterText(), QString());
    QCOMPARE(panel.filterEdit()->text(), QString());
    QCOMPARE(panel.selectedSpan(), spanIndex(loaded, "x"));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), spanIndex(loaded, "x"));
    const QModelIndex current = panel.view()->currentIndex();
    QVERIFY(panel.view()->isExpanded(current.parent()));
    QVERIFY(panel.view()->isExpanded(current.parent().parent()));
    QVERIFY(panel.view()->selectionModel()->isRowSelected(current.row(), current.parent()));

    // A filter that keeps the span stays.
    panel.setFilterText(QStringLiteral("mat"));
    panel.selectSpan(spanIndex(loaded, "b"));
    QCOMPARE(panel.filterText(), QStringLiteral("mat"));
    QCOMPARE(panel.selectedSpan(), spanIndex(loaded, "b"));
    // Out of range is ignored.
    panel.selectSpan(-1);
    panel.selectSpan(999);
    QCOMPARE(panel.selectedSpan(), spanIndex(loaded, "b"));
}

void tst_SpanTreePanel::sortByHeaderClick()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    QVERIFY(showTrace(panel, loaded, {1200, 500}));
    QHeaderView *header = panel.view()->header();
    QCOMPARE(panel.proxyModel()->sortColumn(), -1);
    const int x = header->sectionViewportPosition(SpanTreeModel::DurationColumn)
                  + header->sectionSize(SpanTreeModel::DurationColumn) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(panel.proxyModel()->sortColumn(), int(SpanTreeModel::DurationColumn));
    const Qt::SortOrder first = panel.proxyModel()->sortOrder();
    const QAbstractItemModel *model = panel.view()->model();
    QModelIndex r;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(SpanIdRole).toString() == QStringLiteral("r"))
            r = model->index(row, 0);
    }
    // Roots: r (1000), f (5), g (1).
    QCOMPARE(r.row(), first == Qt::AscendingOrder ? 2 : 0);
    const QModelIndex top = model->index(0, 0, r);
    // Under r: a (400) and d (300).
    QCOMPARE(top.data(SpanIdRole).toString(), first == Qt::AscendingOrder ? QStringLiteral("d") : QStringLiteral("a"));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QVERIFY(panel.proxyModel()->sortOrder() != first);
}

void tst_SpanTreePanel::delegateMarksSpans()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    InspectableDelegate delegate;
    const auto optionFor = [&](const char *id, int column = 0) {
        const QModelIndex source = panel.model()->indexForSpan(spanIndex(loaded, id), column);
        return delegate.optionFor(panel.proxyModel()->mapFromSource(source));
    };
    QVERIFY(optionFor("c").font.italic());                                // open
    QVERIFY(optionFor("c", SpanTreeModel::DurationColumn).font.italic()); // every column
    QVERIFY(!optionFor("b").font.italic());
    QVERIFY(!optionFor("f").icon.isNull()); // dangling parent
    QVERIFY(!optionFor("g").icon.isNull()); // cycle
    QVERIFY(optionFor("b").icon.isNull());
    QVERIFY(optionFor("f", SpanTreeModel::StartColumn).icon.isNull()); // icon on the name only

    delegate.setFilterActive(true);
    panel.setFilterText(QStringLiteral("matmul"));
    QVERIFY(optionFor("b").font.bold());  // the match
    QVERIFY(!optionFor("a").font.bold()); // a kept ancestor
}

void tst_SpanTreePanel::clearAndInvalid()
{
    SpanTreePanel panel;
    QSignalSpy selected(&panel, &SpanTreePanel::spanSelected);
    panel.selectSpan(0); // nothing loaded
    QCOMPARE(selected.count(), 0);
    QCOMPARE(panel.selectedSpan(), qint64(-1));
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.selectSpan(spanIndex(loaded, "a"));
    panel.clear();
    QCOMPARE(panel.view()->model()->rowCount(), 0);
    QCOMPARE(panel.selectedSpan(), qint64(-1));
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text(), QStringLiteral("No spans"));
}

void tst_SpanTreePanel::firstClickSortsCostsDescending_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::newRow("duration") << int(SpanTreeModel::DurationColumn) << int(Qt::DescendingOrder);
    QTest::newRow("self") << int(SpanTreeModel::SelfColumn) << int(Qt::DescendingOrder);
    QTest::newRow("% measured") << int(SpanTreeModel::MeasuredPercentColumn) << int(Qt::DescendingOrder);
    QTest::newRow("start") << int(SpanTreeModel::StartColumn) << int(Qt::AscendingOrder);
    QTest::newRow("name") << int(SpanTreeModel::NameColumn) << int(Qt::AscendingOrder);
}

void tst_SpanTreePanel::firstClickSortsCostsDescending()
{
    QFETCH(int, column);
    QFETCH(int, order);
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(1400, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QHeaderView *header = panel.view()->header();
    const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(panel.proxyModel()->sortColumn(), column);
    QCOMPARE(int(panel.proxyModel()->sortOrder()), order);
    // The header is never narrower than its text with the sort arrow.
    QVERIFY(header->sectionSize(column) >= header->sectionSizeHint(column));
}

void tst_SpanTreePanel::namesElideAtTheEndAndNameStretches()
{
    SpanTreePanel panel;
    const Loaded loaded = load("r:-:0:10 a=model.layers.0.self_attn.q_proj.weight.and.a.long.tail:r:1:5");
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(1400, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.view()->textElideMode(), Qt::ElideRight);
    QHeaderView *header = panel.view()->header();
    QTRY_VERIFY(std::abs(header->length() - panel.view()->viewport()->width()) <= 2);
    int others = 0;
    for (int c = 1; c < SpanTreeModel::ColumnCount; ++c)
        others += header->sectionSize(c);
    QVERIFY(header->sectionSize(SpanTreeModel::NameColumn) >= panel.view()->viewport()->width() - others - 2);
    panel.resize(1800, 400);
    QTRY_VERIFY(std::abs(header->length() - panel.view()->viewport()->width()) <= 2); // the name column grew
}

void tst_SpanTreePanel::manyMatchesOpenProgressively()
{
    // 3,000 matching leaves under 300 parents under 30 grandparents under one root.
    QByteArray spec = "root:-:0:1000000000";
    for (int g = 0; g < 30; ++g) {
        spec += " g" + QByteArray::number(g) + ":root:" + QByteArray::number(g * 1000) + ":10";
        for (int p = 0; p < 10; ++p) {
            const QByteArray parent = "p" + QByteArray::number(g) + "_" + QByteArray::number(p);
            spec += " " + parent + ":g" + QByteArray::number(g) + ":" + QByteArray::number(g * 1000 + p * 10) + ":5";
            for (int l = 0; l < 10; ++l)
                spec += " leaf" + QByteArray::number(g) + "_" + QByteArray::number(p) + "_" + QByteArray::number(l)
                        + "=matmul:" + parent + ":" + QByteArray::number(g * 1000 + p * 10 + l) + ":1";
        }
    }
    SpanTreePanel panel;
    const Loaded loaded = load(spec);
    QVERIFY(loaded.trace);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(1200, 600);
    panel.show();
    QSignalSpy finished(&panel, &SpanTreePanel::expansionFinished);
    panel.setFilterText(QStringLiteral("matmul"));
    const QString status = panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text();
    QVERIFY2(status.contains(QStringLiteral("3,000 of 3,331 spans match")), qPrintable(status));
    // A first batch opens at once, the rest follows without blocking.
    QVERIFY(panel.expandedMatchCount() > 0);
    QVERIFY(panel.expandedMatchCount() < 3000);
    QVERIFY(finished.wait(10000));
    QCOMPARE(panel.expandedMatchCount(), std::size_t(3000));
    // Every match is reachable in the view: all its ancestors are open.
    QTreeView *view = panel.view();
    const QModelIndex last =
        panel.proxyModel()->mapFromSource(panel.model()->indexForSpan(spanIndex(loaded, "leaf29_9_9")));
    for (QModelIndex p = last.parent(); p.isValid(); p = p.parent())
        QVERIFY(view->isExpanded(p));
    QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text().contains(QStringLiteral("opening")));
}

void tst_SpanTreePanel::nextAndPreviousMatch()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.setFilterText(QStringLiteral("a")); // several matches, by name or id
    const std::size_t matches = panel.proxyModel()->matchCount();
    QVERIFY(matches >= 3);
    QStringList order;
    for (std::size_t i = 0; i < matches; ++i) {
        panel.nextMatch();
        order << panel.view()->currentIndex().data(SpanIdRole).toString();
        QVERIFY(panel.view()->currentIndex().data(IsFilterMatchRole).toBool());
        const QString status = panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral("match %1 of %2").arg(i + 1).arg(matches)), qPrintable(status));
    }
    QCOMPARE(order.removeDuplicates(), 0); // every match once, in the order shown
    panel.nextMatch();                     // wraps around
    QCOMPARE(panel.view()->currentIndex().data(SpanIdRole).toString(), order.constFirst());
    panel.previousMatch();
    QCOMPARE(panel.view()->currentIndex().data(SpanIdRole).toString(), order.constLast());
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("spanStatus"))
                ->text()
                .contains(QStringLiteral("match %1 of").arg(matches)));
    // F3 works from the filter field as well.
    panel.filterEdit()->setFocus();
    QTest::keyClick(panel.filterEdit(), Qt::Key_F3);
    QCOMPARE(panel.view()->currentIndex().data(SpanIdRole).toString(), order.constFirst());
}

void tst_SpanTreePanel::measuredTimeUnknownNeverZero()
{
    SpanTreePanel panel;
    const Loaded loaded = load("a:-:0:100 b:a:10:5");
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY2(panel.findChild<QLabel *>(QStringLiteral("spanStatus"))
                 ->text()
                 .contains(QStringLiteral("measured time unknown (no measured span)")),
             qPrintable(panel.findChild<QLabel *>(QStringLiteral("spanStatus"))->text()));
    const Loaded measured = load(kTree);
    panel.setTrace(measured.trace, measured.tree);
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("spanStatus"))
                ->text()
                .contains(QStringLiteral("measured 1.00 \u00B5s")));
}

void tst_SpanTreePanel::resetView()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.setFilterText(QStringLiteral("matmul"));
    panel.view()->sortByColumn(SpanTreeModel::DurationColumn, Qt::DescendingOrder);
    panel.selectSpan(spanIndex(loaded, "b"));
    panel.resetView();
    QVERIFY(panel.filterText().isEmpty());
    QVERIFY(panel.filterEdit()->text().isEmpty());
    QCOMPARE(panel.proxyModel()->sortColumn(), -1);
    QCOMPARE(panel.selectedSpan(), qint64(-1));
}

void tst_SpanTreePanel::copyRowsWithSpanIds()
{
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.selectSpan(spanIndex(loaded, "b"));
    panel.view()->setFocus();
    QSignalSpy copied(panel.tableActions(), &TableActions::copied);
    QTest::keyClick(panel.view(), Qt::Key_C, Qt::ControlModifier);
    QTRY_COMPARE(copied.count(), 1);
    const QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    // The bar has no text to copy; the id and the depth, which no column shows, come last.
    QCOMPARE(lines.at(0), QStringLiteral("Name\tKind\tStep\tStart\tDuration\tSelf\t% measured\tSpan id\tDepth"));
    QVERIFY2(lines.at(1).startsWith(QStringLiteral("matmul\tfunction\t")), qPrintable(lines.at(1)));
    QVERIFY(lines.at(1).endsWith(QStringLiteral("\tb\t2")));
}

void tst_SpanTreePanel::longStatusElidesInsteadOfWidening()
{
    // The status grows with the data (counts, matches, open and dangling spans): as a plain
    // label it raised the panel's minimum width with every longer text, and the window's.
    SpanTreePanel panel;
    const Loaded loaded = load(kTree);
    QVERIFY(showTrace(panel, loaded));
    auto *status = qobject_cast<ElidedLabel *>(panel.findChild<QLabel *>(QStringLiteral("spanStatus")));
    QVERIFY(status);
    panel.setFilterText(QStringLiteral("a"));
    QTRY_VERIFY(status->text().contains(QStringLiteral("match")));
    const QString whole = status->text();
    const int textWidth = status->fontMetrics().horizontalAdvance(whole);
    QVERIFY(status->minimumSizeHint().width() < textWidth / 4);
    const int narrow = panel.minimumSizeHint().width();
    QVERIFY2(narrow < textWidth, qPrintable(QStringLiteral("%1 >= %2").arg(narrow).arg(textWidth)));
    panel.resize(2400, 500);
    QTRY_VERIFY(!status->isElided());
    panel.resize(narrow, 500);
    QTRY_VERIFY(status->isElided());
    QCOMPARE(status->text(), whole); // the text itself is kept whole, for its tooltip
    QVERIFY(panel.width() < textWidth);
}

QTEST_MAIN(tst_SpanTreePanel)
#include "tst_spantreepanel.moc"
