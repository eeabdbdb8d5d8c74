// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>

#include "core/display/format.h"
#include "core/loading/loadedtrace.h"
#include "core/loading/loadprogress.h"
#include "core/loading/traceloader.h"
#include "ui/exportcontroller.h"

class QLabel;
class QMenu;
class QMimeData;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace TraceInspector {

class CompareController;
class ComparePanel;
class DetailsPane;
class EvidencePanel;
class ExportController;
class GradientsPanel;
class FormatReferenceWindow;
class GraphPanel;
class LoadProgressWidget;
class MemoryChartPanel;
class MessageBanner;
class MetadataPanel;
class OpTablePanel;
class RecentFiles;
class SearchBar;
class SelectionModel;
class SpanTreePanel;
class StartPage;
class TimelineView;
class TensorStatsPanel;
class TensorsPanel;
class TraceLoader;
class ValidationPanel;
class ViewLinker;

/// The inspector window: the timeline in the centre with the memory chart below it on the
/// same time window and the details of the selection beside them; under them the span
/// tree, the op table and the validation and run metadata panels; above them back/forward,
/// the search bar and the time range chip. One SelectionModel links every view (ViewLinker).
/// Banners for rejected or unreadable files, a status bar with the trace summary and the
/// load progress. Owns the loader; every panel shows the immutable snapshot of the newest
/// load as its stages arrive.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Starts loading \a path, superseding any load in progress. The trace shown so far stays
    /// until the new one has been read.
    void openFile(const QString &path);
    /// Opens \a path in a window of its own (deleted when it is closed), placed a little below
    /// and to the right of this one: several traces are several windows.
    MainWindow *openInNewWindow(const QString &path);
    /// Loads \a baselinePath in the background and compares this window's trace (the
    /// candidate) with it once both are loaded (issue #15); the Compare tab shows the result.
    void compareWith(const QString &baselinePath);
    /// Exports the shown trace to \a target without a file dialog; still asks before it would
    /// replace the opened trace. The result arrives as exportFinished().
    void exportNormalizedTo(const QString &target);
    void cancelLoad();

    /// The snapshot the panels show (may be from a load still running), or null.
    LoadedTracePtr loadedTrace() const { return m_shown; }
    bool isLoading() const;
    QString summaryText() const;
    /// Index into Trace::spans of the span selected in the span tree, or -1.
    qint64 selectedSpanIndex() const;
    /// Index into Trace::ops of the op selected in the op table, or -1.
    qint64 selectedOpIndex() const;

    TraceLoader *loader() const { return m_loader; }
    RecentFiles *recentFiles() const { return m_recent; }
    MessageBanner *rejectionBanner() const { return m_rejectionBanner; }
    MessageBanner *messageBanner() const { return m_messageBanner; }
    LoadProgressWidget *progressWidget() const { return m_progress; }
    SpanTreePanel *spanTreePanel() const { return m_spanTree; }
    OpTablePanel *opTablePanel() const { return m_opTable; }
    MemoryChartPanel *memoryChartPanel() const { return m_memoryChart; }
    ValidationPanel *validationPanel() const { return m_validation; }
    MetadataPanel *metadataPanel() const { return m_metadata; }
    TimelineView *timelineView() const { return m_timeline; }
    DetailsPane *detailsPane() const { return m_details; }
    SearchBar *searchBar() const { return m_search; }
    SelectionModel *selectionModel() const { return m_selection; }
    ViewLinker *viewLinker() const { return m_linker; }
    /// The time range chip (visible while a range is selected; clicking it clears the range).
    QToolButton *timeRangeChip() const { return m_rangeChip; }
    GraphPanel *graphPanel() const { return m_graph; }
    ComparePanel *comparePanel() const { return m_comparePanel; }
    CompareController *compareController() const { return m_compare; }

    /// Brings the tab page named \a name (its objectName or its tab text without '&',
    /// case-insensitive) to the front in whichever tab widget holds it; false when none does.
    bool showTab(const QString &name);
    /// Selects the span with id \a spanId in the span tree; false when the trace has none.
    bool selectSpanById(const QString &spanId);
    /// Background work a view still does after the load (a graph layout).
    bool isViewWorkPending() const;
    TensorsPanel *tensorsPanel() const { return m_tensors; }
    TensorStatsPanel *tensorStatsPanel() const { return m_tensorStats; }
    GradientsPanel *gradientsPanel() const { return m_gradients; }
    EvidencePanel *evidencePanel() const { return m_evidence; }
    QTabWidget *sideTabs() const { return m_sideTabs; }

    /// The sample trace shipped with the application, or an empty string if not installed.
    static QString sampleTracePath();

    /// Unit of every time column and of the memory chart's time axis (View > Time Unit).
    TimeUnit timeUnit() const { return m_timeUnit; }
    void setTimeUnit(TimeUnit unit);
    /// Help > Format Reference (created on first use).
    FormatReferenceWindow *showFormatReference();
    void showShortcuts();

Q_SIGNALS:
    /// A load ended: \a ok when every stage was delivered, false on failure or cancel.
    void loadFinished(bool ok);
    void exportFinished(const TraceInspector::ExportOutcome &outcome);
    /// A comparison started by compareWith() ended: \a ok when its result is shown.
    void comparisonFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createLayout();
    void openWithDialog();
    void compareWithDialog();
    void exportWithDialog();
    void startExport(const QString &target, bool replaceConfirmed, bool replaceProtected = false);
    void rebuildRecentMenu();
    void stepMatch(bool forward);
    void updateRangeChip();

    void onStarted(quint64 generation, const QString &path);
    void onProgress(quint64 generation, const LoadProgress &progress);
    void onTraceRead(quint64 generation, const LoadedTracePtr &snapshot);
    void onAnalysisReady(quint64 generation, const LoadedTracePtr &snapshot);
    void onFinished(quint64 generation, const LoadedTracePtr &snapshot);
    void onFailed(quint64 generation, const QString &message, TraceLoader::FailureKind kind);
    void onCancelled(quint64 generation);
    void onExportFinished(const ExportOutcome &outcome);

    void reportLoaded();
    void hideProgress();
    void placeProgress();
    void showRejection(const LoadedTrace &loaded);
    void updateSummary();
    void updateTitle();
    void updateActions();
    void resetViewState();
    void setEvidenceViews(const LoadedTracePtr &snapshot);
    void focusPanel(QWidget *panel, QWidget *focus);
    static QStringList localFiles(const QMimeData *mime);

    TraceLoader *m_loader;
    ExportController *m_export;
    RecentFiles *m_recent;
    LoadedTracePtr m_shown;
    QString m_loadingPath;
    QString m_viewStatePath; // the file whose filters, zoom and selection the views hold
    TimeUnit m_timeUnit = TimeUnit::Auto;
    const Trace *m_measuredOf = nullptr; // the trace m_measured counts
    MeasuredSpanCount m_measured;
    QString m_failedPath; // offered again by the banner's Reload
    QElapsedTimer m_loadClock;
    bool m_chartPending = false;    // the memory chart has data it has not drawn yet
    bool m_timelinePending = false; // the timeline lays out a trace it has not drawn yet

    QStackedWidget *m_stack = nullptr;
    QWidget *m_workspace = nullptr;
    StartPage *m_startPage = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_topSplitter = nullptr;
    QSplitter *m_bottomSplitter = nullptr;
    QSplitter *m_centreSplitter = nullptr; // time views | details
    QSplitter *m_timeSplitter = nullptr;   // timeline over memory chart
    QTabWidget *m_sideTabs = nullptr;
    QTabWidget *m_workTabs = nullptr; // top right: ops and the call graph
    MessageBanner *m_rejectionBanner = nullptr;
    MessageBanner *m_messageBanner = nullptr;
    LoadProgressWidget *m_progress = nullptr;
    QLabel *m_summary = nullptr;

    SpanTreePanel *m_spanTree = nullptr;
    OpTablePanel *m_opTable = nullptr;
    MemoryChartPanel *m_memoryChart = nullptr;
    ValidationPanel *m_validation = nullptr;
    MetadataPanel *m_metadata = nullptr;
    TimelineView *m_timeline = nullptr;
    DetailsPane *m_details = nullptr;
    SearchBar *m_search = nullptr;
    QToolButton *m_rangeChip = nullptr;
    SelectionModel *m_selection = nullptr;
    ViewLinker *m_linker = nullptr;
    GraphPanel *m_graph = nullptr;
    TensorsPanel *m_tensors = nullptr;
    TensorStatsPanel *m_tensorStats = nullptr;
    GradientsPanel *m_gradients = nullptr;
    EvidencePanel *m_evidence = nullptr;
    CompareController *m_compare = nullptr;
    ComparePanel *m_comparePanel = nullptr;
    QAction *m_compareAction = nullptr;
    bool m_giveCompareRoom = false; // the next comparison result resizes the panels for it

    QMenu *m_recentMenu = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_closeAction = nullptr;
    QAction *m_sampleAction = nullptr;
    QAction *m_showProblemsAction = nullptr;
    QAction *m_showProblemsInBannerAction = nullptr;
    FormatReferenceWindow *m_formatReference = nullptr;
    QAction *m_reloadFailedAction = nullptr;
};

} // namespace TraceInspector
