// SPDX-License-Identifier: MIT
// The memory chart's buckets on a worker thread (a big trace's path, forced here on a small
// one): ready means drawn, a device switch and a zoom land, stale results are dropped, and
// what is drawn equals what the GUI-thread path draws.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QSemaphore>
#include <QThreadPool>

#include "tests/testutils/generator.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/model/trace.h"
#include "ui/memorychart/memorychartpanel.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

class tst_MemoryChartAsync : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void readyMeansDrawn();
    void deviceSwitchLands_data();
    void deviceSwitchLands();
    void newestWindowWins();
    void aWidthChangeLetsTheWalkLand();

private:
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const MemoryProfile> m_profile;
    QTemporaryDir m_dir;
};

namespace {

bool show(MemoryChartPanel &panel, const std::shared_ptr<const Trace> &trace,
          const std::shared_ptr<const MemoryProfile> &profile)
{
    QSignalSpy ready(&panel, &MemoryChartPanel::chartReady);
    panel.setTrace(trace, profile, std::make_shared<const MemorySeries>(*trace, *profile));
    return ready.wait(20000);
}

// What a worker may still post is delivered (and must be dropped when stale).
void drainWorkers()
{
    workerPool()->waitForDone();
    QCoreApplication::processEvents();
}

} // namespace

void tst_MemoryChartAsync::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString path = m_dir.filePath(QStringLiteral("gen.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("20000"), QStringLiteral("--seed"), QStringLiteral("5"),
                 QStringLiteral("--out"), path, QStringLiteral("--quiet")});
    ReadResult r = TraceReader::readFile(path.toStdString());
    QVERIFY(r.trace);
    m_trace = r.trace;
    m_profile = std::make_shared<const MemoryProfile>(analyzeMemory(*m_trace));
    QVERIFY(m_profile->logical && m_profile->logical->devices().size() > 1);
}

void tst_MemoryChartAsync::cleanup()
{
    BackgroundSort::setBackgroundRows(100000);
}

void tst_MemoryChartAsync::readyMeansDrawn()
{
    BackgroundSort::setBackgroundRows(0);
    MemoryChartPanel panel;
    panel.resize(1200, 700);
    panel.show();
    QVERIFY(show(panel, m_trace, m_profile));
    // No QTRY: chartReady() came after the worker's buckets were drawn.
    const MemoryChartPanel::DrawnState s = panel.drawnState();
    QVERIFY(s.buckets > 0);
    QVERIFY(!s.layers.isEmpty());
    QVERIFY(s.peakBytes.has_value());
}

void tst_MemoryChartAsync::deviceSwitchLands_data()
{
    QTest::addColumn<int>("device");
    QTest::newRow("first") << 0;
    QTest::newRow("second") << 1;
    QTest::newRow("all") << -1;
}

void tst_MemoryChartAsync::deviceSwitchLands()
{
    QFETCH(int, device);
    // The reference: everything on the GUI thread.
    BackgroundSort::setBackgroundRows(std::size_t(-1));
    MemoryChartPanel reference;
    reference.resize(1200, 700);
    reference.show();
    QVERIFY(show(reference, m_trace, m_profile));
    reference.setSelectedDevice(device);

    BackgroundSort::setBackgroundRows(0);
    MemoryChartPanel panel;
    panel.resize(1200, 700);
    panel.show();
    QVERIFY(show(panel, m_trace, m_profile));
    if (device >= 0) // from all devices to one, and back, before anything landed
        panel.setSelectedDevice(device == 0 ? 1 : 0);
    panel.setSelectedDevice(device);
    QCOMPARE(panel.selectedDevice(), device);
    QTRY_COMPARE(panel.drawnState().physicalLines, reference.drawnState().physicalLines);
    QTRY_COMPARE(panel.drawnState().peakBytes, reference.drawnState().peakBytes);
    drainWorkers();
    const MemoryChartPanel::DrawnState expected = reference.drawnState();
    const MemoryChartPanel::DrawnState s = panel.drawnState();
    QCOMPARE(s.window, expected.window);
    QCOMPARE(s.layers, expected.layers);
    QCOMPARE(s.peakBytes, expected.peakBytes);
    QCOMPARE(s.peakTimeNs, expected.peakTimeNs);
    QCOMPARE(s.logicalAxisTitle, expected.logicalAxisTitle);
    QCOMPARE(s.physicalAxisTitle, expected.physicalAxisTitle);
}

void tst_MemoryChartAsync::newestWindowWins()
{
    BackgroundSort::setBackgroundRows(0);
    MemoryChartPanel panel;
    panel.resize(1200, 700);
    panel.show();
    QVERIFY(show(panel, m_trace, m_profile));
    const TimeWindow run = panel.runWindow();
    const std::uint64_t tenth = run.length() / 10;
    const TimeWindow first{run.begin + tenth, run.begin + 5 * tenth};
    const TimeWindow second{run.begin + 2 * tenth, run.begin + 3 * tenth};
    QSignalSpy changed(&panel, &MemoryChartPanel::windowChanged);
    panel.setWindow(first);
    QCoreApplication::processEvents(); // the first computation starts
    panel.setWindow(second);
    QCOMPARE(panel.window(), second); // asked at once
    QTRY_COMPARE(panel.drawnState().window, second);
    drainWorkers();
    QCOMPARE(panel.drawnState().window, second); // the first window's result came late and was dropped
    QCOMPARE(changed.size(), 2);
    panel.resetZoom();
    QTRY_COMPARE(panel.drawnState().window, run);
}

// The plot's width changes while its buckets are on a worker (as it does two or three times
// while the chart is first laid out): they land and are drawn, ready, and the buckets of the
// new width follow. Dropped for each new width, the first chart waited for every walk.
void tst_MemoryChartAsync::aWidthChangeLetsTheWalkLand()
{
    BackgroundSort::setBackgroundRows(0);
    MemoryChartPanel panel;
    panel.resize(1400, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // Every worker busy until the width has changed: the walk cannot land before.
    QSemaphore release;
    const int workers = workerPool()->maxThreadCount();
    for (int i = 0; i < workers; ++i)
        workerPool()->start([&release] { release.acquire(); });
    QSignalSpy ready(&panel, &MemoryChartPanel::chartReady);
    panel.setTrace(m_trace, m_profile, std::make_shared<const MemorySeries>(*m_trace, *m_profile));
    panel.resize(700, 700);
    QTest::qWait(100); // the resize and the rebucket timer
    release.release(workers);
    QVERIFY(ready.wait(20000));
    const int first = panel.drawnState().buckets;
    const QRectF plotNow = panel.drawnState().physicalPlot;
    QVERIFY2(first > int(plotNow.width()) + 100,
             qPrintable(QStringLiteral("%1 buckets for a plot %2 wide").arg(first).arg(plotNow.width())));
    // The new width's buckets follow on their own.
    QTRY_VERIFY(std::abs(panel.drawnState().buckets - int(panel.drawnState().physicalPlot.width())) <= 1);
    QCOMPARE(ready.size(), 1);
}

QTEST_MAIN(tst_MemoryChartAsync)
#include "tst_memorychartasync.moc"
