// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QScrollBar>
#include <QWheelEvent>
#include <QSignalSpy>
#include <QTest>

#include "core/analysis/spantree.h"
#include "core/model/trace.h"
#include "core/timeline/timelinelayout.h"
#include "tests/testutils/timelinefixtures.h"
#include "ui/timeline/timelineview.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_TimelineView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void layoutArrivesInBackground();
    void clickSelects_data();
    void clickSelects();
    void clickOnMergedMarkSelectsNothing();
    void keyboardNavigation_data();
    void keyboardNavigation();
    void wheelZoomKeepsTheTimeUnderTheCursor();
    void dragPans();
    void rulerDragSelectsRange();
    void escapeClearsRange();
    void setTimeRangeShowsWithoutSignal();
    void doubleClickZooms();
    void setSelectionReveals();
    void selectingASpanHighlightsItsIntervals();
    void deviceAxesAreSeparate();
    void tooltips();
    void scrollBarPans();

private:
    qint64 span(const char *id) const { return m_f.trace->findSpan(std::string_view(id)); }
    QPoint centre(const Selection &s) const
    {
        const auto r = m_view->itemRect(s);
        return r ? r->center() : QPoint(-1, -1);
    }

    LoadedFixture m_f;
    TimelineView *m_view = nullptr;
};

// Run: root 0..100 µs; forward 1..60 µs with ops; backward 60..99 µs; an open span at 99 µs.
// Device intervals on two clocks.
static QByteArray fixtureText()
{
    return traceJsonl(
        "root:-:0:100000 fwd=forward:root:1000:59000 mm=matmul_span:fwd:2000:20000 "
        "add=add_span:fwd:30000:20000 bwd=backward:root:60000:39000 late:root:99000:open",
        opsJsonl("mm:matmul:3000:15000 add:add:31000:10000 bwd:grad:61000:30000")
            + intervalsJsonl("mm,cuda:0,7,cupti:cuda:0,500000,15000 add,cuda:0,7,cupti:cuda:0,520000,9000 "
                             "bwd,cuda:1,7,cupti:cuda:1,90000000,20000"));
}

void tst_TimelineView::init()
{
    m_f = loadFixture(fixtureText());
    QVERIFY(m_f.trace);
    m_view = new TimelineView;
    m_view->resize(1000, 400);
    auto layout = std::make_shared<const TimelineLayout>(TimelineLayout::build(*m_f.trace, *m_f.tree));
    m_view->setLayoutData(m_f.trace, m_f.tree, layout);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
}

void tst_TimelineView::cleanup()
{
    delete m_view;
    m_view = nullptr;
}

void tst_TimelineView::layoutArrivesInBackground()
{
    TimelineView view;
    view.resize(600, 300);
    QSignalSpy ready(&view, &TimelineView::layoutReady);
    QSignalSpy window(&view, &TimelineView::visibleWindowChanged);
    view.setTrace(m_f.trace, m_f.tree);
    QVERIFY(!view.isLayoutReady());
    QVERIFY(view.isComputingLayout());
    QVERIFY(ready.wait(10000));
    QVERIFY(view.isLayoutReady());
    QVERIFY(!window.isEmpty());
    // The fitted window covers the whole run (open span to the terminal at 1 s).
    QVERIFY(view.visibleWindow().begin == 0);
    QVERIFY(view.visibleWindow().end >= 1000000000);
    // A superseded layout is dropped: the second one wins.
    view.setTrace(m_f.trace, m_f.tree);
    view.clear();
    QVERIFY(!view.isLayoutReady());
    QVERIFY(!ready.wait(300));
}

void tst_TimelineView::clickSelects_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    QTest::newRow("span") << QStringLiteral("span") << QStringLiteral("fwd");
    QTest::newRow("op") << QStringLiteral("op") << QStringLiteral("0");
    QTest::newRow("device interval") << QStringLiteral("interval") << QStringLiteral("1");
    QTest::newRow("open span") << QStringLiteral("span") << QStringLiteral("late");
}

void tst_TimelineView::clickSelects()
{
    QFETCH(QString, kind);
    QFETCH(QString, id);
    Selection target;
    if (kind == u"span")
        target = Selection::span(span(id.toUtf8().constData()));
    else if (kind == u"op")
        target = Selection::op(id.toLongLong());
    else
        target = Selection::deviceInterval(id.toLongLong());
    // Zoom to the first 100 µs so that everything but the open span's tail is wide.
    m_view->setVisibleWindow({0, 100000});
    const QPoint at = centre(target);
    QVERIFY2(at.x() >= 0, "the target is not drawn");
    QSignalSpy spy(m_view, &TimelineView::selected);
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<Selection>(), target);
    QCOMPARE(m_view->selection(), target);

    // Empty space below the lanes clears.
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, QPoint(500, m_view->viewport()->height() - 3));
    QCOMPARE(spy.count(), 2);
    QVERIFY(!spy.at(1).at(0).value<Selection>().isValid());
}

void tst_TimelineView::clickOnMergedMarkSelectsNothing()
{
    // 2000 1 ns ops in 20 µs: at the whole-run zoom they merge into a few marks.
    QByteArray ops;
    for (int i = 0; i < 2000; ++i)
        ops += "a:tiny:" + QByteArray::number(1000 + i * 10) + ":1 ";
    const auto f = loadFixture(traceJsonl("a:-:0:100000", opsJsonl(ops)));
    TimelineView view;
    view.resize(500, 200);
    view.setLayoutData(f.trace, f.tree,
                       std::make_shared<const TimelineLayout>(TimelineLayout::build(*f.trace, *f.tree)));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setVisibleWindow({0, 100000});
    const auto &rows = view.rows().rows();
    const auto opsRow = std::find_if(rows.begin(), rows.end(), [](const TimelineRow &r) {
        return r.type == TimelineRow::Type::HostTrack && r.group == 1;
    });
    QVERIFY(opsRow != rows.end());
    const int y = view.rulerHeight() + opsRow->y + 5;
    const int x = 500 * 5000 / 100000; // inside the ops' 1..21 µs
    const QString tip = view.toolTipAt(QPoint(x, y));
    QVERIFY2(tip.contains(u"merged"), qPrintable(tip));
    QSignalSpy spy(&view, &TimelineView::selected);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(x, y));
    QCOMPARE(spy.count(), 0);
}

void tst_TimelineView::keyboardNavigation_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<QString>("effect");
    QTest::newRow("W zooms in") << int(Qt::Key_W) << QStringLiteral("shorter");
    QTest::newRow("Up zooms in") << int(Qt::Key_Up) << QStringLiteral("shorter");
    QTest::newRow("S zooms out") << int(Qt::Key_S) << QStringLiteral("longer");
    QTest::newRow("Down zooms out") << int(Qt::Key_Down) << QStringLiteral("longer");
    QTest::newRow("A pans left") << int(Qt::Key_A) << QStringLiteral("earlier");
    QTest::newRow("Left pans left") << int(Qt::Key_Left) << QStringLiteral("earlier");
    QTest::newRow("D pans right") << int(Qt::Key_D) << QStringLiteral("later");
    QTest::newRow("Right pans right") << int(Qt::Key_Right) << QStringLiteral("later");
    QTest::newRow("Home fits") << int(Qt::Key_Home) << QStringLiteral("fit");
    QTest::newRow("F fits the selection") << int(Qt::Key_F) << QStringLiteral("selection");
}

void tst_TimelineView::keyboardNavigation()
{
    QFETCH(int, key);
    QFETCH(QString, effect);
    const TimeWindow start{200000000, 400000000};
    m_view->setVisibleWindow(start);
    m_view->setSelection(Selection::span(span("mm")));
    m_view->setVisibleWindow(start);
    QCOMPARE(m_view->visibleWindow(), start);
    QSignalSpy spy(m_view, &TimelineView::visibleWindowChanged);
    QTest::keyClick(m_view, Qt::Key(key));
    const TimeWindow w = m_view->visibleWindow();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<TimeWindow>(), w);
    if (effect == u"shorter") {
        QVERIFY(w.length() < start.length());
    } else if (effect == u"longer") {
        QVERIFY(w.length() > start.length());
    } else if (effect == u"earlier") {
        QVERIFY(w.begin < start.begin);
        QCOMPARE(w.length(), start.length());
    } else if (effect == u"later") {
        QVERIFY(w.begin > start.begin);
        QCOMPARE(w.length(), start.length());
    } else if (effect == u"fit") {
        QCOMPARE(w.begin, quint64(0));
        QVERIFY(w.end >= 1000000000);
    } else {
        // matmul_span is 2..22 µs: the window is that plus a 10 % margin.
        QCOMPARE(w, (TimeWindow{0, 24000}));
    }
}

void tst_TimelineView::wheelZoomKeepsTheTimeUnderTheCursor()
{
    m_view->setVisibleWindow({0, 100000});
    const QPoint at(300, m_view->rulerHeight() + 5);
    const std::uint64_t before = xToTime(m_view->visibleWindow(), m_view->viewport()->width(), at.x());
    QWheelEvent wheel(at, m_view->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_view->viewport(), &wheel);
    const TimeWindow w = m_view->visibleWindow();
    QVERIFY(w.length() < 100000);
    const std::uint64_t after = xToTime(w, m_view->viewport()->width(), at.x());
    QVERIFY2(after + 200 >= before && after <= before + 200,
             qPrintable(QStringLiteral("%1 vs %2").arg(after).arg(before)));
}

void tst_TimelineView::dragPans()
{
    m_view->setVisibleWindow({100000, 200000});
    const int y = m_view->rulerHeight() + 5;
    QTest::mousePress(m_view->viewport(), Qt::LeftButton, {}, QPoint(500, y));
    QTest::mouseMove(m_view->viewport(), QPoint(520, y));
    QTest::mouseMove(m_view->viewport(), QPoint(600, y));
    QTest::mouseRelease(m_view->viewport(), Qt::LeftButton, {}, QPoint(600, y));
    // 100 px of 1000 px showing 100 µs: 10 µs earlier.
    const TimeWindow w = m_view->visibleWindow();
    QCOMPARE(w.length(), quint64(100000));
    QVERIFY2(w.begin >= 89000 && w.begin <= 91000, qPrintable(QString::number(w.begin)));
}

void tst_TimelineView::rulerDragSelectsRange()
{
    m_view->setVisibleWindow({0, 100000});
    QSignalSpy spy(m_view, &TimelineView::timeRangeSelected);
    const int y = m_view->rulerHeight() / 2;
    QTest::mousePress(m_view->viewport(), Qt::LeftButton, {}, QPoint(200, y));
    QTest::mouseMove(m_view->viewport(), QPoint(300, y));
    QTest::mouseMove(m_view->viewport(), QPoint(400, y));
    QTest::mouseRelease(m_view->viewport(), Qt::LeftButton, {}, QPoint(400, y));
    QCOMPARE(spy.count(), 1);
    const TimeWindow range = spy.at(0).at(0).value<TimeWindow>();
    QCOMPARE(range, (TimeWindow{20000, 40000}));
    QCOMPARE(m_view->timeRange(), range);
    // The view did not move.
    QCOMPARE(m_view->visibleWindow(), (TimeWindow{0, 100000}));
}

void tst_TimelineView::escapeClearsRange()
{
    m_view->setTimeRange({1000, 2000});
    QSignalSpy spy(m_view, &TimelineView::timeRangeSelected);
    QTest::keyClick(m_view, Qt::Key_Escape);
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.at(0).at(0).value<TimeWindow>().isEmpty());
    QVERIFY(m_view->timeRange().isEmpty());
    // Nothing left to clear: Esc is passed on.
    QTest::keyClick(m_view, Qt::Key_Escape);
    QCOMPARE(spy.count(), 1);
}

void tst_TimelineView::setTimeRangeShowsWithoutSignal()
{
    QSignalSpy spy(m_view, &TimelineView::timeRangeSelected);
    m_view->setTimeRange({5000, 9000});
    QCOMPARE(m_view->timeRange(), (TimeWindow{5000, 9000}));
    m_view->setTimeRange({});
    QVERIFY(m_view->timeRange().isEmpty());
    QCOMPARE(spy.count(), 0);
}

void tst_TimelineView::doubleClickZooms()
{
    m_view->setVisibleWindow({0, 100000});
    const Selection target = Selection::span(span("bwd"));
    const QPoint at = centre(target);
    QSignalSpy spy(m_view, &TimelineView::activated);
    QTest::mouseDClick(m_view->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<Selection>(), target);
    const TimeWindow w = m_view->visibleWindow();
    QVERIFY(w.begin <= 60000 && w.end >= 99000);
    QVERIFY(w.length() < 50000);
}

void tst_TimelineView::setSelectionReveals()
{
    m_view->setVisibleWindow({500000000, 500100000});
    const Selection target = Selection::op(1);
    QVERIFY(!m_view->itemRect(target));
    QSignalSpy spy(m_view, &TimelineView::selected);
    m_view->setSelection(target);
    QCOMPARE(spy.count(), 0);
    const auto r = m_view->itemRect(target);
    QVERIFY(r);
    QVERIFY(m_view->viewport()->rect().intersects(*r));
    // The zoom is kept when the op fits.
    QCOMPARE(m_view->visibleWindow().length(), quint64(100000));
}

void tst_TimelineView::selectingASpanHighlightsItsIntervals()
{
    // Selecting matmul_span brings its device interval into view on the cuda:0 clock axis.
    m_view->setSelection(Selection::span(span("mm")));
    const auto interval = m_view->itemRect(Selection::deviceInterval(0));
    QVERIFY(interval);
    const TimeWindow clock = m_view->clockWindow(0);
    QVERIFY(clock.begin <= 500000 && clock.end >= 515000);
}

void tst_TimelineView::deviceAxesAreSeparate()
{
    const auto layout = m_view->layoutData();
    QCOMPARE(layout->clockDomains().size(), std::size_t(2));
    // Zooming the host axis leaves the device clocks alone, and the other way round.
    const TimeWindow clock0 = m_view->clockWindow(0);
    m_view->setVisibleWindow({0, 50000});
    QCOMPARE(m_view->clockWindow(0), clock0);
    const auto &rows = m_view->rows().rows();
    const auto header = std::find_if(rows.begin(), rows.end(),
                                     [](const TimelineRow &r) { return r.type == TimelineRow::Type::ClockHeader; });
    QVERIFY(header != rows.end());
    QCOMPARE((header + 1)->type, TimelineRow::Type::Title);
    QCOMPARE((header + 2)->type, TimelineRow::Type::DeviceTrack);
    const QPoint onDeviceLane(500, m_view->rulerHeight() + (header + 2)->y + 5);
    QWheelEvent wheel(onDeviceLane, m_view->viewport()->mapToGlobal(onDeviceLane), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_view->viewport(), &wheel);
    QVERIFY(m_view->clockWindow(0).length() < clock0.length());
    QCOMPARE(m_view->visibleWindow(), (TimeWindow{0, 50000}));
    QCOMPARE(m_view->activeAxis(), 0);
    // Keys now act on that clock.
    const TimeWindow before = m_view->clockWindow(0);
    QTest::keyClick(m_view, Qt::Key_W);
    QVERIFY(m_view->clockWindow(0).length() < before.length());
    QCOMPARE(m_view->visibleWindow(), (TimeWindow{0, 50000}));
}

void tst_TimelineView::tooltips()
{
    m_view->setVisibleWindow({0, 100000});
    const QString opTip = m_view->toolTipAt(centre(Selection::op(0)));
    QVERIFY2(opTip.contains(u"matmul") && opTip.contains(u"15.0 \u00B5s") && opTip.contains(u"self")
                 && opTip.contains(u"in 64 B"),
             qPrintable(opTip));
    const QString spanTip = m_view->toolTipAt(centre(Selection::span(span("fwd"))));
    QVERIFY2(spanTip.contains(u"forward") && spanTip.contains(u"self") && spanTip.contains(u"start"),
             qPrintable(spanTip));
    const QString openTip = m_view->toolTipAt(centre(Selection::span(span("late"))));
    QVERIFY2(openTip.contains(u"open"), qPrintable(openTip));
    const QString intervalTip = m_view->toolTipAt(centre(Selection::deviceInterval(0)));
    QVERIFY2(intervalTip.contains(u"not host time") && intervalTip.contains(u"cupti:cuda:0"), qPrintable(intervalTip));
}

void tst_TimelineView::scrollBarPans()
{
    m_view->setVisibleWindow({0, 100000});
    QScrollBar *bar = m_view->horizontalScrollBar();
    QVERIFY(bar->maximum() > 0);
    bar->setValue(bar->maximum());
    const TimeWindow w = m_view->visibleWindow();
    QCOMPARE(w.length(), quint64(100000));
    QVERIFY(w.end >= 1000000000);
}

QTEST_MAIN(tst_TimelineView)
#include "tst_timelineview.moc"
