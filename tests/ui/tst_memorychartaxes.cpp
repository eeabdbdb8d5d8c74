// SPDX-License-Identifier: MIT
// The memory chart's axes in the main window: every label and title of both plots drawn
// whole, at the default window size and at the smallest one. Qt Charts elides what its
// plot leaves no room for ("D…" for "Device", "…" for every time label), so the texts it
// drew are read from the charts' scenes.
#include <algorithm>

#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QStandardPaths>
#include <QTest>
#include <QThreadPool>

#include "core/loading/workerpool.h"
#include "ui/mainwindow.h"
#include "ui/memorychart/memorychartpanel.h"
#include "tests/testutils/samplewindow.h"

using namespace TraceInspector;

class TestMemoryChartAxes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void labelsAndTitlesWhole_data();
    void labelsAndTitlesWhole();
};

namespace {

/// A text Qt Charts shows in a chart's scene: an axis label or title.
struct ShownText {
    QString text;
    bool rotated = false; // a byte axis' title, drawn along the axis
};

/// The texts Qt Charts shows in \a view's scene (the legend and the peak label are items of
/// our own, which elide on purpose in a small window).
QList<ShownText> shownTexts(const QGraphicsView &view)
{
    QList<ShownText> texts;
    for (const QGraphicsItem *item : view.scene()->items()) {
        const auto *text = qgraphicsitem_cast<const QGraphicsTextItem *>(item);
        if (text && text->isVisible() && !text->toPlainText().isEmpty())
            texts << ShownText{text->toPlainText(), text->rotation() != 0};
    }
    return texts;
}

/// Whether \a text is \a title elided by Qt Charts (three dots, ChartPresenter::truncatedText()).
bool elides(const QString &text, const QString &title)
{
    const QString dots = QStringLiteral("...");
    return text.endsWith(dots) && text != dots && title.startsWith(text.chopped(dots.size()));
}

/// Why \a view's axes are not readable, or an empty string. With \a whole, every label
/// and title is shown whole; otherwise (a window too small for them) a title may be hidden,
/// but none is elided.
QString axesProblem(const QGraphicsView &view, const QStringList &titles, bool whole)
{
    const QList<ShownText> texts = shownTexts(view);
    QStringList plain;
    for (const ShownText &t : texts)
        plain << t.text;
    const QString where = view.objectName() + QStringLiteral(" (%1 px high)").arg(view.height());
    const QString all = plain.join(QStringLiteral(" | "));
    for (const ShownText &t : texts) {
        if (whole && (t.text.contains(QChar(0x2026)) || t.text.endsWith(QStringLiteral("..."))))
            return QStringLiteral("%1 shows \"%2\" among %3").arg(where, t.text, all);
        // A rotated text is a byte axis' title: whole or not shown at all.
        if (t.rotated && !titles.contains(t.text))
            return QStringLiteral("%1 shows the title \"%2\" among %3").arg(where, t.text, all);
        for (const QString &title : titles) {
            if (elides(t.text, title))
                return QStringLiteral("%1 elides its title \"%2\" to \"%3\"").arg(where, title, t.text);
        }
    }
    for (const QString &title : titles) {
        if (whole && !plain.contains(title))
            return QStringLiteral("%1 does not show its title \"%2\": %3").arg(where, title, all);
    }
    return {};
}

} // namespace

void TestMemoryChartAxes::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("candle-graph-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_memorychartaxes"));
}

void TestMemoryChartAxes::cleanupTestCase()
{
    workerPool()->waitForDone();
}

void TestMemoryChartAxes::labelsAndTitlesWhole_data()
{
    QTest::addColumn<QSize>("size"); // an empty size: the window's minimum
    QTest::addColumn<bool>("whole"); // every label and title shown whole, not only no title elided
    QTest::newRow("1600x1400") << QSize(1600, 1400) << true;
    QTest::newRow("1600x1000") << QSize(1600, 1000) << true;
    QTest::newRow("1280x800") << QSize(1280, 800) << false;
    QTest::newRow("minimum size") << QSize() << false;
}

void TestMemoryChartAxes::labelsAndTitlesWhole()
{
    QFETCH(QSize, size);
    QFETCH(bool, whole);
    if (MainWindow::sampleTracePath().isEmpty())
        QSKIP("the sample trace is not built in");
    MainWindow window;
    TestFixtures::showSampleDrawn(window, size);
    if (QTest::currentTestFailed())
        return;
    MemoryChartPanel &chart = *window.memoryChartPanel();
    auto *logical = chart.findChild<QGraphicsView *>(QStringLiteral("logicalChartView"));
    auto *physical = chart.findChild<QGraphicsView *>(QStringLiteral("physicalChartView"));
    QVERIFY(logical && physical);
    // The sample has both planes: the device plot is the lower one and carries the time axis.
    QVERIFY(logical->isVisible() && physical->isVisible());
    const QString time = chart.drawnState().timeAxisTitle; // "Time since run start (µs)"
    QVERIFY(time.startsWith(QStringLiteral("Time since run start (")));
    const auto problem = [&] {
        const QString p = axesProblem(*logical, {QStringLiteral("Logical")}, whole);
        return p.isEmpty() ? axesProblem(*physical, {QStringLiteral("Device"), time}, whole) : p;
    };
    QTRY_VERIFY2(problem().isEmpty(), qPrintable(problem()));
}

QTEST_MAIN(TestMemoryChartAxes)
#include "tst_memorychartaxes.moc"
