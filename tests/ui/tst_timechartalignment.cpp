// SPDX-License-Identifier: MIT
// In the main window, the memory chart under the timeline draws a time at the same screen x
// as the timeline: at two window widths, after a zoom on either view and after a resize.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QThreadPool>

#include <algorithm>
#include <cstdlib>

#include "ui/mainwindow.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/timeline/timelineview.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

class TestTimeChartAlignment : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void sameTimeSameX_data();
    void sameTimeSameX();
};

namespace {

/// The largest |Δx| in pixels between the two views over a few times both show (the chart
/// keeps to the run while the fitted timeline has a margin beyond it), or -1 while they do
/// not show one window yet.
int worstOffset(const TimelineView &timeline, const MemoryChartPanel &chart)
{
    const TimeWindow shown = timeline.visibleWindow();
    const TimeWindow charted = chart.drawnState().window;
    const TimeWindow both{std::max(shown.begin, charted.begin), std::min(shown.end, charted.end)};
    if (both.begin >= both.end || both.length() < 10 || chart.window() != charted)
        return -1;
    int worst = 0;
    for (const double f : {0.0, 0.1, 0.37, 0.5, 0.81, 1.0}) {
        const auto t = both.begin + std::uint64_t(f * double(both.length() - 1));
        worst = std::max(worst, std::abs(timeline.timeToGlobalX(t) - chart.timeToGlobalX(t)));
    }
    return worst;
}

bool aligned(const TimelineView &timeline, const MemoryChartPanel &chart)
{
    const int offset = worstOffset(timeline, chart);
    return offset >= 0 && offset <= 1;
}

} // namespace

void TestTimeChartAlignment::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("candle-graph-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_timechartalignment"));
}

void TestTimeChartAlignment::cleanupTestCase()
{
    workerPool()->waitForDone();
}

void TestTimeChartAlignment::sameTimeSameX_data()
{
    QTest::addColumn<int>("width");
    QTest::newRow("1600 px wide") << 1600;
    QTest::newRow("2200 px wide") << 2200;
}

void TestTimeChartAlignment::sameTimeSameX()
{
    QFETCH(int, width);
    const QString sample = MainWindow::sampleTracePath();
    if (sample.isEmpty())
        QSKIP("the sample trace is not built in");
    MainWindow window;
    window.resize(width, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(sample);
    QVERIFY(finished.wait(60000));
    TimelineView &timeline = *window.timelineView();
    MemoryChartPanel &chart = *window.memoryChartPanel();
    QVERIFY(chart.drawnState().logicalKnown);
    QTRY_VERIFY2(aligned(timeline, chart), qPrintable(QString::number(worstOffset(timeline, chart))));

    // A zoom on the timeline (the chart follows), then one on the chart (the timeline does).
    timeline.zoomIn();
    timeline.zoomIn();
    QTRY_COMPARE(chart.drawnState().window, timeline.visibleWindow());
    QTRY_VERIFY2(aligned(timeline, chart), qPrintable(QString::number(worstOffset(timeline, chart))));
    const TimeWindow run = chart.runWindow();
    chart.setWindow({run.begin + run.length() / 3, run.begin + run.length() / 2});
    QTRY_COMPARE(timeline.visibleWindow(), chart.window());
    QTRY_VERIFY2(aligned(timeline, chart), qPrintable(QString::number(worstOffset(timeline, chart))));

    // The window made wider: both views grow, their gutters stay one.
    window.resize(width + 200, 1000);
    QTRY_COMPARE(window.width(), width + 200);
    QTRY_VERIFY2(aligned(timeline, chart), qPrintable(QString::number(worstOffset(timeline, chart))));
}

QTEST_MAIN(TestTimeChartAlignment)
#include "tst_timechartalignment.moc"
