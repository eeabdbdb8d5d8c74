// SPDX-License-Identifier: MIT
#include <QAction>
#include <QSignalSpy>
#include <QTest>

#include "core/model/problem.h"
#include "tests/testutils/timelinefixtures.h"
#include "ui/selection/selectionmodel.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_SelectionModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void history_data();
    void history();
    void selectEmitsOnlyOnChange();
    void activate();
    void actionsFollowHistory();
    void historyLimit();
    void timeRange();
    void reset();
    void fromProblem_data();
    void fromProblem();
    void spanIndex();
};

namespace {

// Operations: `s3` select span 3, `o2` select op 2, `c` clear, `b` back, `f` forward.
void apply(SelectionModel &model, const QString &ops)
{
    for (const QString &op : ops.split(u' ', Qt::SkipEmptyParts)) {
        switch (op.at(0).unicode()) {
        case 's': model.select(Selection::span(op.mid(1).toLongLong())); break;
        case 'o': model.select(Selection::op(op.mid(1).toLongLong())); break;
        case 'c': model.clearSelection(); break;
        case 'b': model.back(); break;
        case 'f': model.forward(); break;
        }
    }
}

QString text(const Selection &s)
{
    switch (s.kind) {
    case Selection::Kind::Span: return u's' + QString::number(s.index);
    case Selection::Kind::Op: return u'o' + QString::number(s.index);
    case Selection::Kind::None: return QStringLiteral("-");
    default: return QStringLiteral("?");
    }
}

} // namespace

void tst_SelectionModel::history_data()
{
    QTest::addColumn<QString>("ops");
    QTest::addColumn<QString>("current");
    QTest::addColumn<QString>("history");
    QTest::addColumn<bool>("canBack");
    QTest::addColumn<bool>("canForward");

    QTest::newRow("nothing") << QString() << QStringLiteral("-") << QString() << false << false;
    QTest::newRow("one") << QStringLiteral("s1") << QStringLiteral("s1") << QStringLiteral("s1") << false << false;
    QTest::newRow("back") << QStringLiteral("s1 o2 s3 b") << QStringLiteral("o2") << QStringLiteral("s1 o2 s3") << true
                          << true;
    QTest::newRow("back twice, forward") << QStringLiteral("s1 o2 s3 b b f") << QStringLiteral("o2")
                                         << QStringLiteral("s1 o2 s3") << true << true;
    QTest::newRow("select after back drops the forward part")
        << QStringLiteral("s1 o2 s3 b b s4") << QStringLiteral("s4") << QStringLiteral("s1 s4") << true << false;
    QTest::newRow("same selection twice is one entry")
        << QStringLiteral("s1 s1 s2 s2") << QStringLiteral("s2") << QStringLiteral("s1 s2") << true << false;
    QTest::newRow("clear keeps history; back returns to the last")
        << QStringLiteral("s1 s2 c b") << QStringLiteral("s2") << QStringLiteral("s1 s2") << true << false;
    QTest::newRow("back at the start stays")
        << QStringLiteral("s1 s2 b b b") << QStringLiteral("s1") << QStringLiteral("s1 s2") << false << true;
    QTest::newRow("forward at the end stays")
        << QStringLiteral("s1 s2 f f") << QStringLiteral("s2") << QStringLiteral("s1 s2") << true << false;
}

void tst_SelectionModel::history()
{
    QFETCH(QString, ops);
    QFETCH(QString, current);
    QFETCH(QString, history);
    QFETCH(bool, canBack);
    QFETCH(bool, canForward);
    SelectionModel model;
    apply(model, ops);
    QCOMPARE(text(model.current()), current);
    QStringList recorded;
    for (const Selection &s : model.history())
        recorded << text(s);
    QCOMPARE(recorded.join(u' '), history);
    QCOMPARE(model.canGoBack(), canBack);
    QCOMPARE(model.canGoForward(), canForward);
    QCOMPARE(model.backAction()->isEnabled(), canBack);
    QCOMPARE(model.forwardAction()->isEnabled(), canForward);
}

void tst_SelectionModel::selectEmitsOnlyOnChange()
{
    SelectionModel model;
    QSignalSpy spy(&model, &SelectionModel::selectionChanged);
    model.select(Selection::span(1));
    model.select(Selection::span(1));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<Selection>(), Selection::span(1));
    QVERIFY(!spy.at(0).at(1).value<Selection>().isValid());
    model.select(Selection::op(4));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(1).value<Selection>(), Selection::span(1));
    model.select(Selection{});
    QCOMPARE(spy.count(), 3);
    QVERIFY(!model.current().isValid());
    model.clearSelection();
    QCOMPARE(spy.count(), 3);
}

void tst_SelectionModel::activate()
{
    SelectionModel model;
    QSignalSpy changed(&model, &SelectionModel::selectionChanged);
    QSignalSpy activated(&model, &SelectionModel::activated);
    model.activate(Selection::span(7));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(activated.count(), 1);
    // Activating the current selection again still asks the views to focus it.
    model.activate(Selection::span(7));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(activated.count(), 2);
    model.activate(Selection{});
    QCOMPARE(activated.count(), 2);
}

void tst_SelectionModel::actionsFollowHistory()
{
    SelectionModel model;
    QVERIFY(!model.backAction()->isEnabled());
    QVERIFY(model.backAction()->shortcuts().contains(QKeySequence(Qt::ALT | Qt::Key_Left)));
    QVERIFY(model.forwardAction()->shortcuts().contains(QKeySequence(Qt::ALT | Qt::Key_Right)));
    model.select(Selection::span(1));
    model.select(Selection::span(2));
    QVERIFY(model.backAction()->isEnabled());
    QSignalSpy spy(&model, &SelectionModel::selectionChanged);
    model.backAction()->trigger();
    QCOMPARE(model.current(), Selection::span(1));
    QVERIFY(model.forwardAction()->isEnabled());
    model.forwardAction()->trigger();
    QCOMPARE(model.current(), Selection::span(2));
    QCOMPARE(spy.count(), 2);
}

void tst_SelectionModel::historyLimit()
{
    SelectionModel model;
    for (int i = 0; i < SelectionModel::kHistoryLimit + 50; ++i)
        model.select(Selection::span(i));
    QCOMPARE(int(model.history().size()), SelectionModel::kHistoryLimit);
    QCOMPARE(model.history().front(), Selection::span(50));
    QCOMPARE(model.historyPosition(), SelectionModel::kHistoryLimit - 1);
}

void tst_SelectionModel::timeRange()
{
    SelectionModel model;
    QSignalSpy spy(&model, &SelectionModel::timeRangeChanged);
    QVERIFY(!model.hasTimeRange());
    model.setTimeRange({10, 20});
    model.setTimeRange({10, 20});
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<TimeWindow>(), (TimeWindow{10, 20}));
    QVERIFY(model.hasTimeRange());
    model.setTimeRange({30, 30}); // empty: clears
    QCOMPARE(spy.count(), 2);
    QVERIFY(!model.hasTimeRange());
    model.clearTimeRange();
    QCOMPARE(spy.count(), 2);
    // The range and the selection are independent.
    model.select(Selection::span(1));
    model.setTimeRange({1, 2});
    QCOMPARE(model.current(), Selection::span(1));
}

void tst_SelectionModel::reset()
{
    SelectionModel model;
    model.select(Selection::span(1));
    model.select(Selection::span(2));
    model.setTimeRange({1, 5});
    QSignalSpy changed(&model, &SelectionModel::selectionChanged);
    QSignalSpy range(&model, &SelectionModel::timeRangeChanged);
    model.reset();
    QVERIFY(!model.current().isValid());
    QVERIFY(model.history().empty());
    QVERIFY(!model.hasTimeRange());
    QVERIFY(!model.canGoBack());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(range.count(), 1);
}

void tst_SelectionModel::fromProblem_data()
{
    QTest::addColumn<int>("relatedKind");
    QTest::addColumn<QString>("relatedId");
    QTest::addColumn<qint64>("relatedIndex");
    QTest::addColumn<int>("expectedKind");
    QTest::addColumn<QString>("expectedSpanId"); // for spans; else the index as text

    QTest::newRow("span by index") << int(RelatedKind::Span) << QString() << qint64(1) << int(Selection::Kind::Span)
                                   << QStringLiteral("b");
    QTest::newRow("span by id") << int(RelatedKind::Span) << QStringLiteral("a") << qint64(-1)
                                << int(Selection::Kind::Span) << QStringLiteral("a");
    QTest::newRow("unknown span id names the finding") << int(RelatedKind::Span) << QStringLiteral("zz") << qint64(-1)
                                                       << int(Selection::Kind::Finding) << QStringLiteral("7");
    QTest::newRow("op") << int(RelatedKind::Op) << QString() << qint64(0) << int(Selection::Kind::Op)
                        << QStringLiteral("0");
    QTest::newRow("op out of range") << int(RelatedKind::Op) << QString() << qint64(9) << int(Selection::Kind::Finding)
                                     << QStringLiteral("7");
    QTest::newRow("whole file") << int(RelatedKind::None) << QString() << qint64(-1) << int(Selection::Kind::Finding)
                                << QStringLiteral("7");
}

void tst_SelectionModel::fromProblem()
{
    QFETCH(int, relatedKind);
    QFETCH(QString, relatedId);
    QFETCH(qint64, relatedIndex);
    QFETCH(int, expectedKind);
    QFETCH(QString, expectedSpanId);
    const auto f = loadFixture(traceJsonl("a:-:0:100 b:a:10:20", opsJsonl("b:mm:12:3")));
    QVERIFY(f.trace);
    Problem p;
    p.relatedKind = RelatedKind(relatedKind);
    p.relatedId = relatedId.toStdString();
    p.relatedIndex = relatedIndex < 0 ? UINT64_MAX : quint64(relatedIndex);
    const Selection s = Selection::fromProblem(p, 7, *f.trace);
    QCOMPARE(int(s.kind), expectedKind);
    QCOMPARE(s.finding, qint64(7));
    if (s.kind == Selection::Kind::Span)
        QCOMPARE(QString::fromStdString(std::string(f.trace->str(f.trace->spans[std::size_t(s.index)].id))),
                 expectedSpanId);
    else
        QCOMPARE(QString::number(s.index), expectedSpanId);
}

void tst_SelectionModel::spanIndex()
{
    const auto f =
        loadFixture(traceJsonl("a:-:0:100 b:a:10:20", opsJsonl("b:mm:12:3 zz:orphan:1:1") + tensorsJsonl("b:t1")
                                                          + intervalsJsonl("a,cuda:0,7,c,5,5")));
    QVERIFY(f.trace);
    const qint64 b = f.trace->findSpan(std::string_view("b"));
    const qint64 a = f.trace->findSpan(std::string_view("a"));
    QCOMPARE(Selection::span(b).spanIndex(*f.trace, *f.tree), b);
    QCOMPARE(Selection::op(0).spanIndex(*f.trace, *f.tree), b);
    QCOMPARE(Selection::op(1).spanIndex(*f.trace, *f.tree), qint64(-1));
    QCOMPARE(Selection::tensor(0).spanIndex(*f.trace, *f.tree), b);
    QCOMPARE(Selection::deviceInterval(0).spanIndex(*f.trace, *f.tree), a);
    QCOMPARE(Selection::op(99).spanIndex(*f.trace, *f.tree), qint64(-1));
    QCOMPARE(Selection::findingOnly(3).spanIndex(*f.trace, *f.tree), qint64(-1));
}

QTEST_MAIN(tst_SelectionModel)
#include "tst_selectionmodel.moc"
