// SPDX-License-Identifier: MIT
#include "ui/mainwindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLoggingCategory>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QTimer>
#include <QVBoxLayout>

#include "core/analysis/format.h"
#include "core/analysis/health.h"
#include "core/analysis/spantree.h"
#include "core/analysis/summary.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/problemdetails.h"
#include "core/loading/traceloader.h"
#include "ui/evidencepanel.h"
#include "ui/evidencetablepanel.h"
#include "ui/gradientspanel.h"
#include "ui/memorychartpanel.h"
#include "ui/metadatapanel.h"
#include "ui/optablepanel.h"
#include "ui/recentfiles.h"
#include "ui/spantreepanel.h"
#include "ui/style/appicon.h"
#include "ui/style/palettes.h"
#include "ui/tensorspanel.h"
#include "ui/tensorstatspanel.h"
#include "ui/validationpanel.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/formatreferencewindow.h"
#include "ui/widgets/loadprogresswidget.h"
#include "ui/widgets/messagebanner.h"
#include "ui/widgets/shortcutsdialog.h"
#include "ui/widgets/startpage.h"

Q_LOGGING_CATEGORY(lcWindow, "traceinspector.mainwindow", QtWarningMsg)

namespace TraceInspector {

namespace {

const QString kAppName = QStringLiteral("Candle Trace Inspector");
const QString kTraceFilter = QStringLiteral("Candle traces (*.jsonl *.trace.jsonl);;All files (*)");

QString displayName(const QString &path)
{
    return QFileInfo(path).fileName();
}

QString plural(qsizetype n, const char *singular, const char *pluralForm)
{
    return QStringLiteral("%1 %2").arg(formatCount(std::uint64_t(n)), QLatin1StringView(n == 1 ? singular : pluralForm));
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_loader(new TraceLoader(this))
    , m_export(new ExportController(this))
    , m_recent(new RecentFiles(this))
{
    // CANDLE_TRACE_INSPECTOR_PALETTE=dark checks (and uses) the inspector in a dark theme.
    static const bool paletteFromEnvironment = applyPaletteFromEnvironment();
    Q_UNUSED(paletteFromEnvironment);
    setWindowTitle(kAppName);
    setWindowIcon(AppIcon::icon());
    setAcceptDrops(true);
    resize(1500, 940);

    createLayout();
    createActions();

    connect(m_loader, &TraceLoader::started, this, &MainWindow::onStarted);
    connect(m_loader, &TraceLoader::stepProgress, this, &MainWindow::onProgress);
    connect(m_loader, &TraceLoader::traceRead, this, &MainWindow::onTraceRead);
    connect(m_loader, &TraceLoader::analysisReady, this, &MainWindow::onAnalysisReady);
    connect(m_loader, &TraceLoader::finished, this, &MainWindow::onFinished);
    connect(m_loader, &TraceLoader::failed, this, &MainWindow::onFailed);
    connect(m_loader, &TraceLoader::cancelled, this, &MainWindow::onCancelled);
    connect(m_export, &ExportController::finished, this, &MainWindow::onExportFinished);
    connect(m_recent, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);

    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // Without a saved layout, split by proportion (sizes are relative until first shown).
    if (!m_mainSplitter->restoreState(settings.value(QStringLiteral("window/mainSplitter")).toByteArray()))
        m_mainSplitter->setSizes({440, 520});
    if (!m_topSplitter->restoreState(settings.value(QStringLiteral("window/topSplitter")).toByteArray()))
        m_topSplitter->setSizes({1000, 1000});
    if (!m_bottomSplitter->restoreState(settings.value(QStringLiteral("window/bottomSplitter")).toByteArray()))
        m_bottomSplitter->setSizes({1200, 800});

    bool unitOk = false;
    const int unit = settings.value(QStringLiteral("view/timeUnit")).toInt(&unitOk);
    setTimeUnit(unitOk && unit >= 0 && unit <= int(TimeUnit::Nanoseconds) ? TimeUnit(unit) : TimeUnit::Auto);

    rebuildRecentMenu();
    updateActions();
    updateSummary();
}

MainWindow::~MainWindow() = default;

void MainWindow::createLayout()
{
    m_rejectionBanner = new MessageBanner(this);
    m_rejectionBanner->setObjectName(QStringLiteral("rejectionBanner"));
    m_messageBanner = new MessageBanner(this);

    m_spanTree = new SpanTreePanel(this);
    m_opTable = new OpTablePanel(this);
    m_memoryChart = new MemoryChartPanel(this);
    m_validation = new ValidationPanel(this);
    m_metadata = new MetadataPanel(this);
    m_tensors = new TensorsPanel(this);
    m_tensorStats = new TensorStatsPanel(this);
    m_gradients = new GradientsPanel(this);
    m_evidence = new EvidencePanel(this);

    m_topSplitter = new QSplitter(Qt::Horizontal, this);
    m_topSplitter->addWidget(m_spanTree);
    m_topSplitter->addWidget(m_opTable);
    m_topSplitter->setStretchFactor(0, 1);
    m_topSplitter->setStretchFactor(1, 1);

    m_sideTabs = new QTabWidget(this);
    m_sideTabs->setDocumentMode(true);
    m_sideTabs->addTab(m_validation, QStringLiteral("Validation"));
    m_sideTabs->addTab(m_metadata, QStringLiteral("Run Metadata"));
    m_sideTabs->addTab(m_tensors, tr("Tensors"));
    m_sideTabs->addTab(m_tensorStats, tr("Tensor Stats"));
    m_sideTabs->addTab(m_gradients, tr("Gradients"));
    m_sideTabs->addTab(m_evidence, tr("Evidence"));

    m_bottomSplitter = new QSplitter(Qt::Horizontal, this);
    m_bottomSplitter->addWidget(m_memoryChart);
    m_bottomSplitter->addWidget(m_sideTabs);
    m_bottomSplitter->setStretchFactor(0, 11);
    m_bottomSplitter->setStretchFactor(1, 9);

    m_mainSplitter = new QSplitter(Qt::Vertical, this);
    m_mainSplitter->addWidget(m_topSplitter);
    m_mainSplitter->addWidget(m_bottomSplitter);
    m_mainSplitter->setStretchFactor(0, 3);
    m_mainSplitter->setStretchFactor(1, 2);
    // No panel can be squeezed to nothing (and lose track of its size).
    m_mainSplitter->setChildrenCollapsible(false);
    m_topSplitter->setChildrenCollapsible(false);
    m_bottomSplitter->setChildrenCollapsible(false);

    m_startPage = new StartPage(this);
    m_startPage->setSampleAvailable(!sampleTracePath().isEmpty());
    connect(m_startPage, &StartPage::openRequested, this, &MainWindow::openWithDialog);
    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::openFile);
    connect(m_startPage, &StartPage::cancelRequested, this, &MainWindow::cancelLoad);
    connect(m_startPage, &StartPage::openSampleRequested, this, [this] { openFile(sampleTracePath()); });

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_mainSplitter);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(6);
    layout->addWidget(m_rejectionBanner);
    layout->addWidget(m_messageBanner);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setContentsMargins(4, 0, 4, 0);
    m_progress = new LoadProgressWidget(this);
    m_progress->hide();
    statusBar()->addWidget(m_summary, 1);
    statusBar()->addPermanentWidget(m_progress);
    connect(m_progress, &LoadProgressWidget::cancelRequested, this, &MainWindow::cancelLoad);

    connect(m_validation, &ValidationPanel::spanRequested, this, &MainWindow::selectSpan);
    connect(m_validation, &ValidationPanel::opRequested, this, &MainWindow::selectOp);
    connect(m_validation, &ValidationPanel::countsChanged, this, [this](int errors, int warnings) {
        const int total = errors + warnings;
        m_sideTabs->setTabText(m_sideTabs->indexOf(m_validation),
                               total > 0 ? QStringLiteral("Validation (%1)").arg(total) : QStringLiteral("Validation"));
        m_sideTabs->setTabIcon(m_sideTabs->indexOf(m_validation),
                               errors > 0     ? SeverityPalette::icon(Severity::Error)
                               : warnings > 0 ? SeverityPalette::icon(Severity::Warning)
                                              : QIcon());
        updateSummary();
    });
    // Selecting a span highlights its ops; activating an op's span jumps to it in the tree.
    connect(m_spanTree, &SpanTreePanel::spanSelected, m_opTable, &OpTablePanel::selectOpsOfSpan);
    connect(m_opTable, &OpTablePanel::spanActivated, m_spanTree, &SpanTreePanel::selectSpan);
    // The evidence views join the selection through the span tree and the op table (until a
    // shared selection model exists): activating a row selects its span, then its op.
    for (EvidenceTablePanel *panel : std::initializer_list<EvidenceTablePanel *>{m_tensors, m_tensorStats, m_gradients}) {
        connect(panel, &EvidenceTablePanel::spanActivated, this, &MainWindow::selectSpan);
        connect(panel, &EvidenceTablePanel::opActivated, this, &MainWindow::selectOp);
    }
    connect(m_evidence, &EvidencePanel::spanActivated, this, &MainWindow::selectSpan);
    // The chart prepares its series in the background; a load is only done once it is drawn.
    connect(m_memoryChart, &MemoryChartPanel::chartReady, this, [this] {
        const bool wasPending = m_chartPending;
        m_chartPending = false;
        if (wasPending && m_shown && m_shown->isComplete() && !m_loader->isLoading())
            reportLoaded();
    });
    connect(m_memoryChart, &MemoryChartPanel::spanActivated, this, [this](const QString &spanId) {
        if (m_shown && m_shown->trace)
            selectSpan(m_shown->trace->findSpan(std::string_view(spanId.toStdString())));
    });
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction *open = file->addAction(QStringLiteral("&Open…"), this, &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(QStringLiteral("Open a candle-graph trace (JSONL)"));
    m_recentMenu = file->addMenu(QStringLiteral("Open &Recent"));
    m_sampleAction = file->addAction(QStringLiteral("Open &Sample Trace"), this, [this] { openFile(sampleTracePath()); });
    m_sampleAction->setVisible(!sampleTracePath().isEmpty());
    file->addSeparator();
    m_exportAction = file->addAction(QStringLiteral("&Export Normalized JSONL…"), this, &MainWindow::exportWithDialog);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportAction->setToolTip(QStringLiteral("Write the trace in the normalized form of the format specification"));
    file->addSeparator();
    m_closeAction = file->addAction(QStringLiteral("&Close Trace"), this, [this] {
        cancelLoad();
        m_shown.reset();
        m_spanTree->clear();
        m_opTable->clear();
        m_memoryChart->clear();
        m_validation->clear();
        m_metadata->clear();
        m_tensors->clear();
        m_tensorStats->clear();
        m_gradients->clear();
        m_evidence->clear();
        m_rejectionBanner->dismiss();
        m_messageBanner->dismiss();
        m_stack->setCurrentWidget(m_startPage);
        updateTitle();
        updateSummary();
        updateActions();
    });
    m_closeAction->setShortcut(QKeySequence::Close);
    QAction *quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(QStringLiteral("&View"));
    m_showProblemsAction = view->addAction(QStringLiteral("Show &Validation"), this,
                                           [this] { m_sideTabs->setCurrentWidget(m_validation); });
    m_showProblemsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_showProblemsInBannerAction = new QAction(tr("Show Problems"), this);
    m_showProblemsInBannerAction->setToolTip(tr("Select this error in the list of every problem found"));
    connect(m_showProblemsInBannerAction, &QAction::triggered, this, [this] {
        m_sideTabs->setCurrentWidget(m_validation);
        if (m_shown && m_shown->strictError)
            m_validation->selectProblem(*m_shown->strictError);
    });
    m_reloadFailedAction = new QAction(tr("Reload"), this);
    m_reloadFailedAction->setToolTip(tr("Read the file again"));
    connect(m_reloadFailedAction, &QAction::triggered, this, [this] { openFile(m_failedPath); });
    QAction *showMeta = view->addAction(QStringLiteral("Show Run &Metadata"), this,
                                        [this] { m_sideTabs->setCurrentWidget(m_metadata); });
    showMeta->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    view->addSeparator();
    const auto goTo = [this, view](const QString &text, int key, QWidget *panel, QWidget *focus) {
        QAction *a = view->addAction(text, this, [this, panel, focus] { focusPanel(panel, focus); });
        a->setShortcut(QKeySequence(Qt::ALT | key));
        return a;
    };
    goTo(tr("Go to &Span Tree"), Qt::Key_1, m_spanTree, m_spanTree->view());
    goTo(tr("Go to &Op Table"), Qt::Key_2, m_opTable, m_opTable->opView());
    goTo(tr("Go to Memory &Chart"), Qt::Key_3, m_memoryChart, m_memoryChart->findChild<QWidget *>(QStringLiteral("logicalChartView")));
    goTo(tr("Go to &Problems"), Qt::Key_4, m_validation, m_validation->view());
    view->addSeparator();
    QMenu *units = view->addMenu(tr("&Time Unit"));
    auto *unitGroup = new QActionGroup(this);
    const std::pair<TimeUnit, QString> unitNames[] = {{TimeUnit::Auto, tr("&Automatic (exact, per value)")},
                                                      {TimeUnit::Seconds, tr("&Seconds")},
                                                      {TimeUnit::Milliseconds, tr("&Milliseconds")},
                                                      {TimeUnit::Microseconds, tr("Mi&croseconds")},
                                                      {TimeUnit::Nanoseconds, tr("&Nanoseconds")}};
    for (const auto &[unit, name] : unitNames) {
        QAction *a = units->addAction(name, this, [this, unit] { setTimeUnit(unit); });
        a->setCheckable(true);
        a->setData(int(unit));
        a->setObjectName(QStringLiteral("timeUnit%1").arg(int(unit)));
        unitGroup->addAction(a);
    }
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, [this] {
        m_mainSplitter->setSizes({440, 520});
        m_topSplitter->setSizes({1000, 1000});
        m_bottomSplitter->setSizes({1200, 800});
    });

    QMenu *edit = menuBar()->insertMenu(view->menuAction(), new QMenu(tr("&Edit"), this))->menu();
    QAction *findSpans = edit->addAction(tr("&Filter Spans"), this, [this] {
        focusPanel(m_spanTree, m_spanTree->filterEdit());
        m_spanTree->filterEdit()->selectAll();
    });
    findSpans->setShortcut(QKeySequence::Find);
    QAction *findOps = edit->addAction(tr("Filter &Ops"), this, [this] {
        focusPanel(m_opTable, m_opTable->filterEdit());
        m_opTable->filterEdit()->selectAll();
    });
    findOps->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QAction *findProblems = edit->addAction(tr("Filter &Problems"), this, [this] {
        m_sideTabs->setCurrentWidget(m_validation);
        focusPanel(m_validation, m_validation->filterEdit());
        m_validation->filterEdit()->selectAll();
    });
    findProblems->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_F));
    edit->addSeparator();
    // The span tree's own actions, made window-wide: one action per key, never two.
    for (QAction *a : m_spanTree->actions()) {
        a->setShortcutContext(Qt::WindowShortcut);
        edit->addAction(a);
    }

    QMenu *memory = menuBar()->addMenu(tr("&Memory"));
    QAction *resetZoom = memory->addAction(tr("&Reset Zoom (Whole Run)"), m_memoryChart, &MemoryChartPanel::resetZoom);
    resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *peak = memory->addAction(tr("Allocations at the &Peak"), m_memoryChart, &MemoryChartPanel::showPeak);
    peak->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    memory->addSeparator();
    memory->addAction(tr("Export Chart as P&NG…"), m_memoryChart, [this] { m_memoryChart->exportWithDialog(MemoryChartPanel::ImageFormat::Png); });
    memory->addAction(tr("Export Chart as &SVG…"), m_memoryChart, [this] { m_memoryChart->exportWithDialog(MemoryChartPanel::ImageFormat::Svg); });

    QMenu *help = menuBar()->addMenu(QStringLiteral("&Help"));
    QAction *reference = help->addAction(tr("Trace &Format Reference"), this, [this] { showFormatReference(); });
    reference->setShortcut(QKeySequence::HelpContents);
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F1));
    help->addSeparator();
    help->addAction(QStringLiteral("&About Candle Trace Inspector"), this, [this] {
        QMessageBox::about(this, QStringLiteral("About Candle Trace Inspector"),
                           QStringLiteral("<h3>Candle Trace Inspector %1</h3>"
                                          "<p>Viewer and checker for candle-graph execution traces "
                                          "(<code>candle-graph/trace/10</code> and <code>trace/9</code>).</p>")
                               .arg(QApplication::applicationVersion().toHtmlEscaped()));
    });
}

QString MainWindow::sampleTracePath()
{
    const QString name = QStringLiteral("sample-trace.jsonl");
    const QString installed =
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/candle-trace-inspector/") + name;
    if (QFileInfo(installed).isFile())
        return QDir::cleanPath(installed);

    // Not installed (a build-tree run): the reader needs a real file, so the embedded copy is
    // written to the cache once.
    const QString embedded = QStringLiteral(":/") + name;
    const QString cacheDir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (!QFileInfo::exists(embedded) || cacheDir.isEmpty() || !QDir().mkpath(cacheDir))
        return {};
    const QString cached = QDir(cacheDir).filePath(name);
    if (QFileInfo(cached).size() != QFileInfo(embedded).size()) {
        QFile::remove(cached);
        if (!QFile::copy(embedded, cached))
            return {};
        QFile::setPermissions(cached, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    return cached;
}

bool MainWindow::isLoading() const
{
    return m_loader->isLoading();
}

void MainWindow::openFile(const QString &path)
{
    if (path.isEmpty())
        return;
    m_loader->load(path);
}

MainWindow *MainWindow::openInNewWindow(const QString &path)
{
    auto *window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    // Every window restores the same saved geometry; offset it so that none hides another.
    constexpr int kCascade = 32;
    window->resize(size());
    window->move(pos() + QPoint(kCascade, kCascade));
    window->show();
    window->openFile(path);
    return window;
}

void MainWindow::openWithDialog()
{
    QString dir;
    if (m_shown)
        dir = QFileInfo(m_shown->path).absolutePath();
    else if (!m_recent->files().isEmpty())
        dir = QFileInfo(m_recent->files().constFirst()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open Trace"), dir, kTraceFilter);
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::cancelLoad()
{
    if (m_loader->isLoading())
        m_loader->cancel();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_recent->files();
    for (int i = 0; i < files.size(); ++i) {
        const QString &path = files[i];
        const QString label = i < 9 ? QStringLiteral("&%1  %2").arg(i + 1).arg(displayName(path)) : displayName(path);
        QAction *action = m_recentMenu->addAction(label, this, [this, path] { openFile(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(QStringLiteral("No recent traces"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(QStringLiteral("&Clear Recent Traces"), m_recent, &RecentFiles::clear);
    }
    m_startPage->setRecentFiles(files);
}

void MainWindow::updateActions()
{
    m_exportAction->setEnabled(m_shown && m_shown->trace && !m_export->isRunning());
    m_closeAction->setEnabled(m_shown != nullptr || m_loader->isLoading());
}

void MainWindow::updateTitle()
{
    if (m_shown)
        setWindowTitle(QStringLiteral("%1 — %2").arg(displayName(m_shown->path), kAppName));
    else
        setWindowTitle(kAppName);
}

QString MainWindow::summaryText() const
{
    return m_summary->text();
}

void MainWindow::updateSummary()
{
    if (!m_shown || !m_shown->trace) {
        m_summary->setText(m_loader->isLoading() ? QString() : QStringLiteral("No trace loaded"));
        return;
    }
    const LoadedTrace &l = *m_shown;
    const Trace &t = *l.trace;
    QStringList parts;
    parts << plural(qsizetype(t.ops.size()), "op", "ops") << plural(qsizetype(t.spans.size()), "span", "spans");
    // One wording for the measured time everywhere: unknown, never zero.
    if (m_measuredOf != &t) {
        m_measured = countMeasuredSpans(t);
        m_measuredOf = &t;
    }
    if (l.summary)
        parts << measuredTimeText(m_measured.measured, m_measured.closed, l.summary->totalNs);
    else if (l.spanTree)
        parts << measuredTimeText(m_measured.measured, m_measured.closed, l.spanTree->measuredTotalNs());
    if (l.summary) {
        parts << (l.summary->logicalPeakBytes ? QStringLiteral("logical peak %1").arg(formatBytes(*l.summary->logicalPeakBytes))
                                              : QStringLiteral("logical peak unknown (no memory records)"));
    } else {
        parts << QStringLiteral("logical peak: analysing…");
    }
    std::size_t errors = 0;
    std::size_t warnings = 0;
    const auto count = [&](const std::vector<Problem> &list) {
        for (const Problem &p : list)
            (p.severity == Severity::Error ? errors : warnings) += 1;
    };
    // Counted but not listed problems count too (ProblemLimiter).
    const auto countOmitted = [&](const std::vector<OmittedProblems> &list) {
        for (const OmittedProblems &o : list)
            (o.severity == Severity::Error ? errors : warnings) += o.count;
    };
    if (l.readProblems)
        count(*l.readProblems);
    countOmitted(l.readOmitted);
    if (l.health) {
        count(l.health->findings);
        countOmitted(l.health->omittedFindings);
    }
    QString problems = QStringLiteral("%1, %2").arg(plural(qsizetype(errors), "error", "errors"),
                                                    plural(qsizetype(warnings), "warning", "warnings"));
    if (!l.health)
        problems += QStringLiteral(" so far");
    parts << problems;
    if (l.isRejected())
        parts << QStringLiteral("rejected by the strict rules");
    m_summary->setText(parts.join(QStringLiteral("  ·  ")));
}

void MainWindow::onStarted(quint64, const QString &path)
{
    m_loadingPath = path;
    m_loadClock.start();
    m_messageBanner->dismiss();
    m_progress->start(QStringLiteral("Opening %1").arg(displayName(path)));
    m_startPage->progress()->start(QStringLiteral("Opening %1").arg(displayName(path)));
    placeProgress();
    updateActions();
    updateSummary();
}

void MainWindow::onProgress(quint64, const LoadProgress &progress)
{
    m_progress->setProgress(progress);
    m_startPage->progress()->setProgress(progress);
}

void MainWindow::onTraceRead(quint64, const LoadedTracePtr &snapshot)
{
    m_shown = snapshot;
    m_recent->add(snapshot->path);
    m_stack->setCurrentWidget(m_mainSplitter);
    placeProgress();

    m_spanTree->clear();
    m_memoryChart->clear();
    m_chartPending = false;
    // A different file starts from a fresh view: filters, zoom and selections of the last
    // one would hide the new trace ("0 of 2 spans match"). Emptied first, so that resetting
    // costs nothing.
    if (QFileInfo(snapshot->path).absoluteFilePath() != m_viewStatePath) {
        m_opTable->clear();
        resetViewState();
    }
    m_viewStatePath = QFileInfo(snapshot->path).absoluteFilePath();
    m_opTable->setTrace(snapshot->trace, {}, snapshot->opStatistics);
    m_validation->setLoadedTrace(snapshot);
    m_metadata->setLoadedTrace(snapshot);
    setEvidenceViews(snapshot);
    showRejection(*snapshot);
    updateTitle();
    updateSummary();
    updateActions();
    qCInfo(lcWindow) << "first panels filled after" << m_loadClock.elapsed() << "ms";
}

void MainWindow::onAnalysisReady(quint64, const LoadedTracePtr &snapshot)
{
    m_shown = snapshot;
    switch (snapshot->stage) {
    case LoadStage::Read:
        break;
    case LoadStage::SpanTree:
        m_spanTree->setTrace(snapshot->trace, snapshot->spanTree);
        m_opTable->setSpanTree(snapshot->spanTree);
        break;
    case LoadStage::Health:
        m_validation->setLoadedTrace(snapshot);
        m_metadata->setLoadedTrace(snapshot);
        break;
    case LoadStage::Memory:
        m_chartPending = true;
        m_memoryChart->setTrace(snapshot->trace, snapshot->memory);
        setEvidenceViews(snapshot);
        break;
    }
    updateSummary();
}

void MainWindow::onFinished(quint64, const LoadedTracePtr &snapshot)
{
    m_shown = snapshot;
    hideProgress();
    // A clean trace has nothing to list: show its run header instead.
    const bool anyProblem = m_validation->issueModel()->rowCount() > 0;
    if (m_pinnedTab.isEmpty() || !showTab(m_pinnedTab))
        m_sideTabs->setCurrentWidget(anyProblem ? static_cast<QWidget *>(m_validation) : m_metadata);
    updateSummary();
    updateActions();
    if (!m_chartPending)
        reportLoaded();
}

void MainWindow::reportLoaded()
{
    qCInfo(lcWindow) << "fully loaded and drawn after" << m_loadClock.elapsed() << "ms";
    Q_EMIT loadFinished(true);
}

void MainWindow::onFailed(quint64, const QString &message, TraceLoader::FailureKind kind)
{
    hideProgress();
    m_failedPath = m_loadingPath;
    QString text = message;
    if (kind == TraceLoader::FailureKind::NotATrace)
        text += QStringLiteral("\nFile: %1").arg(QDir::toNativeSeparators(m_loadingPath));
    if (m_shown)
        text += QStringLiteral("\nThe trace shown before is still displayed.");
    QString title;
    switch (kind) {
    case TraceLoader::FailureKind::NotATrace:
        title = QStringLiteral("This file is not a trace");
        break;
    case TraceLoader::FailureKind::ChangedWhileRead:
        title = QStringLiteral("The file changed while it was read");
        break;
    case TraceLoader::FailureKind::OutOfMemory:
        title = QStringLiteral("Not enough memory");
        break;
    case TraceLoader::FailureKind::Unreadable:
        title = QStringLiteral("The file could not be opened");
        break;
    }
    m_messageBanner->showMessage(SeverityPalette::Tone::Error, title, text);
    if (kind == TraceLoader::FailureKind::ChangedWhileRead)
        m_messageBanner->addAction(m_reloadFailedAction);
    if (!m_shown)
        m_stack->setCurrentWidget(m_startPage);
    updateSummary();
    updateActions();
    Q_EMIT loadFinished(false);
}

void MainWindow::onCancelled(quint64 generation)
{
    hideProgress();
    QString text = QStringLiteral("Loading %1 was cancelled.").arg(displayName(m_loadingPath));
    if (m_shown && m_shown->generation == generation && !m_shown->isComplete())
        text += QStringLiteral(" What had been read is shown; analyses that had not finished are missing.");
    m_messageBanner->showMessage(SeverityPalette::Tone::Information, QStringLiteral("Loading cancelled"), text);
    if (!m_shown)
        m_stack->setCurrentWidget(m_startPage);
    updateSummary();
    updateActions();
    Q_EMIT loadFinished(false);
}

void MainWindow::placeProgress()
{
    // One progress display: in the middle of the start page, else in the status bar.
    const bool onStartPage = m_stack->currentWidget() == m_startPage;
    m_progress->setVisible(!onStartPage);
    m_startPage->progress()->setVisible(onStartPage);
}

void MainWindow::hideProgress()
{
    m_progress->hide();
    m_startPage->progress()->hide();
}

void MainWindow::showRejection(const LoadedTrace &loaded)
{
    if (!loaded.strictError) {
        m_rejectionBanner->dismiss();
        return;
    }
    const Problem &p = *loaded.strictError;
    const QString where = p.line > 0 ? QStringLiteral("Line %1, %2: ").arg(p.line).arg(QString::fromStdString(p.ruleId))
                                     : QStringLiteral("%1: ").arg(QString::fromStdString(p.ruleId));
    QString text = where + QString::fromStdString(p.message);
    // Upstream's message stays as the CLI prints it; what its record index counts is said after it.
    if (const QString note = explainProblem(p, nullptr).note; !note.isEmpty())
        text += u'\n' + note;
    m_rejectionBanner->showMessage(SeverityPalette::Tone::Error,
                                   QStringLiteral("Rejected by the strict rules — everything valid is still shown"), text);
    m_rejectionBanner->addAction(m_showProblemsInBannerAction);
}

void MainWindow::selectSpan(qint64 spanIndex)
{
    if (spanIndex >= 0)
        m_spanTree->selectSpan(spanIndex);
}

void MainWindow::selectOp(qint64 opIndex)
{
    if (opIndex >= 0)
        m_opTable->selectOp(opIndex);
}

qint64 MainWindow::selectedSpanIndex() const
{
    return m_spanTree->selectedSpan();
}

qint64 MainWindow::selectedOpIndex() const
{
    return m_opTable->selectedOp();
}

void MainWindow::exportWithDialog()
{
    const QString refusal = ExportController::refusalReason(m_shown.get());
    if (!refusal.isEmpty()) {
        m_messageBanner->showMessage(SeverityPalette::Tone::Error, QStringLiteral("Export refused"), refusal);
        return;
    }
    const QFileInfo source(m_shown->path);
    const QString suggestion = source.absoluteDir().filePath(source.completeBaseName() + QStringLiteral(".normalized.jsonl"));
    const QString target = QFileDialog::getSaveFileName(this, QStringLiteral("Export Normalized JSONL"), suggestion,
                                                        QStringLiteral("JSON Lines (*.jsonl);;All files (*)"));
    if (!target.isEmpty())
        startExport(target, false);
}

void MainWindow::exportNormalizedTo(const QString &target)
{
    startExport(target, false);
}

void MainWindow::startExport(const QString &target, bool replaceConfirmed, bool replaceProtected)
{
    if (m_export->isRunning())
        return;
    const QString refusal = ExportController::refusalReason(m_shown.get());
    if (!refusal.isEmpty()) {
        onExportFinished({ExportOutcome::Status::Refused, refusal, 0});
        return;
    }
    if (!replaceConfirmed && ExportController::isSameFile(target, m_shown->path)) {
        const auto answer = QMessageBox::warning(
            this, QStringLiteral("Replace the Opened Trace?"),
            QStringLiteral("%1 is the trace that is open.\n\nReplacing it with its normalized form drops unknown members "
                           "and reorders records. Replace it?")
                .arg(QDir::toNativeSeparators(target)),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) {
            onExportFinished({ExportOutcome::Status::NeedsConfirmation,
                              QStringLiteral("Export cancelled: %1 was left unchanged.").arg(target), 0});
            return;
        }
        replaceConfirmed = true;
    }
    // The same rules as candle-trace normalize: a read-only file or another user's is
    // replaced only when asked to (the CLI's --force).
    if (const QString protection = ExportController::protectionReason(target); !replaceProtected && !protection.isEmpty()) {
        const auto answer = QMessageBox::warning(
            this, QStringLiteral("Replace a Protected File?"),
            QStringLiteral("%1: %2.\n\nReplace it anyway? The new file keeps its permissions.")
                .arg(QDir::toNativeSeparators(target), protection),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) {
            onExportFinished({ExportOutcome::Status::NeedsConfirmation,
                              QStringLiteral("Export cancelled: %1 was left unchanged.").arg(target), 0,
                              ExportOutcome::Question::ReplaceProtectedFile});
            return;
        }
        replaceProtected = true;
    }
    m_export->exportAsync(m_shown, target, replaceConfirmed, replaceProtected);
    statusBar()->showMessage(QStringLiteral("Exporting to %1…").arg(QDir::toNativeSeparators(target)));
    updateActions();
}

void MainWindow::onExportFinished(const ExportOutcome &outcome)
{
    statusBar()->clearMessage();
    switch (outcome.status) {
    case ExportOutcome::Status::Written:
        m_messageBanner->showMessage(SeverityPalette::Tone::Success, QStringLiteral("Export finished"), outcome.message);
        break;
    case ExportOutcome::Status::Refused:
        m_messageBanner->showMessage(SeverityPalette::Tone::Error, QStringLiteral("Export refused"), outcome.message);
        break;
    case ExportOutcome::Status::NeedsConfirmation:
        m_messageBanner->showMessage(SeverityPalette::Tone::Information, QStringLiteral("Export cancelled"), outcome.message);
        break;
    case ExportOutcome::Status::Failed:
        m_messageBanner->showMessage(SeverityPalette::Tone::Error, QStringLiteral("Export failed"), outcome.message);
        break;
    }
    updateActions();
    Q_EMIT exportFinished(outcome);
}

QStringList MainWindow::localFiles(const QMimeData *mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    const QList<QUrl> urls = mime->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile())
            files << url.toLocalFile();
    }
    return files;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent *event)
{
    if (!localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // One trace per window: the first replaces this window's trace, each other gets its own.
    openFile(files.constFirst());
    MainWindow *previous = this;
    for (qsizetype i = 1; i < files.size(); ++i)
        previous = previous->openInNewWindow(files.at(i));
}

void MainWindow::setEvidenceViews(const LoadedTracePtr &snapshot)
{
    QElapsedTimer clock;
    clock.start();
    m_tensors->setLoadedTrace(snapshot);
    m_tensorStats->setLoadedTrace(snapshot);
    m_gradients->setLoadedTrace(snapshot);
    m_evidence->setLoadedTrace(snapshot);
    qCInfo(lcWindow) << "evidence views filled in" << clock.elapsed() << "ms";
}

bool MainWindow::showTab(const QString &objectName)
{
    for (int i = 0; i < m_sideTabs->count(); ++i) {
        if (m_sideTabs->widget(i)->objectName() == objectName) {
            m_sideTabs->setCurrentIndex(i);
            m_pinnedTab = objectName;
            return true;
        }
    }
    return false;
}

void MainWindow::resetViewState()
{
    m_tensors->resetView();
    m_tensorStats->resetView();
    m_gradients->resetView();
    m_spanTree->resetView();
    m_opTable->resetView();
    m_validation->resetView();
    m_memoryChart->resetView();
}

void MainWindow::focusPanel(QWidget *panel, QWidget *focus)
{
    if (panel == m_validation)
        m_sideTabs->setCurrentWidget(m_validation);
    if (focus)
        focus->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::setTimeUnit(TimeUnit unit)
{
    m_timeUnit = unit;
    m_spanTree->setTimeUnit(unit);
    m_opTable->setTimeUnit(unit);
    m_memoryChart->setTimeUnit(unit);
    if (auto *a = findChild<QAction *>(QStringLiteral("timeUnit%1").arg(int(unit))))
        a->setChecked(true);
    QSettings().setValue(QStringLiteral("view/timeUnit"), int(unit));
}

FormatReferenceWindow *MainWindow::showFormatReference()
{
    if (!m_formatReference)
        m_formatReference = new FormatReferenceWindow(this);
    m_formatReference->show();
    m_formatReference->raise();
    m_formatReference->activateWindow();
    return m_formatReference;
}

void MainWindow::showShortcuts()
{
    auto *dialog = new ShortcutsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    settings.setValue(QStringLiteral("window/topSplitter"), m_topSplitter->saveState());
    settings.setValue(QStringLiteral("window/bottomSplitter"), m_bottomSplitter->saveState());
    m_loader->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace TraceInspector
