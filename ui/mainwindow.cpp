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
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>
#include <tuple>

#include "core/display/format.h"
#include "core/analysis/health.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/analysis/summary.h"
#include "core/timeline/timelineruler.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/loading/problemdetails.h"
#include "core/loading/traceloader.h"
#include "ui/compare/comparecontroller.h"
#include "ui/compare/comparepanel.h"
#include "ui/compare/replicatedcomparedialog.h"
#include "ui/graph/graphpanel.h"
#include "ui/evidencepanel.h"
#include "ui/evidencetablepanel.h"
#include "ui/gradientspanel.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/memorychart/timeaxisaligner.h"
#include "ui/metadatapanel.h"
#include "ui/optablepanel.h"
#include "ui/details/detailspane.h"
#include "ui/recentfiles.h"
#include "ui/search/searchbar.h"
#include "ui/selection/selectionmodel.h"
#include "ui/selection/viewlinker.h"
#include "ui/spantreepanel.h"
#include "ui/style/appicon.h"
#include "ui/style/palettes.h"
#include "ui/timeline/timelineview.h"
#include "ui/tensorspanel.h"
#include "ui/tensorstatspanel.h"
#include "ui/validationpanel.h"
#include "ui/widgets/elidedlabel.h"
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
// Default heights (relative until first shown): the timeline gets what the memory chart and
// the lists leave, about eight rows. The chart's share lets both its plots show every axis
// label and title whole in a 1600x1000 window (tst_memorychartaxes); the lists' share gives
// the Evidence tab's four sections a row each there, with a few pixels to scroll.
constexpr int kCentreHeight = 590;
constexpr int kListsHeight = 330;
constexpr int kTimelineHeight = 210;
constexpr int kChartHeight = 450;
// The ruler and three rows: with the other panels' least heights, the window fits a
// 1366x768 screen (tst_mainwindow::fitsASmallScreenWhateverItShows).
constexpr int kTimelineMinimumHeight = 96;

QString displayName(const QString &path)
{
    return QFileInfo(path).fileName();
}

QString traceFileFilter()
{
    return MainWindow::tr("Candle traces (*.jsonl *.trace.jsonl);;All files (*)");
}

/// "1,234 op(s)": numerus chosen by \a n, the number grouped as everywhere else in the window.
QString counted(const char *text, std::uint64_t n)
{
    return MainWindow::tr(text, nullptr, int(std::min<std::uint64_t>(n, INT_MAX))).arg(formatCount(n));
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
    // The keys name the layout with the timeline: states saved for the older one do not fit.
    const auto restore = [&settings](QSplitter *splitter, const QString &key, const QList<int> &sizes) {
        if (!splitter->restoreState(settings.value(QStringLiteral("window/timeline/") + key).toByteArray()))
            splitter->setSizes(sizes);
    };
    restore(m_mainSplitter, QStringLiteral("mainSplitter"), {kCentreHeight, kListsHeight});
    restore(m_centreSplitter, QStringLiteral("centreSplitter"), {1200, 400});
    restore(m_timeSplitter, QStringLiteral("timeSplitter"), {kTimelineHeight, kChartHeight});
    restore(m_topSplitter, QStringLiteral("topSplitter"), {1000, 1000});
    restore(m_bottomSplitter, QStringLiteral("bottomSplitter"), {1200, 500});

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
    m_graph = new GraphPanel(this);
    m_opTable->setObjectName(QStringLiteral("opTablePanel"));

    m_workTabs = new QTabWidget(this);
    m_workTabs->setObjectName(QStringLiteral("workTabs"));
    m_workTabs->setDocumentMode(true);
    m_workTabs->addTab(m_opTable, tr("Ops"));
    m_workTabs->addTab(m_graph, tr("Graph"));
    m_compare = new CompareController(this);
    m_comparePanel = new ComparePanel(m_compare, this);
    m_workTabs->addTab(m_comparePanel, tr("Compare"));
    connect(m_comparePanel, &ComparePanel::spanActivated, this,
            [this](qint64 span) { m_selection->select(Selection::span(span)); });
    // Baseline, Δ and Δ% columns in the span tree while a comparison is shown (issue #15 item 3).
    connect(m_compare, &CompareController::comparisonCleared, this, [this] {
        m_spanTree->model()->setComparison({});
        m_opTable->aggregateModel()->setComparison({});
    });
    connect(m_compare, &CompareController::comparisonReady, this, [this](const TraceComparisonPtr &comparison) {
        m_spanTree->model()->setComparison(comparison);
        m_opTable->aggregateModel()->setComparison(comparison);
        if (m_giveCompareRoom) {
            // The comparison's tables are wide and long: the first result of a Compare with…
            // gets most of the window (View > Reset Layout brings the usual proportions back).
            // Here, not in compareWith(): only now is the workspace shown and laid out.
            m_giveCompareRoom = false;
            const int height = m_mainSplitter->height();
            m_mainSplitter->setSizes({height / 3, height - height / 3});
            const int width = m_bottomSplitter->width();
            m_bottomSplitter->setSizes({width * 6 / 7, width - width * 6 / 7});
            const int work = m_bottomSplitter->sizes().constFirst();
            m_topSplitter->setSizes({work / 5, work - work / 5});
        }
        Q_EMIT comparisonFinished(true);
    });
    connect(m_compare, &CompareController::failed, this, [this] { Q_EMIT comparisonFinished(false); });
    connect(m_compare, &CompareController::stateChanged, this, [this](CompareController::State state) {
        if (state == CompareController::State::Idle && !m_compare->comparison())
            Q_EMIT comparisonFinished(false); // cancelled
    });

    m_timeline = new TimelineView(this);
    m_timeline->setObjectName(QStringLiteral("timelineView"));
    m_timeline->setMinimumHeight(kTimelineMinimumHeight);
    m_details = new DetailsPane(this);
    m_details->setObjectName(QStringLiteral("detailsPane"));
    m_search = new SearchBar(this);
    m_search->setObjectName(QStringLiteral("searchBar"));
    m_selection = new SelectionModel(this);
    m_selection->setObjectName(QStringLiteral("selectionModel"));

    // The run in time in the centre: the timeline over the memory chart (one time window),
    // the selection's details beside them; the lists below.
    m_timeSplitter = new QSplitter(Qt::Vertical, this);
    m_timeSplitter->addWidget(m_timeline);
    m_timeSplitter->addWidget(m_memoryChart);
    m_timeSplitter->setStretchFactor(0, 3);
    m_timeSplitter->setStretchFactor(1, 2);
    // One time at one screen x in both: a common gutter for the chart's labels and legend.
    new TimeAxisAligner(m_timeline, m_memoryChart, this);

    m_centreSplitter = new QSplitter(Qt::Horizontal, this);
    m_centreSplitter->addWidget(m_timeSplitter);
    m_centreSplitter->addWidget(m_details);
    m_centreSplitter->setStretchFactor(0, 3);
    m_centreSplitter->setStretchFactor(1, 1);
    m_tensors = new TensorsPanel(this);
    m_tensorStats = new TensorStatsPanel(this);
    m_gradients = new GradientsPanel(this);
    m_evidence = new EvidencePanel(this);

    m_topSplitter = new QSplitter(Qt::Horizontal, this);
    m_topSplitter->addWidget(m_spanTree);
    m_topSplitter->addWidget(m_workTabs);
    m_topSplitter->setStretchFactor(0, 1);
    m_topSplitter->setStretchFactor(1, 1);

    m_sideTabs = new QTabWidget(this);
    m_sideTabs->setDocumentMode(true);
    m_sideTabs->addTab(m_validation, tr("Validation"));
    m_sideTabs->addTab(m_metadata, tr("Run Metadata"));
    m_sideTabs->addTab(m_tensors, tr("Tensors"));
    m_sideTabs->addTab(m_tensorStats, tr("Tensor Stats"));
    m_sideTabs->addTab(m_gradients, tr("Gradients"));
    m_sideTabs->addTab(m_evidence, tr("Evidence"));

    // Names for tests (findChild) and for assistive technology, one place for every view.
    const std::initializer_list<std::tuple<QWidget *, const char *, QString>> views{
        {m_spanTree, "spanTreePanel", tr("Span tree")},
        {m_opTable, "opTablePanel", tr("Ops")},
        {m_memoryChart, "memoryChartPanel", tr("Memory over time")},
        {m_validation, "validationPanel", tr("Validation: problems and health findings")},
        {m_metadata, "metadataPanel", tr("Run metadata")},
        {m_graph, "graphPanel", tr("Call and data graph")},
        {m_comparePanel, "comparePanel", tr("Comparison with a baseline run")},
        {m_tensors, "tensorsPanel", tr("Tensors")},
        {m_tensorStats, "tensorStatsPanel", tr("Tensor statistics")},
        {m_gradients, "gradientsPanel", tr("Gradients")},
        {m_evidence, "evidencePanel", tr("Evidence and capabilities")},
        {m_details, "detailsPane", tr("Details of the selection")},
    };
    for (const auto &[widget, name, accessible] : views) {
        if (widget->objectName().isEmpty())
            widget->setObjectName(QLatin1StringView(name));
        widget->setAccessibleName(accessible);
    }

    m_bottomSplitter = new QSplitter(Qt::Horizontal, this);
    m_bottomSplitter->addWidget(m_topSplitter);
    m_bottomSplitter->addWidget(m_sideTabs);
    m_bottomSplitter->setStretchFactor(0, 12);
    m_bottomSplitter->setStretchFactor(1, 5);

    m_mainSplitter = new QSplitter(Qt::Vertical, this);
    m_mainSplitter->addWidget(m_centreSplitter);
    m_mainSplitter->addWidget(m_bottomSplitter);
    m_mainSplitter->setStretchFactor(0, 3);
    m_mainSplitter->setStretchFactor(1, 2);
    // No panel can be squeezed to nothing (and lose track of its size).
    for (QSplitter *splitter : {m_mainSplitter, m_centreSplitter, m_timeSplitter, m_topSplitter, m_bottomSplitter})
        splitter->setChildrenCollapsible(false);

    // Back/forward through the selections, the search and the time range above the views.
    auto *navigation = new QHBoxLayout;
    navigation->setContentsMargins(0, 0, 0, 0);
    navigation->setSpacing(2);
    m_selection->backAction()->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_selection->forwardAction()->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    for (QAction *a : {m_selection->backAction(), m_selection->forwardAction()}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(a);
        button->setAutoRaise(true);
        navigation->addWidget(button);
    }
    navigation->addWidget(m_search, 1);
    m_rangeChip = new QToolButton(this);
    m_rangeChip->setObjectName(QStringLiteral("timeRangeChip"));
    m_rangeChip->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rangeChip->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    m_rangeChip->setLayoutDirection(Qt::RightToLeft); // the close mark after the range
    m_rangeChip->setToolTip(tr("Only this time range is listed in the span tree and the op table. "
                               "Click (or Esc in the timeline) to show the whole run again."));
    m_rangeChip->hide();
    connect(m_rangeChip, &QToolButton::clicked, m_selection, &SelectionModel::clearTimeRange);
    navigation->addWidget(m_rangeChip);

    m_workspace = new QWidget(this);
    auto *workspaceLayout = new QVBoxLayout(m_workspace);
    workspaceLayout->setContentsMargins(0, 0, 0, 0);
    workspaceLayout->setSpacing(4);
    workspaceLayout->addLayout(navigation);
    workspaceLayout->addWidget(m_mainSplitter, 1);

    m_linker = new ViewLinker(
        m_selection, {m_timeline, m_details, m_search, m_spanTree, m_opTable, m_memoryChart, m_validation}, this);
    connect(m_selection, &SelectionModel::timeRangeChanged, this, &MainWindow::updateRangeChip);
    connect(m_timeline, &TimelineView::layoutReady, this, [this] {
        const bool wasPending = m_timelinePending;
        m_timelinePending = false;
        if (wasPending && !m_chartPending && m_shown && m_shown->isComplete() && !m_loader->isLoading())
            reportLoaded();
    });

    m_startPage = new StartPage(this);
    m_startPage->setSampleAvailable(!sampleTracePath().isEmpty());
    connect(m_startPage, &StartPage::openRequested, this, &MainWindow::openWithDialog);
    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::openFile);
    connect(m_startPage, &StartPage::cancelRequested, this, &MainWindow::cancelLoad);
    connect(m_startPage, &StartPage::openSampleRequested, this, [this] { openFile(sampleTracePath()); });

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_workspace);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(6);
    layout->addWidget(m_rejectionBanner);
    layout->addWidget(m_messageBanner);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    m_summary = new ElidedLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setContentsMargins(4, 0, 4, 0);
    m_progress = new LoadProgressWidget(this);
    m_progress->hide();
    statusBar()->addWidget(m_summary, 1);
    statusBar()->addPermanentWidget(m_progress);
    connect(m_progress, &LoadProgressWidget::cancelRequested, this, &MainWindow::cancelLoad);

    connect(m_validation, &ValidationPanel::countsChanged, this, [this](int errors, int warnings) {
        const int total = errors + warnings;
        m_sideTabs->setTabText(m_sideTabs->indexOf(m_validation),
                               total > 0 ? tr("Validation (%1)").arg(total) : tr("Validation"));
        m_sideTabs->setTabIcon(m_sideTabs->indexOf(m_validation), errors > 0 ? SeverityPalette::icon(Severity::Error)
                                                                  : warnings > 0
                                                                      ? SeverityPalette::icon(Severity::Warning)
                                                                      : QIcon());
        updateSummary();
    });
    // The graph joins the window's one selection: a click on a node selects its span, and the
    // graph follows whatever span (or the span of whatever record) is selected elsewhere.
    connect(m_graph, &GraphPanel::spanActivated, m_selection,
            [this](qint64 span) { m_selection->select(Selection::span(span)); });
    // Only while it is shown: a span outside the drawn graph is laid out again, a second of
    // worker time on a big trace that a click's repaint then shares two cores with. A hidden
    // graph catches up with the selection when its tab comes to the front.
    const auto graphFollows = [this](const Selection &current) {
        if (m_graph->isVisible() && m_shown && m_shown->trace && m_shown->spanTree)
            m_graph->setSelectedSpan(current.spanIndex(*m_shown->trace, *m_shown->spanTree));
    };
    connect(m_selection, &SelectionModel::selectionChanged, m_graph, graphFollows);
    connect(m_workTabs, &QTabWidget::currentChanged, m_graph,
            [this, graphFollows] { graphFollows(m_selection->current()); });
    // The evidence views join the window's one selection: activating a row selects its span,
    // then its op (an op selects its span everywhere too).
    for (EvidenceTablePanel *panel :
         std::initializer_list<EvidenceTablePanel *>{m_tensors, m_tensorStats, m_gradients}) {
        connect(panel, &EvidenceTablePanel::spanActivated, m_selection,
                [this](qint64 span) { m_selection->select(Selection::span(span)); });
        connect(panel, &EvidenceTablePanel::opActivated, m_selection,
                [this](qint64 op) { m_selection->select(Selection::op(op)); });
    }
    connect(m_evidence, &EvidencePanel::spanActivated, m_selection,
            [this](qint64 span) { m_selection->select(Selection::span(span)); });
    // Gradient records name no span: a key selects its record (details, findings), and a
    // finding that names a gradient makes its key current.
    connect(m_gradients, &GradientsPanel::gradientSelected, m_selection,
            [this](qint64 gradient) { m_selection->select(Selection::gradient(gradient)); });
    connect(m_selection, &SelectionModel::selectionChanged, m_gradients, [this](const Selection &current) {
        if (current.kind == Selection::Kind::Gradient)
            m_gradients->showGradient(current.index);
    });
    // Device work outside every span belongs to no span: its rows select the interval itself.
    connect(m_evidence, &EvidencePanel::deviceIntervalSelected, m_selection,
            [this](qint64 interval) { m_selection->select(Selection::deviceInterval(interval)); });
    connect(m_selection, &SelectionModel::selectionChanged, m_evidence, [this](const Selection &current) {
        if (current.kind == Selection::Kind::DeviceInterval)
            m_evidence->showDeviceInterval(current.index);
    });
    // The chart draws the series the loader prepared; a load is only done once it is drawn.
    connect(m_memoryChart, &MemoryChartPanel::chartReady, this, [this] {
        const bool wasPending = m_chartPending;
        m_chartPending = false;
        if (wasPending && !m_timelinePending && m_shown && m_shown->isComplete() && !m_loader->isLoading())
            reportLoaded();
    });
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open a candle-graph trace (JSONL)"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_sampleAction = file->addAction(tr("Open &Sample Trace"), this, [this] { openFile(sampleTracePath()); });
    m_sampleAction->setVisible(!sampleTracePath().isEmpty());
    m_compareAction = file->addAction(tr("Compare &with…"), this, &MainWindow::compareWithDialog);
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_compareAction->setToolTip(
        tr("Load a baseline trace and compare this trace with it (also: drop a file with Shift held)"));
    QAction *replicated = file->addAction(tr("Compare &Replicated Runs…"), this, [this] {
        // One dialog per window; it keeps its inputs and result between openings.
        auto *dialog = findChild<ReplicatedCompareDialog *>();
        if (!dialog)
            dialog = new ReplicatedCompareDialog(this);
        dialog->show();
        dialog->raise();
    });
    replicated->setObjectName(QStringLiteral("compareReplicatedAction"));
    replicated->setToolTip(tr("upstream's replicated comparison of several baseline and candidate runs "
                              "(as candle-trace compare)"));
    file->addSeparator();
    m_exportAction = file->addAction(tr("&Export Normalized JSONL…"), this, &MainWindow::exportWithDialog);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportAction->setToolTip(tr("Write the trace in the normalized form of the format specification"));
    file->addSeparator();
    m_closeAction = file->addAction(tr("&Close Trace"), this, [this] {
        cancelLoad();
        m_shown.reset();
        m_compare->setCandidate({});
        m_spanTree->clear();
        m_opTable->clear();
        m_memoryChart->clear();
        m_validation->clear();
        m_metadata->clear();
        m_timeline->clear();
        m_details->setTrace({}, {});
        m_search->setTrace({});
        m_linker->setTrace({}, {});
        m_selection->reset();
        m_timelinePending = false;
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
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_showProblemsAction =
        view->addAction(tr("Show &Validation"), this, [this] { m_sideTabs->setCurrentWidget(m_validation); });
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
    QAction *showMeta =
        view->addAction(tr("Show Run &Metadata"), this, [this] { m_sideTabs->setCurrentWidget(m_metadata); });
    showMeta->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    view->addSeparator();
    const auto goTo = [this, view](const QString &text, int key, QWidget *panel, QWidget *focus) {
        QAction *a = view->addAction(text, this, [this, panel, focus] { focusPanel(panel, focus); });
        a->setShortcut(QKeySequence(Qt::ALT | key));
        return a;
    };
    goTo(tr("Go to &Span Tree"), Qt::Key_1, m_spanTree, m_spanTree->view());
    goTo(tr("Go to &Op Table"), Qt::Key_2, m_opTable, m_opTable->opView());
    goTo(tr("Go to Memory &Chart"), Qt::Key_3, m_memoryChart,
         m_memoryChart->findChild<QWidget *>(QStringLiteral("logicalChartView")));
    goTo(tr("Go to &Problems"), Qt::Key_4, m_validation, m_validation->view());
    goTo(tr("Go to T&imeline"), Qt::Key_5, m_timeline, m_timeline);
    goTo(tr("Go to &Details"), Qt::Key_6, m_details, m_details->fieldsView());
    view->addSeparator();
    QMenu *units = view->addMenu(tr("&Time Unit"));
    auto *unitGroup = new QActionGroup(this);
    const std::pair<TimeUnit, QString> unitNames[] = {{TimeUnit::Auto, tr("&Automatic (exact, per value)")},
                                                      {TimeUnit::Seconds, tr("&Seconds")},
                                                      {TimeUnit::Milliseconds, tr("&Milliseconds")},
                                                      {TimeUnit::Microseconds, tr("Mi&croseconds")},
                                                      {TimeUnit::Nanoseconds, tr("&Nanoseconds")}};
    for (const auto &[unit, name] : unitNames) {
        // Captured by copy under a new name: clang 14 cannot capture a structured binding.
        QAction *a = units->addAction(name, this, [this, u = unit] { setTimeUnit(u); });
        a->setCheckable(true);
        a->setData(int(unit));
        a->setObjectName(QStringLiteral("timeUnit%1").arg(int(unit)));
        unitGroup->addAction(a);
    }
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, [this] {
        m_mainSplitter->setSizes({kCentreHeight, kListsHeight});
        m_centreSplitter->setSizes({1200, 400});
        m_timeSplitter->setSizes({kTimelineHeight, kChartHeight});
        m_topSplitter->setSizes({1000, 1000});
        m_bottomSplitter->setSizes({1200, 500});
    });

    QMenu *edit = menuBar()->insertMenu(view->menuAction(), new QMenu(tr("&Edit"), this))->menu();
    QAction *find = m_search->findAction();
    find->setText(tr("&Find…"));
    find->setToolTip(tr("Search span names and ids, op names and tensor ids (Ctrl+F)"));
    edit->addAction(find);
    // F3 serves the trace search and the span filter (see stepMatch()): one action per key.
    QAction *next = edit->addAction(tr("Next Match"), this, [this] { stepMatch(true); });
    next->setShortcuts(m_search->findNextAction()->shortcuts());
    next->setObjectName(QStringLiteral("nextMatchAction"));
    QAction *previous = edit->addAction(tr("Previous Match"), this, [this] { stepMatch(false); });
    previous->setShortcuts(m_search->findPreviousAction()->shortcuts());
    previous->setObjectName(QStringLiteral("previousMatchAction"));
    edit->addSeparator();
    QAction *findSpans = edit->addAction(tr("&Filter Spans"), this, [this] {
        focusPanel(m_spanTree, m_spanTree->filterEdit());
        m_spanTree->filterEdit()->selectAll();
    });
    findSpans->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
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
    // The span tree's own match keys go through Next/Previous Match (one action per key:
    // a key on two actions triggers neither); its buttons keep working.
    for (QAction *a : m_spanTree->actions())
        a->setShortcuts({});

    QMenu *go = menuBar()->insertMenu(view->menuAction(), new QMenu(tr("&Go"), this))->menu();
    QAction *back = m_selection->backAction();
    back->setText(tr("&Back"));
    go->addAction(back);
    QAction *forward = m_selection->forwardAction();
    forward->setText(tr("&Forward"));
    go->addAction(forward);
    go->addSeparator();
    QAction *zoomSelection =
        go->addAction(tr("&Zoom Timeline to Selection"), m_timeline, &TimelineView::zoomToSelection);
    zoomSelection->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    QAction *fit = go->addAction(tr("Fit &Whole Run"), m_timeline, &TimelineView::fitAll);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    go->addAction(tr("&Clear Time Range"), m_selection, &SelectionModel::clearTimeRange);
    go->addAction(tr("Clear &Selection"), m_selection, &SelectionModel::clearSelection);

    QMenu *memory = menuBar()->addMenu(tr("&Memory"));
    QAction *resetZoom = memory->addAction(tr("&Reset Zoom (Whole Run)"), m_memoryChart, &MemoryChartPanel::resetZoom);
    resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *peak = memory->addAction(tr("Allocations at the &Peak"), m_memoryChart, &MemoryChartPanel::showPeak);
    peak->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    memory->addSeparator();
    memory->addAction(tr("Export Chart as P&NG…"), m_memoryChart,
                      [this] { m_memoryChart->exportWithDialog(MemoryChartPanel::ImageFormat::Png); });
    memory->addAction(tr("Export Chart as &SVG…"), m_memoryChart,
                      [this] { m_memoryChart->exportWithDialog(MemoryChartPanel::ImageFormat::Svg); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *reference = help->addAction(tr("Trace &Format Reference"), this, [this] { showFormatReference(); });
    reference->setShortcut(QKeySequence::HelpContents);
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F1));
    help->addSeparator();
    help->addAction(tr("&About Candle Trace Inspector"), this, [this] {
        QMessageBox::about(this, tr("About Candle Trace Inspector"),
                           tr("<h3>Candle Trace Inspector %1</h3>"
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
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), dir, traceFileFilter());
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::compareWith(const QString &baselinePath)
{
    m_workTabs->setCurrentWidget(m_comparePanel);
    m_giveCompareRoom = true;
    m_compare->compareWith(baselinePath);
}

void MainWindow::compareWithDialog()
{
    const QString dir = m_shown ? QFileInfo(m_shown->path).absolutePath() : QString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with Baseline Trace"), dir, traceFileFilter());
    if (!path.isEmpty())
        compareWith(path);
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
        const QString label = i < 9 ? tr("&%1  %2").arg(i + 1).arg(displayName(path)) : displayName(path);
        QAction *action = m_recentMenu->addAction(label, this, [this, path] { openFile(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent traces"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear Recent Traces"), m_recent, &RecentFiles::clear);
    }
    m_startPage->setRecentFiles(files);
}

void MainWindow::updateActions()
{
    m_exportAction->setEnabled(m_shown && m_shown->trace && !m_export->isRunning());
    m_closeAction->setEnabled(m_shown != nullptr || m_loader->isLoading());
    m_compareAction->setEnabled(m_shown != nullptr || m_loader->isLoading());
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
        m_summary->setText(m_loader->isLoading() ? QString() : tr("No trace loaded"));
        return;
    }
    const LoadedTrace &l = *m_shown;
    const Trace &t = *l.trace;
    QStringList parts;
    parts << counted(QT_TRANSLATE_N_NOOP("TraceInspector::MainWindow", "%1 op(s)"), t.ops.size())
                     << counted(QT_TRANSLATE_N_NOOP("TraceInspector::MainWindow", "%1 span(s)"), t.spans.size());
    // One wording for the measured time everywhere: unknown, never zero.
    if (m_measuredOf != &t) {
        m_measured = l.extents ? MeasuredSpanCount{l.extents->measuredSpans, l.extents->closedMeasuredSpans}
                               : countMeasuredSpans(t);
        m_measuredOf = &t;
    }
    if (l.summary)
        parts << measuredTimeText(m_measured.measured, m_measured.closed, l.summary->totalNs);
    else if (l.spanTree)
        parts << measuredTimeText(m_measured.measured, m_measured.closed, l.spanTree->measuredTotalNs());
    if (l.summary) {
        parts << (l.summary->logicalPeakBytes ? tr("logical peak %1").arg(formatBytes(*l.summary->logicalPeakBytes))
                                              : tr("logical peak unknown (no memory records)"));
    } else {
        parts << tr("logical peak: analysing…");
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
    QString problems =
        tr("%1, %2").arg(counted(QT_TRANSLATE_N_NOOP("TraceInspector::MainWindow", "%1 error(s)"), errors),
                                 counted(QT_TRANSLATE_N_NOOP("TraceInspector::MainWindow", "%1 warning(s)"), warnings));
    if (!l.health)
        problems = tr("%1 so far").arg(problems);
    parts << problems;
    if (l.isRejected())
        parts << tr("rejected by the strict rules");
    m_summary->setText(parts.join(QStringLiteral("  ·  ")));
}

void MainWindow::onStarted(quint64, const QString &path)
{
    m_loadingPath = path;
    m_loadClock.start();
    m_messageBanner->dismiss();
    m_progress->start(tr("Opening %1").arg(displayName(path)));
    m_startPage->progress()->start(tr("Opening %1").arg(displayName(path)));
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
    m_compare->setCandidate(snapshot);
    m_recent->add(snapshot->path);
    m_stack->setCurrentWidget(m_workspace);
    placeProgress();

    m_spanTree->clear();
    m_memoryChart->showAnalysing();
    m_graph->clear();
    m_chartPending = false;
    // A different file starts from a fresh view: filters, zoom and selections of the last
    // one would hide the new trace ("0 of 2 spans match"). Emptied first, so that resetting
    // costs nothing.
    if (QFileInfo(snapshot->path).absoluteFilePath() != m_viewStatePath) {
        m_opTable->clear();
        resetViewState();
    }
    m_viewStatePath = QFileInfo(snapshot->path).absoluteFilePath();
    m_timeline->clear();
    m_timelinePending = false;
    m_details->setTrace({}, {});
    m_search->setTrace(snapshot->trace);
    m_linker->setTrace(snapshot->trace, {});
    m_linker->setFindings(snapshot->readProblems, {});
    m_opTable->setTrace(snapshot->trace, {}, snapshot->opStatistics, snapshot->extents);
    m_opTable->setTimeRange(m_selection->timeRange()); // the same file again keeps its range
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
    QElapsedTimer clock;
    clock.start();
    m_shown = snapshot;
    switch (snapshot->stage) {
    case LoadStage::Read: break;
    case LoadStage::SpanTree:
        m_spanTree->setTrace(snapshot->trace, snapshot->spanTree, snapshot->deviceTime, snapshot->extents.get());
        m_opTable->setSpanTree(snapshot->spanTree);
        m_linker->setTrace(snapshot->trace, snapshot->spanTree);
        m_details->setTrace(snapshot->trace, snapshot->spanTree, snapshot->extents.get());
        m_timelinePending = true;
        m_timeline->setTrace(snapshot->trace, snapshot->spanTree, snapshot->timelineLayout);
        m_opTable->setShapeStatistics(snapshot->opStatisticsByShape);
        m_graph->setTrace(snapshot->trace, snapshot->spanTree);
        break;
    case LoadStage::Health:
        m_validation->setLoadedTrace(snapshot);
        m_metadata->setLoadedTrace(snapshot);
        if (snapshot->health)
            m_linker->setFindings(snapshot->readProblems, std::shared_ptr<const std::vector<Problem>>(
                                                              snapshot->health, &snapshot->health->findings));
        break;
    case LoadStage::Memory:
        m_memoryChart->showPreparing();
        setEvidenceViews(snapshot);
        break;
    case LoadStage::MemoryChart:
        m_chartPending = true;
        m_memoryChart->setTrace(snapshot->trace, snapshot->memory, snapshot->memorySeries);
        break;
    }
    updateSummary();
    qCInfo(lcWindow) << "stage" << int(snapshot->stage) << "shown in" << clock.elapsed() << "ms on the GUI thread";
}

void MainWindow::onFinished(quint64, const LoadedTracePtr &snapshot)
{
    m_shown = snapshot;
    m_compare->setCandidate(snapshot);
    hideProgress();
    // A clean trace has nothing to list: show its run header instead.
    const bool anyProblem = m_validation->issueModel()->rowCount() > 0;
    m_sideTabs->setCurrentWidget(anyProblem ? static_cast<QWidget *>(m_validation) : m_metadata);
    updateSummary();
    updateActions();
    if (!m_chartPending && !m_timelinePending)
        reportLoaded();
}

void MainWindow::reportLoaded()
{
    // The file's scan for raw lines waits until everything is drawn: started with the span
    // tree stage it took a worker's ~0.3 s on the 1 GB trace from the analyses still running.
    m_details->prepareRawLines();

    qCInfo(lcWindow) << "fully loaded and drawn after" << m_loadClock.elapsed() << "ms";
    Q_EMIT loadFinished(true);
}

void MainWindow::onFailed(quint64 generation, const QString &message, TraceLoader::FailureKind kind)
{
    hideProgress();
    // Failed after the read (an analysis ran out of memory): the trace is shown, and the
    // chart says why it stays empty rather than that memory is being analysed.
    if (m_shown && m_shown->generation == generation && !m_shown->memorySeries)
        m_memoryChart->showLoadFailed();
    m_failedPath = m_loadingPath;
    QString text = message;
    if (kind == TraceLoader::FailureKind::NotATrace)
        text += u'\n' + tr("File: %1").arg(QDir::toNativeSeparators(m_loadingPath));
    if (m_shown)
        text += u'\n' + tr("The trace shown before is still displayed.");
    QString title;
    switch (kind) {
    case TraceLoader::FailureKind::NotATrace: title = tr("This file is not a trace"); break;
    case TraceLoader::FailureKind::ChangedWhileRead: title = tr("The file changed while it was read"); break;
    case TraceLoader::FailureKind::OutOfMemory: title = tr("Not enough memory"); break;
    case TraceLoader::FailureKind::Unreadable: title = tr("The file could not be opened"); break;
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
    QString text = tr("Loading %1 was cancelled.").arg(displayName(m_loadingPath));
    if (m_shown && m_shown->generation == generation && !m_shown->isComplete())
        text += u' ' + tr("What had been read is shown; analyses that had not finished are missing.");
    // Cancelled before the MemoryChart stage: the chart's series will not come, and the
    // trace is shown, so the chart says why it is empty.
    if (m_shown && m_shown->generation == generation && !m_shown->memorySeries)
        m_memoryChart->showLoadCancelled();
    m_messageBanner->showMessage(SeverityPalette::Tone::Information, tr("Loading cancelled"), text);
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
    const QString where = p.line > 0 ? tr("Line %1, %2: ").arg(p.line).arg(QString::fromStdString(p.ruleId))
                                     : QStringLiteral("%1: ").arg(QString::fromStdString(p.ruleId));
    QString text = where + QString::fromStdString(p.message);
    // Upstream's message stays as the CLI prints it; what its record index counts is said after it.
    if (const QString note = explainProblem(p, nullptr).note; !note.isEmpty())
        text += u'\n' + note;
    m_rejectionBanner->showMessage(SeverityPalette::Tone::Error,
                                   tr("Rejected by the strict rules — everything valid is still shown"), text);
    m_rejectionBanner->addAction(m_showProblemsInBannerAction);
}

void MainWindow::stepMatch(bool forward)
{
    // One F3 for two searches: the span filter's matches while the span tree has the focus
    // (or nothing else is searched), else the trace search's.
    const bool inSpanTree = m_spanTree->isAncestorOf(QApplication::focusWidget());
    const bool spanFilter = !m_spanTree->filterText().isEmpty();
    if (spanFilter && (inSpanTree || m_search->text().isEmpty()))
        forward ? m_spanTree->nextMatch() : m_spanTree->previousMatch();
    else if (!m_search->text().isEmpty())
        forward ? m_search->findNext() : m_search->findPrevious();
    else
        m_search->activateFind();
}

void MainWindow::updateRangeChip()
{
    const TimeWindow range = m_selection->timeRange();
    if (range.isEmpty()) {
        m_rangeChip->hide();
        return;
    }
    m_rangeChip->setText(QString::fromStdString(formatRangeLabel(range)));
    m_rangeChip->setAccessibleName(tr("Time range %1; clear it").arg(m_rangeChip->text()));
    m_rangeChip->show();
}

bool MainWindow::showTab(const QString &name)
{
    const QString wanted = name.trimmed();
    for (QTabWidget *tabs : findChildren<QTabWidget *>()) {
        for (int i = 0; i < tabs->count(); ++i) {
            const QString text = tabs->tabText(i).remove(u'&');
            if (tabs->widget(i)->objectName().compare(wanted, Qt::CaseInsensitive) == 0
                || text.compare(wanted, Qt::CaseInsensitive) == 0
                || text.section(u' ', 0, 0).compare(wanted, Qt::CaseInsensitive) == 0) {
                tabs->setCurrentIndex(i);
                return true;
            }
        }
    }
    return false;
}

bool MainWindow::selectSpanById(const QString &spanId)
{
    if (!m_shown || !m_shown->trace || !m_shown->spanTree)
        return false;
    const qint64 span = m_shown->trace->findSpan(std::string_view(spanId.toStdString()));
    if (span < 0)
        return false;
    m_selection->select(Selection::span(span));
    return true;
}

bool MainWindow::isViewWorkPending() const
{
    return m_graph->isBusy() || m_chartPending;
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
        m_messageBanner->showMessage(SeverityPalette::Tone::Error, tr("Export refused"), refusal);
        return;
    }
    const QFileInfo source(m_shown->path);
    const QString suggestion =
        source.absoluteDir().filePath(source.completeBaseName() + QStringLiteral(".normalized.jsonl"));
    const QString target = QFileDialog::getSaveFileName(this, tr("Export Normalized JSONL"), suggestion,
                                                        tr("JSON Lines (*.jsonl);;All files (*)"));
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
            this, tr("Replace the Opened Trace?"),
            tr("%1 is the trace that is open.\n\nReplacing it with its normalized form drops unknown members "
               "and reorders records. Replace it?")
                .arg(QDir::toNativeSeparators(target)),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) {
            onExportFinished({ExportOutcome::Status::NeedsConfirmation,
                              tr("Export cancelled: %1 was left unchanged.").arg(target), 0});
            return;
        }
        replaceConfirmed = true;
    }
    // The same rules as candle-trace normalize: a read-only file or another user's is
    // replaced only when asked to (the CLI's --force).
    if (const QString protection = ExportController::protectionReason(target);
        !replaceProtected && !protection.isEmpty()) {
        const auto answer = QMessageBox::warning(this, tr("Replace a Protected File?"),
                                                 tr("%1: %2.\n\nReplace it anyway? The new file keeps its permissions.")
                                                     .arg(QDir::toNativeSeparators(target), protection),
                                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) {
            onExportFinished({ExportOutcome::Status::NeedsConfirmation,
                              tr("Export cancelled: %1 was left unchanged.").arg(target), 0,
                              ExportOutcome::Question::ReplaceProtectedFile});
            return;
        }
        replaceProtected = true;
    }
    m_export->exportAsync(m_shown, target, replaceConfirmed, replaceProtected);
    statusBar()->showMessage(tr("Exporting to %1…").arg(QDir::toNativeSeparators(target)));
    updateActions();
}

void MainWindow::onExportFinished(const ExportOutcome &outcome)
{
    statusBar()->clearMessage();
    switch (outcome.status) {
    case ExportOutcome::Status::Written:
        m_messageBanner->showMessage(SeverityPalette::Tone::Success, tr("Export finished"), outcome.message);
        break;
    case ExportOutcome::Status::Refused:
        m_messageBanner->showMessage(SeverityPalette::Tone::Error, tr("Export refused"), outcome.message);
        break;
    case ExportOutcome::Status::NeedsConfirmation:
        m_messageBanner->showMessage(SeverityPalette::Tone::Information, tr("Export cancelled"), outcome.message);
        break;
    case ExportOutcome::Status::Failed:
        m_messageBanner->showMessage(SeverityPalette::Tone::Error, tr("Export failed"), outcome.message);
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
    // Shift held: the dropped file is the baseline to compare this window's trace with.
    if ((event->modifiers() & Qt::ShiftModifier) && files.size() == 1 && (m_shown || isLoading())) {
        compareWith(files.constFirst());
        return;
    }
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
    const qint64 tensors = clock.restart();
    m_tensorStats->setLoadedTrace(snapshot);
    const qint64 stats = clock.restart();
    m_gradients->setLoadedTrace(snapshot);
    const qint64 gradients = clock.restart();
    m_evidence->setLoadedTrace(snapshot);
    const qint64 evidence = clock.elapsed();
    qCInfo(lcWindow) << "evidence views filled in" << tensors + stats + gradients + evidence << "ms: tensors" << tensors
                     << "tensor stats" << stats << "gradients" << gradients << "evidence" << evidence;
}

void MainWindow::resetViewState()
{
    m_selection->reset();
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
    m_comparePanel->setTimeUnit(unit);
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
    settings.setValue(QStringLiteral("window/timeline/mainSplitter"), m_mainSplitter->saveState());
    settings.setValue(QStringLiteral("window/timeline/centreSplitter"), m_centreSplitter->saveState());
    settings.setValue(QStringLiteral("window/timeline/timeSplitter"), m_timeSplitter->saveState());
    settings.setValue(QStringLiteral("window/timeline/topSplitter"), m_topSplitter->saveState());
    settings.setValue(QStringLiteral("window/timeline/bottomSplitter"), m_bottomSplitter->saveState());
    m_loader->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace TraceInspector
