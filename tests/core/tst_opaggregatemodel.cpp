// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QMetaEnum>
#include <QSortFilterProxyModel>
#include <QTest>

#include "tests/testutils/fixtures.h"
#include "core/analysis/opstatistics.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/model/trace.h"

using namespace TraceInspector;

namespace {

using TestFixtures::kMeta;

// `name:duration` items separated by spaces, one op each.
std::shared_ptr<const Trace> opsTrace(const QByteArray &spec)
{
    QByteArray text = kMeta;
    text += "{\"kind\":\"span_start\",\"id\":\"s\",\"name\":\"s\",\"start_ns\":0,\"span_kind\":\"function\"}\n";
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        text += "{\"kind\":\"op\",\"span_id\":\"s\",\"op_name\":\"" + f[0]
                + "\",\"shape\":[1],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":" + f[1]
                + ",\"input_dense_bytes\":0}\n";
    }
    text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":18446744073709551615}\n";
    return TraceReader::readBytes(std::string_view(text.constData(), std::size_t(text.size())), "ops.jsonl").trace;
}

QStringList column(const QAbstractItemModel &model, int c, int role = Qt::DisplayRole)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, c).data(role).toString();
    return values;
}

/// What the loader does: statistics computed once, beside the model.
void setOps(OpAggregateModel &model, std::shared_ptr<const Trace> trace)
{
    auto stats = std::make_shared<const OpStatistics>(OpStatistics::compute(*trace));
    model.setTrace(std::move(trace), std::move(stats));
}

const QByteArray kSpec = "matmul:3000 add:500 matmul:1000 softmax:250 add:1500 matmul:2000 copy:1750";

} // namespace

class tst_OpAggregateModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void numbers();
    void roles();
    void sortThroughProxy_data();
    void sortThroughProxy();
    void filterThroughProxy();
    void precomputedStatistics();
    void emptyAndCleared();
    void costsSortLargestFirstAndUnits();
};

void tst_OpAggregateModel::numbers()
{
    OpAggregateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    setOps(model, opsTrace(kSpec));
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), int(OpAggregateModel::ColumnCount));
    // Total 10000 ns: matmul 6000, add 2000, copy 1750, softmax 250.
    QCOMPARE(column(model, OpAggregateModel::NameColumn),
             (QStringList{QStringLiteral("matmul"), QStringLiteral("add"), QStringLiteral("copy"),
                          QStringLiteral("softmax")}));
    QCOMPARE(column(model, OpAggregateModel::CountColumn),
             (QStringList{QStringLiteral("3"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("1")}));
    QCOMPARE(column(model, OpAggregateModel::TotalColumn),
             (QStringList{QStringLiteral("6.00 \u00B5s"), QStringLiteral("2.00 \u00B5s"),
                          QStringLiteral("1.75 \u00B5s"), QStringLiteral("250 ns")}));
    QCOMPARE(column(model, OpAggregateModel::MeanColumn),
             (QStringList{QStringLiteral("2.00 \u00B5s"), QStringLiteral("1.00 \u00B5s"),
                          QStringLiteral("1.75 \u00B5s"), QStringLiteral("250 ns")}));
    QCOMPARE(column(model, OpAggregateModel::MinColumn),
             (QStringList{QStringLiteral("1.00 \u00B5s"), QStringLiteral("500 ns"), QStringLiteral("1.75 \u00B5s"),
                          QStringLiteral("250 ns")}));
    QCOMPARE(column(model, OpAggregateModel::MaxColumn),
             (QStringList{QStringLiteral("3.00 \u00B5s"), QStringLiteral("1.50 \u00B5s"),
                          QStringLiteral("1.75 \u00B5s"), QStringLiteral("250 ns")}));
    QCOMPARE(column(model, OpAggregateModel::PercentColumn),
             (QStringList{QStringLiteral("60.0%"), QStringLiteral("20.0%"), QStringLiteral("17.5%"),
                          QStringLiteral("2.5%")}));
    QCOMPARE(
        column(model, OpAggregateModel::MeanColumn, SortRole),
        (QStringList{QStringLiteral("2000"), QStringLiteral("1000"), QStringLiteral("1750"), QStringLiteral("250")}));
    QCOMPARE(
        column(model, OpAggregateModel::PercentColumn, SortRole),
        (QStringList{QStringLiteral("0.6"), QStringLiteral("0.2"), QStringLiteral("0.175"), QStringLiteral("0.025")}));
}

void tst_OpAggregateModel::roles()
{
    OpAggregateModel model;
    setOps(model, opsTrace(kSpec));
    const QModelIndex add = model.index(1, OpAggregateModel::TotalColumn);
    QCOMPARE(add.data(OpNameRole).toString(), QStringLiteral("add"));
    QCOMPARE(add.data(CountRole).toULongLong(), 2ULL);
    QCOMPARE(add.data(DurationRole).toULongLong(), 2000ULL);
    QCOMPARE(add.data(BarValueRole).toULongLong(), 2000ULL);
    QCOMPARE(add.data(TotalRole).toULongLong(), 10000ULL);
    QCOMPARE(add.data(FractionRole).toDouble(), 0.2);
    QCOMPARE(add.data(SortRole).toULongLong(), 2000ULL);
    QCOMPARE(model.index(0, OpAggregateModel::NameColumn).data(Qt::TextAlignmentRole).isValid(), false);
    QVERIFY(add.data(Qt::TextAlignmentRole).isValid());
    QVERIFY(add.data(Qt::ToolTipRole).toString().contains(QStringLiteral("2 ops")));
    for (int c = 0; c < OpAggregateModel::ColumnCount; ++c)
        QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
}

void tst_OpAggregateModel::sortThroughProxy_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("expected");
    const auto row = [](OpAggregateModel::Column c, Qt::SortOrder o, QStringList names) {
        const QByteArray name = QByteArray(QMetaEnum::fromType<OpAggregateModel::Column>().valueToKey(c))
                                + (o == Qt::AscendingOrder ? " ascending" : " descending");
        QTest::newRow(name.constData()) << int(c) << int(o) << names;
    };
    const QString mm = QStringLiteral("matmul"), add = QStringLiteral("add"), cp = QStringLiteral("copy"),
                  sm = QStringLiteral("softmax");
    row(OpAggregateModel::NameColumn, Qt::AscendingOrder, {add, cp, mm, sm});
    row(OpAggregateModel::CountColumn, Qt::DescendingOrder, {mm, add, cp, sm});
    row(OpAggregateModel::TotalColumn, Qt::AscendingOrder, {sm, cp, add, mm});
    row(OpAggregateModel::MeanColumn, Qt::AscendingOrder, {sm, add, cp, mm});
    row(OpAggregateModel::MinColumn, Qt::DescendingOrder, {cp, mm, add, sm});
    row(OpAggregateModel::MaxColumn, Qt::AscendingOrder, {sm, add, cp, mm});
    row(OpAggregateModel::PercentColumn, Qt::DescendingOrder, {mm, add, cp, sm});
}

void tst_OpAggregateModel::sortThroughProxy()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QStringList, expected);
    OpAggregateModel model;
    QSortFilterProxyModel proxy;
    proxy.setSortRole(SortRole);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    setOps(model, opsTrace(kSpec));
    proxy.sort(column, Qt::SortOrder(order));
    QCOMPARE(::column(proxy, OpAggregateModel::NameColumn), expected);
}

void tst_OpAggregateModel::filterThroughProxy()
{
    OpAggregateModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setFilterKeyColumn(OpAggregateModel::NameColumn);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setFilterFixedString(QStringLiteral("MA"));
    setOps(model, opsTrace(kSpec));
    QCOMPARE(column(proxy, OpAggregateModel::NameColumn),
             (QStringList{QStringLiteral("matmul"), QStringLiteral("softmax")}));
}

void tst_OpAggregateModel::precomputedStatistics()
{
    const auto trace = opsTrace(kSpec);
    auto stats = std::make_shared<const OpStatistics>(OpStatistics::compute(*trace));
    OpAggregateModel model;
    model.setTrace(trace, stats);
    QCOMPARE(model.statistics(), stats.get());
    QCOMPARE(model.rowCount(), 4);
    // Without statistics the model stays empty: it never walks the ops itself (GUI thread).
    model.setTrace(trace, {});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.statistics());
}

void tst_OpAggregateModel::emptyAndCleared()
{
    OpAggregateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    setOps(model, opsTrace("zero:0"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, OpAggregateModel::PercentColumn).data().toString(), QStringLiteral("n/a"));
    QVERIFY(!model.index(0, OpAggregateModel::PercentColumn).data(SortRole).isValid());
    model.setTrace({}, {});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.statistics());
}

void tst_OpAggregateModel::costsSortLargestFirstAndUnits()
{
    OpAggregateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    setOps(model, opsTrace(kSpec));
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QVERIFY(!proxy.headerData(OpAggregateModel::NameColumn, Qt::Horizontal, Qt::InitialSortOrderRole).isValid());
    for (int c = OpAggregateModel::CountColumn; c < OpAggregateModel::ShapeColumn; ++c)
        QCOMPARE(proxy.headerData(c, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(), int(Qt::DescendingOrder));
    // Shape, dtype and device are part of the group key, like the name: no cost order.
    for (int c = OpAggregateModel::ShapeColumn; c < OpAggregateModel::ColumnCount; ++c)
        QVERIFY(!proxy.headerData(c, Qt::Horizontal, Qt::InitialSortOrderRole).isValid());
    model.setTimeUnit(TimeUnit::Microseconds);
    QCOMPARE(model.headerData(OpAggregateModel::TotalColumn, Qt::Horizontal).toString(),
             QStringLiteral("Total (\u00B5s)"));
    QCOMPARE(column(model, OpAggregateModel::TotalColumn),
             (QStringList{QStringLiteral("6.000"), QStringLiteral("2.000"), QStringLiteral("1.750"),
                          QStringLiteral("0.250")}));
}

QTEST_GUILESS_MAIN(tst_OpAggregateModel)
#include "tst_opaggregatemodel.moc"
