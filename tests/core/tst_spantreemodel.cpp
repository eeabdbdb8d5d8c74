// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QFile>
#include <QMetaEnum>
#include <QSignalSpy>
#include <QTest>

#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"

using namespace TraceInspector;

namespace {

using TestFixtures::spansJsonl;

using TestFixtures::exampleTrace;

std::shared_ptr<const Trace> load(const QByteArray &jsonl)
{
    return TestFixtures::traceFrom(jsonl);
}

void show(SpanTreeModel &model, const std::shared_ptr<const Trace> &trace)
{
    model.setTrace(trace, std::make_shared<const SpanTree>(SpanTree::build(*trace)));
}

// `id[children]` over any model with SpanIdRole, in the model's own row order.
QString dump(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QString out;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        if (!out.isEmpty())
            out += u' ';
        out += index.data(SpanIdRole).toString();
        if (model.rowCount(index) > 0)
            out += u'[' + dump(model, index) + u']';
    }
    return out;
}

QModelIndex find(const QAbstractItemModel &model, const QString &spanId, const QModelIndex &parent = {})
{
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        if (index.data(SpanIdRole).toString() == spanId)
            return index;
        if (const QModelIndex hit = find(model, spanId, index); hit.isValid())
            return hit;
    }
    return {};
}

// Like SpanFilterProxyModel's documented order: unknown (invalid) values after known ones.
int compareSortValues(const QVariant &a, const QVariant &b)
{
    if (a.isValid() != b.isValid())
        return a.isValid() ? -1 : 1;
    if (!a.isValid())
        return 0;
    const QPartialOrdering order = QVariant::compare(a, b);
    if (order == QPartialOrdering::Less)
        return -1;
    if (order == QPartialOrdering::Greater)
        return 1;
    return 0;
}

// Empty when siblings everywhere are ordered by SortRole of \a column, else the first violation.
QString checkSorted(const QAbstractItemModel &model, int column, Qt::SortOrder order, const QModelIndex &parent = {})
{
    for (int row = 0; row < model.rowCount(parent); ++row) {
        if (row > 0) {
            const QVariant prev = model.index(row - 1, column, parent).data(SortRole);
            const QVariant cur = model.index(row, column, parent).data(SortRole);
            const int c = compareSortValues(prev, cur);
            if (order == Qt::AscendingOrder ? c > 0 : c < 0)
                return model.index(row, 0, parent).data(SpanIdRole).toString();
        }
        const QString inner = checkSorted(model, column, order, model.index(row, 0, parent));
        if (!inner.isEmpty())
            return inner;
    }
    return {};
}

const QByteArray kTree = "r*:-:0:1000 a=Attention:r:10:400 b=matmul:a:20:100 c=softmax:a:150:open "
                         "d=MatMul:r:500:300 e=add:d:510:50 f=ghostchild:nobody:900:5 g:g:950:1";

} // namespace

class tst_SpanTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void structure_data();
    void structure();
    void exampleData();
    void flagsAndRoles();
    void indexForSpan();
    void headers();
    void initialSortOrder_data();
    void initialSortOrder();
    void timeUnitAndPrecision();
    void filterKeepsAncestors_data();
    void filterKeepsAncestors();
    void filterRoles();
    void filterSurvivesReset();
    void sortEveryColumn_data();
    void sortEveryColumn();
    void sortThenFilter();
    void persistentIndexes();
    void mappingAndSiblings();
    void leafFlags();
    void clear();
};

void tst_SpanTreeModel::structure_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fixture") << kTree << QStringLiteral("r[a[b c] d[e]] f g");
    QTest::newRow("cycle") << QByteArray("r:-:0:100 c1:c3:10:5 c2:c1:11:5 c3:c2:12:5 h:c2:13:1")
                           << QStringLiteral("r c1[c2[c3 h]]");
    QTest::newRow("empty") << QByteArray() << QString();
}

void tst_SpanTreeModel::structure()
{
    QFETCH(QByteArray, spec);
    QFETCH(QString, expected);
    SpanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SpanFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);

    const auto trace = load(spansJsonl(spec));
    QVERIFY(trace);
    show(model, trace);
    QCOMPARE(dump(model), expected);
    QCOMPARE(dump(proxy), expected);
    QCOMPARE(model.columnCount(), int(SpanTreeModel::ColumnCount));
}

void tst_SpanTreeModel::exampleData()
{
    SpanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto trace = exampleTrace(QStringLiteral("01_valid_trace10_forward.jsonl"));
    QVERIFY(trace);
    show(model, trace);
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex root = model.index(0, 0);
    const auto cell = [&model](const QModelIndex &row, int column, int role = Qt::DisplayRole) {
        return model.index(row.row(), column, row.parent()).data(role);
    };
    QCOMPARE(cell(root, SpanTreeModel::NameColumn).toString(), QStringLiteral("model::forward"));
    QCOMPARE(cell(root, SpanTreeModel::KindColumn).toString(), QStringLiteral("function"));
    QCOMPARE(cell(root, SpanTreeModel::StepColumn).toString(), QString());
    QCOMPARE(cell(root, SpanTreeModel::StartColumn).toString(), QStringLiteral("1.000 \u00B5s"));
    QCOMPARE(cell(root, SpanTreeModel::DurationColumn).toString(), QStringLiteral("50.0 \u00B5s"));
    QCOMPARE(cell(root, SpanTreeModel::SelfColumn).toString(), QStringLiteral("38.0 \u00B5s"));
    QCOMPARE(cell(root, SpanTreeModel::MeasuredPercentColumn).toString(), QStringLiteral("100.0%"));
    QCOMPARE(cell(root, SpanTreeModel::BarColumn).toString(), QString());
    QCOMPARE(cell(root, SpanTreeModel::BarColumn, BarValueRole).toULongLong(), 50000ULL);
    QCOMPARE(cell(root, SpanTreeModel::BarColumn, TotalRole).toULongLong(), 50000ULL);
    QCOMPARE(cell(root, SpanTreeModel::DurationColumn, SortRole).toULongLong(), 50000ULL);
    QCOMPARE(cell(root, SpanTreeModel::SelfColumn, SortRole).toULongLong(), 38000ULL);
    QCOMPARE(cell(root, 0, IsMeasuredRole).toBool(), true);

    QCOMPARE(model.rowCount(root), 1);
    const QModelIndex matmul = model.index(0, 0, root);
    QCOMPARE(matmul.parent(), root);
    QCOMPARE(cell(matmul, SpanTreeModel::NameColumn).toString(), QStringLiteral("matmul"));
    QCOMPARE(cell(matmul, SpanTreeModel::KindColumn).toString(), QStringLiteral("op"));
    QCOMPARE(cell(matmul, SpanTreeModel::MeasuredPercentColumn).toString(), QStringLiteral("24.0%"));
    QCOMPARE(cell(matmul, SpanTreeModel::MeasuredPercentColumn, SortRole).toDouble(), 0.24);
    QCOMPARE(cell(matmul, 0, DepthRole).toInt(), 1);
    QCOMPARE(cell(matmul, 0, SpanIndexRole).toLongLong(), trace->findSpan(std::string_view("span-matmul")));
    QCOMPARE(cell(matmul, 0, LineRole).toULongLong(), 4ULL);
}

void tst_SpanTreeModel::flagsAndRoles()
{
    SpanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(spansJsonl(kTree)));

    const QModelIndex c = find(model, QStringLiteral("c"));
    QVERIFY(c.isValid());
    QCOMPARE(c.data(IsOpenRole).toBool(), true);
    QCOMPARE(c.siblingAtColumn(SpanTreeModel::DurationColumn).data().toString(), QStringLiteral("open"));
    QCOMPARE(c.siblingAtColumn(SpanTreeModel::SelfColumn).data().toString(), QStringLiteral("open"));
    QCOMPARE(c.siblingAtColumn(SpanTreeModel::MeasuredPercentColumn).data().toString(), QStringLiteral("n/a"));
    QVERIFY(!c.data(DurationRole).isValid());
    QVERIFY(!c.siblingAtColumn(SpanTreeModel::DurationColumn).data(SortRole).isValid());
    QVERIFY(c.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Open")));

    const QModelIndex f = find(model, QStringLiteral("f"));
    QVERIFY(f.isValid());
    QVERIFY(!f.parent().isValid());
    QCOMPARE(f.data(IsDanglingRole).toBool(), true);
    QVERIFY(f.data(Qt::ToolTipRole).toString().contains(QStringLiteral("nobody")));

    const QModelIndex g = find(model, QStringLiteral("g"));
    QCOMPARE(g.data(IsCycleRole).toBool(), true);
    QCOMPARE(g.data(IsDanglingRole).toBool(), false);
    QVERIFY(g.data(Qt::ToolTipRole).toString().contains(QStringLiteral("cycle")));

    const QModelIndex a = find(model, QStringLiteral("a"));
    QCOMPARE(a.data(IsOpenRole).toBool(), false);
    QCOMPARE(a.data(IsDanglingRole).toBool(), false);
    QCOMPARE(a.data().toString(), QStringLiteral("Attention"));
    // Self time ignores the open child c.
    QCOMPARE(a.data(SelfTimeRole).toULongLong(), 300ULL);
    QCOMPARE(a.data(FractionRole).toDouble(), 0.4);
    QCOMPARE(a.siblingAtColumn(SpanTreeModel::StartColumn).data(Qt::TextAlignmentRole).value<Qt::Alignment>(),
             Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
}

void tst_SpanTreeModel::indexForSpan()
{
    SpanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!model.indexForSpan(0).isValid());
    const auto trace = load(spansJsonl(kTree));
    show(model, trace);
    for (std::size_t i = 0; i < trace->spans.size(); ++i) {
        const QModelIndex index = model.indexForSpan(std::int64_t(i));
        QVERIFY(index.isValid());
        QCOMPARE(model.spanIndex(index), std::int64_t(i));
        // parent() and index() agree: the index is reachable from its parent at its row.
        QCOMPARE(model.index(index.row(), 0, index.parent()), index);
        QCOMPARE(
            index.data(SpanIdRole).toString(),
            QString::fromUtf8(trace->str(trace->spans[i].id).data(), qsizetype(trace->str(trace->spans[i].id).size())));
    }
    QVERIFY(!model.indexForSpan(-1).isValid());
    QVERIFY(!model.indexForSpan(std::int64_t(trace->spans.size())).isValid());
    QCOMPARE(model.indexForSpan(2, SpanTreeModel::BarColumn).column(), int(SpanTreeModel::BarColumn));
    QCOMPARE(model.spanIndex(QModelIndex()), std::int64_t(-1));
}

void tst_SpanTreeModel::headers()
{
    SpanTreeModel model;
    for (int c = 0; c < SpanTreeModel::ColumnCount; ++c) {
        QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
        QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
    QVERIFY(!model.headerData(SpanTreeModel::ColumnCount, Qt::Horizontal).isValid());
}

void tst_SpanTreeModel::initialSortOrder_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<bool>("descending");
    QTest::newRow("name") << int(SpanTreeModel::NameColumn) << false;
    QTest::newRow("start") << int(SpanTreeModel::StartColumn) << false;
    QTest::newRow("duration") << int(SpanTreeModel::DurationColumn) << true;
    QTest::newRow("self") << int(SpanTreeModel::SelfColumn) << true;
    QTest::newRow("% measured") << int(SpanTreeModel::MeasuredPercentColumn) << true;
    QTest::newRow("bar") << int(SpanTreeModel::BarColumn) << true;
}

void tst_SpanTreeModel::initialSortOrder()
{
    // QHeaderView asks this on the first click of a column: costs are read largest first.
    QFETCH(int, column);
    QFETCH(bool, descending);
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    for (const QAbstractItemModel *m :
         {static_cast<const QAbstractItemModel *>(&model), static_cast<const QAbstractItemModel *>(&proxy)}) {
        const QVariant order = m->headerData(column, Qt::Horizontal, Qt::InitialSortOrderRole);
        QCOMPARE(order.isValid() && order.toInt() == int(Qt::DescendingOrder), descending);
    }
}

void tst_SpanTreeModel::timeUnitAndPrecision()
{
    // Two spans a nanosecond apart 13 s into the run read apart; a chosen unit moves to the header.
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    show(model, load(spansJsonl("a:-:13131852417:1500 b:-:13131852418:2000000")));
    const auto cell = [&](const char *id, int column) {
        return proxy.mapFromSource(model.indexForSpan(model.trace()->findSpan(std::string_view(id)), column))
            .data()
            .toString();
    };
    const QChar g(0x202F);
    QCOMPARE(cell("a", SpanTreeModel::StartColumn),
             QStringLiteral("13.131") + g + QStringLiteral("852") + g + QStringLiteral("417 s"));
    QCOMPARE(cell("b", SpanTreeModel::StartColumn),
             QStringLiteral("13.131") + g + QStringLiteral("852") + g + QStringLiteral("418 s"));
    QCOMPARE(cell("a", SpanTreeModel::DurationColumn), QStringLiteral("1.50 \u00B5s"));
    QSignalSpy headers(&proxy, &QAbstractItemModel::headerDataChanged);
    QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);
    model.setTimeUnit(TimeUnit::Milliseconds);
    QCOMPARE(headers.count(), 1);
    QCOMPARE(layouts.count(), 0); // the order stays; only the text changes
    QCOMPARE(proxy.headerData(SpanTreeModel::StartColumn, Qt::Horizontal).toString(), QStringLiteral("Start (ms)"));
    QCOMPARE(proxy.headerData(SpanTreeModel::DurationColumn, Qt::Horizontal).toString(),
             QStringLiteral("Duration (ms)"));
    QCOMPARE(cell("a", SpanTreeModel::StartColumn),
             QStringLiteral("13") + g + QStringLiteral("131.852") + g + QStringLiteral("417"));
    QCOMPARE(cell("a", SpanTreeModel::DurationColumn), QStringLiteral("0.001") + g + QStringLiteral("500"));
    QCOMPARE(cell("b", SpanTreeModel::SelfColumn), QStringLiteral("2.000") + g + QStringLiteral("000"));
    model.setTimeUnit(TimeUnit::Auto);
    QCOMPARE(proxy.headerData(SpanTreeModel::StartColumn, Qt::Horizontal).toString(), QStringLiteral("Start"));
}

void tst_SpanTreeModel::filterKeepsAncestors_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("matches");
    QTest::newRow("none") << QString() << QStringLiteral("r[a[b c] d[e]] f g") << 8;
    QTest::newRow("leaf keeps its ancestors") << QStringLiteral("softmax") << QStringLiteral("r[a[c]]") << 1;
    QTest::newRow("case-insensitive, two branches") << QStringLiteral("MATMUL") << QStringLiteral("r[a[b] d]") << 2;
    QTest::newRow("children of a match are filtered too") << QStringLiteral("attention") << QStringLiteral("r[a]") << 1;
    QTest::newRow("matches name or id") << QStringLiteral("e") << QStringLiteral("r[a d[e]]")
                                        << 2; // "Attention" by name, "e" by id
    QTest::newRow("dangling span matches") << QStringLiteral("ghost") << QStringLiteral("f") << 1;
    QTest::newRow("cycle span matches") << QStringLiteral("g") << QStringLiteral("f g") << 2;
    QTest::newRow("no match") << QStringLiteral("conv2d") << QString() << 0;
    QTest::newRow("whitespace ignored") << QStringLiteral("  add ") << QStringLiteral("r[d[e]]") << 1;
}

void tst_SpanTreeModel::filterKeepsAncestors()
{
    QFETCH(QString, filter);
    QFETCH(QString, expected);
    QFETCH(int, matches);
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(spansJsonl(kTree)));
    proxy.setFilterText(filter);
    QCOMPARE(dump(proxy), expected);
    QCOMPARE(proxy.matchCount(), std::size_t(matches));
    // Back to everything.
    proxy.setFilterText(QString());
    QCOMPARE(dump(proxy), QStringLiteral("r[a[b c] d[e]] f g"));
}

void tst_SpanTreeModel::filterRoles()
{
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    const auto trace = load(spansJsonl(kTree));
    show(model, trace);
    QSignalSpy changed(&proxy, &SpanFilterProxyModel::filterTextChanged);
    proxy.setFilterText(QStringLiteral("matmul"));
    proxy.setFilterText(QStringLiteral(" matmul ")); // same after trimming: no second signal
    QCOMPARE(changed.count(), 1);
    QCOMPARE(proxy.filterText(), QStringLiteral("matmul"));
    const QModelIndex r = find(proxy, QStringLiteral("r"));
    const QModelIndex b = find(proxy, QStringLiteral("b"));
    QCOMPARE(r.data(IsFilterMatchRole).toBool(), false);
    QCOMPARE(b.data(IsFilterMatchRole).toBool(), true);
    const std::vector<std::uint32_t> hits = proxy.matches();
    QCOMPARE(hits.size(), std::size_t(2));
    QVERIFY(proxy.isMatch(trace->findSpan(std::string_view("b"))));
    QVERIFY(proxy.isMatch(trace->findSpan(std::string_view("d"))));
    QVERIFY(!proxy.isMatch(trace->findSpan(std::string_view("a"))));
    QVERIFY(!proxy.isMatch(-1));
}

void tst_SpanTreeModel::filterSurvivesReset()
{
    SpanTreeModel model;
    QAbstractItemModelTester sourceTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SpanFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setFilterText(QStringLiteral("matmul"));
    QCOMPARE(dump(proxy), QString());
    show(model, load(spansJsonl(kTree)));
    QCOMPARE(dump(proxy), QStringLiteral("r[a[b] d]"));
    show(model, load(spansJsonl("x:-:0:10 y=matmul:x:1:2 z:-:5:1")));
    QCOMPARE(dump(proxy), QStringLiteral("x[y]"));
    model.setTrace({}, {});
    QCOMPARE(dump(proxy), QString());
    QCOMPARE(proxy.matchCount(), std::size_t(0));
}

void tst_SpanTreeModel::sortEveryColumn_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    for (int c = 0; c < SpanTreeModel::ColumnCount; ++c) {
        const QByteArray name = QMetaEnum::fromType<SpanTreeModel::Column>().valueToKey(c);
        QTest::newRow(QByteArray(name + " ascending").constData()) << c << int(Qt::AscendingOrder);
        QTest::newRow(QByteArray(name + " descending").constData()) << c << int(Qt::DescendingOrder);
    }
}

void tst_SpanTreeModel::sortEveryColumn()
{
    QFETCH(int, column);
    QFETCH(int, order);
    // Wide fan-out with ties, steps, kinds, open spans.
    const QByteArray spec =
        "r*:-:0:10000 a=zeta:r:10:400:forward:module b=alpha:r:20:open:backward c=Beta:r:20:100:optimizer:op "
        "d=alpha:r:5:400 e=mid:r:7:50:forward f=leaf:a:11:3 g=leaf:a:12:open h=leaf:a:12:9:backward:op";
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(spansJsonl(spec)));
    proxy.sort(column, Qt::SortOrder(order));
    QCOMPARE(checkSorted(proxy, column, Qt::SortOrder(order)), QString());
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 5);

    // Open spans go last ascending and first descending in the duration column.
    if (column == SpanTreeModel::DurationColumn) {
        const QModelIndex r = proxy.index(0, 0);
        const int expectedRow = order == Qt::AscendingOrder ? 4 : 0;
        QCOMPARE(proxy.index(expectedRow, 0, r).data(SpanIdRole).toString(), QStringLiteral("b"));
    }
    // Ties keep tree order (start, then id): b and c both start at 20... d (5) before e (7).
    if (column == SpanTreeModel::NameColumn && order == Qt::AscendingOrder) {
        const QModelIndex r = proxy.index(0, 0);
        QStringList ids;
        for (int row = 0; row < proxy.rowCount(r); ++row)
            ids << proxy.index(row, 0, r).data(SpanIdRole).toString();
        QCOMPARE(ids, (QStringList{QStringLiteral("c"), QStringLiteral("d"), QStringLiteral("b"), QStringLiteral("e"),
                                   QStringLiteral("a")}));
    }
    proxy.sort(-1);
    QCOMPARE(dump(proxy), QStringLiteral("r[d e a[f g h] b c]"));
}

void tst_SpanTreeModel::sortThenFilter()
{
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(spansJsonl(kTree)));
    proxy.sort(SpanTreeModel::DurationColumn, Qt::DescendingOrder);
    QCOMPARE(dump(proxy), QStringLiteral("r[a[c b] d[e]] f g"));
    proxy.setFilterText(QStringLiteral("a"));
    QCOMPARE(checkSorted(proxy, SpanTreeModel::DurationColumn, Qt::DescendingOrder), QString());
    QCOMPARE(dump(proxy), QStringLiteral("r[a[c b] d[e]]"));
}

void tst_SpanTreeModel::persistentIndexes()
{
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(spansJsonl(kTree)));
    const QPersistentModelIndex b = find(proxy, QStringLiteral("b"));
    const QPersistentModelIndex bSelf = find(proxy, QStringLiteral("b")).siblingAtColumn(SpanTreeModel::SelfColumn);
    const QPersistentModelIndex e = find(proxy, QStringLiteral("e"));
    QCOMPARE(b.row(), 0);
    proxy.sort(SpanTreeModel::StartColumn, Qt::DescendingOrder); // under a: c (150) before b (20)
    QCOMPARE(b.row(), 1);
    QCOMPARE(bSelf.row(), 1);
    QCOMPARE(bSelf.column(), int(SpanTreeModel::SelfColumn));
    QCOMPARE(b.data(SpanIdRole).toString(), QStringLiteral("b"));
    QCOMPARE(b.parent().data(SpanIdRole).toString(), QStringLiteral("a"));
    proxy.setFilterText(QStringLiteral("matmul")); // keeps b, hides e
    QVERIFY(b.isValid());
    QCOMPARE(b.row(), 0);
    QVERIFY(!e.isValid());
    proxy.setFilterText(QString());
    QCOMPARE(b.row(), 1);
    QVERIFY(!e.isValid()); // once gone, a persistent index stays invalid
}

void tst_SpanTreeModel::mappingAndSiblings()
{
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    const auto trace = load(spansJsonl(kTree));
    show(model, trace);
    proxy.sort(SpanTreeModel::NameColumn, Qt::DescendingOrder); // under r: d "MatMul", a "Attention"
    const QModelIndex r = proxy.index(0, 0);
    QCOMPARE(proxy.index(0, 0, r).data(SpanIdRole).toString(), QStringLiteral("d"));
    // sibling() works in proxy rows, not source rows.
    const QModelIndex d = proxy.index(0, SpanTreeModel::StartColumn, r);
    QCOMPARE(d.sibling(1, 0).data(SpanIdRole).toString(), QStringLiteral("a"));
    QCOMPARE(d.siblingAtColumn(0).data().toString(), QStringLiteral("MatMul"));
    QCOMPARE(proxy.mapToSource(d),
             model.indexForSpan(trace->findSpan(std::string_view("d")), SpanTreeModel::StartColumn));
    QCOMPARE(proxy.mapFromSource(proxy.mapToSource(d)), d);
    proxy.setFilterText(QStringLiteral("ghost"));
    QVERIFY(!proxy.mapFromSource(model.indexForSpan(trace->findSpan(std::string_view("d")))).isValid());
    QVERIFY(proxy.isVisible(trace->findSpan(std::string_view("f"))));
    QVERIFY(!proxy.isVisible(trace->findSpan(std::string_view("d"))));
    proxy.setFilterText(QStringLiteral("nothing matches this"));
    QCOMPARE(proxy.rowCount(), 0);
    QCOMPARE(proxy.headerData(SpanTreeModel::DurationColumn, Qt::Horizontal).toString(), QStringLiteral("Duration"));
    QVERIFY(!proxy.index(0, 0).isValid());

    SpanFilterProxyModel other; // a source that is not a SpanTreeModel shows nothing
    SpanFilterProxyModel chained;
    chained.setSourceModel(&other);
    QCOMPARE(chained.rowCount(), 0);
    QCOMPARE(chained.columnCount(), 0);
}

// A leaf is flagged ItemNeverHasChildren in the model and, with the same flags, in the proxy
// (which answers without mapping each row back to the source: QTreeView asks for every row it
// lays out).
void tst_SpanTreeModel::leafFlags()
{
    SpanTreeModel model;
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    const auto trace = load(spansJsonl(kTree));
    show(model, trace);
    proxy.sort(SpanTreeModel::NameColumn, Qt::DescendingOrder);
    const Qt::ItemFlags plain = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    for (const char *id : {"r", "a", "c", "d", "f", "g"}) {
        const std::int64_t span = trace->findSpan(std::string_view(id));
        QVERIFY2(span >= 0, id);
        for (int column = 0; column < model.columnCount(); ++column) {
            const QModelIndex source = model.indexForSpan(span, column);
            const bool leaf = !model.hasChildren(source.siblingAtColumn(0));
            QCOMPARE(model.flags(source), leaf ? plain | Qt::ItemNeverHasChildren : plain);
            const QModelIndex shown = proxy.mapFromSource(source);
            QVERIFY2(shown.isValid(), id);
            QCOMPARE(proxy.flags(shown), model.flags(source));
        }
    }
    QCOMPARE(model.flags({}), Qt::ItemFlags());
    QCOMPARE(proxy.flags({}), Qt::ItemFlags());
}

void tst_SpanTreeModel::clear()
{
    SpanTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto trace = load(spansJsonl(kTree));
    show(model, trace);
    QVERIFY(model.rowCount() > 0);
    model.setTrace(trace, {});
    QCOMPARE(model.rowCount(), 0);
    // A tree of a different trace is rejected rather than indexed out of range.
    model.setTrace(trace, std::make_shared<const SpanTree>(SpanTree::build(*load(spansJsonl("x:-:0:1")))));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.data(QModelIndex()).isValid());
}

QTEST_GUILESS_MAIN(tst_SpanTreeModel)
#include "tst_spantreemodel.moc"
