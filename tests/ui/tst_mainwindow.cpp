// SPDX-License-Identifier: MIT
#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QTreeView>
#include <QUrl>

#include "tests/testutils/generator.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/traceloader.h"
#include "ui/exportcontroller.h"
#include "ui/details/detailspane.h"
#include "ui/mainwindow.h"
#include "ui/optablepanel.h"
#include "ui/spantreepanel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "ui/recentfiles.h"
#include "ui/selection/selectionmodel.h"
#include "ui/validationpanel.h"
#include "ui/widgets/loadprogresswidget.h"
#include "ui/widgets/messagebanner.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/formatreferencewindow.h"
#include "ui/widgets/shortcutsdialog.h"
#include "tests/testutils/fixtures.h"
#include "core/itemmodels/optablemodel.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

namespace {

QString example(const char *name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1StringView(name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// Answers the next modal message box with \a button once it shows up.
void answerNextMessageBox(QMessageBox::StandardButton button, bool *seen)
{
    QTimer::singleShot(0, qApp, [button, seen] {
        const auto poll = [button, seen](const auto &self) -> void {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box) {
                QTimer::singleShot(20, qApp, [self] { self(self); });
                return;
            }
            *seen = true;
            box->button(button)->click();
        };
        poll(poll);
    });
}

// Root `a` (measured, closed), child `b` never closed, an op in the unknown span `ghost`, and a
// span_end for an unknown span, which makes the strict rules reject the trace.
const char *kProblemTrace =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none","device_timing":"none"},"tags":{}}
{"kind":"span_start","id":"a","name":"root","start_ns":0,"span_kind":"function","measured":true}
{"kind":"span_start","id":"b","parent_id":"a","name":"child","start_ns":10,"span_kind":"module"}
{"kind":"op","span_id":"a","op_name":"matmul","shape":[2,2],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":20,"input_dense_bytes":32}
{"kind":"op","span_id":"ghost","op_name":"add","shape":[2],"dtype":"f32","device":"cpu","duration_ns":1,"timestamp_ns":30,"input_dense_bytes":16}
{"kind":"span_end","id":"nope","duration_ns":1}
{"kind":"span_end","id":"a","duration_ns":100}
{"kind":"terminal","outcome":"complete","timestamp_ns":200}
)";

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void opensByApi();
    void panelsFillAsStagesArrive();
    void rejectedTraceShowsBanner();
    void unopenableFileShowsMessage_data();
    void unopenableFileShowsMessage();
    void failedLoadKeepsShownTrace();
    void dropOpensFile();
    void dropIgnoresNonFiles();
    void validationRowSelectsSpanAndOp();
    void exportWritesNormalized();
    void exportRefusedWhenRejected();
    void exportAsksBeforeReplacingOpenedTrace();
    void cancelStopsLoading();
    void chartSaysTheLoadWasCancelled_data();
    void chartSaysTheLoadWasCancelled();
    void newerLoadWins();
    void recentFiles();
    void screenshotOption_data();
    void screenshotOption();
    void differentFileResetsViewState();
    void showProblemsSelectsTheNamedError();
    void measuredTimeUnknownNeverZero();
    void timeUnitAppliesEverywhereAndPersists();
    void progressTextAndBarAgree();
    void helpMenu();
    void everyActionReachableByKeyboard();
    void fitsASmallScreenWhateverItShows();

private:
    bool openAndWait(MainWindow &window, const QString &path, bool expectOk = true);

    QTemporaryDir m_dir;
    QString m_bigTrace;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("candle-graph-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    RecentFiles().clear();
    QVERIFY(m_dir.isValid());

    m_bigTrace = m_dir.filePath(QStringLiteral("big.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("1000000"), QStringLiteral("--seed"), QStringLiteral("5"),
                 QStringLiteral("--quiet"), QStringLiteral("--out"), m_bigTrace});
}

void TestMainWindow::cleanupTestCase()
{
    RecentFiles().clear();
    workerPool()->waitForDone();
}

bool TestMainWindow::openAndWait(MainWindow &window, const QString &path, bool expectOk)
{
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (!finished.wait(60000))
        return false;
    return finished.at(0).at(0).toBool() == expectOk;
}

void TestMainWindow::opensByApi()
{
    MainWindow window;
    window.show();
    QVERIFY(!window.loadedTrace());
    QCOMPARE(window.windowTitle(), QStringLiteral("Candle Trace Inspector"));

    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    const LoadedTracePtr loaded = window.loadedTrace();
    QVERIFY(loaded && loaded->isComplete());
    QCOMPARE(window.windowTitle(), QStringLiteral("01_valid_trace10_forward.jsonl — Candle Trace Inspector"));
    // The timeline shows the layout the loader built, not one of its own built afterwards.
    QVERIFY(loaded->timelineLayout);
    QCOMPARE(window.timelineView()->layoutData().get(), loaded->timelineLayout.get());
    QVERIFY(!window.isLoading());
    // The file's raw-line index is scanned once the load is drawn (DetailsPane::setTrace()
    // leaves it to the window).
    QTRY_VERIFY(window.detailsPane()->isRawLineIndexed());
    QVERIFY(window.progressWidget()->isHidden());
    QVERIFY(window.rejectionBanner()->isHidden());
    QVERIFY(window.messageBanner()->isHidden());
    QCOMPARE(window.validationPanel()->issueModel()->rowCount(), 0);
    const QString summary = window.summaryText();
    QVERIFY2(summary.contains(QStringLiteral("1 op")) && summary.contains(QStringLiteral("2 spans")),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("measured 50.0 µs")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("logical peak 384 KiB")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("0 errors, 0 warnings")), qPrintable(summary));
}

void TestMainWindow::panelsFillAsStagesArrive()
{
    MainWindow window;
    window.show();
    // Connected after the window's own handlers, so these run once the window has applied a stage.
    int opsAtRead = -1;
    int spanRowsAtRead = -1;
    bool memoryAtRead = true;
    int spanRowsAtTree = -1;
    // Until memory is analysed, the chart says so (it used to say "No trace loaded" beside the
    // filled panels); then it says its series are being prepared.
    QStringList chartTexts;
    connect(window.loader(), &TraceLoader::traceRead, this, [&] {
        opsAtRead = window.opTablePanel()->opModel()->rowCount();
        spanRowsAtRead = window.spanTreePanel()->model()->rowCount();
        memoryAtRead = window.loadedTrace()->memory != nullptr;
        chartTexts << window.memoryChartPanel()->placeholderText();
    });
    connect(window.loader(), &TraceLoader::analysisReady, this, [&](quint64, const LoadedTracePtr &snapshot) {
        if (snapshot->stage == LoadStage::SpanTree)
            spanRowsAtTree = window.spanTreePanel()->model()->rowCount();
        chartTexts << window.memoryChartPanel()->placeholderText();
    });
    // The bundled sample (embedded, written out on first use) is a realistic small trace.
    const QString sample = MainWindow::sampleTracePath();
    QVERIFY(!sample.isEmpty());
    QCOMPARE(readAll(sample), readAll(QStringLiteral(TI_SOURCE_DIR "/resources/sample-trace.jsonl")));
    QVERIFY(openAndWait(window, sample));
    QCOMPARE(opsAtRead, int(window.loadedTrace()->trace->ops.size()));
    QVERIFY(opsAtRead > 100);
    QCOMPARE(spanRowsAtRead, 0); // the tree comes with its own stage
    QVERIFY(!memoryAtRead);
    QCOMPARE(spanRowsAtTree, 1); // one root
    QVERIFY(window.loadedTrace()->memory);
    QVERIFY(window.summaryText().contains(QStringLiteral("logical peak")));
    const QString analysing = QStringLiteral("Analysing memory…");
    const QString preparing = QStringLiteral("Preparing the memory chart…");
    // Read, span tree, health, memory, chart (drawn: no placeholder).
    QCOMPARE(chartTexts, QStringList({analysing, analysing, analysing, preparing, QString()}));
}

void TestMainWindow::rejectedTraceShowsBanner()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("04_span_end_unknown.jsonl")));
    QVERIFY(window.loadedTrace() && window.loadedTrace()->isRejected());
    QVERIFY(window.rejectionBanner()->isVisible());
    QVERIFY(window.rejectionBanner()->title().contains(QStringLiteral("Rejected by the strict rules")));
    QVERIFY(window.rejectionBanner()->title().contains(QStringLiteral("everything valid is still shown")));
    QVERIFY2(window.rejectionBanner()->text().contains(
                 QStringLiteral("span_end for unknown span `span-matmul-0` at index 3")),
             qPrintable(window.rejectionBanner()->text()));
    QVERIFY(window.summaryText().contains(QStringLiteral("rejected")));
    // Everything valid is still there.
    QVERIFY(!window.loadedTrace()->trace->spans.empty());
    QVERIFY(window.validationPanel()->issueModel()->rowCount() >= 1);
}

void TestMainWindow::unopenableFileShowsMessage_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("content"); // written when not empty
    QTest::addColumn<QString>("expected");

    QTest::newRow("missing") << QStringLiteral("missing.jsonl") << QByteArray()
                             << QStringLiteral("No such file or directory");
    QTest::newRow("csv") << QStringLiteral("table.csv") << QByteArray("a,b\n1,2\n")
                         << QStringLiteral("Not a candle-graph trace: line 1 is not JSON");
    QTest::newRow("json document") << QStringLiteral("doc.json") << QByteArray("{\n  \"kind\": \"meta\"\n}\n")
                                   << QStringLiteral("Not a candle-graph trace");
}

void TestMainWindow::unopenableFileShowsMessage()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const QString path = m_dir.filePath(file);
    if (!content.isEmpty())
        QVERIFY(writeAll(path, content));

    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, path, false));
    QVERIFY(!window.loadedTrace());
    QVERIFY(window.messageBanner()->isVisible());
    QVERIFY2(window.messageBanner()->text().contains(expected), qPrintable(window.messageBanner()->text()));
    QVERIFY(window.messageBanner()->text().contains(path));
    QCOMPARE(window.windowTitle(), QStringLiteral("Candle Trace Inspector"));
}

void TestMainWindow::failedLoadKeepsShownTrace()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    const LoadedTracePtr before = window.loadedTrace();
    QVERIFY(openAndWait(window, m_dir.filePath(QStringLiteral("nothing-here.jsonl")), false));
    QCOMPARE(window.loadedTrace(), before);
    QVERIFY(window.messageBanner()->text().contains(QStringLiteral("still displayed")));
    QCOMPARE(window.windowTitle(), QStringLiteral("01_valid_trace10_forward.jsonl — Candle Trace Inspector"));
}

void TestMainWindow::dropOpensFile()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(example("02_valid_trace9_train.jsonl"))});
    const QPoint pos = window.rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());

    QSignalSpy finished(&window, &MainWindow::loadFinished);
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(finished.wait(20000));
    QVERIFY(finished.at(0).at(0).toBool());
    QCOMPARE(window.loadedTrace()->path, example("02_valid_trace9_train.jsonl"));
    QCOMPARE(window.loadedTrace()->trace->meta->schema, std::string("candle-graph/trace/9"));
}

void TestMainWindow::dropIgnoresNonFiles()
{
    MainWindow window;
    window.show();
    QMimeData mime;
    mime.setUrls({QUrl(QStringLiteral("https://example.org/trace.jsonl"))});
    QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    enter.setAccepted(false);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(!enter.isAccepted());

    QMimeData text;
    text.setText(QStringLiteral("hello"));
    QDragEnterEvent enterText(QPoint(5, 5), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    enterText.setAccepted(false);
    QCoreApplication::sendEvent(&window, &enterText);
    QVERIFY(!enterText.isAccepted());
    QVERIFY(!window.isLoading());
}

void TestMainWindow::validationRowSelectsSpanAndOp()
{
    const QString path = m_dir.filePath(QStringLiteral("problems.jsonl"));
    QVERIFY(writeAll(path, kProblemTrace));
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, path));
    QVERIFY(window.rejectionBanner()->isVisible());

    ValidationPanel *panel = window.validationPanel();
    const auto rowOf = [panel](const QString &rule) {
        for (int r = 0; r < panel->proxyModel()->rowCount(); ++r) {
            if (panel->proxyModel()->index(r, ValidationIssueModel::RuleColumn).data().toString() == rule)
                return r;
        }
        return -1;
    };
    QSignalSpy spanRequests(panel, &ValidationPanel::spanRequested);
    QSignalSpy opRequests(panel, &ValidationPanel::opRequested);

    const int unclosed = rowOf(QStringLiteral("H-SPAN-UNCLOSED"));
    QVERIFY(unclosed >= 0);
    Q_EMIT panel->view()->activated(panel->proxyModel()->index(unclosed, 0));
    QCOMPARE(spanRequests.count(), 1);
    QCOMPARE(spanRequests.at(0).at(0).toLongLong(), qint64(1)); // span `b`
    QCOMPARE(window.selectedSpanIndex(), qint64(1));

    const int unknownSpan = rowOf(QStringLiteral("H-UNKNOWN-SPAN"));
    QVERIFY(unknownSpan >= 0);
    Q_EMIT panel->view()->activated(panel->proxyModel()->index(unknownSpan, 0));
    QCOMPARE(opRequests.count(), 1);
    QCOMPARE(opRequests.at(0).at(0).toLongLong(), qint64(1)); // the op in `ghost`
    QCOMPARE(window.selectedOpIndex(), qint64(1));
}

void TestMainWindow::exportWritesNormalized()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    const QString target = m_dir.filePath(QStringLiteral("out/normalized.jsonl"));
    QVERIFY(QDir().mkpath(QFileInfo(target).absolutePath()));
    QSignalSpy exported(&window, &MainWindow::exportFinished);
    window.exportNormalizedTo(target);
    QVERIFY(exported.wait(20000));
    const auto outcome = exported.at(0).at(0).value<ExportOutcome>();
    QCOMPARE(outcome.status, ExportOutcome::Status::Written);
    QCOMPARE(readAll(target), readAll(example("01_valid_trace10_forward.normalized")));
    QCOMPARE(outcome.bytes, quint64(readAll(target).size()));
    QVERIFY(!window.messageBanner()->isHidden());
    QVERIFY(window.messageBanner()->text().contains(target));
    // No temporary file is left next to the target.
    QCOMPARE(QDir(QFileInfo(target).absolutePath()).entryList(QDir::Files),
             QStringList{QStringLiteral("normalized.jsonl")});
}

void TestMainWindow::exportRefusedWhenRejected()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("03_meta_not_first.jsonl")));
    const QString target = m_dir.filePath(QStringLiteral("refused.jsonl"));
    QSignalSpy exported(&window, &MainWindow::exportFinished);
    window.exportNormalizedTo(target);
    QTRY_COMPARE(exported.count(), 1);
    const auto outcome = exported.at(0).at(0).value<ExportOutcome>();
    QCOMPARE(outcome.status, ExportOutcome::Status::Refused);
    QVERIFY2(outcome.message.contains(QStringLiteral("rejected by the strict rules")), qPrintable(outcome.message));
    QVERIFY(outcome.message.contains(
        QStringLiteral("meta event must be the first non-empty trace record, found at index 1")));
    QVERIFY(!QFileInfo::exists(target));
    QVERIFY(!window.messageBanner()->isHidden());
    QCOMPARE(window.messageBanner()->title(), QStringLiteral("Export refused"));

    // A line that does not decode rejects the trace too, and export names it.
    const QString broken = m_dir.filePath(QStringLiteral("broken-line.jsonl"));
    QByteArray bytes = readAll(example("01_valid_trace10_forward.jsonl"));
    bytes.insert(bytes.indexOf('\n') + 1, "{\"kind\":\"op\",\"span_id\":\n");
    QVERIFY(writeAll(broken, bytes));
    MainWindow second;
    second.show();
    QVERIFY(openAndWait(second, broken));
    QVERIFY(second.loadedTrace()->decodeFailureCount() == 1);
    const QString reason = ExportController::refusalReason(second.loadedTrace().get());
    QVERIFY2(reason.contains(QStringLiteral("parse trace JSONL line 2 from")), qPrintable(reason));
    QCOMPARE(ExportController::exportTo(*second.loadedTrace(), target).status, ExportOutcome::Status::Refused);
    QVERIFY(!QFileInfo::exists(target));
}

void TestMainWindow::exportAsksBeforeReplacingOpenedTrace()
{
    const QString opened = m_dir.filePath(QStringLiteral("opened.jsonl"));
    const QByteArray original = readAll(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(writeAll(opened, original));

    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, opened));

    // The controller itself never replaces the opened file without confirmation.
    const ExportOutcome direct = ExportController::exportTo(*window.loadedTrace(), opened, false);
    QCOMPARE(direct.status, ExportOutcome::Status::NeedsConfirmation);
    QCOMPARE(readAll(opened), original);

    // The window asks; declining leaves the file untouched.
    QSignalSpy exported(&window, &MainWindow::exportFinished);
    bool asked = false;
    answerNextMessageBox(QMessageBox::Cancel, &asked);
    window.exportNormalizedTo(opened);
    QTRY_COMPARE(exported.count(), 1);
    QVERIFY(asked);
    QCOMPARE(exported.at(0).at(0).value<ExportOutcome>().status, ExportOutcome::Status::NeedsConfirmation);
    QCOMPARE(readAll(opened), original);

    // Confirming replaces it atomically with the normalized form.
    asked = false;
    answerNextMessageBox(QMessageBox::Yes, &asked);
    window.exportNormalizedTo(opened);
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 2, 20000);
    QVERIFY(asked);
    QCOMPARE(exported.at(1).at(0).value<ExportOutcome>().status, ExportOutcome::Status::Written);
    QCOMPARE(readAll(opened), readAll(example("01_valid_trace10_forward.normalized")));
}

void TestMainWindow::cancelStopsLoading()
{
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    QSignalSpy progress(window.loader(), &TraceLoader::progressChanged);
    window.openFile(m_bigTrace);
    QVERIFY(window.isLoading());
    // Exactly one progress display is shown (on the start page here, as nothing is open yet).
    LoadProgressWidget *shown = nullptr;
    const auto displays = window.findChildren<LoadProgressWidget *>();
    for (LoadProgressWidget *w : displays) {
        if (w->isVisible()) {
            QVERIFY(!shown);
            shown = w;
        }
    }
    QVERIFY(shown);
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(2).toString().contains(QStringLiteral(" of ")),
                             60000);
    QVERIFY(shown->phase().contains(QStringLiteral(" of ")));

    // The window stays responsive while loading: the Cancel button is a real click.
    auto *cancel = shown->findChild<QAbstractButton *>(QStringLiteral("cancelLoadButton"));
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!window.isLoading());
    for (LoadProgressWidget *w : displays)
        QVERIFY(w->isHidden());
    QVERIFY(window.messageBanner()->isVisible());
    QCOMPARE(window.messageBanner()->title(), QStringLiteral("Loading cancelled"));

    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 60000);
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 1);
    QVERIFY(!window.loadedTrace() || !window.loadedTrace()->isComplete());
}

void TestMainWindow::chartSaysTheLoadWasCancelled_data()
{
    QTest::addColumn<int>("stage"); // the stage after which the load is cancelled
    QTest::newRow("after the span tree") << int(LoadStage::SpanTree);
    QTest::newRow("after health") << int(LoadStage::Health);
    QTest::newRow("after memory, before the chart's series") << int(LoadStage::Memory);
}

void TestMainWindow::chartSaysTheLoadWasCancelled()
{
    QFETCH(int, stage);
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    TraceLoader *loader = window.loader();
    // Connected after the window: it has shown the stage when the load is cancelled.
    connect(loader, &TraceLoader::analysisReady, this, [loader, stage](quint64, const LoadedTracePtr &snapshot) {
        if (int(snapshot->stage) == stage)
            loader->cancel();
    });
    window.openFile(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(window.messageBanner()->title(), QStringLiteral("Loading cancelled"));
    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 20000);
    QCoreApplication::processEvents();
    // The trace is shown; the chart says why it is empty rather than "No trace loaded".
    QVERIFY(window.loadedTrace() && window.loadedTrace()->trace);
    QVERIFY(!window.loadedTrace()->memorySeries);
    MemoryChartPanel *chart = window.memoryChartPanel();
    QVERIFY2(chart->placeholderText().startsWith(QStringLiteral("The memory chart was not prepared: loading was "
                                                                "cancelled")),
             qPrintable(chart->placeholderText()));
    QVERIFY(!chart->drawnState().ready);
    auto *placeholder = chart->findChild<QLabel *>(QStringLiteral("memoryPlaceholder"));
    QVERIFY(placeholder && placeholder->isVisible());

    // Opening it again draws the chart.
    QObject::disconnect(loader, &TraceLoader::analysisReady, this, nullptr);
    window.openFile(example("01_valid_trace10_forward.jsonl"));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 20000);
    QCOMPARE(finished.at(1).at(0).toBool(), true);
    QVERIFY(chart->drawnState().ready);
    QCOMPARE(chart->placeholderText(), QString());
}

void TestMainWindow::newerLoadWins()
{
    MainWindow window;
    window.show();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(m_bigTrace);
    window.openFile(example("02_valid_trace9_train.jsonl"));
    QVERIFY(finished.wait(60000));
    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 60000);
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(window.loadedTrace()->path, example("02_valid_trace9_train.jsonl"));
    QCOMPARE(window.windowTitle(), QStringLiteral("02_valid_trace9_train.jsonl — Candle Trace Inspector"));
}

void TestMainWindow::recentFiles()
{
    RecentFiles().clear();
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    QVERIFY(openAndWait(window, example("02_valid_trace9_train.jsonl")));
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    const QStringList files = window.recentFiles()->files();
    QCOMPARE(files.size(), 2);
    QCOMPARE(files.at(0), QFileInfo(example("01_valid_trace10_forward.jsonl")).absoluteFilePath());
    QCOMPARE(RecentFiles().files(), files); // persisted

    RecentFiles many;
    for (int i = 0; i < RecentFiles::kMaxFiles + 5; ++i)
        many.add(m_dir.filePath(QStringLiteral("f%1.jsonl").arg(i)));
    QCOMPARE(many.files().size(), RecentFiles::kMaxFiles);
    QCOMPARE(many.files().constFirst(), m_dir.filePath(QStringLiteral("f%1.jsonl").arg(RecentFiles::kMaxFiles + 4)));
    many.clear();
    QVERIFY(RecentFiles().files().isEmpty());
}

void TestMainWindow::screenshotOption_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<int>("exitCode");

    QTest::newRow("sample trace") << QStringLiteral(TI_SOURCE_DIR "/resources/sample-trace.jsonl") << 0;
    QTest::newRow("rejected trace") << example("04_span_end_unknown.jsonl") << 0;
    // The load fails: the PNG still shows the window with its explanation.
    QTest::newRow("not a trace") << example("README.md") << 1;
}

void TestMainWindow::screenshotOption()
{
    QFETCH(QString, trace);
    QFETCH(int, exitCode);
    const QString exe = QStringLiteral(TI_BINARY_DIR "/app/gui/candle-trace-inspector");
    if (!QFileInfo(exe).isExecutable())
        QSKIP("candle-trace-inspector is not built");
    const QString png = m_dir.filePath(
        QStringLiteral("shot-%1.png").arg(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-')));

    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    app.start(exe, {QStringLiteral("--screenshot"), png, trace});
    QVERIFY(app.waitForFinished(120000));
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), exitCode);

    const QImage image(png);
    QVERIFY2(!image.isNull(), qPrintable(png));
    QCOMPARE(image.size(), QSize(1600, 1000));
    // Something was drawn: the picture is not one flat colour. Every pixel counts: a sparse
    // grid of samples can miss the text and the banner of a mostly empty start page.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height() && colours.size() < 16; ++y) {
        for (int x = 0; x < image.width(); ++x)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY(colours.size() >= 16);
}

void TestMainWindow::differentFileResetsViewState()
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    // Everything a user narrows down in one trace...
    window.spanTreePanel()->setFilterText(QStringLiteral("no such span"));
    window.opTablePanel()->setFilterText(QStringLiteral("matmul"));
    window.opTablePanel()->opView()->sortByColumn(OpTableModel::DurationColumn, Qt::DescendingOrder);
    window.validationPanel()->filterEdit()->setText(QStringLiteral("x"));
    MemoryChartPanel *chart = window.memoryChartPanel();
    QTRY_VERIFY(chart->drawnState().ready);
    chart->setWindow({20000, 30000});
    chart->selectInstant(25000);
    QTRY_COMPARE(chart->window(), (TimeWindow{20000, 30000}));
    window.opTablePanel()->selectOp(0);
    // ...the same file opened again keeps,
    QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
    QCOMPARE(window.spanTreePanel()->filterText(), QStringLiteral("no such span"));
    QCOMPARE(window.opTablePanel()->filterText(), QStringLiteral("matmul"));
    // ...and another file starts without: no "0 of 4 spans match".
    QVERIFY(openAndWait(window, example("02_valid_trace9_train.jsonl")));
    QVERIFY(window.spanTreePanel()->filterText().isEmpty());
    QVERIFY(window.spanTreePanel()->filterEdit()->text().isEmpty());
    const QString status = window.spanTreePanel()->findChild<QLabel *>(QStringLiteral("spanStatus"))->text();
    QVERIFY2(status.startsWith(QStringLiteral("4 spans")), qPrintable(status));
    QVERIFY(window.opTablePanel()->filterText().isEmpty());
    QCOMPARE(window.opTablePanel()->opModel()->sortColumn(), -1);
    QCOMPARE(window.selectedOpIndex(), qint64(-1));
    QCOMPARE(window.selectedSpanIndex(), qint64(-1));
    QVERIFY(window.validationPanel()->filterEdit()->text().isEmpty());
    QTRY_VERIFY(chart->drawnState().ready);
    QCOMPARE(chart->window(), chart->runWindow());
    QVERIFY(!chart->selectedInstant());
    QCOMPARE(chart->selectedDevice(), -1);
}

void TestMainWindow::showProblemsSelectsTheNamedError()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, example("09_invalid_tensor_stats.jsonl")));
    QVERIFY(window.rejectionBanner()->isVisible());
    // Upstream's message as the CLI prints it, then what its index counts.
    QCOMPARE(window.rejectionBanner()->text(),
             QStringLiteral("Line 4, E-TSTATS-INVALID: invalid tensor_stats event at index 3\n"
                            "The index counts records (non-blank lines) from 0; this record is on line 4."));
    window.validationPanel()->severityBox()->setCurrentIndex(2); // warnings only: the error is hidden
    QPushButton *show = nullptr;
    for (QPushButton *b : window.rejectionBanner()->findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Show Problems"))
            show = b;
    QVERIFY(show);
    show->click();
    const Problem *current = window.validationPanel()->currentProblem();
    QVERIFY(current);
    QCOMPARE(current->ruleId, std::string("E-TSTATS-INVALID"));
    QCOMPARE(current->line, std::uint64_t(4));
}

void TestMainWindow::measuredTimeUnknownNeverZero()
{
    const QString path = m_dir.filePath(QStringLiteral("unmeasured.jsonl"));
    QVERIFY(writeAll(path, TestFixtures::spansJsonl("a:-:0:100 b:a:10:5")));
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, path));
    // The status bar and the span tree say the same, and never "0 ns".
    const QString summary = window.summaryText();
    QVERIFY2(summary.contains(QStringLiteral("measured time unknown (no measured span)")), qPrintable(summary));
    QVERIFY(!summary.contains(QStringLiteral("measured 0 ns")));
    QVERIFY(window.spanTreePanel()
                ->findChild<QLabel *>(QStringLiteral("spanStatus"))
                ->text()
                .contains(QStringLiteral("measured time unknown (no measured span)")));
}

void TestMainWindow::timeUnitAppliesEverywhereAndPersists()
{
    {
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, example("01_valid_trace10_forward.jsonl")));
        window.setTimeUnit(TimeUnit::Milliseconds);
        QCOMPARE(
            window.opTablePanel()->opView()->model()->headerData(OpTableModel::StartColumn, Qt::Horizontal).toString(),
            QStringLiteral("Start (ms)"));
        QCOMPARE(window.opTablePanel()->opView()->model()->index(0, OpTableModel::StartColumn).data().toString(),
                 QString(QStringLiteral("0.002") + QChar(0x202F) + QStringLiteral("100")));
        QCOMPARE(
            window.spanTreePanel()->view()->model()->headerData(SpanTreeModel::StartColumn, Qt::Horizontal).toString(),
            QStringLiteral("Start (ms)"));
        QTRY_VERIFY(window.memoryChartPanel()->drawnState().ready);
        QTRY_COMPARE(window.memoryChartPanel()->drawnState().timeAxisTitle,
                     QStringLiteral("Time since run start (ms)"));
    }
    MainWindow again;
    QCOMPARE(again.timeUnit(), TimeUnit::Milliseconds);
    again.setTimeUnit(TimeUnit::Auto);
    QCOMPARE(QSettings().value(QStringLiteral("view/timeUnit")).toInt(), int(TimeUnit::Auto));
}

void TestMainWindow::progressTextAndBarAgree()
{
    // The widget shows one step at a time: its name and detail, and a bar for that step.
    LoadProgressWidget widget;
    widget.setProgress(
        LoadProgress{1, 4, QStringLiteral("Reading big.jsonl"), 545, QStringLiteral("545 MB of 1.0 GB"), 463});
    QCOMPARE(widget.phase(), QStringLiteral("Step 1 of 4 \u00B7 Reading big.jsonl: 545 MB of 1.0 GB"));
    QCOMPARE(widget.permille(), 545);
    widget.setProgress(LoadProgress{3, 4, QStringLiteral("Checking health"), -1, QString(), 880});
    QCOMPARE(widget.phase(), QStringLiteral("Step 3 of 4 \u00B7 Checking health"));
    QCOMPARE(widget.permille(), -1); // busy: the step cannot tell how far it is

    // From a real load, every step in order, each with its name.
    MainWindow window;
    window.show();
    QSignalSpy steps(window.loader(), &TraceLoader::stepProgress);
    QVERIFY(openAndWait(window, m_bigTrace));
    int lastStep = 0;
    QStringList names;
    for (const QList<QVariant> &args : std::as_const(steps)) {
        const auto p = args.at(1).value<LoadProgress>();
        QVERIFY(p.step >= lastStep);
        QCOMPARE(p.stepCount, 5);
        if (p.step != lastStep)
            names << p.stepName;
        lastStep = p.step;
        if (p.step == 1 && !p.detail.isEmpty()) {
            QVERIFY(p.detail.contains(QStringLiteral(" of ")));
            QVERIFY(p.stepPermille >= 0 && p.stepPermille <= 1000);
        }
    }
    // Health's and the chart's steps are left out when their work was done before the loader
    // reached them (TestTraceLoader::progressFollowsStages).
    names.removeOne(QStringLiteral("Checking health"));
    names.removeOne(QStringLiteral("Preparing the memory chart"));
    QCOMPARE(names, (QStringList{QStringLiteral("Reading big.jsonl"), QStringLiteral("Building the span tree"),
                                 QStringLiteral("Analysing memory")}));
}

void TestMainWindow::helpMenu()
{
    MainWindow window;
    window.show();
    FormatReferenceWindow *reference = window.showFormatReference();
    QVERIFY(reference && reference->isVisible());
    const QString text = reference->browser()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("candle-graph execution trace: wire format and validation")),
             qPrintable(text.left(200)));
    // The whole document: its last section and what comes after `array<string>` types.
    QVERIFY(text.contains(QStringLiteral("E-TSTATS-INVALID")));
    QVERIFY(text.contains(QStringLiteral("Appendix A. Example traces")));
    QVERIFY(text.contains(QStringLiteral("array<string>")));
    QVERIFY(reference->find(QStringLiteral("E-TERMINAL-EARLY")));
    QVERIFY(!reference->find(QStringLiteral("no such text in the reference")));
    QCOMPARE(window.showFormatReference(), reference); // one window, raised again

    window.showShortcuts();
    auto *dialog = window.findChild<ShortcutsDialog *>();
    QVERIFY(dialog);
    const QStringList rows = dialog->rows();
    QVERIFY2(rows.contains(QStringLiteral("File menu (Alt+F)|Open|Ctrl+O")), qPrintable(rows.join(u'\n')));
    QVERIFY(rows.contains(QStringLiteral("Edit menu (Alt+E)|Next Match|F3 or Ctrl+G"))
            || rows.contains(QStringLiteral("Edit menu (Alt+E)|Next Match|F3")));
    QVERIFY(rows.contains(QStringLiteral("Help menu (Alt+H)|Trace Format Reference|F1")));
    dialog->close();
}

void TestMainWindow::everyActionReachableByKeyboard()
{
    MainWindow window;
    QStringList unreachable;
    QSet<QString> keys;
    for (QAction *top : window.menuBar()->actions()) {
        QVERIFY2(top->text().contains(u'&'), qPrintable(top->text())); // Alt+letter opens it
        std::function<void(QMenu *)> walk = [&](QMenu *menu) {
            for (QAction *a : menu->actions()) {
                if (a->isSeparator())
                    continue;
                if (a->menu()) {
                    walk(a->menu());
                    continue;
                }
                // In a menu opened by keyboard, an item is reached by its letter or the arrows;
                // every item has a letter or a shortcut of its own.
                if (!a->text().contains(u'&') && a->shortcut().isEmpty() && a->isEnabled() && a->isVisible())
                    unreachable << a->text();
                for (const QKeySequence &k : a->shortcuts()) {
                    QVERIFY2(!keys.contains(k.toString()),
                             qPrintable(QStringLiteral("%1 used twice").arg(k.toString())));
                    keys.insert(k.toString());
                }
            }
        };
        walk(top->menu());
    }
    QVERIFY2(unreachable.isEmpty(), qPrintable(unreachable.join(QStringLiteral(", "))));
    for (const char *key : {"Ctrl+O", "Ctrl+F", "F3", "Shift+F3", "Alt+3", "Ctrl+0", "F1"})
        QVERIFY2(keys.contains(QString::fromLatin1(key)), key);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"

// The window's minimum must stay within 1024x704 (it was 1171x908 empty, later 962x784),
// whatever it shows: 704 is the height a maximized window gets on a 1366x768 laptop screen
// under a 27-pixel top bar and a 37-pixel title bar. Status lines that grow with the data
// (match counts, a range's figures, the trace's summary) used to raise its minimum width
// until it grew past the screen (and, offscreen, every growth repainted the whole window in
// one pass of 50-90 ms).
void TestMainWindow::fitsASmallScreenWhateverItShows()
{
    constexpr QSize kSmallScreen(1024, 704);
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto fits = [&](const char *when) {
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        if (minimum.width() > kSmallScreen.width() || minimum.height() > kSmallScreen.height())
            return QStringLiteral("%1: the window needs at least %2x%3")
                .arg(QLatin1StringView(when))
                .arg(minimum.width())
                .arg(minimum.height());
        if (window.size() != QSize(1400, 900))
            return QStringLiteral("%1: the window grew to %2x%3")
                .arg(QLatin1StringView(when))
                .arg(window.width())
                .arg(window.height());
        return QString();
    };
    QCOMPARE(fits("empty"), QString());
    QVERIFY(openAndWait(window, m_bigTrace));
    QCOMPARE(fits("loaded"), QString());
    const TimeWindow run = window.memoryChartPanel()->runWindow();
    window.selectionModel()->setTimeRange(
        {run.begin + (run.end - run.begin) / 3, run.begin + (run.end - run.begin) / 2});
    QTest::qWait(50);
    QCOMPARE(fits("a time range"), QString());
    window.spanTreePanel()->setFilterText(QStringLiteral("microbatch"));
    QTest::qWait(50);
    QCOMPARE(fits("a span filter over a time range"), QString());
    window.resize(kSmallScreen);
    QTest::qWait(50);
    QCOMPARE(window.size(), kSmallScreen);
}
