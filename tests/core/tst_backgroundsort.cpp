// SPDX-License-Identifier: MIT
// Sorting on a worker thread (BackgroundSort): the op table, the evidence tables and the span
// tree give the same order as a sort on the calling thread, apply only the newest request,
// and never apply an order computed for data they no longer show.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>

#include "tests/testutils/evidencefixture.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/optablemodel.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/itemmodels/tensortablemodel.h"
#include "core/model/trace.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

class tst_BackgroundSort : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanup();
    void generations();
    void opTableMatchesSynchronous_data();
    void opTableMatchesSynchronous();
    void opTableNewestRequestWins();
    void synchronousUnlessAsked();
    void opTableResetDropsPendingOrder();
    void opTableKeepsPersistentIndexes();
    void tensorTableMatchesSynchronous_data();
    void tensorTableMatchesSynchronous();
    void tensorTableResetDropsPendingOrder();
    void tensorTableMillionRows_data();
    void tensorTableMillionRows();
    void spanTreeMatchesSynchronous_data();
    void spanTreeMatchesSynchronous();
    void spanTreeFilterCancelsPendingSort();
    void spanTreeFilterWhileSorted_data();
    void spanTreeFilterWhileSorted();
};

namespace {

constexpr std::size_t kAlwaysBackground = 0;
constexpr std::size_t kNeverBackground = std::size_t(-1);

// 40 spans in a tree three levels deep (some open), 600 ops over them with random values.
std::shared_ptr<const Trace> randomTrace(std::uint64_t seed)
{
    auto trace = std::make_shared<Trace>();
    std::mt19937_64 rng(seed);
    const StringId names[] = {trace->strings.intern("matmul"), trace->strings.intern("softmax"),
                              trace->strings.intern("copy")};
    const StringId devices[] = {trace->strings.intern("cuda:0"), trace->strings.intern("cpu")};
    const StringId dtype = trace->strings.intern("f32");
    const std::uint64_t dims[] = {2, 3};
    const ShapeId shape = trace->shapes.intern(dims);
    constexpr std::size_t kSpans = 40;
    for (std::size_t i = 0; i < kSpans; ++i) {
        Span s;
        char id[8];
        std::snprintf(id, sizeof id, "s%03zu", i);
        s.id = trace->strings.intern(id);
        s.name = names[rng() % 3];
        if (i > 0) {
            char parent[8];
            std::snprintf(parent, sizeof parent, "s%03zu", i < 4 ? 0 : (i < 12 ? 1 + i % 3 : 4 + i % 8));
            s.parentId = trace->strings.intern(parent);
        }
        s.startNs = i * 10 + rng() % 5;
        s.closed = rng() % 7 != 0;
        s.durationNs = s.closed ? rng() % 1000 : 0;
        trace->spans.push_back(s);
    }
    for (std::size_t i = 0; i < 600; ++i) {
        Op o;
        o.spanId = trace->spans[rng() % kSpans].id;
        o.opName = names[rng() % 3];
        o.device = devices[rng() % 2];
        o.dtype = dtype;
        o.shape = shape;
        o.timestampNs = rng() % 10000;
        o.durationNs = rng() % 50; // many ties: stability shows
        o.inputDenseBytes = rng() % 4096;
        o.hasOutputDenseBytes = rng() % 5 != 0;
        o.outputDenseBytes = o.hasOutputDenseBytes ? rng() % 4096 : 0;
        trace->ops.push_back(o);
    }
    return trace;
}

QList<qint64> opOrder(const OpTableModel &model)
{
    QList<qint64> ops;
    for (int row = 0; row < model.rowCount(); ++row)
        ops << model.opAt(row);
    return ops;
}

QList<qint64> recordOrder(const FlatTableModel &model)
{
    QList<qint64> records;
    for (int row = 0; row < model.rowCount(); ++row)
        records << model.recordAt(row);
    return records;
}

// Pre-order walk of the proxy: span index per row, children in the proxy's order.
QList<qint64> treeOrder(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QList<qint64> spans;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        spans << qint64(index.internalId());
        spans << treeOrder(model, index);
    }
    return spans;
}

// Lets every worker finish and delivers what they posted: a stale result that were applied
// would be applied by now. (No timed wait: waiting for something not to happen.)
void drainWorkers()
{
    workerPool()->waitForDone();
    QCoreApplication::processEvents();
}

} // namespace

void tst_BackgroundSort::cleanup()
{
    BackgroundSort::setBackgroundRows(100000);
}

void tst_BackgroundSort::generations()
{
    BackgroundSort sort;
    QSignalSpy running(&sort, &BackgroundSort::runningChanged);
    QList<int> applied;
    // The first computation is the slowest: it finishes last and must still be dropped.
    sort.start([&applied]() -> BackgroundSort::Apply {
        QThread::msleep(200);
        return [&applied] { applied << 1; };
    });
    QVERIFY(sort.isRunning());
    sort.start([&applied]() -> BackgroundSort::Apply { return [&applied] { applied << 2; }; });
    QTRY_COMPARE(applied, QList<int>{2});
    QVERIFY(!sort.isRunning());
    drainWorkers(); // the first one lands now, and is dropped
    QCOMPARE(applied, QList<int>{2});
    QCOMPARE(running.size(), 2); // started once (still running on the second start), stopped once

    sort.start([&applied]() -> BackgroundSort::Apply { return [&applied] { applied << 3; }; });
    sort.cancel();
    QVERIFY(!sort.isRunning());
    drainWorkers();
    QCOMPARE(applied, QList<int>{2});
}

void tst_BackgroundSort::opTableMatchesSynchronous_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    for (int c = 0; c < OpTableModel::ColumnCount; ++c) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const QByteArray name = QByteArray::number(c) + (order == Qt::AscendingOrder ? " asc" : " desc");
            QTest::newRow(name.constData()) << c << int(order);
        }
    }
}

void tst_BackgroundSort::opTableMatchesSynchronous()
{
    QFETCH(int, column);
    QFETCH(int, order);
    const auto trace = randomTrace(7);
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));

    BackgroundSort::setBackgroundRows(kNeverBackground);
    OpTableModel reference;
    reference.setTrace(trace, tree);
    reference.sort(column, Qt::SortOrder(order));
    QVERIFY(!reference.isSorting());

    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    OpTableModel model;
    model.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(trace, tree);
    QSignalSpy sorting(&model, &OpTableModel::sortingChanged);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
    const QList<qint64> streamOrder = opOrder(model);
    model.sort(column, Qt::SortOrder(order));
    QCOMPARE(model.sortColumn(), column); // what was asked, at once
    QVERIFY(model.isSorting());
    QCOMPARE(opOrder(model), streamOrder); // not applied yet
    QTRY_VERIFY(!model.isSorting());
    QCOMPARE(layout.size(), 1);
    QCOMPARE(sorting.size(), 2);
    QCOMPARE(opOrder(model), opOrder(reference));
}

void tst_BackgroundSort::synchronousUnlessAsked()
{
    // Without setBackgroundSorting(true) every model sorts at once, whatever its size.
    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    const auto trace = randomTrace(13);
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    OpTableModel ops;
    ops.setTrace(trace, tree);
    ops.sort(OpTableModel::DurationColumn, Qt::AscendingOrder);
    QVERIFY(!ops.isSorting());
    for (int row = 1; row < ops.rowCount(); ++row)
        QVERIFY(trace->ops[std::size_t(ops.opAt(row - 1))].durationNs
                <= trace->ops[std::size_t(ops.opAt(row))].durationNs);

    SpanTreeModel spans;
    spans.setTrace(trace, tree);
    SpanFilterProxyModel proxy;
    proxy.setSourceModel(&spans);
    proxy.sort(SpanTreeModel::StartColumn, Qt::DescendingOrder);
    QVERIFY(!proxy.isSorting());

    const LoadedTracePtr loaded = TestFixtures::loadedSnapshot(TestFixtures::evidenceTrace());
    QVERIFY(loaded);
    TensorTableModel tensors;
    tensors.setTrace(loaded->trace, loaded->evidence);
    tensors.sort(TensorTableModel::BytesColumn, Qt::AscendingOrder);
    QVERIFY(!tensors.isSorting());
}

void tst_BackgroundSort::opTableNewestRequestWins()
{
    const auto trace = randomTrace(11);
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    BackgroundSort::setBackgroundRows(kNeverBackground);
    OpTableModel reference;
    reference.setTrace(trace, tree);
    reference.sort(OpTableModel::NameColumn, Qt::DescendingOrder);

    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    OpTableModel model;
    model.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(trace, tree);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
    model.sort(OpTableModel::DurationColumn, Qt::AscendingOrder);
    model.sort(OpTableModel::InputBytesColumn, Qt::AscendingOrder);
    model.sort(OpTableModel::NameColumn, Qt::DescendingOrder);
    QTRY_VERIFY(!model.isSorting());
    drainWorkers(); // any older result arriving late must not be applied
    QCOMPARE(layout.size(), 1);
    QCOMPARE(opOrder(model), opOrder(reference));

    // Back to stream order while a sort is pending: the pending one is dropped.
    model.sort(OpTableModel::DurationColumn, Qt::DescendingOrder);
    model.sort(-1);
    QVERIFY(!model.isSorting());
    drainWorkers();
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.opAt(row), qint64(row));
}

void tst_BackgroundSort::opTableResetDropsPendingOrder()
{
    const auto first = randomTrace(1);
    const auto second = randomTrace(2);
    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    OpTableModel model;
    model.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(first);
    model.sort(OpTableModel::DurationColumn, Qt::DescendingOrder);
    model.setTrace(second); // a different file opened while the first one sorted
    QVERIFY(!model.isSorting());
    QCOMPARE(model.sortColumn(), -1);
    drainWorkers();
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.opAt(row), qint64(row));
}

void tst_BackgroundSort::opTableKeepsPersistentIndexes()
{
    const auto trace = randomTrace(5);
    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    OpTableModel model;
    model.setBackgroundSorting(true);
    model.setTrace(trace);
    const QPersistentModelIndex selected(model.index(123, OpTableModel::DurationColumn));
    model.sort(OpTableModel::StartColumn, Qt::DescendingOrder);
    QTRY_VERIFY(!model.isSorting());
    QVERIFY(selected.isValid());
    QCOMPARE(model.opAt(selected.row()), qint64(123));
    QCOMPARE(selected.column(), int(OpTableModel::DurationColumn));
}

void tst_BackgroundSort::tensorTableMatchesSynchronous_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    for (const int c :
         {int(TensorTableModel::BytesColumn), int(TensorTableModel::LabelColumn), int(TensorTableModel::AllocColumn),
          int(TensorTableModel::AgeAtPeakColumn), int(TensorTableModel::IdColumn)}) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const QByteArray name = QByteArray::number(c) + (order == Qt::AscendingOrder ? " asc" : " desc");
            QTest::newRow(name.constData()) << c << int(order);
        }
    }
}

void tst_BackgroundSort::tensorTableMatchesSynchronous()
{
    QFETCH(int, column);
    QFETCH(int, order);
    const LoadedTracePtr loaded = TestFixtures::loadedSnapshot(TestFixtures::evidenceTrace());
    QVERIFY(loaded);
    BackgroundSort::setBackgroundRows(kNeverBackground);
    TensorTableModel reference;
    reference.setTrace(loaded->trace, loaded->evidence);
    reference.sort(column, Qt::SortOrder(order));

    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    TensorTableModel model;
    model.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(loaded->trace, loaded->evidence);
    model.setFilterText(QStringLiteral("t")); // a filter stays applied through the sort
    QSignalSpy sorting(&model, &FlatTableModel::sortingChanged);
    model.sort(column, Qt::SortOrder(order));
    QVERIFY(model.isSorting());
    QTRY_VERIFY(!model.isSorting());
    QCOMPARE(sorting.size(), 2);
    reference.setFilterText(QStringLiteral("t"));
    QCOMPARE(recordOrder(model), recordOrder(reference));
}

void tst_BackgroundSort::tensorTableResetDropsPendingOrder()
{
    const LoadedTracePtr loaded = TestFixtures::loadedSnapshot(TestFixtures::evidenceTrace());
    QVERIFY(loaded);
    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    TensorTableModel model;
    model.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(loaded->trace, loaded->evidence);
    model.sort(TensorTableModel::BytesColumn, Qt::AscendingOrder);
    model.setTrace(nullptr);
    QVERIFY(!model.isSorting());
    drainWorkers();
    QCOMPARE(model.rowCount(), 0);
}

namespace {

// The million-tensor trace of tensorTableMillionRows, made once for all its rows (generating
// it is most of the test's time under ASan).
std::shared_ptr<const Trace> millionTensorTrace(std::size_t rows)
{
    static std::shared_ptr<const Trace> cached;
    if (cached && cached->tensors.size() == rows)
        return cached;
    auto trace = std::make_shared<Trace>();
    std::mt19937_64 rng(20261203);
    std::vector<StringId> labels;
    for (int i = 0; i < 997; ++i)
        labels.push_back(trace->strings.intern("layer" + std::to_string((i * 7919) % 997) + ".weight"));
    const StringId dtype = trace->strings.intern("f32");
    const StringId device = trace->strings.intern("cuda:0");
    const StringId span = trace->strings.intern("s");
    trace->tensors.resize(rows);
    // Ids are unique but not in record order, so that an id sort has work to do.
    std::vector<std::uint32_t> idNumbers(rows);
    std::iota(idNumbers.begin(), idNumbers.end(), 0U);
    std::shuffle(idNumbers.begin(), idNumbers.end(), rng);
    char id[16];
    for (std::size_t i = 0; i < rows; ++i) {
        Tensor &t = trace->tensors[i];
        std::snprintf(id, sizeof id, "t%07u", idNumbers[i]);
        t.tensorId = trace->strings.intern(id);
        t.label = labels[rng() % labels.size()];
        t.dtype = dtype;
        t.device = device;
        t.spanId = span;
        t.hasDenseBytes = rng() % 50 != 0;
        t.denseBytes = t.hasDenseBytes ? (rng() % 4096) * 4 : 0; // many ties
        t.line = std::uint32_t(i + 2);
    }
    cached = trace;
    return cached;
}

} // namespace

void tst_BackgroundSort::tensorTableMillionRows_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::newRow("bytes ascending") << int(TensorTableModel::BytesColumn) << int(Qt::AscendingOrder);
    QTest::newRow("bytes descending") << int(TensorTableModel::BytesColumn) << int(Qt::DescendingOrder);
    QTest::newRow("label ascending") << int(TensorTableModel::LabelColumn) << int(Qt::AscendingOrder);
    QTest::newRow("id descending") << int(TensorTableModel::IdColumn) << int(Qt::DescendingOrder);
}

// A million tensor rows generated in memory (no gen_trace), sorted through the real
// background path (the default threshold, not lowered), against an order computed here with
// std::stable_sort on the generated values: ties stay in record order, tensors without dense
// bytes go last ascending and first descending, strings compare bytewise.
void tst_BackgroundSort::tensorTableMillionRows()
{
    QFETCH(int, column);
    QFETCH(int, order);
    constexpr std::size_t kRows = 1000000;
    QVERIFY(kRows > BackgroundSort::backgroundRows());

    const std::shared_ptr<const Trace> shared = millionTensorTrace(kRows);
    QCOMPARE(shared->tensors.size(), kRows);

    std::vector<std::uint32_t> expected(kRows);
    std::iota(expected.begin(), expected.end(), 0U);
    const auto &tensors = shared->tensors;
    const bool ascending = Qt::SortOrder(order) == Qt::AscendingOrder;
    const auto less = [&](std::uint32_t a, std::uint32_t b) -> bool {
        const Tensor &x = tensors[a];
        const Tensor &y = tensors[b];
        switch (column) {
        case TensorTableModel::BytesColumn:
            if (x.hasDenseBytes != y.hasDenseBytes)
                return ascending ? x.hasDenseBytes : !x.hasDenseBytes;
            return ascending ? x.denseBytes < y.denseBytes : y.denseBytes < x.denseBytes;
        case TensorTableModel::LabelColumn:
            return ascending ? shared->str(x.label) < shared->str(y.label)
                             : shared->str(y.label) < shared->str(x.label);
        default:
            return ascending ? shared->str(x.tensorId) < shared->str(y.tensorId)
                             : shared->str(y.tensorId) < shared->str(x.tensorId);
        }
    };
    std::stable_sort(expected.begin(), expected.end(), less);

    TensorTableModel model;
    model.setBackgroundSorting(true);
    model.setTrace(shared);
    QCOMPARE(model.rowCount(), int(kRows));
    QSignalSpy sorting(&model, &FlatTableModel::sortingChanged);
    model.sort(column, Qt::SortOrder(order));
    QVERIFY2(model.isSorting(), "a million rows must sort on a worker thread");
    QCOMPARE(model.sortColumn(), column);
    QTRY_VERIFY_WITH_TIMEOUT(!model.isSorting(), 120000);
    QCOMPARE(sorting.size(), 2);
    QCOMPARE(model.rowCount(), int(kRows));

    std::size_t firstDifference = kRows;
    for (std::size_t row = 0; row < kRows; ++row) {
        if (model.recordAt(int(row)) != qint64(expected[row])) {
            firstDifference = row;
            break;
        }
    }
    QVERIFY2(firstDifference == kRows,
             qPrintable(QStringLiteral("row %1: record %2, expected %3")
                            .arg(firstDifference)
                            .arg(firstDifference < kRows ? model.recordAt(int(firstDifference)) : -1)
                            .arg(firstDifference < kRows ? expected[firstDifference] : 0)));
    // What a view shows agrees: the first and last rows' values through data().
    const QModelIndex first = model.index(0, column);
    const QModelIndex last = model.index(int(kRows) - 1, column);
    if (column == TensorTableModel::BytesColumn) {
        QCOMPARE(model.data(ascending ? first : last, SortRole).toULongLong(), quint64(0));
        QVERIFY(!model.data(ascending ? last : first, SortRole).isValid()); // no dense bytes
    } else {
        const QString a = model.data(first, Qt::DisplayRole).toString();
        const QString b = model.data(last, Qt::DisplayRole).toString();
        QVERIFY2(ascending ? a < b : b < a, qPrintable(a + u" / " + b));
    }
}

void tst_BackgroundSort::spanTreeMatchesSynchronous_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    for (const int c : {int(SpanTreeModel::NameColumn), int(SpanTreeModel::StartColumn),
                        int(SpanTreeModel::DurationColumn), int(SpanTreeModel::SelfColumn)}) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const QByteArray name = QByteArray::number(c) + (order == Qt::AscendingOrder ? " asc" : " desc");
            QTest::newRow(name.constData()) << c << int(order);
        }
    }
}

void tst_BackgroundSort::spanTreeMatchesSynchronous()
{
    QFETCH(int, column);
    QFETCH(int, order);
    const auto trace = randomTrace(3);
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));

    BackgroundSort::setBackgroundRows(kNeverBackground);
    SpanTreeModel referenceModel;
    referenceModel.setTrace(trace, tree);
    SpanFilterProxyModel reference;
    reference.setSourceModel(&referenceModel);
    reference.sort(column, Qt::SortOrder(order));

    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    SpanTreeModel model;
    model.setTrace(trace, tree);
    SpanFilterProxyModel proxy;
    proxy.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    const QList<qint64> before = treeOrder(proxy);
    const QModelIndex deep = proxy.index(0, 0, proxy.index(1, 0, proxy.index(0, 0)));
    QVERIFY(deep.isValid());
    const QPersistentModelIndex kept(deep);
    const quintptr keptSpan = deep.internalId();
    proxy.sort(column, Qt::SortOrder(order));
    QCOMPARE(proxy.sortColumn(), column);
    QVERIFY(proxy.isSorting());
    QCOMPARE(treeOrder(proxy), before);
    QTRY_VERIFY(!proxy.isSorting());
    QCOMPARE(treeOrder(proxy), treeOrder(reference));
    QVERIFY(kept.isValid());
    QCOMPARE(kept.internalId(), keptSpan);
    QCOMPARE(kept.row(), proxy.mapFromSource(model.indexForSpan(qint64(keptSpan))).row());
}

void tst_BackgroundSort::spanTreeFilterCancelsPendingSort()
{
    const auto trace = randomTrace(9);
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    BackgroundSort::setBackgroundRows(kNeverBackground);
    SpanTreeModel referenceModel;
    referenceModel.setTrace(trace, tree);
    SpanFilterProxyModel reference;
    reference.setSourceModel(&referenceModel);
    reference.sort(SpanTreeModel::DurationColumn, Qt::DescendingOrder);
    reference.setFilterText(QStringLiteral("soft"));

    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    SpanTreeModel model;
    model.setTrace(trace, tree);
    SpanFilterProxyModel proxy;
    proxy.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    const QList<qint64> unsorted = treeOrder(proxy);
    proxy.sort(SpanTreeModel::DurationColumn, Qt::DescendingOrder);
    // The filter of a sorted big tree is laid out on the worker too, with the asked order;
    // the pending (unfiltered) order is stale and never shown.
    QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);
    proxy.setFilterText(QStringLiteral("soft"));
    QCOMPARE(proxy.filterText(), QStringLiteral("soft"));
    QVERIFY(proxy.isSorting());
    QCOMPARE(treeOrder(proxy), unsorted);
    QTRY_VERIFY(!proxy.isSorting());
    QCOMPARE(layouts.count(), 1);
    QCOMPARE(treeOrder(proxy), treeOrder(reference));
    QCOMPARE(proxy.matchCount(), reference.matchCount());
    drainWorkers();
    QCOMPARE(layouts.count(), 1);
    QCOMPARE(treeOrder(proxy), treeOrder(reference));
}

void tst_BackgroundSort::spanTreeFilterWhileSorted_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<quint64>("rangeBegin");
    QTest::addColumn<quint64>("rangeEnd"); // begin == end: no range
    QTest::addColumn<bool>("sorted");
    for (const bool sorted : {true, false}) {
        const char *order = sorted ? "sorted" : "tree order";
        QTest::addRow("%s, text", order) << QStringLiteral("mat") << quint64(0) << quint64(0) << sorted;
        QTest::addRow("%s, span id", order) << QStringLiteral("s01") << quint64(0) << quint64(0) << sorted;
        QTest::addRow("%s, no match", order) << QStringLiteral("nothing") << quint64(0) << quint64(0) << sorted;
        QTest::addRow("%s, time range", order) << QString() << quint64(100) << quint64(250) << sorted;
        QTest::addRow("%s, text and time range", order)
            << QStringLiteral("copy") << quint64(50) << quint64(300) << sorted;
    }
}

void tst_BackgroundSort::spanTreeFilterWhileSorted()
{
    // Changing the filter or the time range of a big tree filters (and re-sorts) on a worker,
    // sorted or in tree order (a range selection spent 57 ms of GUI time there on a million
    // unsorted spans): the old rows stay until one layout change brings the synchronous
    // result, and persistent indexes of spans still shown follow them.
    QFETCH(QString, text);
    QFETCH(quint64, rangeBegin);
    QFETCH(quint64, rangeEnd);
    QFETCH(bool, sorted);
    const TimeWindow range{rangeBegin, rangeEnd};
    const auto trace = randomTrace(11);
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    BackgroundSort::setBackgroundRows(kNeverBackground);
    SpanTreeModel referenceModel;
    referenceModel.setTrace(trace, tree);
    SpanFilterProxyModel reference;
    reference.setSourceModel(&referenceModel);
    if (sorted)
        reference.sort(SpanTreeModel::SelfColumn, Qt::AscendingOrder);
    reference.setFilterText(text);
    reference.setTimeRange(range);

    BackgroundSort::setBackgroundRows(kAlwaysBackground);
    SpanTreeModel model;
    model.setTrace(trace, tree);
    SpanFilterProxyModel proxy;
    proxy.setBackgroundSorting(true);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    if (sorted) {
        proxy.sort(SpanTreeModel::SelfColumn, Qt::AscendingOrder);
        QTRY_VERIFY(!proxy.isSorting());
    }
    const QList<qint64> whole = treeOrder(proxy);
    std::vector<QPersistentModelIndex> kept;
    for (int row = 0; row < proxy.rowCount(); ++row)
        kept.emplace_back(proxy.index(row, SpanTreeModel::DurationColumn));

    QSignalSpy layouts(&proxy, &QAbstractItemModel::layoutChanged);
    QSignalSpy sorting(&proxy, &SpanFilterProxyModel::sortingChanged);
    proxy.setFilterText(text);
    proxy.setTimeRange(range);
    QCOMPARE(proxy.filterText(), text);
    QCOMPARE(proxy.timeRange(), range.isEmpty() ? TimeWindow{} : range);
    QVERIFY(proxy.isSorting());
    QCOMPARE(treeOrder(proxy), whole); // the old rows until the layout lands
    QCOMPARE(proxy.matchCount(), tree->spanCount());
    QTRY_VERIFY(!proxy.isSorting());
    QCOMPARE(layouts.count(), 1); // the range superseded the text's layout before it landed
    QCOMPARE(sorting.last().at(0).toBool(), false);
    QCOMPARE(treeOrder(proxy), treeOrder(reference));
    QCOMPARE(proxy.matchCount(), reference.matchCount());
    for (std::size_t span = 0; span < tree->spanCount(); ++span) {
        QCOMPARE(proxy.isMatch(qint64(span)), reference.isMatch(qint64(span)));
        QCOMPARE(proxy.isVisible(qint64(span)), reference.isVisible(qint64(span)));
        const QModelIndex shown = proxy.mapFromSource(model.indexForSpan(qint64(span)));
        QCOMPARE(shown.isValid(), reference.isVisible(qint64(span)));
        if (shown.isValid())
            QCOMPARE(shown.data(IsFilterMatchRole).toBool(), !text.isEmpty() && reference.isMatch(qint64(span)));
    }
    for (const QPersistentModelIndex &index : kept) {
        const QModelIndex now = proxy.mapFromSource(model.indexForSpan(qint64(index.internalId())));
        if (index.isValid()) {
            QCOMPARE(index.row(), now.row());
            QCOMPARE(index.column(), int(SpanTreeModel::DurationColumn));
        }
    }
    // Back to no filter: the whole tree again, sorted on the worker, in tree order at once.
    proxy.setFilterText(QString());
    proxy.setTimeRange({});
    QCOMPARE(proxy.isSorting(), sorted);
    QTRY_VERIFY(!proxy.isSorting());
    QCOMPARE(treeOrder(proxy), whole);
}

QTEST_GUILESS_MAIN(tst_BackgroundSort)
#include "tst_backgroundsort.moc"
