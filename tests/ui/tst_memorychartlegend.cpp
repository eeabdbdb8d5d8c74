// SPDX-License-Identifier: MIT
// The memory chart's legends in the main window: every entry of both plots drawn whole,
// inside its view, clear of the plot and of each other, at the default window size and at
// the smallest one; a click on an entry still toggles its series.
#include <QAbstractScrollArea>
#include <QStandardPaths>
#include <QTest>
#include <QThreadPool>

#include "core/loading/workerpool.h"
#include "ui/mainwindow.h"
#include "ui/memorychart/memorychartpanel.h"
#include "tests/testutils/samplewindow.h"

using namespace TraceInspector;

class TestMemoryChartLegend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void entriesWholeAndApart_data();
    void entriesWholeAndApart();
    void clickTogglesSeries();
};

namespace {

using Entries = QList<MemoryChartPanel::LegendEntry>;

/// Why the entries of one plot's legend are not all readable, or an empty string.
QString legendProblem(const char *plot, const Entries &entries, const QRectF &drawnArea, const QRectF &viewRect,
                      const QRectF &plotArea, const QRectF &peakLabel, int expected)
{
    const auto rect = [](const QRectF &r) {
        return QStringLiteral("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    };
    if (entries.size() != expected)
        return QStringLiteral("%1: %2 entries, expected %3").arg(QLatin1String(plot)).arg(entries.size()).arg(expected);
    // Drawn whole first (what the user cannot read at all), then clear of everything else.
    for (const MemoryChartPanel::LegendEntry &e : entries) {
        const QString where = QStringLiteral("%1 \"%2\" %3").arg(QLatin1String(plot), e.name, rect(e.rect));
        if (e.rect.isEmpty())
            return where + QStringLiteral(" is not drawn");
        if (!drawnArea.contains(e.rect))
            return where + QStringLiteral(" is clipped by the legend's area %1").arg(rect(drawnArea));
        if (!viewRect.contains(e.rect))
            return where + QStringLiteral(" is outside the view %1").arg(rect(viewRect));
    }
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const MemoryChartPanel::LegendEntry &e = entries[i];
        const QString where = QStringLiteral("%1 \"%2\" %3").arg(QLatin1String(plot), e.name, rect(e.rect));
        if (e.rect.intersects(plotArea))
            return where + QStringLiteral(" covers the plot %1").arg(rect(plotArea));
        if (!peakLabel.isEmpty() && e.rect.intersects(peakLabel))
            return where + QStringLiteral(" covers the peak label");
        for (qsizetype j = i + 1; j < entries.size(); ++j)
            if (e.rect.intersects(entries[j].rect))
                return where + QStringLiteral(" overlaps \"%1\" %2").arg(entries[j].name, rect(entries[j].rect));
    }
    return {};
}

QString problem(const MemoryChartPanel &chart)
{
    const MemoryChartPanel::DrawnState s = chart.drawnState();
    QString p = legendProblem("logical", s.logicalLegend, s.logicalLegendArea, s.logicalViewRect, s.logicalPlot,
                              s.peakLabelRect, int(s.layers.size()));
    if (p.isEmpty())
        p = legendProblem("physical", s.physicalLegend, s.physicalLegendArea, s.physicalViewRect, s.physicalPlot, {},
                          int(s.physicalLines.size()));
    return p;
}

} // namespace

void TestMemoryChartLegend::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("candle-graph-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_memorychartlegend"));
}

void TestMemoryChartLegend::cleanupTestCase()
{
    workerPool()->waitForDone();
}

void TestMemoryChartLegend::entriesWholeAndApart_data()
{
    QTest::addColumn<QSize>("size"); // an empty size: the window's minimum
    QTest::newRow("1600x1000") << QSize(1600, 1000);
    QTest::newRow("minimum size") << QSize();
}

void TestMemoryChartLegend::entriesWholeAndApart()
{
    QFETCH(QSize, size);
    if (MainWindow::sampleTracePath().isEmpty())
        QSKIP("the sample trace is not built in");
    MainWindow window;
    TestFixtures::showSampleDrawn(window, size);
    if (QTest::currentTestFailed())
        return;
    MemoryChartPanel &chart = *window.memoryChartPanel();
    // The sample has five memory categories and two devices with used, reserved and capacity.
    QCOMPARE(chart.drawnState().layers.size(), 5);
    QCOMPARE(chart.drawnState().physicalLines.size(), 6);
    QTRY_VERIFY2(problem(chart).isEmpty(), qPrintable(problem(chart)));
}

void TestMemoryChartLegend::clickTogglesSeries()
{
    if (MainWindow::sampleTracePath().isEmpty())
        QSKIP("the sample trace is not built in");
    MainWindow window;
    TestFixtures::showSampleDrawn(window, QSize(1600, 1000));
    if (QTest::currentTestFailed())
        return;
    MemoryChartPanel &chart = *window.memoryChartPanel();
    QTRY_VERIFY2(problem(chart).isEmpty(), qPrintable(problem(chart)));
    auto *logicalView = chart.findChild<QWidget *>(QStringLiteral("logicalChartView"));
    auto *physicalView = chart.findChild<QWidget *>(QStringLiteral("physicalChartView"));
    QVERIFY(logicalView && physicalView);
    const auto click = [](QWidget *view, const QRectF &rect) {
        auto *area = qobject_cast<QAbstractScrollArea *>(view);
        QWidget *viewport = area ? area->viewport() : view;
        QTest::mouseClick(viewport, Qt::LeftButton, {}, rect.center().toPoint());
    };

    // The last entry of each plot: "other" (once clipped away) and the hidden capacity.
    const MemoryChartPanel::LegendEntry other = chart.drawnState().logicalLegend.last();
    QCOMPARE(other.name, QStringLiteral("other"));
    click(logicalView, other.rect);
    QTRY_VERIFY(chart.drawnState().hiddenSeries.contains(QStringLiteral("other")));
    QVERIFY(!chart.drawnState().logicalLegend.last().shown); // listed still, dimmed
    QCOMPARE(chart.drawnState().logicalLegend.size(), 5);
    click(logicalView, chart.drawnState().logicalLegend.last().rect);
    QTRY_VERIFY(!chart.drawnState().hiddenSeries.contains(QStringLiteral("other")));
    QVERIFY(chart.drawnState().logicalLegend.last().shown);

    const MemoryChartPanel::LegendEntry capacity = chart.drawnState().physicalLegend.last();
    QVERIFY2(capacity.name.endsWith(QStringLiteral("capacity")), qPrintable(capacity.name));
    QVERIFY(!capacity.shown); // hidden by default
    click(physicalView, capacity.rect);
    QTRY_VERIFY(chart.drawnState().physicalLegend.last().shown);
    QVERIFY(!chart.drawnState().hiddenSeries.contains(capacity.name));
}

QTEST_MAIN(TestMemoryChartLegend)
#include "tst_memorychartlegend.moc"
