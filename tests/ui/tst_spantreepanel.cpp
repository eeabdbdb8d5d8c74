// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include "tests/testutils/fixtures.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"
#include "ui/delegates/spanitemdelegate.h"
#include "ui/spantreepanel.h"
#include "ui/widgets/filterlineedit.h"

using namespace TraceInspector;

namespace {

using TestFixtures::spansJsonl;

struct Loaded {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const SpanTree> tree;
};

Loaded load(const QByteArray &spec)
{
    const QByteArray text = spansJsonl(spec);
    Loaded loaded;
    loaded.trace = TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), "panel.jsonl").trace;
    if (loaded.trace)
        loaded.tree = std::make_shared<const SpanTree>(SpanTree::build(*loaded.trace));
    return loaded;
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
};

void tst_SpanTreePanel::showsTrace()
{
    SpanTreePanel panel;
    QAbstractItemModelTester tester(panel.view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded loaded = load(kTree);
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(900, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
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
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(900, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
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
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(900, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
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
    panel.setTrace(loaded.trace, loaded.tree);
    panel.resize(1200, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QHeaderView *header = panel.view()->header();
    QCOMPARE(panel.proxyModel()->sortColumn(), -1);
    const int x = header->sectionViewportPosition(SpanTreeModel::DurationColumn) + header->sectionSize(SpanTreeModel::DurationColumn) / 2;
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
    QVERIFY(optionFor("b").font.bold()); // the match
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

QTEST_MAIN(tst_SpanTreePanel)
#include "tst_spantreepanel.moc"
