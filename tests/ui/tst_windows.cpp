// SPDX-License-Identifier: MIT
// The inspector as a desktop program: one window per trace (dropped together or opened one by
// one), titles that name the file, and a command line that answers --help and --version, or
// rejects a bad argument, without a display.
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QThreadPool>
#include <QUrl>

#include "core/loading/loadedtrace.h"
#include "core/version.h"
#include "ui/mainwindow.h"
#include "ui/recentfiles.h"
#include "ui/style/appicon.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

class TestWindows : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

    void titleNamesTheFile_data();
    void titleNamesTheFile();
    void droppedFilesOpenAWindowEach_data();
    void droppedFilesOpenAWindowEach();
    void newWindowIsDeletedWhenClosed();
    void commandLineWithoutDisplay_data();
    void commandLineWithoutDisplay();
    void windowIconIsTheInstalledPngs();
};

namespace {

QString example(const QString &name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + name;
}

QList<MainWindow *> mainWindows()
{
    QList<MainWindow *> windows;
    const QWidgetList topLevel = QApplication::topLevelWidgets();
    for (QWidget *widget : topLevel) {
        if (auto *window = qobject_cast<MainWindow *>(widget))
            windows << window;
    }
    return windows;
}

bool finishedLoading(const MainWindow *window, const QString &path)
{
    return !window->isLoading() && window->loadedTrace() && window->loadedTrace()->path == path
           && window->loadedTrace()->isComplete();
}

void drop(MainWindow &window, const QStringList &files)
{
    QList<QUrl> urls;
    for (const QString &file : files)
        urls << QUrl::fromLocalFile(file);
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint pos = window.rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEvent(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropEvent);
    QVERIFY(dropEvent.isAccepted());
}

} // namespace

void TestWindows::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("candle-graph-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windows"));
    RecentFiles().clear();
}

void TestWindows::cleanupTestCase()
{
    RecentFiles().clear();
    workerPool()->waitForDone();
}

void TestWindows::cleanup()
{
    // Windows a test opened and left behind (a failed check) must not leak into the next one.
    qDeleteAll(mainWindows());
}

void TestWindows::titleNamesTheFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("named");

    QTest::newRow("valid trace") << example(QStringLiteral("01_valid_trace10_forward.jsonl")) << true;
    QTest::newRow("rejected trace, still shown") << example(QStringLiteral("04_span_end_unknown.jsonl")) << true;
    QTest::newRow("not a trace") << example(QStringLiteral("README.md")) << false;
}

void TestWindows::titleNamesTheFile()
{
    QFETCH(QString, file);
    QFETCH(bool, named);
    QVERIFY(QFileInfo::exists(file));

    MainWindow window;
    window.show();
    const QString before = window.windowTitle();
    QVERIFY(!before.contains(QFileInfo(file).fileName()));
    window.openFile(file);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isLoading(), 20000);
    if (named) {
        QTRY_VERIFY(window.windowTitle().startsWith(QFileInfo(file).fileName()));
        QVERIFY(window.windowTitle().contains(QStringLiteral("Candle Trace Inspector")));
    } else {
        QCOMPARE(window.windowTitle(), before);
    }
}

void TestWindows::droppedFilesOpenAWindowEach_data()
{
    QTest::addColumn<QStringList>("files");

    QTest::newRow("one file") << QStringList{example(QStringLiteral("01_valid_trace10_forward.jsonl"))};
    QTest::newRow("three files") << QStringList{example(QStringLiteral("01_valid_trace10_forward.jsonl")),
                                                example(QStringLiteral("02_valid_trace9_train.jsonl")),
                                                example(QStringLiteral("04_span_end_unknown.jsonl"))};
}

void TestWindows::droppedFilesOpenAWindowEach()
{
    QFETCH(QStringList, files);
    for (const QString &file : std::as_const(files))
        QVERIFY(QFileInfo::exists(file));

    auto *window = new MainWindow;
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    drop(*window, files);
    if (QTest::currentTestFailed())
        return;

    // The window dropped on shows the first file; each other file has a new window.
    const QList<MainWindow *> windows = mainWindows();
    QCOMPARE(windows.size(), files.size());
    QVERIFY(windows.contains(window));
    QTRY_VERIFY_WITH_TIMEOUT(finishedLoading(window, files.constFirst()), 20000);
    QSet<QString> shown{files.constFirst()};
    for (MainWindow *other : windows) {
        if (other == window)
            continue;
        QVERIFY(other->isVisible());
        QVERIFY(other->testAttribute(Qt::WA_DeleteOnClose));
        QVERIFY2(other->pos() != window->pos(), "a new window must not cover the one it came from");
        QTRY_VERIFY_WITH_TIMEOUT(!other->isLoading() && other->loadedTrace(), 20000);
        const QString path = other->loadedTrace()->path;
        QVERIFY2(files.contains(path), qPrintable(path));
        QTRY_VERIFY_WITH_TIMEOUT(finishedLoading(other, path), 20000);
        QVERIFY(other->windowTitle().startsWith(QFileInfo(path).fileName()));
        shown.insert(path);
    }
    QCOMPARE(shown.size(), files.size());
}

void TestWindows::newWindowIsDeletedWhenClosed()
{
    MainWindow window;
    window.show();
    QPointer<MainWindow> other = window.openInNewWindow(example(QStringLiteral("01_valid_trace10_forward.jsonl")));
    QVERIFY(other);
    QTRY_VERIFY_WITH_TIMEOUT(!other->isLoading(), 20000);
    QVERIFY(other->close());
    QTRY_VERIFY(other.isNull());
    QCOMPARE(mainWindows(), QList<MainWindow *>{&window});
}

void TestWindows::commandLineWithoutDisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("output"); // expected on stdout (exit 0) or stderr

    const QString version = QStringLiteral("candle-trace-inspector ") + QLatin1StringView(kVersion);
    QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << 0 << QStringLiteral("Usage: ");
    QTest::newRow("-h") << QStringList{QStringLiteral("-h")} << 0 << QStringLiteral("--screenshot <png>");
    QTest::newRow("--version") << QStringList{QStringLiteral("--version")} << 0 << version;
    QTest::newRow("-v") << QStringList{QStringLiteral("-v")} << 0 << version;
    QTest::newRow("--help-all") << QStringList{QStringLiteral("--help-all")} << 0
                                << QStringLiteral("--screenshot <png>");
    QTest::newRow("--help beside files") << QStringList{QStringLiteral("a.jsonl"), QStringLiteral("--help")} << 0
                                         << QStringLiteral("one window each");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")} << 2
                                    << QStringLiteral("Unknown option 'frobnicate'. Try --help.");
    QTest::newRow("--screenshot without its value")
        << QStringList{QStringLiteral("--screenshot")} << 2 << QStringLiteral("Missing value after '--screenshot'");
    QTest::newRow("--screenshot without a trace")
        << QStringList{QStringLiteral("--screenshot"), QStringLiteral("x.png")} << 2
        << QStringLiteral("--screenshot needs exactly one trace file");
}

void TestWindows::commandLineWithoutDisplay()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, output);
    const QString exe = QStringLiteral(TI_BINARY_DIR "/app/gui/candle-trace-inspector");
    if (!QFileInfo(exe).isExecutable())
        QSKIP("candle-trace-inspector is not built");

    // The X11 platform with no display to connect to: a QApplication could not even start.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    QProcess app;
    app.setProcessEnvironment(env);
    app.start(exe, arguments);
    QVERIFY(app.waitForFinished(30000));
    const QString out = QString::fromLocal8Bit(app.readAllStandardOutput());
    const QString err = QString::fromLocal8Bit(app.readAllStandardError());
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QVERIFY2(app.exitCode() == exitCode, qPrintable(QStringLiteral("exit %1\n%2%3").arg(app.exitCode()).arg(out, err)));
    QVERIFY2((exitCode == 0 ? out : err).contains(output), qPrintable(out + err));
    if (exitCode == 0)
        QVERIFY2(err.isEmpty(), qPrintable(err));
}

void TestWindows::windowIconIsTheInstalledPngs()
{
    const QIcon icon = AppIcon::icon();
    QVERIFY(!icon.isNull());
    for (int size : AppIcon::kSizes) {
        // The same file packaging/CMakeLists.txt installs into the hicolor theme.
        const QString installed = QStringLiteral(TI_SOURCE_DIR "/resources/icons/hicolor/%1x%1/apps/"
                                                               "io.github.candle_graph.trace_inspector.png")
                                      .arg(size);
        const QImage expected(installed);
        QVERIFY2(!expected.isNull(), qPrintable(installed));
        const QImage shown = icon.pixmap(QSize(size, size)).toImage();
        QCOMPARE(shown.size(), QSize(size, size));
        // A pixmap is premultiplied; compare both that way so edge pixels do not round apart.
        QCOMPARE(shown.convertToFormat(QImage::Format_ARGB32_Premultiplied),
                 expected.convertToFormat(QImage::Format_ARGB32_Premultiplied));
    }
    MainWindow window;
    QCOMPARE(window.windowIcon().availableSizes(), icon.availableSizes());
    QCOMPARE(window.windowIcon().pixmap(QSize(48, 48)).toImage(), icon.pixmap(QSize(48, 48)).toImage());
}

QTEST_MAIN(TestWindows)
#include "tst_windows.moc"
