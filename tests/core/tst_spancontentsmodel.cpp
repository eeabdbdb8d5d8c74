// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "core/analysis/spantree.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/recordfieldsmodel.h"
#include "core/itemmodels/spancontentsmodel.h"
#include "core/model/trace.h"
#include "tests/testutils/timelinefixtures.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_SpanContentsModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void contents_data();
    void contents();
    void sorting_data();
    void sorting();
    void recordFieldsTree_data();
    void recordFieldsTree();
    void emptyAndOutOfRange();
    void indexedWhenASpanIsFirstListed();

private:
    LoadedFixture m_f;
};

namespace {

// `kind:name` per row, in the model's order.
QString dump(const QAbstractItemModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, SpanContentsModel::KindColumn).data().toString() + u':'
                   + model.index(row, SpanContentsModel::NameColumn).data().toString();
    return out.join(u' ');
}

} // namespace

void tst_SpanContentsModel::initTestCase()
{
    const QByteArray memory =
        "{\"kind\":\"memory\",\"timestamp_ns\":25,\"storage_id\":\"st1\",\"tensor_id\":\"t1\",\"span_id\":\"p\","
        "\"device\":\"cpu\",\"bytes\":4096,\"action\":\"alloc\",\"dtype\":\"f32\"}\n";
    m_f = loadFixture(
        traceJsonl("root:-:0:1000 p=parent:root:10:500 c2=second:p:300:50 c1=first:p:20:200 o=still_open:p:400:open",
                   opsJsonl("p:relu:250:30 p:add:230:10") + tensorsJsonl("p:t1 c1:t9") + memory));
    QVERIFY(m_f.trace);
}

void tst_SpanContentsModel::contents_data()
{
    QTest::addColumn<QString>("span");
    QTest::addColumn<QString>("expected");
    QTest::newRow("children by start, ops in stream order, tensors, memory")
        << QStringLiteral("p")
        << QStringLiteral("span:first span:second span:still_open op:relu op:add tensor:t1 alloc:st1 \u2192 t1");
    QTest::newRow("leaf with a tensor") << QStringLiteral("c1") << QStringLiteral("tensor:t9");
    QTest::newRow("nothing inside") << QStringLiteral("c2") << QString();
}

void tst_SpanContentsModel::contents()
{
    QFETCH(QString, span);
    QFETCH(QString, expected);
    SpanContentsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(m_f.trace, m_f.tree);
    model.setSpan(m_f.trace->findSpan(span.toStdString()));
    QCOMPARE(dump(model), expected);
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row, 0);
        const auto kind = RelatedKind(index.data(SpanContentsModel::RecordKindRole).toInt());
        const qint64 record = index.data(SpanContentsModel::RecordIndexRole).toLongLong();
        QVERIFY(record >= 0);
        if (kind == RelatedKind::Span)
            QCOMPARE(index.data(SpanIndexRole).toLongLong(), record);
        if (kind == RelatedKind::Op)
            QCOMPARE(index.data(OpIndexRole).toLongLong(), record);
    }
}

void tst_SpanContentsModel::sorting_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QString>("expectedNames");
    // Open spans sort after every closed one by duration; rows without a time sort as 0.
    QTest::newRow("duration ascending") << int(SpanContentsModel::DurationColumn) << int(Qt::AscendingOrder)
                                        << QStringLiteral("t1 st1 \u2192 t1 add relu second first still_open");
    QTest::newRow("start descending") << int(SpanContentsModel::StartColumn) << int(Qt::DescendingOrder)
                                      << QStringLiteral("still_open second relu add st1 \u2192 t1 first t1");
    QTest::newRow("bytes descending") << int(SpanContentsModel::BytesColumn) << int(Qt::DescendingOrder)
                                      << QStringLiteral("st1 \u2192 t1 relu add t1 first second still_open");
}

void tst_SpanContentsModel::sorting()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QString, expectedNames);
    SpanContentsModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(m_f.trace, m_f.tree);
    model.setSpan(m_f.trace->findSpan(std::string_view("p")));
    proxy.sort(column, Qt::SortOrder(order));
    QStringList names;
    for (int row = 0; row < proxy.rowCount(); ++row)
        names << proxy.index(row, SpanContentsModel::NameColumn).data().toString();
    QCOMPARE(names.join(u' '), expectedNames);
}

void tst_SpanContentsModel::recordFieldsTree_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<qint64>("index");
    QTest::addColumn<QString>("sections");
    QTest::newRow("span") << int(RelatedKind::Span) << qint64(-2) << QStringLiteral("Record Derived");
    QTest::newRow("op") << int(RelatedKind::Op) << qint64(0) << QStringLiteral("Record Derived");
    QTest::newRow("tensor") << int(RelatedKind::Tensor) << qint64(0) << QStringLiteral("Record");
    QTest::newRow("memory event") << int(RelatedKind::Storage) << qint64(0) << QStringLiteral("Record");
    QTest::newRow("out of range") << int(RelatedKind::Op) << qint64(99) << QString();
}

void tst_SpanContentsModel::recordFieldsTree()
{
    QFETCH(int, kind);
    QFETCH(qint64, index);
    QFETCH(QString, sections);
    RecordFieldsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrace(m_f.trace, m_f.tree);
    if (index == -2)
        index = m_f.trace->findSpan(std::string_view("p"));
    model.setRecord(RelatedKind(kind), index);
    QStringList titles;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex section = model.index(row, 0);
        titles << section.data().toString();
        QVERIFY(model.rowCount(section) > 0);
        QCOMPARE(model.parent(model.index(0, 1, section)), section);
        // Every field has a name and a value.
        for (int f = 0; f < model.rowCount(section); ++f) {
            QVERIFY(!model.index(f, RecordFieldsModel::FieldColumn, section).data().toString().isEmpty());
            QVERIFY(!model.index(f, RecordFieldsModel::ValueColumn, section).data().toString().isEmpty());
        }
    }
    QCOMPARE(titles.join(u' '), sections);
    if (RelatedKind(kind) == RelatedKind::Storage)
        QCOMPARE(model.value(QStringLiteral("Record"), QStringLiteral("bytes")), QStringLiteral("4,096 (4.00 KiB)"));
}

void tst_SpanContentsModel::emptyAndOutOfRange()
{
    SpanContentsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSpan(0); // no trace yet
    QCOMPARE(model.rowCount(), 0);
    model.setTrace(m_f.trace, m_f.tree);
    model.setSpan(12345);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.spanIndex(), qint64(-1));
    model.setSpan(m_f.trace->findSpan(std::string_view("p")));
    QVERIFY(model.rowCount() > 0);
    model.setTrace({}, {});
    QCOMPARE(model.rowCount(), 0);
}

void tst_SpanContentsModel::indexedWhenASpanIsFirstListed()
{
    // A big trace (every trace, here) indexes its tensors and memory events on a worker, and
    // only once a span is listed: a load that never lists one does not hold the index.
    const std::size_t rows = BackgroundSort::backgroundRows();
    BackgroundSort::setBackgroundRows(1);
    SpanContentsModel model;
    model.setTrace(m_f.trace, m_f.tree);
    QVERIFY(!model.isIndexing());
    model.setSpan(m_f.trace->findSpan("p"));
    QVERIFY(model.isIndexing());
    QCOMPARE(dump(model), QStringLiteral("span:first span:second span:still_open op:relu op:add"));
    QTRY_VERIFY(!model.isIndexing());
    QCOMPARE(dump(model),
             QStringLiteral("span:first span:second span:still_open op:relu op:add tensor:t1 alloc:st1 \u2192 t1"));
    BackgroundSort::setBackgroundRows(rows);
}

QTEST_GUILESS_MAIN(tst_SpanContentsModel)
#include "tst_spancontentsmodel.moc"
