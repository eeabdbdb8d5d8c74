// SPDX-License-Identifier: MIT
// Renders the timeline (and a window-like composition with the details pane and search bar)
// on the sample trace and on a generated multi-device trace, in a light and a dark palette,
// and checks what the pictures must show. With TI_SCREENSHOT_DIR set the PNGs are kept there.

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "tests/testutils/generator.h"
#include "ui/details/detailspane.h"
#include "ui/search/searchbar.h"
#include "ui/selection/selectionmodel.h"
#include "ui/timeline/timelineview.h"

using namespace TraceInspector;

class tst_TimelineRender : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sampleTrace_data();
    void sampleTrace();
    void multiDevice_data();
    void multiDevice();
    void window_data();
    void window();
    void rulerLabelsWhole();

private:
    void save(const QImage &image, const QString &name);
    struct Loaded {
        std::shared_ptr<const Trace> trace;
        std::shared_ptr<const SpanTree> tree;
    };
    static Loaded load(const QString &path);
    /// Gives \a view the trace, waits for its layout and shows it at \a size.
    static bool showLaidOut(TimelineView &view, const Loaded &f, QSize size, int timeoutMs = 10000);

    QTemporaryDir m_dir;
    QString m_multiPath;
};

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7d, 0xd8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    return p;
}

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(line[x]);
    }
    return int(colours.size());
}

double meanLightness(const QImage &image)
{
    double sum = 0;
    int n = 0;
    for (int y = 0; y < image.height(); y += 4) {
        for (int x = 0; x < image.width(); x += 4) {
            sum += QColor(image.pixel(x, y)).lightnessF();
            ++n;
        }
    }
    return n ? sum / n : 0;
}

} // namespace

tst_TimelineRender::Loaded tst_TimelineRender::load(const QString &path)
{
    Loaded out;
    ReadResult read = TraceReader::readFile(path.toStdString());
    if (!read.trace)
        return out;
    out.trace = read.trace;
    out.tree = std::make_shared<const SpanTree>(SpanTree::build(*out.trace));
    return out;
}

bool tst_TimelineRender::showLaidOut(TimelineView &view, const Loaded &f, QSize size, int timeoutMs)
{
    view.resize(size);
    QSignalSpy ready(&view, &TimelineView::layoutReady);
    view.setTrace(f.trace, f.tree);
    if (!ready.wait(timeoutMs))
        return false;
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

void tst_TimelineRender::save(const QImage &image, const QString &name)
{
    const QString dir = qEnvironmentVariable("TI_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QVERIFY(image.save(QDir(dir).filePath(name + QStringLiteral(".png"))));
}

void tst_TimelineRender::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_TimelineRender::sampleTrace_data()
{
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QString>("zoom");
    QTest::newRow("light, whole run") << false << QStringLiteral("all");
    QTest::newRow("dark, whole run") << true << QStringLiteral("all");
    QTest::newRow("light, one span") << false << QStringLiteral("span");
    QTest::newRow("dark, one span") << true << QStringLiteral("span");
}

void tst_TimelineRender::sampleTrace()
{
    QFETCH(bool, dark);
    QFETCH(QString, zoom);
    const Loaded f = load(QStringLiteral(TI_SOURCE_DIR "/resources/sample-trace.jsonl"));
    QVERIFY(f.trace);
    TimelineView view;
    if (dark)
        view.setPalette(darkPalette());
    QVERIFY(showLaidOut(view, f, QSize(1400, 520)));
    if (zoom == u"span") {
        // A mid-depth span, selected and fitted: labels readable, selection outlined.
        qint64 target = -1;
        for (std::size_t i = 0; i < f.trace->spans.size() && target < 0; ++i) {
            if (f.tree->depth(i) == 2 && f.tree->children(i).size() >= 2)
                target = qint64(i);
        }
        QVERIFY(target >= 0);
        view.setSelection(Selection::span(target));
        view.zoomToSelection();
        view.setTimeRange(
            {f.trace->spans[std::size_t(target)].startNs,
             f.trace->spans[std::size_t(target)].startNs + f.trace->spans[std::size_t(target)].durationNs / 3});
    }
    const QImage image = view.grab().toImage();
    save(image,
         QStringLiteral("timeline-sample-%1-%2").arg(zoom, dark ? QStringLiteral("dark") : QStringLiteral("light")));
    QVERIFY2(distinctColours(image) > 20, "the picture is nearly flat");
    const double lightness = meanLightness(image);
    if (dark)
        QVERIFY2(lightness < 0.35, qPrintable(QString::number(lightness)));
    else
        QVERIFY2(lightness > 0.6, qPrintable(QString::number(lightness)));
    // The sample trace's device intervals are on device clocks: each gets its own axis.
    QVERIFY(!view.layoutData()->clockDomains().empty());
}

// A tick near the right edge had its label cut there: "3.574" of "3.574 64 s" read as a time
// of its own. Pan across ticks: the ruler's last columns above the tick marks stay empty.
void tst_TimelineRender::rulerLabelsWhole()
{
    const Loaded f = load(QStringLiteral(TI_SOURCE_DIR "/resources/sample-trace.jsonl"));
    QVERIFY(f.trace);
    TimelineView view;
    QVERIFY(showLaidOut(view, f, QSize(900, 300)));
    const std::uint64_t begin = f.trace->spans.front().startNs;
    const std::uint64_t length = f.trace->spans.front().durationNs / 7;
    int cut = 0;
    for (int step = 0; step < 40; ++step) {
        const std::uint64_t from = begin + length * std::uint64_t(step) / 40;
        view.setVisibleWindow({from, from + length});
        const QImage image = view.viewport()->grab().toImage();
        const QRgb background = image.pixel(image.width() - 2, 1);
        // The labels' rows: under the ruler's top pixel, above the 8 px of tick marks.
        const int rulerTextBottom = view.rulerHeight() - 10;
        for (int y = 2; y < rulerTextBottom; ++y) {
            for (int x = image.width() - 3; x < image.width(); ++x) {
                if (image.pixel(x, y) != background)
                    ++cut;
            }
        }
    }
    QCOMPARE(cut, 0);
}

void tst_TimelineRender::multiDevice_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void tst_TimelineRender::multiDevice()
{
    QFETCH(bool, dark);
    if (m_multiPath.isEmpty()) {
        m_multiPath = m_dir.filePath(QStringLiteral("multi.jsonl"));
        TI_GENERATE({QStringLiteral("--events"), QStringLiteral("40000"), QStringLiteral("--devices"),
                     QStringLiteral("4"), QStringLiteral("--seed"), QStringLiteral("5"), QStringLiteral("--out"),
                     m_multiPath, QStringLiteral("--quiet")});
    }
    const Loaded f = load(m_multiPath);
    QVERIFY(f.trace);
    TimelineView view;
    if (dark)
        view.setPalette(darkPalette());
    QVERIFY(showLaidOut(view, f, QSize(1400, 800), 30000));
    QVERIFY(view.layoutData()->clockDomains().size() >= 2);
    const QImage whole = view.grab().toImage();
    save(whole,
         QStringLiteral("timeline-multidevice-all-%1").arg(dark ? QStringLiteral("dark") : QStringLiteral("light")));
    QVERIFY(distinctColours(whole) > 20);
    // Zoomed on an op: its span, the op and (on its clock's axis) its device interval.
    qint64 op = -1;
    for (std::size_t i = f.trace->ops.size() / 2; i < f.trace->ops.size() && op < 0; ++i) {
        if (f.trace->str(f.trace->ops[i].opName) == std::string_view("matmul"))
            op = qint64(i);
    }
    QVERIFY(op >= 0);
    view.setSelection(Selection::span(Selection::op(op).spanIndex(*f.trace, *f.tree)));
    view.setVisibleWindow(
        {f.trace->ops[std::size_t(op)].timestampNs - 20000, f.trace->ops[std::size_t(op)].timestampNs + 40000});
    const QImage zoomed = view.grab().toImage();
    save(zoomed,
         QStringLiteral("timeline-multidevice-op-%1").arg(dark ? QStringLiteral("dark") : QStringLiteral("light")));
    QVERIFY(distinctColours(zoomed) > 20);
}

void tst_TimelineRender::window_data()
{
    multiDevice_data();
}

void tst_TimelineRender::window()
{
    // What the lead will assemble: search bar, timeline, details pane, one SelectionModel.
    QFETCH(bool, dark);
    const Loaded f = load(QStringLiteral(TI_SOURCE_DIR "/resources/sample-trace.jsonl"));
    QVERIFY(f.trace);
    QWidget window;
    if (dark)
        window.setPalette(darkPalette());
    window.resize(1400, 900);
    auto *layout = new QVBoxLayout(&window);
    auto *search = new SearchBar(&window);
    auto *splitter = new QSplitter(Qt::Vertical, &window);
    auto *timeline = new TimelineView(splitter);
    auto *details = new DetailsPane(splitter);
    splitter->addWidget(timeline);
    splitter->addWidget(details);
    splitter->setSizes({420, 480});
    layout->addWidget(search);
    layout->addWidget(splitter, 1);
    SelectionModel selection;
    window.addAction(selection.backAction());
    window.addAction(selection.forwardAction());
    window.addAction(search->findAction());
    window.addAction(search->findNextAction());
    window.addAction(search->findPreviousAction());
    connect(timeline, &TimelineView::selected, &selection, &SelectionModel::select);
    connect(timeline, &TimelineView::activated, &selection, &SelectionModel::activate);
    connect(timeline, &TimelineView::timeRangeSelected, &selection, &SelectionModel::setTimeRange);
    connect(details, &DetailsPane::selectRequested, &selection, &SelectionModel::select);
    connect(details, &DetailsPane::activateRequested, &selection, &SelectionModel::activate);
    connect(search, &SearchBar::matchSelected, &selection, &SelectionModel::select);
    connect(&selection, &SelectionModel::selectionChanged, timeline, &TimelineView::setSelection);
    connect(&selection, &SelectionModel::selectionChanged, details, &DetailsPane::setSelection);
    connect(&selection, &SelectionModel::activated, timeline, &TimelineView::zoomToSelection);
    connect(&selection, &SelectionModel::timeRangeChanged, timeline, &TimelineView::setTimeRange);

    QSignalSpy ready(timeline, &TimelineView::layoutReady);
    timeline->setTrace(f.trace, f.tree);
    details->setTrace(f.trace, f.tree);
    search->setTrace(f.trace);
    QVERIFY(ready.wait(10000));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // Search "attn" and go to the second match; the details pane shows its raw line.
    QSignalSpy shown(details, &DetailsPane::rawLineShown);
    QSignalSpy finished(search, &SearchBar::searchFinished);
    search->setText(QStringLiteral("attn"));
    QVERIFY(finished.wait(5000));
    QVERIFY(finished.at(0).at(0).toInt() > 0);
    search->findNext();
    search->findNext();
    QVERIFY(shown.wait(5000));
    QVERIFY(selection.current().isValid());
    QCOMPARE(details->selection(), selection.current());
    QCOMPARE(timeline->selection(), selection.current());
    QVERIFY(details->rawText().startsWith(u'{'));
    // Back returns to the first match everywhere.
    const Selection second = selection.current();
    selection.backAction()->trigger();
    QVERIFY(selection.current() != second);
    QCOMPARE(timeline->selection(), selection.current());
    QCOMPARE(details->selection(), selection.current());
    QVERIFY(shown.wait(5000));
    timeline->zoomToSelection();
    const QImage image = window.grab().toImage();
    save(image, QStringLiteral("window-sample-%1").arg(dark ? QStringLiteral("dark") : QStringLiteral("light")));
    QVERIFY(distinctColours(image) > 20);
}

QTEST_MAIN(tst_TimelineRender)
#include "tst_timelinerender.moc"
