// SPDX-License-Identifier: MIT
// candle-trace-inspector: the Qt Widgets inspector window for candle-graph traces.
#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include "core/display/translations.h"
#include "core/model/malloctuning.h"
#include "core/version.h"
#include "ui/mainwindow.h"
#include "ui/style/appicon.h"

namespace {

// Time the window gets after the last stage to lay out and paint (chart series included).
constexpr int kSettleMs = 400;
constexpr int kExitUsage = 2;

void printError(const QString &message)
{
    std::fprintf(stderr, "candle-trace-inspector: %s\n", qPrintable(message));
}

/// Options QGuiApplication takes out of argv itself (-platform offscreen, -style fusion...).
/// Before the application exists they are unknown to our parser, but they are no mistake.
bool isQtGuiOption(const QString &name)
{
    static const QStringList names = {
        QStringLiteral("platform"),        QStringLiteral("platformpluginpath"),
        QStringLiteral("platformtheme"),   QStringLiteral("plugin"),
        QStringLiteral("qwindowgeometry"), QStringLiteral("geometry"),
        QStringLiteral("qwindowicon"),     QStringLiteral("icon"),
        QStringLiteral("qwindowtitle"),    QStringLiteral("title"),
        QStringLiteral("reverse"),         QStringLiteral("session"),
        QStringLiteral("display"),         QStringLiteral("name"),
        QStringLiteral("style"),           QStringLiteral("stylesheet"),
        QStringLiteral("widgetcount"),     QStringLiteral("nograb"),
        QStringLiteral("dograb"),          QStringLiteral("sync"),
        QStringLiteral("qmljsdebugger"),
    };
    return names.contains(name);
}

struct Options {
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QCoreApplication::translate(
            "main", "Load the given trace, save a PNG of the window once every panel is filled, and exit."),
        QStringLiteral("png")};
    QCommandLineOption tab{QStringLiteral("tab"),
                           QCoreApplication::translate(
                               "main",
                               "With --screenshot: bring the tab with this name to the front first (e.g. Graph, Ops, "
                               "Validation), after the load and any background layout."),
                           QStringLiteral("name")};
    QCommandLineOption compare{
        QStringLiteral("compare"),
        QCoreApplication::translate(
            "main", "Compare the trace file (the candidate) with this baseline trace: --compare BASE CANDIDATE. "
                    "With --screenshot, the picture shows the Compare tab once the comparison is done."),
        QStringLiteral("base")};
    QCommandLineOption selectSpan{
        QStringLiteral("select-span"),
        QCoreApplication::translate(
            "main", "With --screenshot: select the span with this id first (the graph shows its subtree)."),
        QStringLiteral("id")};
};

void setUpParser(QCommandLineParser &parser, const Options &options)
{
    // Qt's own options are single-dash words (-platform); read ours the same way so that an
    // unknown word is reported as one name, not as a run of single letters.
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Inspect candle-graph execution traces (JSONL). Each file opens in a window of its own."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QCoreApplication::translate("main", "Trace files to open, one window each."),
                                 QStringLiteral("[files...]"));
    parser.addOption(options.screenshot);
    parser.addOption(options.tab);
    parser.addOption(options.selectSpan);
    parser.addOption(options.compare);
}

bool wantsHelpOrVersion(const QCommandLineParser &parser)
{
    return parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))
           || parser.isSet(QStringLiteral("version"));
}

/// --screenshot: load, let the panels fill and render, grab the window, save it, quit.
void grabWhenSettled(TraceInspector::MainWindow &window, const QString &pngPath, bool ok)
{
    // Views that lay out in the background (the graph) are waited for, then given time to paint.
    if (window.isViewWorkPending()) {
        QTimer::singleShot(50, &window, [&window, pngPath, ok] { grabWhenSettled(window, pngPath, ok); });
        return;
    }
    QTimer::singleShot(kSettleMs, &window, [&window, pngPath, ok] {
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(pngPath, "PNG")) {
            printError(QCoreApplication::translate("main", "cannot write screenshot %1").arg(pngPath));
            QCoreApplication::exit(2);
            return;
        }
        if (!ok) {
            printError(
                QCoreApplication::translate("main", "the trace did not load completely; the screenshot shows why"));
            QCoreApplication::exit(1);
            return;
        }
        QCoreApplication::exit(0);
    });
}

/// --screenshot with --compare: the picture waits for both loads and the comparison.
void scheduleCompareScreenshot(TraceInspector::MainWindow &window, const QString &pngPath, const QString &tab)
{
    QObject::connect(
        &window, &TraceInspector::MainWindow::comparisonFinished, &window, [&window, pngPath, tab](bool ok) {
            if (!window.showTab(tab.isEmpty() ? QStringLiteral("Compare") : tab))
                printError(QCoreApplication::translate("main", "no tab named %1; the screenshot shows the default tabs")
                               .arg(tab));
            grabWhenSettled(window, pngPath, ok);
        });
}

void scheduleScreenshot(TraceInspector::MainWindow &window, const QString &pngPath, const QString &tab,
                        const QString &span)
{
    QObject::connect(
        &window, &TraceInspector::MainWindow::loadFinished, &window, [&window, pngPath, tab, span](bool ok) {
            if (!span.isEmpty() && !window.selectSpanById(span))
                printError(QCoreApplication::translate("main", "no span with id %1").arg(span));
            if (!tab.isEmpty() && !window.showTab(tab))
                printError(QCoreApplication::translate("main", "no tab named %1; the screenshot shows the default tabs")
                               .arg(tab));
            grabWhenSettled(window, pngPath, ok);
        });
}

void setApplicationInfo()
{
    QCoreApplication::setOrganizationName(QStringLiteral("candle-graph"));
    QCoreApplication::setApplicationName(QStringLiteral("candle-trace-inspector"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(TraceInspector::kVersion));
}

/// Everything that needs no display: --help, --version and argument errors are answered here,
/// before QApplication connects to one. Returns an exit code, or -1 to go on.
int handleArgumentsWithoutDisplay(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const Options options;
    QCommandLineParser parser;
    setUpParser(parser, options);
    if (!parser.parse(arguments)) {
        const QStringList unknown = parser.unknownOptionNames();
        const bool onlyQtOptions = !unknown.isEmpty() && std::all_of(unknown.cbegin(), unknown.cend(), isQtGuiOption);
        if (onlyQtOptions)
            return -1; // QApplication removes them; the arguments are parsed again after it
        printError(parser.errorText() + QStringLiteral(" Try --help."));
        return kExitUsage;
    }
    if (wantsHelpOrVersion(parser)) {
        // QCommandLineParser prints help and version through a QCoreApplication, which needs no
        // display; both exit the process with status 0.
        QCoreApplication core(argc, argv);
        parser.process(core);
    }
    if (parser.isSet(options.screenshot) && parser.positionalArguments().size() != 1) {
        printError(QCoreApplication::translate("main", "--screenshot needs exactly one trace file"));
        return kExitUsage;
    }
    if (parser.isSet(options.compare) && parser.positionalArguments().size() != 1) {
        printError(QCoreApplication::translate("main", "--compare BASE needs exactly one candidate trace file"));
        return kExitUsage;
    }
    return -1;
}

} // namespace

int main(int argc, char **argv)
{
    TraceInspector::tuneMallocForBigTraces(TraceInspector::kWindowArenas);
    setApplicationInfo();
    if (const int exitCode = handleArgumentsWithoutDisplay(argc, argv); exitCode >= 0)
        return exitCode;
    TraceInspector::relaunchWithHugePageHeap(argv); // before Qt starts a thread

    QApplication app(argc, argv);
    TraceInspector::Translations::install(app);
    QApplication::setApplicationDisplayName(QStringLiteral("Candle Trace Inspector"));
    QApplication::setDesktopFileName(QStringLiteral("io.github.candle_graph.trace_inspector"));
    QApplication::setWindowIcon(TraceInspector::AppIcon::icon());

    const Options options;
    QCommandLineParser parser;
    setUpParser(parser, options);
    if (!parser.parse(QCoreApplication::arguments())) {
        printError(parser.errorText() + QStringLiteral(" Try --help."));
        return kExitUsage;
    }
    // Reached with Qt's own options beside --help or --version (-platform offscreen --version).
    if (wantsHelpOrVersion(parser))
        parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (parser.isSet(options.screenshot)) {
        if (files.size() != 1) {
            printError(QCoreApplication::translate("main", "--screenshot needs exactly one trace file"));
            return kExitUsage;
        }
        TraceInspector::MainWindow window;
        window.resize(1600, 1000);
        if (parser.isSet(options.compare))
            scheduleCompareScreenshot(window, parser.value(options.screenshot), parser.value(options.tab));
        else
            scheduleScreenshot(window, parser.value(options.screenshot), parser.value(options.tab),
                               parser.value(options.selectSpan));
        window.show();
        window.openFile(files.constFirst());
        if (parser.isSet(options.compare))
            window.compareWith(parser.value(options.compare));
        return QApplication::exec();
    }
    if (parser.isSet(options.compare)) {
        if (files.size() != 1) {
            printError(QCoreApplication::translate("main", "--compare BASE needs exactly one candidate trace file"));
            return kExitUsage;
        }
        auto *window = new TraceInspector::MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openFile(files.constFirst());
        window->compareWith(parser.value(options.compare));
        const int exitCode = QApplication::exec();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        return exitCode;
    }

    // One window per file; each is deleted when it is closed, the last one ends the program.
    auto *first = new TraceInspector::MainWindow;
    first->setAttribute(Qt::WA_DeleteOnClose);
    first->show();
    if (!files.isEmpty())
        first->openFile(files.constFirst());
    TraceInspector::MainWindow *previous = first;
    for (qsizetype i = 1; i < files.size(); ++i)
        previous = previous->openInNewWindow(files.at(i));

    const int exitCode = QApplication::exec();
    // Windows still open when the loop ended another way than by closing the last one.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QList<TraceInspector::MainWindow *> remaining;
    const QWidgetList topLevel = QApplication::topLevelWidgets();
    for (QWidget *widget : topLevel) {
        if (auto *window = qobject_cast<TraceInspector::MainWindow *>(widget))
            remaining << window;
    }
    qDeleteAll(remaining);
    return exitCode;
}
