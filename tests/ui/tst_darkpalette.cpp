// SPDX-License-Identifier: MIT
#include <QApplication>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <memory>

#include "tests/testutils/generator.h"
#include "ui/mainwindow.h"
#include "ui/style/palettes.h"
#include "ui/widgets/messagebanner.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

/// Every view of the window drawn with a dark palette: no light surface left behind by a
/// hard-coded colour (a light banner fill, a white table, a light chart background).
///
/// A light *surface* is told from light *text* by size: a view "has light surface" when
/// solid light blocks of kBlock × kBlock pixels cover more than kMaxLightShare of it. Glyph
/// strokes are never that solid. The light palette is measured the same way as a control,
/// so the measure is shown to catch what it is meant to catch.
class TestDarkPalette : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void viewHasNoLightSurface_data();
    void viewHasNoLightSurface();
    void lightPaletteIsCaught();

private:
    static double lightSurfaceShare(const QImage &image);
    QWidget *view(const QString &name) const;
    QImage grabView(const QString &name) const;

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

namespace {

constexpr int kBlock = 6;
constexpr int kLightness = 190; // of 255: lighter than any dark-theme surface
constexpr double kMaxLightShare = 0.015;

const QStringList kViews{
    QStringLiteral("rejectionBanner"),  QStringLiteral("timelineView"),   QStringLiteral("memoryChartPanel"),
    QStringLiteral("spanTreePanel"),    QStringLiteral("detailsPane"),    QStringLiteral("searchBar"),
    QStringLiteral("opTablePanel"),     QStringLiteral("graphPanel"),     QStringLiteral("comparePanel"),
    QStringLiteral("validationPanel"),  QStringLiteral("metadataPanel"),  QStringLiteral("tensorsPanel"),
    QStringLiteral("tensorStatsPanel"), QStringLiteral("gradientsPanel"), QStringLiteral("evidencePanel"),
};

} // namespace

double TestDarkPalette::lightSurfaceShare(const QImage &source)
{
    const QImage image = source.convertToFormat(QImage::Format_RGB32);
    const int w = image.width();
    const int h = image.height();
    if (w < kBlock || h < kBlock)
        return 0;
    // Light pixels, then for each block-sized window whether all of it is light (summed-area table).
    std::vector<int> sum(std::size_t(w + 1) * std::size_t(h + 1), 0);
    const auto at = [&](int x, int y) -> int & { return sum[std::size_t(y) * std::size_t(w + 1) + std::size_t(x)]; };
    for (int y = 0; y < h; ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < w; ++x) {
            const int light = QColor(line[x]).lightness() >= kLightness ? 1 : 0;
            at(x + 1, y + 1) = light + at(x, y + 1) + at(x + 1, y) - at(x, y);
        }
    }
    std::vector<char> covered(std::size_t(w) * std::size_t(h), 0);
    for (int y = 0; y + kBlock <= h; ++y) {
        for (int x = 0; x + kBlock <= w; ++x) {
            const int n = at(x + kBlock, y + kBlock) - at(x, y + kBlock) - at(x + kBlock, y) + at(x, y);
            if (n == kBlock * kBlock) {
                for (int dy = 0; dy < kBlock; ++dy)
                    std::fill_n(covered.begin() + std::ptrdiff_t(std::size_t(y + dy) * std::size_t(w) + std::size_t(x)),
                                kBlock, 1);
            }
        }
    }
    return double(std::count(covered.begin(), covered.end(), 1)) / double(covered.size());
}

void TestDarkPalette::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(darkPalette());
    QVERIFY(m_dir.isValid());
    // Every record kind, a few corrupted lines: a rejected trace shows its banner and findings.
    const QString path = m_dir.filePath(QStringLiteral("run.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("6000"), QStringLiteral("--seed"), QStringLiteral("5"),
                 QStringLiteral("--corrupt"), QStringLiteral("0.002"), QStringLiteral("--out"), path,
                 QStringLiteral("--quiet")});
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1500, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QSignalSpy finished(m_window.get(), &MainWindow::loadFinished);
    m_window->openFile(path);
    QVERIFY(finished.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isViewWorkPending(), 30000);
    auto *banner = m_window->findChild<MessageBanner *>(QStringLiteral("rejectionBanner"));
    QVERIFY(banner);
    QTRY_VERIFY(banner->isVisible());
}

void TestDarkPalette::cleanupTestCase()
{
    m_window.reset();
    workerPool()->waitForDone();
}

QWidget *TestDarkPalette::view(const QString &name) const
{
    return m_window->findChild<QWidget *>(name);
}

QImage TestDarkPalette::grabView(const QString &name) const
{
    QWidget *w = view(name);
    // A view inside a tab is brought to the front first, so it has its real size.
    for (QWidget *p = w; p && p != m_window.get(); p = p->parentWidget()) {
        if (auto *tabs = qobject_cast<QTabWidget *>(p->parentWidget() ? p->parentWidget()->parentWidget() : nullptr)) {
            const int index = tabs->indexOf(p);
            if (index >= 0)
                tabs->setCurrentIndex(index);
        }
    }
    QCoreApplication::processEvents();
    // A panel that lays out only once shown (the graph) is grabbed drawn (a null image, which
    // the test rejects, when it never is).
    if (!QTest::qWaitFor([this] { return !m_window->isViewWorkPending(); }, 30000))
        return {};
    return w->grab().toImage();
}

void TestDarkPalette::viewHasNoLightSurface_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : kViews)
        QTest::newRow(qPrintable(name)) << name;
}

void TestDarkPalette::viewHasNoLightSurface()
{
    QFETCH(QString, name);
    QWidget *w = view(name);
    QVERIFY2(w, qPrintable(QStringLiteral("no view named %1").arg(name)));
    const QImage image = grabView(name);
    QVERIFY2(image.width() > 50 && image.height() > 10,
             qPrintable(QStringLiteral("%1 is %2×%3 px").arg(name).arg(image.width()).arg(image.height())));
    const double share = lightSurfaceShare(image);
    if (share > kMaxLightShare)
        image.save(m_dir.filePath(name + QStringLiteral(".png")));
    QVERIFY2(share <= kMaxLightShare,
             qPrintable(QStringLiteral("%1: %2 % of it is light surface with a dark palette (at most %3 %)")
                            .arg(name)
                            .arg(share * 100, 0, 'f', 1)
                            .arg(kMaxLightShare * 100, 0, 'f', 1)));
}

void TestDarkPalette::lightPaletteIsCaught()
{
    // The control: Fusion's own light palette, the same views, the same measure.
    // QStyleFactory::create hands over ownership: a style only asked for its palette is ours to free.
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(fusion->standardPalette());
    QCoreApplication::processEvents();
    for (const QString &name :
         {QStringLiteral("spanTreePanel"), QStringLiteral("validationPanel"), QStringLiteral("rejectionBanner")}) {
        const double share = lightSurfaceShare(grabView(name));
        QVERIFY2(share > 0.3, qPrintable(QStringLiteral("%1: only %2 % light surface with the light palette")
                                             .arg(name)
                                             .arg(share * 100, 0, 'f', 1)));
    }
    QApplication::setPalette(darkPalette());
}

QTEST_MAIN(TestDarkPalette)
#include "tst_darkpalette.moc"
