// SPDX-License-Identifier: MIT
#include <QAbstractTableModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QHeaderView>
#include <QHelpEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <unistd.h>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>

#include "core/itemmodels/modelroles.h"
#include "ui/widgets/rowexportjob.h"
#include "ui/widgets/tableactions.h"

using namespace TraceInspector;

namespace {

/// name | id | bytes, with an id role on every row.
QStandardItemModel *makeModel(QObject *parent)
{
    auto *model = new QStandardItemModel(0, 3, parent);
    model->setHorizontalHeaderLabels({QStringLiteral("Name"), QStringLiteral("Id"), QStringLiteral("Bytes")});
    const QList<QStringList> rows = {{QStringLiteral("matmul"), QStringLiteral("s1"), QStringLiteral("1.00 KiB")},
                                     {QStringLiteral("soft\tmax"), QStringLiteral("s22"), QStringLiteral("2.00 KiB")},
                                     {QStringLiteral("add, \"fused\""), QStringLiteral("s333"), QStringLiteral("3 B")}};
    for (const QStringList &r : rows) {
        QList<QStandardItem *> items;
        for (const QString &text : r)
            items << new QStandardItem(text);
        items.front()->setData(QString(QStringLiteral("span-") + r.at(1)), SpanIdRole);
        model->appendRow(items);
    }
    return model;
}

/// A flat model of \a rows rows computed on the fly, like the op table.
class BigModel : public QAbstractTableModel
{
public:
    explicit BigModel(int rows)
        : m_rows(rows)
    {
    }
    int rowCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : m_rows; }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 2; }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::DisplayRole)
            return {};
        return index.column() == 0 ? QStringLiteral("row %1").arg(index.row()) : QString::number(index.row() * 2);
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        return section == 0 ? QStringLiteral("Row") : QStringLiteral("Twice");
    }

private:
    int m_rows;
};

/// One column whose every row shows \a text, which setText() changes with a model reset.
class OneTextModel : public QAbstractTableModel
{
public:
    int rowCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 20; }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 2; }
    QVariant data(const QModelIndex &index, int role) const override
    {
        return role == Qt::DisplayRole ? QVariant(index.column() == 0 ? m_text : QStringLiteral("x")) : QVariant();
    }
    void setText(const QString &text)
    {
        beginResetModel();
        m_text = text;
        endResetModel();
    }

private:
    QString m_text = QStringLiteral("a");
};

/// Counts the column measurements a fit makes.
class CountingTableView : public QTableView
{
public:
    int sizeHintForColumn(int column) const override
    {
        ++measured;
        return QTableView::sizeHintForColumn(column);
    }
    mutable int measured = 0;
};

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestTableActions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void csvField_data();
    void csvField();
    void ctrlCCopiesRowsAsTsvWithHeader();
    void copyRespectsColumnsShown();
    void rowAsJson();
    void csvExportWritesEveryRowOfTheFilter();
    void csvExportOfATreeWalksEveryRow();
    void bigExportRunsInSlices();
    void exportFailureSaysWhy();
    void exportFollowsTheWriterRules();
    void contextMenuFromMouseAndKeyboard();
    void rowActionsActOnTheirRow();
    void tooltipShowsTheFullText();
    void columnsFitTheirContentAndIdsNeverElide();
    void aTableNotShownIsFittedWhenShown();
    void resetsInOnePassFitOnce();
};

void TestTableActions::csvField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << QStringLiteral("matmul") << QStringLiteral("matmul");
    QTest::newRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
    QTest::newRow("quote doubled") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
    QTest::newRow("line break") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
    QTest::newRow("edge blank kept") << QStringLiteral(" x") << QStringLiteral("\" x\"");
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("unicode") << QStringLiteral("2.100 \u00B5s") << QStringLiteral("2.100 \u00B5s");
}

void TestTableActions::csvField()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(RowExportJob::csvField(text), expected);
}

void TestTableActions::ctrlCCopiesRowsAsTsvWithHeader()
{
    QTableView view;
    view.setModel(makeModel(&view));
    view.setSelectionBehavior(QAbstractItemView::SelectRows);
    view.setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto *actions = new TableActions(&view, QStringLiteral("t"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setFocus();
    // Rows 2 and 0, selected out of order: copied in the order shown.
    view.selectionModel()->select(view.model()->index(2, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    view.selectionModel()->select(view.model()->index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QSignalSpy copied(actions, &TableActions::copied);
    QApplication::clipboard()->clear();
    QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
    QTRY_COMPARE(copied.count(), 1);
    QCOMPARE(copied.at(0).at(0).toInt(), 2);
    QCOMPARE(QApplication::clipboard()->text(),
             QStringLiteral("Name\tId\tBytes\nmatmul\ts1\t1.00 KiB\nadd, \"fused\"\ts333\t3 B\n"));
    // A tab inside a cell would split it: it becomes a space.
    view.selectionModel()->clearSelection();
    view.selectionModel()->select(view.model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
    QTRY_COMPARE(copied.count(), 2);
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("Name\tId\tBytes\nsoft max\ts22\t2.00 KiB\n"));
}

void TestTableActions::copyRespectsColumnsShown()
{
    QTableView view;
    view.setModel(makeModel(&view));
    TableActions actions(&view, QStringLiteral("t"));
    view.horizontalHeader()->moveSection(2, 0); // Bytes first
    view.setColumnHidden(1, true);
    actions.addRoleColumn(SpanIdRole, QStringLiteral("Span id"));
    const QModelIndexList rows{view.model()->index(0, 0)};
    QCOMPARE(actions.rowsAsTsv(rows), QStringLiteral("Bytes\tName\tSpan id\n1.00 KiB\tmatmul\tspan-s1\n"));
    actions.setIncludeHiddenColumns(true);
    actions.setExcludedColumns({2});
    QCOMPARE(actions.rowsAsTsv(rows), QStringLiteral("Name\tId\tSpan id\nmatmul\ts1\tspan-s1\n"));
}

void TestTableActions::rowAsJson()
{
    QTableView view;
    view.setModel(makeModel(&view));
    TableActions actions(&view, QStringLiteral("t"));
    actions.addRoleColumn(SpanIdRole, QStringLiteral("Span id"));
    const QJsonObject o = QJsonDocument::fromJson(actions.rowAsJson(view.model()->index(2, 1)).toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("Name")).toString(), QStringLiteral("add, \"fused\""));
    QCOMPARE(o.value(QStringLiteral("Id")).toString(), QStringLiteral("s333"));
    QCOMPARE(o.value(QStringLiteral("Bytes")).toString(), QStringLiteral("3 B"));
    QCOMPARE(o.value(QStringLiteral("Span id")).toString(), QStringLiteral("span-s333"));
    QCOMPARE(o.size(), 4);
}

void TestTableActions::csvExportWritesEveryRowOfTheFilter()
{
    QTableView view;
    auto *model = makeModel(&view);
    QSortFilterProxyModel filter;
    filter.setSourceModel(model);
    filter.setFilterKeyColumn(1);
    filter.setFilterFixedString(QStringLiteral("s3")); // one row of three
    view.setModel(&filter);
    TableActions actions(&view, QStringLiteral("t"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.csv"));
    QSignalSpy done(&actions, &TableActions::exportFinished);
    actions.exportCsv(path);
    QTRY_COMPARE(done.count(), 1);
    QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
    QVERIFY(done.at(0).at(1).toString().contains(QStringLiteral("1 row")));
    QCOMPARE(readText(path), QStringLiteral("Name,Id,Bytes\r\n\"add, \"\"fused\"\"\",s333,3 B\r\n"));
    filter.setFilterFixedString(QString());
    actions.exportCsv(path);
    QTRY_COMPARE(done.count(), 2);
    QCOMPARE(readText(path).count(QStringLiteral("\r\n")), 4); // header + every row
}

void TestTableActions::csvExportOfATreeWalksEveryRow()
{
    // Collapsed or not, every row the model has (depth first) is exported.
    QStandardItemModel model(0, 1);
    model.setHorizontalHeaderLabels({QStringLiteral("Span")});
    auto *root = new QStandardItem(QStringLiteral("root"));
    auto *child = new QStandardItem(QStringLiteral("child"));
    child->appendRow(new QStandardItem(QStringLiteral("grandchild")));
    root->appendRow(child);
    model.appendRow(root);
    model.appendRow(new QStandardItem(QStringLiteral("second")));
    QTreeView view;
    view.setModel(&model);
    TableActions actions(&view, QStringLiteral("tree"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tree.csv"));
    QSignalSpy done(&actions, &TableActions::exportFinished);
    actions.exportCsv(path);
    QTRY_COMPARE(done.count(), 1);
    QCOMPARE(readText(path), QStringLiteral("Span\r\nroot\r\nchild\r\ngrandchild\r\nsecond\r\n"));
}

void TestTableActions::bigExportRunsInSlices()
{
    // 300,000 rows: written a slice at a time, the event loop keeps running in between.
    BigModel model(300000);
    QTableView view;
    view.setModel(&model);
    TableActions actions(&view, QStringLiteral("big"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.csv"));
    QSignalSpy done(&actions, &TableActions::exportFinished);
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start(0);
    actions.exportCsv(path);
    QVERIFY(actions.isBusy());
    QVERIFY(done.wait(60000));
    QVERIFY(done.at(0).at(0).toBool());
    QVERIFY(ticks > 1);
    const QString text = readText(path);
    QCOMPARE(text.count(QStringLiteral("\r\n")), 300001);
    QVERIFY(text.endsWith(QStringLiteral("row 299999,599998\r\n")));
}

void TestTableActions::exportFailureSaysWhy()
{
    QTableView view;
    view.setModel(makeModel(&view));
    TableActions actions(&view, QStringLiteral("t"));
    QSignalSpy done(&actions, &TableActions::exportFinished);
    actions.exportCsv(QStringLiteral("/nonexistent-dir/sub/t.csv"));
    QTRY_COMPARE(done.count(), 1);
    QVERIFY(!done.at(0).at(0).toBool());
    QVERIFY2(done.at(0).at(1).toString().contains(QStringLiteral("/nonexistent-dir/sub/t.csv")),
             qPrintable(done.at(0).at(1).toString()));
}

void TestTableActions::exportFollowsTheWriterRules()
{
    // The CSV export writes files by the same rules as `normalize -o` and the normalized
    // export: through symlinks, never over a read-only file, nothing left on failure.
    if (::geteuid() == 0)
        QSKIP("root may write read-only files: the refusal cannot be observed");
    QTableView view;
    view.setModel(makeModel(&view));
    TableActions actions(&view, QStringLiteral("t"));
    QTemporaryDir dir;
    QSignalSpy done(&actions, &TableActions::exportFinished);

    const QString real = dir.filePath(QStringLiteral("real.csv"));
    const QString link = dir.filePath(QStringLiteral("link.csv"));
    QVERIFY(QFile::link(real, link));
    actions.exportCsv(link);
    QTRY_COMPARE(done.count(), 1);
    QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readText(real).count(QStringLiteral("\r\n")), 4);

    const QString locked = dir.filePath(QStringLiteral("locked.csv"));
    {
        QFile f(locked);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
    }
    QVERIFY(QFile::setPermissions(locked, QFileDevice::ReadOwner));
    actions.exportCsv(locked);
    QTRY_COMPARE(done.count(), 2);
    QVERIFY(!done.at(1).at(0).toBool());
    QVERIFY2(done.at(1).at(1).toString().contains(QStringLiteral("read-only")),
             qPrintable(done.at(1).at(1).toString()));
    QCOMPARE(readText(locked), QStringLiteral("keep me"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).size(), 3); // no temporary left
}

void TestTableActions::contextMenuFromMouseAndKeyboard()
{
    QTableView view;
    view.setModel(makeModel(&view));
    TableActions actions(&view, QStringLiteral("t"));
    actions.addRowAction(QStringLiteral("Select Span"), [](const QModelIndex &) {});
    std::unique_ptr<QMenu> menu(actions.buildContextMenu(view.model()->index(1, 1)));
    QStringList texts;
    for (QAction *a : menu->actions())
        if (!a->isSeparator())
            texts << a->text().remove(u'&');
    QCOMPARE(texts,
             (QStringList{QStringLiteral("Copy"), QStringLiteral("Copy Cell"), QStringLiteral("Copy Row as JSON"),
                          QStringLiteral("Export Table as CSV…"), QStringLiteral("Select Span")}));
    // The menu key opens it on the current row.
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setCurrentIndex(view.model()->index(2, 0));
    QContextMenuEvent key(QContextMenuEvent::Keyboard, QPoint(0, 0), view.mapToGlobal(QPoint(0, 0)));
    QApplication::sendEvent(&view, &key);
    const auto visibleMenu = [&view]() -> QMenu * {
        for (QMenu *m : view.findChildren<QMenu *>())
            if (m->isVisible())
                return m;
        return nullptr;
    };
    QTRY_VERIFY(visibleMenu());
    QVERIFY(view.selectionModel()->isRowSelected(2, {}));
    visibleMenu()->close();
}

void TestTableActions::rowActionsActOnTheirRow()
{
    QTableView view;
    view.setModel(makeModel(&view));
    TableActions actions(&view, QStringLiteral("t"));
    QStringList ran;
    QAction *a = actions.addRowAction(
        QStringLiteral("Select Span"), [&ran](const QModelIndex &row) { ran << row.data(SpanIdRole).toString(); },
        [](const QModelIndex &row) { return row.row() != 1; }, QKeySequence(Qt::CTRL | Qt::Key_J));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setFocus();
    // From the menu: the row it opened on, whatever is current.
    view.setCurrentIndex(view.model()->index(0, 0));
    std::unique_ptr<QMenu> menu(actions.buildContextMenu(view.model()->index(2, 0)));
    a->trigger();
    QCOMPARE(ran, QStringList{QStringLiteral("span-s333")});
    std::unique_ptr<QMenu> disabled(actions.buildContextMenu(view.model()->index(1, 0)));
    QVERIFY(!a->isEnabled());
    disabled->close();
    disabled.reset();
    QTRY_VERIFY(a->isEnabled());
    // From its shortcut: the current row.
    view.setCurrentIndex(view.model()->index(0, 2));
    QTest::keyClick(&view, Qt::Key_J, Qt::ControlModifier);
    QCOMPARE(ran, (QStringList{QStringLiteral("span-s333"), QStringLiteral("span-s1")}));
}

void TestTableActions::tooltipShowsTheFullText()
{
    QTableView view;
    auto *model = makeModel(&view);
    const QString longName = QStringLiteral("adamw.model.layers.0.self_attn.q_proj.weight.with.a.very.long.tail");
    model->item(0, 0)->setText(longName);
    model->item(0, 0)->setToolTip(QStringLiteral("span: s1"));
    view.setModel(model);
    TableActions actions(&view, QStringLiteral("t"));
    view.setColumnWidth(0, 60);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QPoint at = view.visualRect(model->index(0, 0)).center();
    QHelpEvent help(QEvent::ToolTip, at, view.viewport()->mapToGlobal(at));
    QApplication::sendEvent(view.viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(longName), qPrintable(QToolTip::text()));
    QVERIFY(QToolTip::text().contains(QStringLiteral("span: s1"))); // the model's own tooltip follows
    QToolTip::hideText();
}

void TestTableActions::columnsFitTheirContentAndIdsNeverElide()
{
    QTableView view;
    auto *model = makeModel(&view);
    view.setModel(model);
    view.setSortingEnabled(true);
    view.resize(900, 300);
    auto *actions = new TableActions(&view, QStringLiteral("t"));
    const QString widestId = QStringLiteral("span-with-a-rather-long-identifier-0000000001");
    actions->setColumnFits({{1, 4, 6, [widestId] { return widestId; }}, {2, 4, 40}}, 0);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    actions->fitColumns();
    QHeaderView *header = view.horizontalHeader();
    // The id column holds its widest id although its limit is 6 characters, and keeps it.
    const int idWidth = view.fontMetrics().horizontalAdvance(widestId);
    QVERIFY2(header->sectionSize(1) >= idWidth,
             qPrintable(QStringLiteral("%1 < %2").arg(header->sectionSize(1)).arg(idWidth)));
    header->resizeSection(1, 20);
    QTRY_VERIFY(header->sectionSize(1) >= idWidth);
    // Every header fits with its sort arrow.
    for (int c = 0; c < model->columnCount(); ++c)
        QVERIFY(header->sectionSize(c) >= header->sectionSizeHint(c));
    // The name column takes what is left.
    int total = 0;
    for (int c = 0; c < model->columnCount(); ++c)
        total += header->sectionSize(c);
    QVERIFY(std::abs(total - view.viewport()->width()) <= 2);
    view.resize(1300, 300);
    QTRY_VERIFY(std::abs(header->length() - view.viewport()->width()) <= 2);
    QCOMPARE(view.textElideMode(), Qt::ElideRight);
}

void TestTableActions::aTableNotShownIsFittedWhenShown()
{
    QTabWidget tabs;
    tabs.addTab(new QLabel(QStringLiteral("first")), QStringLiteral("First"));
    auto *view = new CountingTableView;
    auto *model = new OneTextModel;
    model->setParent(view);
    view->setModel(model);
    tabs.addTab(view, QStringLiteral("Table"));
    auto *actions = new TableActions(view, QStringLiteral("t"));
    actions->setColumnFits({{0, 1, 80}, {1, 1, 80}}, -1);
    tabs.resize(900, 300);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    QVERIFY(!view->isVisible());
    const QString wide = QStringLiteral("a rather long operation name that needs a wide column");
    view->measured = 0;
    model->setText(wide);
    actions->fitColumns(); // as a panel does after its own changes
    QCoreApplication::processEvents();
    QCOMPARE(view->measured, 0); // nothing measured on a tab not shown
    QVERIFY(view->horizontalHeader()->sectionSize(0) < view->fontMetrics().horizontalAdvance(wide));

    tabs.setCurrentWidget(view);
    QTRY_VERIFY(view->isVisible());
    QCOMPARE(view->measured, 2); // both columns, once
    QVERIFY2(view->horizontalHeader()->sectionSize(0) >= view->fontMetrics().horizontalAdvance(wide),
             qPrintable(QString::number(view->horizontalHeader()->sectionSize(0))));
    // Shown again without a change: no new fit, and widths set by hand stay.
    view->horizontalHeader()->resizeSection(1, 90);
    tabs.setCurrentIndex(0);
    tabs.setCurrentWidget(view);
    QCoreApplication::processEvents();
    QCOMPARE(view->measured, 2);
    QCOMPARE(view->horizontalHeader()->sectionSize(1), 90);
}

void TestTableActions::resetsInOnePassFitOnce()
{
    CountingTableView view;
    auto *model = new OneTextModel;
    model->setParent(&view);
    view.setModel(model);
    auto *actions = new TableActions(&view, QStringLiteral("t"));
    actions->setColumnFits({{0, 1, 80}, {1, 1, 80}}, -1);
    view.resize(900, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCoreApplication::processEvents();

    // Three resets in one pass of the event loop: one fit after them.
    view.measured = 0;
    model->setText(QStringLiteral("b"));
    model->setText(QStringLiteral("cc"));
    const QString wide = QStringLiteral("the widest text of the three resets, and the last");
    model->setText(wide);
    QCOMPARE(view.measured, 0);
    QCoreApplication::processEvents();
    QCOMPARE(view.measured, 2);
    QVERIFY(view.horizontalHeader()->sectionSize(0) >= view.fontMetrics().horizontalAdvance(wide));

    // A fit asked for after the resets makes the queued one needless.
    view.measured = 0;
    model->setText(QStringLiteral("d"));
    actions->fitColumns();
    QCOMPARE(view.measured, 2);
    QCoreApplication::processEvents();
    QCOMPARE(view.measured, 2);

    // A reset after a fit still gets its own.
    actions->fitColumns();
    model->setText(wide);
    QCoreApplication::processEvents();
    QCOMPARE(view.measured, 6);
}

QTEST_MAIN(TestTableActions)
#include "tst_tableactions.moc"
