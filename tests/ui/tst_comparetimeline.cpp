// SPDX-License-Identifier: MIT
// The stacked timelines of a comparison (issue #15 item 3): the baseline above the
// candidate, host axes moving together, and hovering or clicking a span in one run
// highlights its matched span in the other.
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/model/trace.h"
#include "ui/compare/comparepanel.h"
#include "ui/compare/stackedtimeline.h"
#include "ui/mainwindow.h"
#include "ui/timeline/timelineview.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_CompareTimeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void lazyLayout();
    void axesFollow();
    void linkSpans_data();
    void linkSpans();

private:
    /// Opens the candidate, compares, shows the Timelines tab and waits for both layouts.
    bool showTimelines(MainWindow &window);
    QString write(const QString &name, const QByteArray &content);

    QTemporaryDir m_dir;
};

namespace {

// bwd slower in the candidate; `extra` only in the candidate, `gone` only in the baseline.
const QByteArray kBaseline("r=step*:-:0:1000 a=fwd:r:0:400 b=bwd:r:400:400 g=gone:r:850:100");
const QByteArray kCandidate("r=step*:-:0:1400 a=fwd:r:0:400 b=bwd:r:400:800 x=extra:r:1250:100");

} // namespace

QString tst_CompareTimeline::write(const QString &name, const QByteArray &content)
{
    return TestFixtures::writeFile(m_dir.filePath(name), content);
}

bool tst_CompareTimeline::showTimelines(MainWindow &window)
{
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    window.openFile(write(QStringLiteral("cand.jsonl"), TestFixtures::spansJsonl(kCandidate)));
    window.compareWith(write(QStringLiteral("base.jsonl"), TestFixtures::spansJsonl(kBaseline)));
    if (!compared.wait(20000) || !compared.at(0).at(0).toBool())
        return false;
    ComparePanel *panel = window.comparePanel();
    panel->views()->setCurrentWidget(panel->timeline());
    StackedTimeline *t = panel->timeline();
    return QTest::qWaitFor([t] { return t->baselineView()->isLayoutReady() && t->candidateView()->isLayoutReady(); },
                           20000);
}

void tst_CompareTimeline::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_CompareTimeline::lazyLayout()
{
    MainWindow window;
    window.resize(1600, 1400);
    window.show();
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    window.openFile(write(QStringLiteral("lazy-cand.jsonl"), TestFixtures::spansJsonl(kCandidate)));
    window.compareWith(write(QStringLiteral("lazy-base.jsonl"), TestFixtures::spansJsonl(kBaseline)));
    QVERIFY(compared.wait(20000));
    StackedTimeline *t = window.comparePanel()->timeline();
    // Not laid out until its tab is shown: two more layouts of a big pair are not free.
    QVERIFY(!t->baselineView()->isLayoutReady() && !t->baselineView()->isComputingLayout());
    window.comparePanel()->views()->setCurrentWidget(t);
    QTRY_VERIFY(t->baselineView()->isLayoutReady());
    QTRY_VERIFY(t->candidateView()->isLayoutReady());
    // Closing the comparison empties both.
    window.compareController()->clear();
    QVERIFY(!t->baselineView()->isLayoutReady());
    QVERIFY(!t->candidateView()->isLayoutReady());
}

void tst_CompareTimeline::axesFollow()
{
    MainWindow window;
    window.resize(1600, 1400);
    window.show();
    QVERIFY(showTimelines(window));
    StackedTimeline *t = window.comparePanel()->timeline();
    // Both show the same host window once laid out, and follow each other.
    QTRY_COMPARE(t->baselineView()->visibleWindow().begin, t->candidateView()->visibleWindow().begin);
    const TimeWindow w{200, 600};
    t->candidateView()->setVisibleWindow(w);
    QCOMPARE(t->candidateView()->visibleWindow().begin, w.begin);
    QCOMPARE(t->baselineView()->visibleWindow().begin, t->candidateView()->visibleWindow().begin);
    QCOMPARE(t->baselineView()->visibleWindow().end, t->candidateView()->visibleWindow().end);
    t->baselineView()->zoomIn();
    QCOMPARE(t->candidateView()->visibleWindow().begin, t->baselineView()->visibleWindow().begin);
    QCOMPARE(t->candidateView()->visibleWindow().end, t->baselineView()->visibleWindow().end);
}

void tst_CompareTimeline::linkSpans_data()
{
    QTest::addColumn<bool>("fromBaseline");
    QTest::addColumn<bool>("hover"); // else a click
    QTest::addColumn<QByteArray>("id");
    QTest::addColumn<QByteArray>("partnerId"); // empty: no partner

    QTest::newRow("hover candidate bwd") << false << true << QByteArray("b") << QByteArray("b");
    QTest::newRow("click candidate bwd") << false << false << QByteArray("b") << QByteArray("b");
    QTest::newRow("hover baseline fwd") << true << true << QByteArray("a") << QByteArray("a");
    QTest::newRow("click baseline fwd") << true << false << QByteArray("a") << QByteArray("a");
    QTest::newRow("hover candidate-only span") << false << true << QByteArray("x") << QByteArray();
    QTest::newRow("click baseline-only span") << true << false << QByteArray("g") << QByteArray();
}

void tst_CompareTimeline::linkSpans()
{
    QFETCH(bool, fromBaseline);
    QFETCH(bool, hover);
    QFETCH(QByteArray, id);
    QFETCH(QByteArray, partnerId);

    MainWindow window;
    window.resize(1600, 1400);
    window.show();
    QVERIFY(showTimelines(window));
    StackedTimeline *t = window.comparePanel()->timeline();
    TimelineView *from = fromBaseline ? t->baselineView() : t->candidateView();
    TimelineView *to = fromBaseline ? t->candidateView() : t->baselineView();
    const auto indexOf = [](const Trace &trace, const QByteArray &spanId) -> qint64 {
        for (std::size_t s = 0; s < trace.spans.size(); ++s) {
            if (trace.str(trace.spans[s].id) == std::string_view(spanId.constData(), std::size_t(spanId.size())))
                return qint64(s);
        }
        return -1;
    };
    const LoadedTrace &fromRun = fromBaseline ? *window.compareController()->comparison()->baseline
                                              : *window.compareController()->comparison()->candidate;
    const LoadedTrace &toRun = fromBaseline ? *window.compareController()->comparison()->candidate
                                            : *window.compareController()->comparison()->baseline;
    const qint64 span = indexOf(*fromRun.trace, id);
    QVERIFY(span >= 0);
    const qint64 partner = partnerId.isEmpty() ? -1 : indexOf(*toRun.trace, partnerId);
    QCOMPARE(t->counterpart(span, fromBaseline), partner);

    // The other run's root selected first (never a partner here), so that a link visibly
    // moves the selection and "no partner" visibly clears it.
    to->setSelection(Selection::span(indexOf(*toRun.trace, "r")));
    // Both runs end at the fixture's terminal record (1 s): zoom to the spans, then point at
    // the span's middle.
    from->setVisibleWindow({0, 1500});
    const auto rect = from->itemRect(Selection::span(span));
    QVERIFY(rect.has_value());
    QSignalSpy linked(t, &StackedTimeline::linked);
    if (hover) {
        // Qt drops a move to where the pointer already is (an earlier row hovered the same
        // place): come from elsewhere, then count only the link made by the span itself.
        QTest::mouseMove(from->viewport(), QPoint(1, 1));
        QCoreApplication::processEvents();
        linked.clear();
        QTest::mouseMove(from->viewport(), rect->center());
    } else {
        QTest::mouseClick(from->viewport(), Qt::LeftButton, {}, rect->center());
    }
    QTRY_COMPARE(linked.size(), 1);
    QCOMPARE(to->selection(), partner >= 0 ? Selection::span(partner) : Selection());
    QCOMPARE(linked.at(0).at(0).toLongLong(), fromBaseline ? span : partner);
    QCOMPARE(linked.at(0).at(1).toLongLong(), fromBaseline ? partner : span);
}

QTEST_MAIN(tst_CompareTimeline)
#include "tst_comparetimeline.moc"
