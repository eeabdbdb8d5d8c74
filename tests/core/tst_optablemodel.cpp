// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QMetaEnum>
#include <QSortFilterProxyModel>
#include <QTest>

#include <random>

#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opfilterproxymodel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/model/trace.h"

using namespace TraceInspector;

namespace {

using TestFixtures::kMeta;

// Spans s-attn (name "attention") and s-mlp (name "mlp"); ops as
// `name/span/shape/dtype/device/start/duration/inputBytes[/outputBytes]`, shape as 2x3.
QByteArray opsJsonl(const QList<QByteArray> &ops)
{
    QByteArray text = kMeta;
    text +=
        "{\"kind\":\"span_start\",\"id\":\"s-attn\",\"name\":\"attention\",\"start_ns\":0,\"span_kind\":\"module\"}\n";
    text += "{\"kind\":\"span_start\",\"id\":\"s-mlp\",\"name\":\"mlp\",\"start_ns\":0,\"span_kind\":\"module\"}\n";
    for (const QByteArray &op : ops) {
        const QList<QByteArray> f = op.split('/');
        QByteArray shape = f[2];
        shape.replace('x', ',');
        text += "{\"kind\":\"op\",\"span_id\":\"" + f[1] + "\",\"op_name\":\"" + f[0] + "\",\"shape\":[" + shape
                + "],\"dtype\":\"" + f[3] + "\",\"device\":\"" + f[4] + "\",\"timestamp_ns\":" + f[5]
                + ",\"duration_ns\":" + f[6] + ",\"input_dense_bytes\":" + f[7];
        if (f.size() > 8)
            text += ",\"output_dense_bytes\":" + f[8];
        text += "}\n";
    }
    text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000000000}\n";
    return text;
}

std::shared_ptr<const Trace> load(const QByteArray &jsonl)
{
    return TestFixtures::traceFrom(jsonl, QStringLiteral("ops.jsonl"));
}

const QList<QByteArray> kOps = {
    "matmul/s-attn/2x3/f32/cuda:0/100/50/48",   // 0: out 24
    "softmax/s-attn/2x3/bf16/cuda:0/160/10/12", // 1: out 12
    "matmul/s-mlp/4/f32/cuda:1/200/70/32",      // 2: out 16
    "add/s-mlp/2x3x4/F8E4M3/cpu/300/10/8",      // 3: unknown dtype, no output bytes
    "copy/s-gone/1/u8/cpu/50/5/1/999",          // 4: unknown span, explicit output bytes
    "Add/s-attn//i64/cuda:0/400/10/16",         // 5: scalar, out 8
};

void show(OpTableModel &model, const std::shared_ptr<const Trace> &trace, bool withTree = true)
{
    model.setTrace(trace, withTree ? std::make_shared<const SpanTree>(SpanTree::build(*trace)) : nullptr);
}

QList<qint64> opOrder(const QAbstractItemModel &model)
{
    QList<qint64> ops;
    for (int row = 0; row < model.rowCount(); ++row)
        ops << model.index(row, 0).data(OpIndexRole).toLongLong();
    return ops;
}

int compareSortValues(const QVariant &a, const QVariant &b)
{
    if (a.isValid() != b.isValid())
        return a.isValid() ? -1 : 1;
    if (!a.isValid())
        return 0;
    const QPartialOrdering order = QVariant::compare(a, b);
    return order == QPartialOrdering::Less ? -1 : (order == QPartialOrdering::Greater ? 1 : 0);
}

// Empty when rows are ordered by SortRole (ties by op index ascending, except for shapes, whose
// equal element counts are ordered by dims), else the first bad row.
QString checkSorted(const QAbstractItemModel &model, int column, Qt::SortOrder order)
{
    for (int row = 1; row < model.rowCount(); ++row) {
        const QModelIndex prev = model.index(row - 1, column);
        const QModelIndex cur = model.index(row, column);
        int c = compareSortValues(prev.data(SortRole), cur.data(SortRole));
        if (order == Qt::DescendingOrder)
            c = -c;
        const bool tieOrdered = column == OpTableModel::ShapeColumn
                                || prev.data(OpIndexRole).toLongLong() < cur.data(OpIndexRole).toLongLong();
        if (c > 0 || (c == 0 && !tieOrdered))
            return QString::number(row);
    }
    return {};
}

} // namespace

class tst_OpTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exampleRow();
    void cells_data();
    void cells();
    void spans();
    void indexForOp();
    void sortEveryColumn_data();
    void sortEveryColumn();
    void sortKeepsPersistentIndexes();
    void filter_data();
    void filter();
    void filterAndSortThroughProxy();
    void genericProxyFallback();
    void headers();
    void initialSortOrder_data();
    void initialSortOrder();
    void lateStartsReadApart();
    void largeTable();
};

void tst_OpTableModel::exampleRow()
{
    OpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QFile file(QStringLiteral(TI_EXAMPLES_DIR "/01_valid_trace10_forward.jsonl"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto trace = load(file.readAll());
    QVERIFY(trace);
    show(model, trace);
    QCOMPARE(model.rowCount(), 1);
    const QStringList expected = {
        QStringLiteral("matmul"),       QStringLiteral("span-matmul"), QStringLiteral("[2, 128, 768]"),
        QStringLiteral("bf16"),         QStringLiteral("cuda:0"),      QStringLiteral("2.100 \u00B5s"),
        QStringLiteral("11.5 \u00B5s"), QStringLiteral("1.50 MiB"),    QStringLiteral("384 KiB"),
        QStringLiteral("1.88 MiB"),     QStringLiteral("171 B/ns"),    QStringLiteral("95.8%")};
    for (int c = 0; c < OpTableModel::ColumnCount; ++c)
        QCOMPARE(model.index(0, c).data().toString(), expected[c]);
    QCOMPARE(model.index(0, OpTableModel::OutputBytesColumn).data(SortRole).toULongLong(), 393216ULL);
    QCOMPARE(model.index(0, OpTableModel::OutputBytesColumn).data(BytesRole).toULongLong(), 393216ULL);
    QCOMPARE(model.index(0, OpTableModel::ShapeColumn).data(SortRole).toULongLong(), 196608ULL);
    QCOMPARE(model.index(0, 0).data(SpanIndexRole).toLongLong(), trace->findSpan(std::string_view("span-matmul")));
    QCOMPARE(model.index(0, 0).data(LineRole).toULongLong(), 5ULL);
    QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("t:w_q")));
}

void tst_OpTableModel::cells_data()
{
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("display");
    QTest::addColumn<QVariant>("sort");
    QTest::newRow("unknown dtype: no output bytes")
        << 3 << int(OpTableModel::OutputBytesColumn) << QStringLiteral("n/a") << QVariant();
    QTest::newRow("explicit output bytes kept")
        << 4 << int(OpTableModel::OutputBytesColumn) << QStringLiteral("999 B") << QVariant::fromValue(quint64(999));
    QTest::newRow("derived output bytes")
        << 2 << int(OpTableModel::OutputBytesColumn) << QStringLiteral("16 B") << QVariant::fromValue(quint64(16));
    QTest::newRow("scalar shape") << 5 << int(OpTableModel::ShapeColumn) << QStringLiteral("[]")
                                  << QVariant::fromValue(quint64(1));
    QTest::newRow("dtype text kept") << 3 << int(OpTableModel::DtypeColumn) << QStringLiteral("F8E4M3")
                                     << QVariant(QStringLiteral("F8E4M3"));
    QTest::newRow("start") << 2 << int(OpTableModel::StartColumn) << QStringLiteral("200 ns")
                           << QVariant::fromValue(quint64(200));
    QTest::newRow("duration") << 2 << int(OpTableModel::DurationColumn) << QStringLiteral("70 ns")
                              << QVariant::fromValue(quint64(70));
    QTest::newRow("input bytes") << 0 << int(OpTableModel::InputBytesColumn) << QStringLiteral("48 B")
                                 << QVariant::fromValue(quint64(48));
}

void tst_OpTableModel::cells()
{
    QFETCH(int, op);
    QFETCH(int, column);
    QFETCH(QString, display);
    QFETCH(QVariant, sort);
    OpTableModel model;
    show(model, load(opsJsonl(kOps)));
    const QModelIndex index = model.indexForOp(op, column);
    QCOMPARE(index.data().toString(), display);
    QCOMPARE(index.data(SortRole), sort);
}

void tst_OpTableModel::spans()
{
    const auto trace = load(opsJsonl(kOps));
    for (bool withTree : {true, false}) {
        OpTableModel model;
        show(model, trace, withTree);
        QCOMPARE(model.spanOfOp(0), trace->findSpan(std::string_view("s-attn")));
        QCOMPARE(model.spanOfOp(2), trace->findSpan(std::string_view("s-mlp")));
        QCOMPARE(model.spanOfOp(4), std::int64_t(-1));
        QCOMPARE(model.spanOfOp(99), std::int64_t(-1));
        QCOMPARE(model.indexForOp(4).data(IsDanglingRole).toBool(), true);
        QCOMPARE(model.indexForOp(0).data(IsDanglingRole).toBool(), false);
        QCOMPARE(model.indexForOp(4).data(SpanIndexRole).toLongLong(), -1LL);
        QVERIFY(model.indexForOp(4).data(Qt::ToolTipRole).toString().contains(QStringLiteral("names no span")));
    }
}

void tst_OpTableModel::indexForOp()
{
    OpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!model.indexForOp(0).isValid());
    show(model, load(opsJsonl(kOps)));
    for (const bool sorted : {false, true}) {
        if (sorted)
            model.sort(OpTableModel::DurationColumn, Qt::DescendingOrder);
        for (int op = 0; op < kOps.size(); ++op) {
            const QModelIndex index = model.indexForOp(op);
            QVERIFY(index.isValid());
            QCOMPARE(index.data(OpIndexRole).toLongLong(), qint64(op));
            QCOMPARE(model.opAt(index.row()), std::int64_t(op));
        }
    }
    QVERIFY(!model.indexForOp(-1).isValid());
    QVERIFY(!model.indexForOp(kOps.size()).isValid());
    QCOMPARE(model.opAt(-1), std::int64_t(-1));
}

void tst_OpTableModel::sortEveryColumn_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QList<qint64>>("expected");
    const auto row = [](OpTableModel::Column c, Qt::SortOrder o, QList<qint64> ops) {
        const QByteArray name = QByteArray(QMetaEnum::fromType<OpTableModel::Column>().valueToKey(c))
                                + (o == Qt::AscendingOrder ? " ascending" : " descending");
        QTest::newRow(name.constData()) << int(c) << int(o) << ops;
    };
    // Byte-wise: "Add" < "add" < "copy" < "matmul" < "softmax".
    row(OpTableModel::NameColumn, Qt::AscendingOrder, {5, 3, 4, 0, 2, 1});
    row(OpTableModel::NameColumn, Qt::DescendingOrder, {1, 0, 2, 4, 3, 5});
    row(OpTableModel::SpanColumn, Qt::AscendingOrder, {0, 1, 5, 4, 2, 3});
    row(OpTableModel::SpanColumn, Qt::DescendingOrder, {2, 3, 4, 0, 1, 5});
    // Element counts 6, 6, 4, 24, 1, 1; equal counts by dims, so [] (op 5) < [1] (op 4).
    row(OpTableModel::ShapeColumn, Qt::AscendingOrder, {5, 4, 2, 0, 1, 3});
    row(OpTableModel::ShapeColumn, Qt::DescendingOrder, {3, 0, 1, 2, 4, 5});
    row(OpTableModel::DtypeColumn, Qt::AscendingOrder, {3, 1, 0, 2, 5, 4});
    row(OpTableModel::DeviceColumn, Qt::AscendingOrder, {3, 4, 0, 1, 5, 2});
    row(OpTableModel::StartColumn, Qt::AscendingOrder, {4, 0, 1, 2, 3, 5});
    row(OpTableModel::StartColumn, Qt::DescendingOrder, {5, 3, 2, 1, 0, 4});
    row(OpTableModel::DurationColumn, Qt::AscendingOrder, {4, 1, 3, 5, 0, 2});
    row(OpTableModel::DurationColumn, Qt::DescendingOrder, {2, 0, 1, 3, 5, 4});
    row(OpTableModel::InputBytesColumn, Qt::AscendingOrder, {4, 3, 1, 5, 2, 0});
    // Output bytes 24, 12, 16, n/a, 999, 8: absent last ascending, first descending.
    row(OpTableModel::OutputBytesColumn, Qt::AscendingOrder, {5, 1, 2, 0, 4, 3});
    row(OpTableModel::OutputBytesColumn, Qt::DescendingOrder, {3, 4, 0, 2, 1, 5});
}

void tst_OpTableModel::sortEveryColumn()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QList<qint64>, expected);
    OpTableModel model;
    OpFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(opsJsonl(kOps)));
    QCOMPARE(opOrder(proxy), (QList<qint64>{0, 1, 2, 3, 4, 5}));
    proxy.sort(column, Qt::SortOrder(order));
    QCOMPARE(model.sortColumn(), column);
    QCOMPARE(opOrder(proxy), expected);
    QCOMPARE(opOrder(model), expected);
    QCOMPARE(checkSorted(proxy, column, Qt::SortOrder(order)), QString());
    proxy.sort(-1);
    QCOMPARE(opOrder(proxy), (QList<qint64>{0, 1, 2, 3, 4, 5}));
}

void tst_OpTableModel::sortKeepsPersistentIndexes()
{
    OpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(opsJsonl(kOps)));
    const QPersistentModelIndex op2 = model.indexForOp(2, OpTableModel::DeviceColumn);
    const QPersistentModelIndex op4 = model.indexForOp(4);
    model.sort(OpTableModel::StartColumn, Qt::DescendingOrder);
    QCOMPARE(op2.data(OpIndexRole).toLongLong(), 2LL);
    QCOMPARE(op2.column(), int(OpTableModel::DeviceColumn));
    QCOMPARE(op2.row(), 2);
    QCOMPARE(op4.data(OpIndexRole).toLongLong(), 4LL);
    QCOMPARE(op4.row(), 5);
    model.sort(-1);
    QCOMPARE(op4.row(), 4);
}

void tst_OpTableModel::filter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("empty") << QString() << QList<qint64>{0, 1, 2, 3, 4, 5};
    QTest::newRow("op name, case-insensitive") << QStringLiteral("ADD") << QList<qint64>{3, 5};
    QTest::newRow("span id") << QStringLiteral("s-mlp") << QList<qint64>{2, 3};
    QTest::newRow("span name") << QStringLiteral("attention") << QList<qint64>{0, 1, 5};
    QTest::newRow("unknown span id still matches") << QStringLiteral("gone") << QList<qint64>{4};
    QTest::newRow("device") << QStringLiteral("cuda:1") << QList<qint64>{2};
    QTest::newRow("dtype") << QStringLiteral("bf16") << QList<qint64>{1};
    QTest::newRow("dtype text as given") << QStringLiteral("e4m3") << QList<qint64>{3};
    QTest::newRow("nothing") << QStringLiteral("conv2d") << QList<qint64>{};
}

void tst_OpTableModel::filter()
{
    QFETCH(QString, text);
    QFETCH(QList<qint64>, expected);
    OpTableModel model;
    OpFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setFilterText(text);
    show(model, load(opsJsonl(kOps)));
    QCOMPARE(opOrder(proxy), expected);
    QCOMPARE(proxy.filterText(), text.trimmed());
    proxy.setFilterText(QString());
    QCOMPARE(proxy.rowCount(), kOps.size());
}

void tst_OpTableModel::filterAndSortThroughProxy()
{
    OpTableModel model;
    OpFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    show(model, load(opsJsonl(kOps)));
    proxy.setFilterText(QStringLiteral("cuda"));
    QCOMPARE(opOrder(proxy), (QList<qint64>{0, 1, 2, 5}));
    const QPersistentModelIndex selected = proxy.index(2, 0); // op 2
    proxy.sort(OpTableModel::DurationColumn, Qt::AscendingOrder);
    QCOMPARE(opOrder(proxy), (QList<qint64>{1, 5, 0, 2}));
    QCOMPARE(selected.data(OpIndexRole).toLongLong(), 2LL);
    QCOMPARE(selected.row(), 3);
    proxy.setFilterText(QStringLiteral("matmul"));
    QCOMPARE(opOrder(proxy), (QList<qint64>{0, 2}));
    QCOMPARE(selected.row(), 1);
    // A new trace resets the sort order and drops the string verdicts of the old one.
    show(model, load(opsJsonl({"conv/s-attn/1/f32/cpu/0/1/1", "matmul/s-attn/1/f32/cpu/0/1/1"})));
    QCOMPARE(opOrder(proxy), (QList<qint64>{1}));
    QCOMPARE(model.sortColumn(), -1);
}

void tst_OpTableModel::genericProxyFallback()
{
    // OpFilterProxyModel over a model that is not an OpTableModel filters and sorts itself.
    OpTableModel model;
    show(model, load(opsJsonl(kOps)));
    QSortFilterProxyModel middle;
    middle.setSourceModel(&model);
    OpFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&middle);
    proxy.setFilterText(QStringLiteral("s-attn"));
    QCOMPARE(opOrder(proxy), (QList<qint64>{0, 1, 5}));
    proxy.sort(OpTableModel::DurationColumn, Qt::DescendingOrder);
    QCOMPARE(opOrder(proxy), (QList<qint64>{0, 1, 5}));
    proxy.sort(OpTableModel::StartColumn, Qt::DescendingOrder);
    QCOMPARE(opOrder(proxy), (QList<qint64>{5, 1, 0}));
    QCOMPARE(model.sortColumn(), -1);
}

void tst_OpTableModel::headers()
{
    OpTableModel model;
    for (int c = 0; c < OpTableModel::ColumnCount; ++c) {
        QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
        QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
    QVERIFY(!model.headerData(0, Qt::Vertical).isValid());
}

void tst_OpTableModel::initialSortOrder_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<bool>("descending");
    QTest::newRow("op") << int(OpTableModel::NameColumn) << false;
    QTest::newRow("span") << int(OpTableModel::SpanColumn) << false;
    QTest::newRow("start") << int(OpTableModel::StartColumn) << false;
    QTest::newRow("shape (elements)") << int(OpTableModel::ShapeColumn) << true;
    QTest::newRow("duration") << int(OpTableModel::DurationColumn) << true;
    QTest::newRow("input bytes") << int(OpTableModel::InputBytesColumn) << true;
    QTest::newRow("output bytes") << int(OpTableModel::OutputBytesColumn) << true;
}

void tst_OpTableModel::initialSortOrder()
{
    QFETCH(int, column);
    QFETCH(bool, descending);
    OpTableModel model;
    OpFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    const QVariant order = proxy.headerData(column, Qt::Horizontal, Qt::InitialSortOrderRole);
    QCOMPARE(order.isValid() && order.toInt() == int(Qt::DescendingOrder), descending);
}

void tst_OpTableModel::lateStartsReadApart()
{
    // Every op after 13.1 s used to read "13.132 s".
    OpTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    show(model, load(opsJsonl({"a/s-attn/1/f32/cpu/13131852417/5/4", "b/s-attn/1/f32/cpu/13131852418/5/4",
                               "c/s-attn/1/f32/cpu/13132000000/5/4"})));
    QStringList starts;
    for (int r = 0; r < model.rowCount(); ++r)
        starts << model.index(r, OpTableModel::StartColumn).data().toString().replace(QChar(0x202F), u' ');
    QCOMPARE(starts, (QStringList{QStringLiteral("13.131 852 417 s"), QStringLiteral("13.131 852 418 s"),
                                  QStringLiteral("13.132 000 000 s")}));
    model.setTimeUnit(TimeUnit::Microseconds);
    QCOMPARE(model.headerData(OpTableModel::StartColumn, Qt::Horizontal).toString(), QStringLiteral("Start (\u00B5s)"));
    QCOMPARE(model.index(0, OpTableModel::StartColumn).data().toString().replace(QChar(0x202F), u' '),
             QStringLiteral("13 131 852.417"));
    QCOMPARE(model.index(0, OpTableModel::DurationColumn).data().toString(), QStringLiteral("0.005"));
}

// ~1 M ops: building, sorting every column and filtering stay interactive. Timings are
// printed, not asserted (the test machine is shared).
void tst_OpTableModel::largeTable()
{
    constexpr std::size_t kOpsCount = 1000000;
    auto trace = std::make_shared<Trace>();
    const StringId names[] = {trace->strings.intern("matmul"), trace->strings.intern("softmax"),
                              trace->strings.intern("layer_norm"), trace->strings.intern("copy")};
    const StringId devices[] = {trace->strings.intern("cuda:0"), trace->strings.intern("cuda:1"),
                                trace->strings.intern("cpu")};
    const StringId dtypes[] = {trace->strings.intern("bf16"), trace->strings.intern("f32")};
    const std::uint64_t dims[][3] = {{2, 128, 768}, {2, 128, 3072}, {768, 768, 1}};
    const ShapeId shapes[] = {trace->shapes.intern(dims[0]), trace->shapes.intern(dims[1]),
                              trace->shapes.intern(dims[2])};
    std::mt19937_64 rng(3);
    trace->ops.resize(kOpsCount);
    for (std::size_t i = 0; i < kOpsCount; ++i) {
        Op &op = trace->ops[i];
        op.spanId = trace->strings.intern("s" + std::to_string(i));
        op.opName = names[rng() % 4];
        op.device = devices[rng() % 3];
        op.dtype = dtypes[rng() % 2];
        op.shape = shapes[rng() % 3];
        op.timestampNs = i * 100;
        op.durationNs = rng() % 100000;
        op.inputDenseBytes = rng() % (1 << 24);
        op.hasOutputDenseBytes = i % 10 != 0;
        op.outputDenseBytes = op.hasOutputDenseBytes ? rng() % (1 << 24) : 0;
    }
    // Every op has a span of its own, except each tenth, whose span_id names no span.
    for (std::size_t i = 0; i < kOpsCount; ++i) {
        if (i % 10 == 3)
            continue;
        Span span;
        span.id = trace->ops[i].spanId;
        span.name = names[i % 4];
        span.startNs = i * 100;
        span.closed = true;
        span.durationNs = trace->ops[i].durationNs;
        trace->spans.push_back(span);
    }
    std::sort(trace->spans.begin(), trace->spans.end(),
              [&trace](const Span &a, const Span &b) { return trace->strings.less(a.id, b.id); });
    QElapsedTimer timer;
    timer.start();
    const auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    qInfo("SpanTree::build (%zu spans, %zu ops): %lld ms", trace->spans.size(), kOpsCount, timer.restart());

    OpTableModel model;
    OpFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    timer.restart();
    model.setTrace(trace, tree);
    QCOMPARE(proxy.rowCount(), int(kOpsCount));
    qInfo("setTrace + proxy mapping of %zu ops: %lld ms", kOpsCount, timer.restart());
    for (int c = 0; c < OpTableModel::ColumnCount; ++c) {
        proxy.sort(c, Qt::DescendingOrder);
        QCOMPARE(proxy.rowCount(), int(kOpsCount));
        qInfo("sort by %s: %lld ms", QMetaEnum::fromType<OpTableModel::Column>().valueToKey(c), timer.restart());
    }
    // The efficiency columns come after it: sort by output bytes again to check that order.
    proxy.sort(OpTableModel::OutputBytesColumn, Qt::DescendingOrder);
    QCOMPARE(checkSorted(model, OpTableModel::OutputBytesColumn, Qt::DescendingOrder), QString());
    for (const int c : {int(OpTableModel::BytesMovedColumn), int(OpTableModel::BytesPerNsColumn),
                        int(OpTableModel::ParentShareColumn)}) {
        proxy.sort(c, Qt::DescendingOrder);
        QCOMPARE(checkSorted(model, c, Qt::DescendingOrder), QString());
    }
    proxy.sort(OpTableModel::SpanColumn, Qt::AscendingOrder);
    for (int row = 1; row < model.rowCount(); row += 997) {
        const QString a = model.index(row - 1, OpTableModel::SpanColumn).data().toString();
        const QString b = model.index(row, OpTableModel::SpanColumn).data().toString();
        QVERIFY2(a.toUtf8() <= b.toUtf8(), qPrintable(a + u' ' + b));
    }
    timer.restart();
    timer.restart();
    proxy.setFilterText(QStringLiteral("soft"));
    const int filtered = proxy.rowCount();
    qInfo("filter 'soft': %d rows, %lld ms", filtered, timer.restart());
    int expected = 0;
    for (std::size_t i = 0; i < kOpsCount; ++i)
        expected += trace->ops[i].opName == names[1] || (i % 10 != 3 && i % 4 == 1) ? 1 : 0;
    QCOMPARE(filtered, expected); // op name or span name "softmax"
    proxy.setFilterText(QStringLiteral("s12345"));
    qInfo("filter 's12345' (span ids): %d rows, %lld ms", proxy.rowCount(), timer.restart());
    QCOMPARE(proxy.rowCount(), 11); // s12345 and s123450..s123459
}

QTEST_GUILESS_MAIN(tst_OpTableModel)
#include "tst_optablemodel.moc"
