// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "core/analysis/opstatistics.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_OpEfficiency : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void grouping_data();
    void grouping();
    void treeAndIdLookupAgree();
    void opTableColumns();
    void opTableSortsEfficiency();
    void aggregateModel();
    void modelTesters();
};

namespace {

// `span:name:shape:dtype:device:duration:inBytes[:outBytes]` op records; shape is `4x8`.
QByteArray opsJsonl(const QByteArray &spec)
{
    QByteArray out;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        QByteArray shape = f[2];
        shape.replace('x', ',');
        out += "{\"kind\":\"op\",\"span_id\":\"" + f[0] + "\",\"op_name\":\"" + f[1] + "\",\"shape\":[" + shape
               + "],\"dtype\":\"" + f[3] + "\",\"device\":\"" + f[4] + "\",\"duration_ns\":" + f[5]
               + ",\"input_dense_bytes\":" + f[6];
        if (f.size() > 7)
            out += ",\"output_dense_bytes\":" + f[7];
        out += "}\n";
    }
    return out;
}

std::shared_ptr<const Trace> load(const QByteArray &spans, const QByteArray &ops)
{
    return TestFixtures::traceFrom(TestFixtures::withRecords(TestFixtures::spansJsonl(spans), opsJsonl(ops)));
}

const QByteArray kSpans = "r:-:0:1000 a:r:0:100 b:r:200:400 o:r:700:open";
// matmul f32 [4,8] on g0 twice (a, b), once on g1; gelu with an unknown dtype (no output size).
const QByteArray kOps = "a:matmul:4x8:f32:g0:50:100 b:matmul:4x8:f32:g0:100:100 b:matmul:4x8:f32:g1:200:0 "
                        "b:gelu:4:weird:g0:40:64 o:gelu:4:weird:g0:10:0 ghost:add:2:f32:g0:0:8";

QString sv(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

void tst_OpEfficiency::grouping_data()
{
    QTest::addColumn<bool>("detailed");
    QTest::addColumn<QString>("expected");
    // name[/shape/dtype/device] count total bytes share(%)
    QTest::newRow("by op") << false << "matmul 3 350 584 42 | gelu 2 50 64 10 | add 1 0 16 -";
    QTest::newRow("by op, shape, dtype, device") << true
                                                 << "matmul/4x8/f32/g1 1 200 128 50 | matmul/4x8/f32/g0 2 150 456 38 | "
                                                    "gelu/4/weird/g0 2 50 64 10 | add/2/f32/g0 1 0 16 -";
}

void tst_OpEfficiency::grouping()
{
    QFETCH(bool, detailed);
    QFETCH(QString, expected);
    const auto trace = load(kSpans, kOps);
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const OpStatistics stats =
        OpStatistics::compute(*trace, detailed ? OpGrouping::NameShapeDtypeDevice : OpGrouping::Name, &tree);
    QStringList rows;
    for (const OpNameStatistics &r : stats.rows()) {
        QString key = sv(trace->str(r.name));
        if (detailed) {
            QStringList dims;
            for (const std::uint64_t d : trace->shapes.view(r.shape))
                dims << QString::number(d);
            key += u'/' + dims.join(u'x') + u'/' + sv(trace->str(r.dtype)) + u'/' + sv(trace->str(r.device));
        }
        const auto share = r.meanParentShare();
        rows << QStringLiteral("%1 %2 %3 %4 %5")
                    .arg(key)
                    .arg(r.count)
                    .arg(r.totalNs)
                    .arg(r.bytesMoved)
                    .arg(share ? QString::number(qRound(*share * 100)) : QStringLiteral("-"));
    }
    QCOMPARE(rows.join(QStringLiteral(" | ")), expected);
    // bytes per ns from the group's own totals
    const OpNameStatistics &first = stats.rows().front();
    QCOMPARE(*first.bytesPerNs(), double(first.bytesMoved) / double(first.totalNs));
    QVERIFY(!stats.rows().back().bytesPerNs()); // add: 0 ns
}

void tst_OpEfficiency::treeAndIdLookupAgree()
{
    const auto trace = load(kSpans, kOps);
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const OpStatistics withTree = OpStatistics::compute(*trace, OpGrouping::Name, &tree);
    const OpStatistics withoutTree = OpStatistics::compute(*trace);
    QCOMPARE(withTree.rows().size(), withoutTree.rows().size());
    for (std::size_t i = 0; i < withTree.rows().size(); ++i) {
        QCOMPARE(withTree.rows()[i].shareCount, withoutTree.rows()[i].shareCount);
        QCOMPARE(withTree.rows()[i].parentShareSum, withoutTree.rows()[i].parentShareSum);
    }
}

void tst_OpEfficiency::opTableColumns()
{
    const auto trace = load(kSpans, kOps);
    QVERIFY(trace);
    OpTableModel model;
    model.setTrace(trace, std::make_shared<const SpanTree>(SpanTree::build(*trace)));
    const auto cell = [&](int op, int column, int role = Qt::DisplayRole) {
        return model.index(op, column).data(role);
    };
    // op 0: 100 in + 128 out (f32 [4,8]) in 50 ns of a 100 ns span
    QCOMPARE(cell(0, OpTableModel::BytesMovedColumn, SortRole).toULongLong(), 228ULL);
    QCOMPARE(cell(0, OpTableModel::BytesPerNsColumn, SortRole).toDouble(), 228.0 / 50.0);
    QCOMPARE(cell(0, OpTableModel::BytesPerNsColumn).toString(), QStringLiteral("4.56 B/ns"));
    QCOMPARE(cell(0, OpTableModel::ParentShareColumn, SortRole).toDouble(), 0.5);
    QCOMPARE(cell(0, OpTableModel::ParentShareColumn).toString(), QStringLiteral("50.0%"));
    QCOMPARE(cell(0, OpTableModel::ParentShareColumn, ParentShareRole).toDouble(), 0.5);
    // op 3: gelu with an unknown dtype: only its input bytes move
    QCOMPARE(cell(3, OpTableModel::BytesMovedColumn, SortRole).toULongLong(), 64ULL);
    // op 4: in an open span, op 5: span unknown, zero duration
    QCOMPARE(cell(4, OpTableModel::ParentShareColumn).toString(), QStringLiteral("n/a"));
    QVERIFY(!cell(4, OpTableModel::ParentShareColumn, SortRole).isValid());
    QCOMPARE(cell(5, OpTableModel::ParentShareColumn).toString(), QStringLiteral("n/a"));
    QCOMPARE(cell(5, OpTableModel::BytesPerNsColumn).toString(), QStringLiteral("n/a"));
    QVERIFY(!cell(5, OpTableModel::BytesPerNsColumn, BytesPerNsRole).isValid());
}

void tst_OpEfficiency::opTableSortsEfficiency()
{
    const auto trace = load(kSpans, kOps);
    QVERIFY(trace);
    OpTableModel model;
    model.setTrace(trace, std::make_shared<const SpanTree>(SpanTree::build(*trace)));
    const auto order = [&] {
        QList<qint64> ops;
        for (int row = 0; row < model.rowCount(); ++row)
            ops << model.opAt(row);
        return ops;
    };
    // rates: op0 4.56, op1 2.28, op2 0.64, op3 1.6, op4 0, op5 n/a
    model.sort(OpTableModel::BytesPerNsColumn, Qt::DescendingOrder);
    QCOMPARE(order(), (QList<qint64>{5, 0, 1, 3, 2, 4}));
    model.sort(OpTableModel::BytesPerNsColumn, Qt::AscendingOrder);
    QCOMPARE(order(), (QList<qint64>{4, 2, 3, 1, 0, 5}));
    // shares: op0 .5, op1 .25, op2 .5, op3 .1; op4 (open span) and op5 (no span) n/a
    model.sort(OpTableModel::ParentShareColumn, Qt::AscendingOrder);
    QCOMPARE(order(), (QList<qint64>{3, 1, 0, 2, 4, 5}));
    model.sort(OpTableModel::BytesMovedColumn, Qt::DescendingOrder);
    QCOMPARE(order().front(), qint64(0));
}

void tst_OpEfficiency::aggregateModel()
{
    const auto trace = load(kSpans, kOps);
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    OpAggregateModel model;
    model.setTrace(trace, std::make_shared<const OpStatistics>(OpStatistics::compute(*trace)));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, OpAggregateModel::NameColumn).data().toString(), QStringLiteral("matmul"));
    QCOMPARE(model.index(0, OpAggregateModel::BytesMovedColumn).data(SortRole).toULongLong(), 584ULL);
    QCOMPARE(model.index(0, OpAggregateModel::ParentShareColumn).data().toString(), QStringLiteral("41.7%"));
    QCOMPARE(model.index(0, OpAggregateModel::ShapeColumn).data().toString(), QString());

    // The detailed grouping is pending until the loader provides it: no rows, no aggregation here.
    model.setGrouping(OpGrouping::NameShapeDtypeDevice);
    QVERIFY(model.isPending());
    QCOMPARE(model.rowCount(), 0);
    model.setShapeStatistics(
        std::make_shared<const OpStatistics>(OpStatistics::compute(*trace, OpGrouping::NameShapeDtypeDevice, &tree)));
    QVERIFY(!model.isPending());
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(0, OpAggregateModel::ShapeColumn).data().toString(), QStringLiteral("[4, 8]"));
    QCOMPARE(model.index(0, OpAggregateModel::DeviceColumn).data().toString(), QStringLiteral("g1"));
    QCOMPARE(model.index(0, OpAggregateModel::BytesPerNsColumn).data().toString(), QStringLiteral("0.640 B/ns"));

    model.setGrouping(OpGrouping::Name);
    QCOMPARE(model.rowCount(), 3);
}

void tst_OpEfficiency::modelTesters()
{
    const auto trace = load(kSpans, kOps);
    QVERIFY(trace);
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(*trace));
    OpAggregateModel aggregate;
    QAbstractItemModelTester aggregateTester(&aggregate, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSortFilterProxyModel proxy;
    proxy.setSortRole(SortRole);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&aggregate);
    aggregate.setTrace(trace, std::make_shared<const OpStatistics>(OpStatistics::compute(*trace)));
    proxy.sort(OpAggregateModel::BytesPerNsColumn, Qt::DescendingOrder);
    aggregate.setGrouping(OpGrouping::NameShapeDtypeDevice);
    aggregate.setShapeStatistics(std::make_shared<const OpStatistics>(
        OpStatistics::compute(*trace, OpGrouping::NameShapeDtypeDevice, tree.get())));
    proxy.sort(OpAggregateModel::ParentShareColumn, Qt::AscendingOrder);
    aggregate.setGrouping(OpGrouping::Name);
    aggregate.setTrace({}, {});

    OpTableModel table;
    QAbstractItemModelTester tableTester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    table.setTrace(trace, tree);
    table.sort(OpTableModel::ParentShareColumn, Qt::DescendingOrder);
    table.sort(OpTableModel::BytesPerNsColumn, Qt::AscendingOrder);
    table.setTrace({});
}

QTEST_GUILESS_MAIN(tst_OpEfficiency)
#include "tst_opefficiency.moc"
