// SPDX-License-Identifier: MIT
// candle-trace-inspector: the Qt Widgets inspector window for candle-graph traces.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <vector>

#include "core/version.h"
#include "ui/mainwindow.h"
#include "ui/style/appicon.h"

namespace {

// Time the window gets after the last stage to lay out and paint (chart series included).
constexpr int kSettleMs = 400;

void printError(const QString &message)
{
    std::fprintf(stderr, "candle-trace-inspector: %s\n", qPrintable(message));
}

/// --screenshot: load, let the panels fill and render, grab the window, save it, quit.
void scheduleScreenshot(TraceInspector::MainWindow &window, const QString &pngPath)
{
    QObject::connect(&window, &TraceInspector::MainWindow::loadFinished, &window, [&window, pngPath](bool ok) {
        QTimer::singleShot(kSettleMs, &window, [&window, pngPath, ok] {
            const QImage image = window.grab().toImage();
            if (image.isNull() || !image.save(pngPath, "PNG")) {
                printError(QStringLiteral("cannot write screenshot %1").arg(pngPath));
                QCoreApplication::exit(2);
                return;
            }
            if (!ok) {
                printError(QStringLiteral("the trace did not load completely; the screenshot shows why"));
                QCoreApplication::exit(1);
                return;
            }
            QCoreApplication::exit(0);
        });
    });
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("candle-graph"));
    QApplication::setApplicationName(QStringLiteral("candle-trace-inspector"));
    QApplication::setApplicationDisplayName(QStringLiteral("Candle Trace Inspector"));
    QApplication::setApplicationVersion(QString::fromLatin1(TraceInspector::kVersion));
    QApplication::setDesktopFileName(QStringLiteral("io.github.candle_graph.TraceInspector"));
    QApplication::setWindowIcon(TraceInspector::AppIcon::icon());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Inspect candle-graph execution traces (JSONL)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Trace files to open, one window each."),
                                 QStringLiteral("[files...]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Load the given trace, save a PNG of the window once every panel is filled, and exit."),
        QStringLiteral("png"));
    parser.addOption(screenshot);
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (parser.isSet(screenshot)) {
        if (files.size() != 1) {
            printError(QStringLiteral("--screenshot needs exactly one trace file"));
            return 2;
        }
        TraceInspector::MainWindow window;
        window.resize(1600, 1000);
        scheduleScreenshot(window, parser.value(screenshot));
        window.show();
        window.openFile(files.constFirst());
        return QApplication::exec();
    }

    std::vector<std::unique_ptr<TraceInspector::MainWindow>> windows;
    const auto newWindow = [&windows] {
        windows.push_back(std::make_unique<TraceInspector::MainWindow>());
        windows.back()->show();
        return windows.back().get();
    };
    if (files.isEmpty())
        newWindow();
    for (const QString &file : files)
        newWindow()->openFile(file);
    return QApplication::exec();
}
