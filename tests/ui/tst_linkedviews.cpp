// SPDX-License-Identifier: MIT
// One selection across every view of the main window, time ranges, search next/previous,
// keyboard navigation and the details pane's raw line, on the shipped sample trace.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>
#include <QTreeView>

#include "core/analysis/devicetime.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/gradientkeymodel.h"
#include "core/itemmodels/liveallocationsmodel.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/opfilterproxymodel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/itemmodels/spancontentsmodel.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/itemmodels/validationfilterproxymodel.h"
#include "core/itemmodels/validationgroupmodel.h"
#include "core/itemmodels/validationissuemodel.h"
#include "core/model/trace.h"
#include "core/itemmodels/outsidedeviceworkmodel.h"
#include "core/itemmodels/recordfieldsmodel.h"
#include "ui/details/detailspane.h"
#include "ui/evidencepanel.h"
#include "ui/gradientspanel.h"
#include "ui/mainwindow.h"
#include "ui/memorychart/memorychartpanel.h"
#include "ui/optablepanel.h"
#include "ui/recentfiles.h"
#include "ui/search/searchbar.h"
#include "ui/selection/selectionmodel.h"
#include "ui/selection/viewlinker.h"
#include "ui/spantreepanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/validationpanel.h"
#include "core/loading/workerpool.h"

using namespace TraceInspector;

class tst_LinkedViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void selectFromView_data();
    void selectFromView();
    void opSelectsItsSpanAndHighlightsTheOp();
    void findingSelectsWhatItNames();
    void gradientRowsJoinTheSelection();
    void deviceWorkOutsideEverySpanIsSelectable_data();
    void deviceWorkOutsideEverySpanIsSelectable();
    void memoryInstantSelectsTheSpanRunning();
    void doubleClickZoomsTheTimeline();
    void backAndForward();
    void timeRangeFiltersTheLists();
    void timeRangeDraggedOnTheRuler();
    void searchNextAndPrevious();
    void keyboardNavigationKeepsTheChartAligned();
    void detailsShowTheRawLine();
    void selectingElsewhereKeepsUserFilters();
    void anotherFileResetsTheSelection();
    void modelTesterOnRangeFilteredModels();

private:
    bool open(MainWindow &window, const QString &path);
    /// Writes \a text to a file in \a dir and opens it in the window.
    bool openText(const QByteArray &text, const QTemporaryDir &dir);
    /// Clicks the first finding of rule \a ruleId in the validation panel; its issue row, or -1.
    int clickFinding(const char *ruleId);
    /// A closed span with ops and a parent, in the middle of the run.
    qint64 spanWithOps() const;
    qint64 selectedOpRows() const;

    MainWindow *m_window = nullptr;
    LoadedTracePtr m_loaded;
};

namespace {

const char kMetaLine[] =
    "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\","
    "\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\","
    "\"capture_contract\":{\"measurement_scope\":\"profiled_work\",\"operations\":\"complete\",\"logical_memory\":\"none\","
    "\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"tags\":{}}\n";

QString samplePath()
{
    return QStringLiteral(TI_SOURCE_DIR "/resources/sample-trace.jsonl");
}

std::uint64_t spanEnd(const Span &s)
{
    return s.startNs + s.durationNs;
}

} // namespace

void tst_LinkedViews::initTestCase()
{
    qRegisterMetaType<TraceInspector::Selection>();
    qRegisterMetaType<TraceInspector::TimeWindow>();
}

bool tst_LinkedViews::open(MainWindow &window, const QString &path)
{
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (!finished.wait(60000))
        return false;
    return finished.at(0).at(0).toBool();
}

bool tst_LinkedViews::openText(const QByteArray &text, const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("trace.jsonl"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return false;
    file.close();
    if (!open(*m_window, path))
        return false;
    m_loaded = m_window->loadedTrace();
    return m_loaded && m_loaded->trace;
}

int tst_LinkedViews::clickFinding(const char *ruleId)
{
    ValidationPanel *validation = m_window->validationPanel();
    ValidationIssueModel *issues = validation->issueModel();
    int row = -1;
    for (int r = 0; r < issues->rowCount() && row < 0; ++r)
        if (issues->problemAt(r)->ruleId == ruleId)
            row = r;
    if (row < 0)
        return -1;
    QModelIndex index =
        validation->proxyModel()->mapFromSource(issues->index(row, ValidationIssueModel::MessageColumn));
    if (validation->isGrouped())
        index = validation->groupModel()->mapFromSource(index);
    QTreeView *view = validation->view();
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
    return row;
}

void tst_LinkedViews::init()
{
    m_window = new MainWindow;
    m_window->resize(1500, 950);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QVERIFY(open(*m_window, samplePath()));
    QVERIFY(m_window->timelineView()->isLayoutReady());
    QTRY_VERIFY(m_window->memoryChartPanel()->drawnState().ready);
    m_loaded = m_window->loadedTrace();
    QVERIFY(m_loaded && m_loaded->trace && m_loaded->spanTree);
}

void tst_LinkedViews::cleanup()
{
    delete m_window;
    m_window = nullptr;
    m_loaded.reset();
}

void tst_LinkedViews::cleanupTestCase()
{
    RecentFiles().clear();
    workerPool()->waitForDone();
}

qint64 tst_LinkedViews::spanWithOps() const
{
    const Trace &t = *m_loaded->trace;
    const SpanTree &tree = *m_loaded->spanTree;
    for (std::size_t i = t.spans.size() / 2; i < t.spans.size(); ++i)
        if (t.spans[i].closed && tree.parent(i) != SpanTree::kNoParent && !tree.opsOfSpan(i).empty())
            return qint64(i);
    return -1;
}

qint64 tst_LinkedViews::selectedOpRows() const
{
    return m_window->opTablePanel()->opView()->selectionModel()->selectedRows().size();
}

void tst_LinkedViews::selectFromView_data()
{
    QTest::addColumn<QString>("view");
    QTest::newRow("timeline click") << QStringLiteral("timeline");
    QTest::newRow("span tree click") << QStringLiteral("spanTree");
    QTest::newRow("details contents click") << QStringLiteral("details");
    QTest::newRow("allocation row click") << QStringLiteral("allocations");
}

void tst_LinkedViews::selectFromView()
{
    QFETCH(QString, view);
    const Trace &trace = *m_loaded->trace;
    const SpanTree &tree = *m_loaded->spanTree;
    SelectionModel *selection = m_window->selectionModel();
    qint64 span = spanWithOps();
    QVERIFY(span >= 0);

    if (view == QLatin1String("timeline")) {
        TimelineView *timeline = m_window->timelineView();
        timeline->setSelection(Selection::span(span)); // scrolls it into view, emits nothing
        QCOMPARE(selection->current(), Selection{});
        timeline->zoomToSelection();
        const auto rect = timeline->itemRect(Selection::span(span));
        QVERIFY(rect);
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, rect->center());
    } else if (view == QLatin1String("spanTree")) {
        SpanTreePanel *panel = m_window->spanTreePanel();
        panel->view()->expandAll();
        const QModelIndex index = panel->proxyModel()->mapFromSource(panel->model()->indexForSpan(span));
        QVERIFY(index.isValid());
        panel->view()->scrollTo(index);
        QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, panel->view()->visualRect(index).center());
    } else if (view == QLatin1String("details")) {
        // Select the parent, then click the child span in its contents list.
        const auto parent = qint64(tree.parent(std::size_t(span)));
        selection->select(Selection::span(parent));
        DetailsPane *details = m_window->detailsPane();
        QCOMPARE(details->selection(), Selection::span(parent));
        QTableView *contents = details->contentsView();
        QAbstractItemModel *model = contents->model();
        QModelIndex row;
        for (int r = 0; r < model->rowCount() && !row.isValid(); ++r) {
            const QModelIndex i = model->index(r, SpanContentsModel::NameColumn);
            if (RelatedKind(i.data(SpanContentsModel::RecordKindRole).toInt()) == RelatedKind::Span
                && i.data(SpanContentsModel::RecordIndexRole).toLongLong() == span)
                row = i;
        }
        const QString id = QString::number(span);
        QVERIFY2(row.isValid(), qPrintable(id));
        contents->scrollTo(row);
        QTest::mouseClick(contents->viewport(), Qt::LeftButton, {}, contents->visualRect(row).center());
    } else if (view == QLatin1String("allocations")) {
        MemoryChartPanel *chart = m_window->memoryChartPanel();
        QTRY_VERIFY(chart->allocationsModel()->rowCount() > 0);
        QTableView *table = chart->allocationsView();
        QModelIndex row;
        for (int r = 0; r < table->model()->rowCount() && !row.isValid(); ++r)
            if (table->model()->index(r, 0).data(SpanIndexRole).toLongLong() >= 0)
                row = table->model()->index(r, 0);
        QVERIFY(row.isValid());
        span = row.data(SpanIndexRole).toLongLong();
        table->scrollTo(row);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
    }

    // Everywhere.
    QCOMPARE(selection->current(), Selection::span(span));
    QCOMPARE(m_window->timelineView()->selection(), Selection::span(span));
    QCOMPARE(m_window->detailsPane()->selection(), Selection::span(span));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), span);
    QCOMPARE(m_window->selectedSpanIndex(), span);
    const Span &s = trace.spans[std::size_t(span)];
    const TimeWindow highlight = m_window->memoryChartPanel()->highlightWindow();
    QCOMPARE(highlight.begin, s.startNs);
    if (s.closed)
        QCOMPARE(highlight.end, std::max(spanEnd(s), s.startNs + 1));
    // The op table highlights the span's ops (as many as it has, all of them shown).
    QCOMPARE(selectedOpRows(), qint64(tree.opsOfSpan(std::size_t(span)).size()));
    // The span tree shows it: its row is in the viewport.
    SpanTreePanel *panel = m_window->spanTreePanel();
    const QModelIndex index = panel->proxyModel()->mapFromSource(panel->model()->indexForSpan(span));
    QVERIFY(panel->view()->viewport()->rect().intersects(panel->view()->visualRect(index)));
}

void tst_LinkedViews::opSelectsItsSpanAndHighlightsTheOp()
{
    const SpanTree &tree = *m_loaded->spanTree;
    const qint64 span = spanWithOps();
    const qint64 op = qint64(tree.opsOfSpan(std::size_t(span)).front());
    OpTablePanel *ops = m_window->opTablePanel();
    const QModelIndex index = ops->opProxyModel()->mapFromSource(ops->opModel()->indexForOp(op));
    QVERIFY(index.isValid());
    ops->opView()->scrollTo(index);
    QTest::mouseClick(ops->opView()->viewport(), Qt::LeftButton, {}, ops->opView()->visualRect(index).center());

    QCOMPARE(m_window->selectionModel()->current(), Selection::op(op));
    QCOMPARE(m_window->timelineView()->selection(), Selection::op(op));
    QCOMPARE(m_window->detailsPane()->selection(), Selection::op(op));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), span);
    QCOMPARE(ops->selectedOp(), op);
    QCOMPARE(selectedOpRows(), 1); // the op, not every op of its span
    const Op &o = m_loaded->trace->ops[std::size_t(op)];
    QCOMPARE(m_window->memoryChartPanel()->highlightWindow().begin, o.timestampNs);
    // The timeline draws it where it can be seen.
    QVERIFY(m_window->timelineView()->itemRect(Selection::op(op)) || o.durationNs == 0);
}

void tst_LinkedViews::findingSelectsWhatItNames()
{
    // Root `a`, child `b` never closed (H-SPAN-UNCLOSED names it), an op in `a`.
    const QByteArray text =
        QByteArray(kMetaLine)
        + "{\"kind\":\"span_start\",\"id\":\"a\",\"name\":\"root\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n"
          "{\"kind\":\"span_start\",\"id\":\"b\",\"parent_id\":\"a\",\"name\":\"child\",\"start_ns\":10,\"span_kind\":\"module\"}\n"
          "{\"kind\":\"op\",\"span_id\":\"a\",\"op_name\":\"matmul\",\"shape\":[2,2],\"dtype\":\"f32\",\"device\":\"cpu\","
          "\"duration_ns\":5,\"timestamp_ns\":20,\"input_dense_bytes\":32}\n"
          "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":100}\n"
          "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":200}\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(openText(text, dir));
    const Trace &trace = *m_loaded->trace;
    const qint64 b = trace.findSpan(std::string_view("b"));
    QVERIFY(b >= 0);

    ValidationPanel *validation = m_window->validationPanel();
    const int row = clickFinding("H-SPAN-UNCLOSED");
    QVERIFY(row >= 0);
    QCOMPARE(validation->currentFinding(), row);
    const Selection current = m_window->selectionModel()->current();
    QCOMPARE(current.kind, Selection::Kind::Span);
    QCOMPARE(current.index, b);
    QCOMPARE(current.finding, qint64(row));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), b);
    QCOMPARE(m_window->timelineView()->selection().index, b);
    QCOMPARE(m_window->detailsPane()->selection(), current);
    QVERIFY(m_window->detailsPane()->findingCount() >= 1);

    // And the other way round: selecting the span elsewhere makes a finding naming it current.
    m_window->selectionModel()->select(Selection::span(trace.findSpan(std::string_view("a"))));
    m_window->selectionModel()->select(Selection::span(b));
    QCOMPARE(validation->currentFinding(), row);
}

void tst_LinkedViews::gradientRowsJoinTheSelection()
{
    // Two records of key (model, w) share an event id: H-GRAD-EVENT-ID-DUP names the second
    // (record 1); key (model, b) has one clean record (record 2).
    const QByteArray text =
        QByteArray(kMetaLine)
        + "{\"kind\":\"span_start\",\"id\":\"a\",\"name\":\"root\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n"
          "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"model\",\"key\":\"w\",\"state\":\"present\",\"norm\":1.5}\n"
          "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"model\",\"key\":\"w\",\"state\":\"present\",\"norm\":2.5}\n"
          "{\"kind\":\"gradient\",\"event_id\":\"g2\",\"root\":\"model\",\"key\":\"b\",\"state\":\"zero\",\"norm\":0.0}\n"
          "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":100}\n"
          "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":200}\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(openText(text, dir));
    QCOMPARE(m_loaded->trace->gradients.size(), std::size_t(3));

    auto *gradients = m_window->findChild<GradientsPanel *>(QStringLiteral("gradientsPanel"));
    QVERIFY(gradients);
    DetailsPane *details = m_window->detailsPane();

    // A click on the key (model, b) selects its record everywhere: the details pane shows the
    // record's fields and its source line; no span is selected.
    QTableView *view = gradients->view();
    int rowB = -1;
    for (int r = 0; r < view->model()->rowCount() && rowB < 0; ++r)
        if (view->model()->index(r, GradientKeyModel::KeyColumn).data().toString() == QLatin1String("b"))
            rowB = r;
    QVERIFY(rowB >= 0);
    QSignalSpy shown(details, &DetailsPane::rawLineShown);
    const QModelIndex cell = view->model()->index(rowB, GradientKeyModel::KeyColumn);
    view->scrollTo(cell);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    QCOMPARE(m_window->selectionModel()->current(), Selection::gradient(2));
    QCOMPARE(details->selection(), Selection::gradient(2));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), qint64(-1));
    QVERIFY(shown.count() > 0 || shown.wait(10000));
    QVERIFY2(details->rawText().contains(QStringLiteral("\"event_id\":\"g2\"")), qPrintable(details->rawText()));
    QCOMPARE(details->findingCount(), 0);

    // The finding that names record 1 selects it, with the finding, and makes key (model, w)
    // current in the gradients panel without replacing the finding's selection.
    const int row = clickFinding("H-GRAD-EVENT-ID-DUP");
    QVERIFY(row >= 0);
    QCOMPARE(m_window->validationPanel()->currentFinding(), row);
    const Selection current = m_window->selectionModel()->current();
    QCOMPARE(current.kind, Selection::Kind::Gradient);
    QCOMPARE(current.index, qint64(1));
    QCOMPARE(current.finding, qint64(row));
    QVERIFY(gradients->currentRecord() >= 0);
    QCOMPARE(view->model()->index(view->currentIndex().row(), GradientKeyModel::KeyColumn).data().toString(),
             QStringLiteral("w"));
    QVERIFY(details->findingCount() >= 1);
    QCOMPARE(details->selection(), current);
}

void tst_LinkedViews::deviceWorkOutsideEverySpanIsSelectable_data()
{
    QTest::addColumn<QString>("view");    // where the click is
    QTest::addColumn<qint64>("interval"); // what it selects
    // Intervals: 0 in span `a`; 1 and 2 name the span `ghost` that does not exist (2 starts
    // first); 3 names `ghost` on another stream.
    QTest::newRow("timeline device lane") << QStringLiteral("timeline") << qint64(1);
    QTest::newRow("timeline, another stream") << QStringLiteral("timeline") << qint64(3);
    QTest::newRow("evidence interval row") << QStringLiteral("evidence") << qint64(1);
    QTest::newRow("evidence lane row: its first interval") << QStringLiteral("evidence lane") << qint64(2);
}

void tst_LinkedViews::deviceWorkOutsideEverySpanIsSelectable()
{
    QFETCH(QString, view);
    QFETCH(qint64, interval);
    const QByteArray text =
        QByteArray(kMetaLine)
        + "{\"kind\":\"span_start\",\"id\":\"a\",\"name\":\"root\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n"
          "{\"kind\":\"device_interval\",\"span_id\":\"a\",\"device\":\"cuda:0\",\"stream_id\":\"7\",\"clock_id\":\"cupti:0\","
          "\"backend\":\"cuda\",\"start_ns\":5000,\"duration_ns\":300}\n"
          "{\"kind\":\"device_interval\",\"span_id\":\"ghost\",\"device\":\"cuda:0\",\"stream_id\":\"7\",\"clock_id\":\"cupti:0\","
          "\"backend\":\"cuda\",\"start_ns\":6000,\"duration_ns\":400}\n"
          "{\"kind\":\"device_interval\",\"span_id\":\"ghost\",\"device\":\"cuda:0\",\"stream_id\":\"7\",\"clock_id\":\"cupti:0\","
          "\"backend\":\"cuda\",\"start_ns\":4000,\"duration_ns\":200}\n"
          "{\"kind\":\"device_interval\",\"span_id\":\"ghost\",\"device\":\"cuda:0\",\"stream_id\":\"14\",\"clock_id\":\"cupti:0\","
          "\"backend\":\"cuda\",\"start_ns\":4500,\"duration_ns\":250}\n"
          "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":1000}\n"
          "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2000}\n";
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(openText(text, dir));
    const Trace &trace = *m_loaded->trace;
    QCOMPARE(trace.deviceIntervals.size(), std::size_t(4));
    QVERIFY(m_loaded->deviceTime);
    QCOMPARE(m_loaded->deviceTime->outsideIntervalCount(), std::uint64_t(3));
    const DeviceInterval &d = trace.deviceIntervals[std::size_t(interval)];
    QCOMPARE(trace.findSpan(d.spanId), std::int64_t(-1));

    SelectionModel *selection = m_window->selectionModel();
    DetailsPane *details = m_window->detailsPane();
    auto *evidence = m_window->findChild<EvidencePanel *>(QStringLiteral("evidencePanel"));
    QVERIFY(evidence);
    QTreeView *outsideView = evidence->outsideDeviceView();
    OutsideDeviceWorkModel *outside = evidence->outsideDeviceModel();
    QSignalSpy shown(details, &DetailsPane::rawLineShown);

    if (view == QLatin1String("timeline")) {
        TimelineView *timeline = m_window->timelineView();
        auto rect = timeline->itemRect(Selection::deviceInterval(interval));
        if (!rect) {
            timeline->setSelection(Selection::deviceInterval(interval)); // scrolls it into view, emits nothing
            rect = timeline->itemRect(Selection::deviceInterval(interval));
        }
        QVERIFY(rect);
        QCOMPARE(selection->current(), Selection{});
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, rect->center());
    } else {
        QVERIFY(m_window->showTab(QStringLiteral("Evidence")));
        QTRY_VERIFY(outsideView->isVisible());
        // Lane rows by device, stream, clock: stream 14 before stream 7 byte-wise.
        const QModelIndex lane = outside->index(1, 0);
        QCOMPARE(lane.siblingAtColumn(OutsideDeviceWorkModel::StreamColumn).data().toString(), QStringLiteral("7"));
        QModelIndex row = lane.siblingAtColumn(OutsideDeviceWorkModel::BusyColumn);
        if (view == QLatin1String("evidence")) {
            outsideView->expand(lane);
            row = outside->indexOfInterval(interval).siblingAtColumn(OutsideDeviceWorkModel::StartColumn);
        }
        QVERIFY(row.isValid());
        outsideView->scrollTo(row);
        QTest::mouseClick(outsideView->viewport(), Qt::LeftButton, {}, outsideView->visualRect(row).center());
    }

    // One selection everywhere: the interval itself, not a span.
    const Selection expected = Selection::deviceInterval(interval);
    QCOMPARE(selection->current(), expected);
    QCOMPARE(m_window->timelineView()->selection(), expected);
    QCOMPARE(details->selection(), expected);
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), qint64(-1));
    QCOMPARE(m_window->selectedSpanIndex(), qint64(-1));
    QCOMPARE(selectedOpRows(), 0);
    QVERIFY(m_window->memoryChartPanel()->highlightWindow().isEmpty()); // device time is not host time
    // The evidence panel makes the interval's row current (its lane opened).
    QCOMPARE(outside->intervalAt(outsideView->currentIndex()), interval);
    QVERIFY(outsideView->isExpanded(outsideView->currentIndex().parent()));
    // The health finding that names it (H-UNKNOWN-SPAN) is current in the validation panel
    // and listed in the details pane.
    const int finding = m_window->validationPanel()->currentFinding();
    QVERIFY(finding >= 0);
    const Problem *problem = m_window->validationPanel()->issueModel()->problemAt(finding);
    QVERIFY(problem);
    QCOMPARE(QString::fromStdString(problem->ruleId), QStringLiteral("H-UNKNOWN-SPAN"));
    QCOMPARE(problem->relatedIndex, std::uint64_t(interval));
    QCOMPARE(details->findingCount(), 1);

    // The details pane: every field, the raw line, and that it lies outside every span.
    const RecordFieldsModel *fields = details->fieldsModel();
    QCOMPARE(details->title(), QStringLiteral("device interval outside every span (span_id ghost)"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("span_id")), QStringLiteral("ghost"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("device")), QStringLiteral("cuda:0"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("stream_id")),
             QString::fromStdString(std::string(trace.str(d.streamId))));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("clock_id")), QStringLiteral("cupti:0"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("backend")), QStringLiteral("cuda"));
    QCOMPARE(fields->value(QStringLiteral("Record"), QStringLiteral("start_ns")),
             QString::number(d.startNs) + QStringLiteral(" (device clock)"));
    QVERIFY(fields->value(QStringLiteral("Record"), QStringLiteral("duration_ns"))
                .startsWith(QString::number(d.durationNs) + QStringLiteral(" (")));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("end")),
             QString::number(d.startNs + d.durationNs) + QStringLiteral(" (device clock)"));
    QCOMPARE(fields->value(QStringLiteral("Derived"), QStringLiteral("span")),
             QStringLiteral("outside every span: span_id ghost names no span of the trace"));
    QVERIFY(shown.count() > 0 || shown.wait(10000));
    QVERIFY2(details->rawText().contains(QStringLiteral("\"start_ns\":%1,").arg(d.startNs)),
             qPrintable(details->rawText()));
    QVERIFY(details->rawText().contains(QStringLiteral("\"span_id\":\"ghost\"")));

    // An interval inside span `a` selects `a` in the span tree and has no row here; Back
    // returns to the interval outside every span, and its row.
    selection->select(Selection::deviceInterval(0));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), qint64(trace.findSpan(std::string_view("a"))));
    QVERIFY(!outsideView->selectionModel()->hasSelection());
    QCOMPARE(details->fieldsModel()->value(QStringLiteral("Derived"), QStringLiteral("span")), QStringLiteral("root"));
    selection->back();
    QCOMPARE(details->selection(), expected);
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), qint64(-1));
    QCOMPARE(outside->intervalAt(outsideView->currentIndex()), interval);
}

void tst_LinkedViews::memoryInstantSelectsTheSpanRunning()
{
    const qint64 span = spanWithOps();
    const Trace &trace = *m_loaded->trace;
    const Span &s = trace.spans[std::size_t(span)];
    const std::uint64_t t = s.startNs + s.durationNs / 2;
    const qint64 running = m_window->viewLinker()->spanAt(t);
    QVERIFY(running >= 0);
    const Span &r = trace.spans[std::size_t(running)];
    QVERIFY(r.startNs <= t && (!r.closed || spanEnd(r) > t));
    // Innermost: no child of it runs at t.
    for (const std::uint32_t child : m_loaded->spanTree->children(std::size_t(running))) {
        const Span &c = trace.spans[child];
        QVERIFY(!(c.startNs <= t && (!c.closed || spanEnd(c) > t)));
    }
    MemoryChartPanel *chart = m_window->memoryChartPanel();
    Q_EMIT chart->instantClicked(t); // what a click on the plot at t reports
    QCOMPARE(m_window->selectionModel()->current(), Selection::span(running));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), running);
}

void tst_LinkedViews::doubleClickZoomsTheTimeline()
{
    const qint64 span = spanWithOps();
    const Span &s = m_loaded->trace->spans[std::size_t(span)];
    TimelineView *timeline = m_window->timelineView();
    const TimeWindow before = timeline->visibleWindow();
    SpanTreePanel *panel = m_window->spanTreePanel();
    panel->selectSpan(span); // makes it current and visible: a click
    const QModelIndex index = panel->view()->currentIndex();
    QVERIFY(index.isValid());
    QSignalSpy activated(m_window->selectionModel(), &SelectionModel::activated);
    // QTest delivers a double click only after a first press/release pair.
    QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, panel->view()->visualRect(index).center());
    QTest::mouseDClick(panel->view()->viewport(), Qt::LeftButton, {}, panel->view()->visualRect(index).center());
    QCOMPARE(activated.count(), 1);
    const TimeWindow after = timeline->visibleWindow();
    QVERIFY(after.length() < before.length());
    QVERIFY(after.begin <= s.startNs && after.end >= spanEnd(s));
    // The chart shows the same window.
    QCOMPARE(m_window->memoryChartPanel()->window(), after);
}

void tst_LinkedViews::backAndForward()
{
    SelectionModel *selection = m_window->selectionModel();
    const qint64 a = spanWithOps();
    const qint64 b = qint64(m_loaded->spanTree->parent(std::size_t(a)));
    selection->select(Selection::span(a));
    selection->select(Selection::span(b));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), b);
    m_window->timelineView()->setFocus();
    QTest::keyClick(m_window, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(selection->current(), Selection::span(a));
    QCOMPARE(m_window->spanTreePanel()->selectedSpan(), a);
    QCOMPARE(m_window->timelineView()->selection(), Selection::span(a));
    QTest::keyClick(m_window, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(selection->current(), Selection::span(b));
    QCOMPARE(m_window->detailsPane()->selection(), Selection::span(b));
}

void tst_LinkedViews::timeRangeFiltersTheLists()
{
    const Trace &trace = *m_loaded->trace;
    const qint64 span = spanWithOps();
    const Span &s = trace.spans[std::size_t(span)];
    const TimeWindow range{s.startNs, spanEnd(s)};
    std::size_t opsIn = 0;
    for (const Op &o : trace.ops)
        opsIn += (o.timestampNs < range.end && std::max(o.timestampNs + o.durationNs, o.timestampNs + 1) > range.begin)
                     ? 1
                     : 0;
    std::size_t spansIn = 0;
    for (const Span &x : trace.spans)
        spansIn += (x.startNs < range.end && (!x.closed || std::max(spanEnd(x), x.startNs + 1) > range.begin)) ? 1 : 0;
    QVERIFY(opsIn > 0 && opsIn < trace.ops.size());

    OpTablePanel *ops = m_window->opTablePanel();
    QSignalSpy applied(ops, &OpTablePanel::timeRangeApplied);
    m_window->selectionModel()->setTimeRange(range);
    QCOMPARE(ops->opView()->model()->rowCount(), int(opsIn));
    QVERIFY(applied.count() > 0 || applied.wait(10000));
    const OpStatistics expected = OpStatistics::compute(trace, range);
    QCOMPARE(ops->aggregateModel()->rowCount(), int(expected.rows().size()));
    int counted = 0;
    for (int r = 0; r < ops->aggregateModel()->rowCount(); ++r)
        counted += ops->aggregateModel()->index(r, OpAggregateModel::CountColumn).data(SortRole).toInt();
    QCOMPARE(counted, int(opsIn));
    QCOMPARE(m_window->spanTreePanel()->proxyModel()->matchCount(), spansIn);
    QCOMPARE(m_window->timelineView()->timeRange(), range);
    QToolButton *chip = m_window->timeRangeChip();
    QVERIFY(chip->isVisible());
    QVERIFY2(chip->text().contains(QChar(0x2013)), qPrintable(chip->text())); // "a–b unit, length"

    QTest::mouseClick(chip, Qt::LeftButton);
    QVERIFY(!m_window->selectionModel()->hasTimeRange());
    QVERIFY(!chip->isVisible());
    QCOMPARE(ops->opView()->model()->rowCount(), int(trace.ops.size()));
    QTRY_COMPARE(ops->aggregateModel()->rowCount(), int(OpStatistics::compute(trace).rows().size()));
    QCOMPARE(m_window->spanTreePanel()->proxyModel()->matchCount(), trace.spans.size());
}

void tst_LinkedViews::timeRangeDraggedOnTheRuler()
{
    TimelineView *timeline = m_window->timelineView();
    const int y = timeline->rulerHeight() / 2;
    const int width = timeline->viewport()->width();
    QTest::mousePress(timeline->viewport(), Qt::LeftButton, {}, QPoint(width / 4, y));
    QTest::mouseMove(timeline->viewport(), QPoint(width / 3, y));
    QTest::mouseMove(timeline->viewport(), QPoint(width / 2, y));
    QTest::mouseRelease(timeline->viewport(), Qt::LeftButton, {}, QPoint(width / 2, y));
    const TimeWindow range = m_window->selectionModel()->timeRange();
    QVERIFY(!range.isEmpty());
    QCOMPARE(m_window->opTablePanel()->timeRange(), range);
    QVERIFY(m_window->timeRangeChip()->isVisible());
    // Esc in the timeline clears it.
    timeline->setFocus();
    QTest::keyClick(timeline, Qt::Key_Escape);
    QVERIFY(!m_window->selectionModel()->hasTimeRange());
    QVERIFY(m_window->opTablePanel()->timeRange().isEmpty());
}

void tst_LinkedViews::searchNextAndPrevious()
{
    SearchBar *search = m_window->searchBar();
    const Trace &trace = *m_loaded->trace;
    const std::string name(trace.str(trace.spans[std::size_t(spanWithOps())].name));
    QTest::keyClick(m_window, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(search->lineEdit()->hasFocus());
    QSignalSpy finished(search, &SearchBar::searchFinished);
    search->setText(QString::fromStdString(name));
    QVERIFY(finished.wait(10000));
    QVERIFY(!search->matches().empty());
    QTest::keyClick(m_window, Qt::Key_F3);
    const Selection first = m_window->selectionModel()->current();
    QVERIFY(first.isRecord());
    QCOMPARE(first, SearchBar::selectionOf(search->matches()[std::size_t(search->currentMatch())]));
    QCOMPARE(m_window->timelineView()->selection(), first);
    QCOMPARE(m_window->detailsPane()->selection(), first);
    if (search->matches().size() > 1) {
        QTest::keyClick(m_window, Qt::Key_F3);
        const Selection second = m_window->selectionModel()->current();
        QVERIFY(second != first);
        QCOMPARE(m_window->spanTreePanel()->selectedSpan(), second.spanIndex(trace, *m_loaded->spanTree));
        QTest::keyClick(m_window, Qt::Key_F3, Qt::ShiftModifier);
        QCOMPARE(m_window->selectionModel()->current(), first);
    }
    // With the focus in the span tree and a span filter, F3 walks the filter's matches.
    SpanTreePanel *panel = m_window->spanTreePanel();
    panel->setFilterText(QString::fromStdString(name));
    panel->view()->setFocus();
    const Selection before = m_window->selectionModel()->current();
    QTest::keyClick(m_window, Qt::Key_F3);
    QVERIFY(panel->selectedSpan() >= 0);
    QVERIFY(search->currentMatch() >= 0);
    Q_UNUSED(before);
}

void tst_LinkedViews::keyboardNavigationKeepsTheChartAligned()
{
    TimelineView *timeline = m_window->timelineView();
    MemoryChartPanel *chart = m_window->memoryChartPanel();
    timeline->setFocus();
    const TimeWindow whole = timeline->visibleWindow();
    QTest::keyClick(timeline, Qt::Key_W);
    QTest::keyClick(timeline, Qt::Key_W);
    const TimeWindow zoomed = timeline->visibleWindow();
    QVERIFY(zoomed.length() < whole.length());
    QCOMPARE(chart->window(), zoomed);
    QTest::keyClick(timeline, Qt::Key_D);
    QVERIFY(timeline->visibleWindow().begin > zoomed.begin);
    QCOMPARE(chart->window(), timeline->visibleWindow());
    // And the other way round: zooming the chart moves the timeline.
    const TimeWindow run = chart->runWindow();
    const TimeWindow part{run.begin + run.length() / 4, run.begin + run.length() / 2};
    chart->setWindow(part);
    QCOMPARE(timeline->visibleWindow(), part);
    QTest::keyClick(timeline, Qt::Key_Home);
    QCOMPARE(chart->window().length() >= part.length(), true);
}

void tst_LinkedViews::detailsShowTheRawLine()
{
    const qint64 span = spanWithOps();
    const Trace &trace = *m_loaded->trace;
    DetailsPane *details = m_window->detailsPane();
    QSignalSpy shown(details, &DetailsPane::rawLineShown);
    m_window->selectionModel()->select(Selection::span(span));
    QVERIFY(shown.count() > 0 || shown.wait(10000));
    const QString id = QString::fromStdString(std::string(trace.str(trace.spans[std::size_t(span)].id)));
    QVERIFY2(details->rawText().contains(QStringLiteral("\"id\":\"%1\"").arg(id)), qPrintable(details->rawText()));
    QVERIFY(details->rawText().contains(QStringLiteral("span_start")));
}

void tst_LinkedViews::selectingElsewhereKeepsUserFilters()
{
    const qint64 span = spanWithOps();
    SpanTreePanel *spans = m_window->spanTreePanel();
    OpTablePanel *ops = m_window->opTablePanel();
    spans->setFilterText(QStringLiteral("no such span"));
    ops->setFilterText(QStringLiteral("no such op"));
    // A click in another view selects there and leaves the filtered lists as the user set them.
    m_window->selectionModel()->select(Selection::span(span));
    QCOMPARE(m_window->timelineView()->selection(), Selection::span(span));
    QCOMPARE(spans->filterText(), QStringLiteral("no such span"));
    QCOMPARE(spans->selectedSpan(), qint64(-1));
    QCOMPARE(ops->filterText(), QStringLiteral("no such op"));
    // A double click (activation) asks to see it: the span tree and op table show it.
    const qint64 op = qint64(m_loaded->spanTree->opsOfSpan(std::size_t(span)).front());
    m_window->selectionModel()->activate(Selection::op(op));
    QVERIFY(spans->filterText().isEmpty());
    QCOMPARE(spans->selectedSpan(), span);
    QVERIFY(ops->filterText().isEmpty());
    QCOMPARE(ops->selectedOp(), op);
}

void tst_LinkedViews::anotherFileResetsTheSelection()
{
    SelectionModel *selection = m_window->selectionModel();
    selection->select(Selection::span(spanWithOps()));
    selection->setTimeRange({1000, 2000});
    QVERIFY(selection->canGoBack() || selection->current().isValid());
    QVERIFY(open(*m_window, QStringLiteral(TI_EXAMPLES_DIR "/01_valid_trace10_forward.jsonl")));
    QCOMPARE(selection->current(), Selection{});
    QVERIFY(!selection->hasTimeRange());
    QVERIFY(!selection->canGoBack());
    QVERIFY(!m_window->timeRangeChip()->isVisible());
    QCOMPARE(m_window->detailsPane()->selection(), Selection{});
}

void tst_LinkedViews::modelTesterOnRangeFilteredModels()
{
    OpTablePanel *ops = m_window->opTablePanel();
    QAbstractItemModelTester opTester(ops->opProxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester aggregateTester(ops->aggregateModel(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester spanTester(m_window->spanTreePanel()->proxyModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Span &s = m_loaded->trace->spans[std::size_t(spanWithOps())];
    QSignalSpy applied(ops, &OpTablePanel::timeRangeApplied);
    m_window->selectionModel()->setTimeRange({s.startNs, spanEnd(s)});
    QVERIFY(applied.count() > 0 || applied.wait(10000));
    m_window->spanTreePanel()->view()->expandAll();
    ops->setFilterText(QStringLiteral("a"));
    m_window->selectionModel()->clearTimeRange();
    QTRY_VERIFY(!ops->isAggregating());
}

QTEST_MAIN(tst_LinkedViews)
#include "tst_linkedviews.moc"
