// SPDX-License-Identifier: MIT
#include "ui/compare/comparepanel.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/onlyinrunmodel.h"
#include "core/itemmodels/opgroupdiffmodel.h"
#include "core/itemmodels/spandiffmodel.h"
#include "core/model/enums.h"
#include "ui/compare/deltadelegate.h"
#include "ui/compare/memorydiffchart.h"
#include "ui/compare/stackedtimeline.h"
#include "ui/widgets/messagebanner.h"

namespace TraceInspector {

namespace {

Q_LOGGING_CATEGORY(lcCompare, "traceinspector.compare", QtWarningMsg)

QTableView *makeTable(const QString &name, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setObjectName(name);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle); // a path's end names the span, its start the run
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setSectionsMovable(true);
    view->setItemDelegate(new DeltaDelegate(view));
    return view;
}

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

ComparePanel::ComparePanel(CompareController *controller, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_title(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_indicative(new QLabel(this))
    , m_fairness(new MessageBanner(this))
    , m_error(new MessageBanner(this))
    , m_progressRow(new QWidget(this))
    , m_progress(new QProgressBar(m_progressRow))
    , m_progressText(new QLabel(m_progressRow))
    , m_cancel(new QPushButton(tr("Cancel"), m_progressRow))
    , m_close(new QPushButton(tr("Close Comparison"), this))
    , m_views(new QTabWidget(this))
    , m_timeline(new StackedTimeline(this))
    , m_spanView(makeTable(QStringLiteral("compareSpanView"), this))
    , m_opView(makeTable(QStringLiteral("compareOpGroupView"), this))
    , m_onlyView(makeTable(QStringLiteral("compareOnlyInView"), this))
    , m_memoryChart(new MemoryDiffChart(this))
    , m_categories(new QTableWidget(this))
    , m_spanModel(new SpanDiffModel(this))
    , m_opModel(new OpGroupDiffModel(this))
    , m_onlyModel(new OnlyInRunModel(this))
    , m_onlyProxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("comparePanel"));
    m_title->setObjectName(QStringLiteral("compareTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_indicative->setObjectName(QStringLiteral("compareIndicative"));
    m_indicative->setWordWrap(true);
    m_fairness->setObjectName(QStringLiteral("fairnessBanner"));
    m_error->setObjectName(QStringLiteral("compareErrorBanner"));
    m_fairness->hide();
    m_error->hide();
    m_progressRow->setObjectName(QStringLiteral("compareProgress"));
    m_cancel->setObjectName(QStringLiteral("compareCancel"));
    m_close->setObjectName(QStringLiteral("compareClose"));
    m_close->setToolTip(tr("Forget the baseline: the Compare tab empties and the span tree loses its Δ columns"));
    m_close->hide();
    connect(m_close, &QPushButton::clicked, m_controller, &CompareController::clear);
    m_progress->setRange(0, 1000);
    m_views->setObjectName(QStringLiteral("compareViews"));
    m_categories->setObjectName(QStringLiteral("comparePeakCategories"));

    auto *progressLayout = new QHBoxLayout(m_progressRow);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(m_progressText, 1);
    progressLayout->addWidget(m_progress, 1);
    progressLayout->addWidget(m_cancel);
    m_progressRow->hide();
    connect(m_cancel, &QPushButton::clicked, m_controller, &CompareController::cancel);

    m_spanView->setModel(m_spanModel);
    m_opView->setModel(m_opModel);
    m_onlyProxy->setSourceModel(m_onlyModel);
    m_onlyProxy->setSortRole(SortRole);
    m_onlyView->setModel(m_onlyProxy);
    m_spanView->horizontalHeader()->resizeSection(SpanDiffModel::PathColumn, 320);

    // Memory: both curves, and the live bytes at each peak by category beside them.
    m_categories->setColumnCount(4);
    m_categories->setHorizontalHeaderLabels({tr("At the peak"), tr("Baseline"), tr("Candidate"), tr("Δ")});
    m_categories->verticalHeader()->hide();
    m_categories->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_categories->setItemDelegate(new DeltaDelegate(m_categories));
    m_categories->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *memory = new QSplitter(Qt::Horizontal, this);
    memory->setObjectName(QStringLiteral("compareMemory"));
    memory->addWidget(m_memoryChart);
    memory->addWidget(m_categories);
    memory->setStretchFactor(0, 3);
    memory->setStretchFactor(1, 2);

    m_views->addTab(m_spanView, tr("Spans"));
    m_views->addTab(m_opView, tr("Op Groups"));
    m_views->addTab(m_onlyView, tr("Only in One Run"));
    m_views->addTab(memory, tr("Memory"));
    // Two more layouts of a big pair cost seconds and memory: only when someone looks.
    m_views->addTab(m_timeline, tr("Timelines"));
    connect(m_views, &QTabWidget::currentChanged, this, &ComparePanel::showTimelineIfOpen);
    connect(m_timeline, &StackedTimeline::candidateSpanSelected, this, &ComparePanel::spanActivated);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_close, 0, Qt::AlignTop);
    layout->addLayout(titleRow);
    layout->addWidget(m_progressRow);
    layout->addWidget(m_error);
    layout->addWidget(m_fairness);
    layout->addWidget(m_summary);
    layout->addWidget(m_indicative);
    layout->addWidget(m_views, 1);

    m_title->setText(tr("No comparison yet: File ▸ Compare with… loads a baseline beside this trace."));
    m_summary->hide();
    m_indicative->hide();
    m_views->setEnabled(false);

    connect(m_controller, &CompareController::stateChanged, this, &ComparePanel::onStateChanged);
    connect(m_controller, &CompareController::progressChanged, this, [this](int permille, const QString &phase) {
        m_progress->setValue(permille);
        m_progressText->setText(tr("Loading baseline: %1").arg(phase));
    });
    connect(m_controller, &CompareController::failed, this, &ComparePanel::onFailed);
    connect(m_controller, &CompareController::comparisonReady, this, &ComparePanel::showComparison);
    connect(m_controller, &CompareController::comparisonCleared, this, &ComparePanel::clearComparison);

    // A million matched spans sort on a worker thread (200-270 ms by Δ): a busy cursor and
    // word on the tab until the order lands; the view keeps showing the previous order.
    m_spanModel->setBackgroundSorting(true);
    m_opModel->setBackgroundSorting(true);
    connect(m_spanModel, &FlatTableModel::sortingChanged, this,
            [this](bool sorting) { showSorting(m_spanView, 0, sorting); });
    connect(m_opModel, &FlatTableModel::sortingChanged, this,
            [this](bool sorting) { showSorting(m_opView, 1, sorting); });

    for (QTableView *view : {m_spanView, m_onlyView}) {
        connect(view, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
            const qint64 span = index.data(SpanIndexRole).toLongLong();
            if (index.data(SpanIndexRole).isValid() && span >= 0)
                Q_EMIT spanActivated(span);
        });
    }
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::setTimeUnit(TimeUnit unit)
{
    m_spanModel->setTimeUnit(unit);
    m_opModel->setTimeUnit(unit);
    m_onlyModel->setTimeUnit(unit);
}

bool ComparePanel::isSorting() const
{
    return m_spanModel->isSorting() || m_opModel->isSorting();
}

void ComparePanel::showSorting(QTableView *view, int tab, bool sorting)
{
    if (sorting)
        view->viewport()->setCursor(Qt::BusyCursor);
    else
        view->viewport()->unsetCursor();
    const QString name = tab == 0 ? tr("Spans") : tr("Op Groups");
    m_views->setTabText(tab, sorting ? tr("%1 (sorting…)").arg(name) : name);
    Q_EMIT sortingChanged(isSorting());
}

void ComparePanel::onStateChanged(CompareController::State state)
{
    using State = CompareController::State;
    const bool busy =
        state == State::LoadingBaseline || state == State::WaitingForCandidate || state == State::Computing;
    m_progressRow->setVisible(busy);
    m_cancel->setEnabled(state == State::LoadingBaseline || state == State::Computing);
    m_close->setVisible(state == State::Ready || state == State::Failed);
    if (state == State::LoadingBaseline) {
        m_error->dismiss();
        m_progress->setRange(0, 1000);
        m_progress->setValue(0);
        m_title->setText(tr("Baseline: %1").arg(QFileInfo(m_controller->baselinePath()).fileName()));
        m_progressText->setText(tr("Loading baseline…"));
    } else if (state == State::WaitingForCandidate) {
        m_progress->setRange(0, 0);
        m_progressText->setText(tr("Waiting for this window's trace to finish loading…"));
    } else if (state == State::Computing) {
        m_progress->setRange(0, 0); // busy: matching has no finer progress
        m_progressText->setText(tr("Matching spans and ops…"));
    } else if (state == State::Idle && !m_controller->comparison()) {
        m_error->dismiss();
        m_title->setText(m_controller->baselinePath().isEmpty()
                             ? tr("No comparison yet: File ▸ Compare with… loads a baseline beside this trace.")
                             : tr("Comparison cancelled."));
    }
}

void ComparePanel::onFailed(const QString &message, TraceLoader::FailureKind kind)
{
    QString title;
    switch (kind) {
    case TraceLoader::FailureKind::Unreadable: title = tr("The baseline cannot be read"); break;
    case TraceLoader::FailureKind::NotATrace: title = tr("The baseline is not a trace"); break;
    case TraceLoader::FailureKind::ChangedWhileRead: title = tr("The baseline changed while it was read"); break;
    case TraceLoader::FailureKind::OutOfMemory: title = tr("Not enough memory for the baseline"); break;
    }
    m_error->showMessage(MessageBanner::Tone::Error, title, message);
}

QString ComparePanel::matchSummary(const TraceDiff &diff, std::size_t candidateSpans)
{
    QString text = tr("%L1 of %L2 spans matched").arg(diff.spans.matched).arg(quint64(candidateSpans));
    if (diff.spans.matchedByLabel > 0)
        text +=
            tr(" (%Ln by semantic label)", nullptr, int(std::min<std::uint64_t>(diff.spans.matchedByLabel, INT_MAX)));
    if (diff.spans.baselineOnly > 0)
        text += tr("; %L1 only in baseline").arg(diff.spans.baselineOnly);
    if (diff.spans.candidateOnly > 0)
        text += tr("; %L1 only in candidate").arg(diff.spans.candidateOnly);
    text += tr(" · %L1 of %L2 ops matched").arg(diff.matchedOps).arg(diff.candidateOps);
    const std::int64_t measured = std::int64_t(diff.candidateMeasuredNs) - std::int64_t(diff.baselineMeasuredNs);
    text += tr(" · measured %1 → %2 (%3)")
                .arg(formatDuration(diff.baselineMeasuredNs), formatDuration(diff.candidateMeasuredNs),
                     formatDeltaDuration(measured));
    return text;
}

QString ComparePanel::fairnessText(const FairnessCheck &check)
{
    QStringList lines;
    for (const FairnessDifference &d : check.differences) {
        QString field = qs(fairnessFieldName(d.field));
        if (!d.member.empty())
            field += u'.' + qs(d.member);
        lines << tr("%1: baseline %2, candidate %3").arg(field, qs(d.baseline), qs(d.candidate));
    }
    for (const std::string &reason : check.reasons)
        lines << tr("Upstream's comparison: “%1”").arg(qs(reason));
    return lines.join(u'\n');
}

void ComparePanel::showComparison(const TraceComparisonPtr &comparison)
{
    if (!comparison)
        return;
    QElapsedTimer clock;
    clock.start();
    m_error->dismiss();
    m_title->setText(
        tr("Baseline %1 ▸ candidate %2 (this window's trace)")
            .arg(QFileInfo(comparison->baseline->path).fileName(), QFileInfo(comparison->candidate->path).fileName()));
    m_summary->setText(matchSummary(comparison->diff, comparison->candidate->trace->spans.size()));
    m_summary->show();
    m_indicative->setText(tr("Indicative — one run each. A verdict needs replicated runs: upstream requires at least "
                             "%1 independent runs per side.")
                              .arg(kMinimumRunsPerSide));
    m_indicative->show();
    const FairnessCheck &fair = comparison->fairness;
    if (!fair.differences.empty()) {
        m_fairness->showMessage(
            MessageBanner::Tone::Warning,
            tr("The runs differ in %n thing(s) that make a comparison fair", nullptr, int(fair.differences.size())),
            fairnessText(fair));
    } else if (!fair.reasons.empty()) {
        m_fairness->showMessage(MessageBanner::Tone::Information, tr("The runs cannot be shown to be comparable"),
                                fairnessText(fair));
    } else {
        m_fairness->dismiss();
    }

    // Largest slowdown first: what a regression hunt looks at. The spans come sorted from
    // the worker (a million rows take longer than a GUI pass may); the header then only shows
    // the order, the model sees a sort it already has.
    const int column = CompareController::initialSpanColumn();
    m_spanModel->setComparison(comparison, column, CompareController::kInitialOrder, m_controller->initialSpanOrder());
    qCInfo(lcCompare) << "span diff model filled after" << clock.elapsed() << "ms";
    m_spanView->horizontalHeader()->setSortIndicator(column, CompareController::kInitialOrder);
    qCInfo(lcCompare) << "sort indicator set after" << clock.elapsed() << "ms";
    m_opModel->setComparison(comparison);
    m_onlyModel->setComparison(comparison);
    m_views->setTabText(2, tr("Only in One Run (%L1)").arg(m_onlyModel->rowCount()));
    m_opView->sortByColumn(OpGroupDiffModel::DeltaTotalColumn, Qt::DescendingOrder);
    m_memoryChart->setMemoryDiff(comparison->memory);
    fillCategories(comparison->memory);
    m_views->setEnabled(true);
    m_shown = comparison;
    m_timeline->setComparison({});
    showTimelineIfOpen();
    qCInfo(lcCompare) << "comparison shown after" << clock.elapsed() << "ms (computed in" << comparison->computeMs
                      << "ms)";
}

void ComparePanel::fillCategories(const MemoryDiff &memory)
{
    m_categories->setRowCount(kMemoryCategoryCount + 1);
    const auto cell = [](const QString &text, const QVariant &delta = {}) {
        auto *item = new QTableWidgetItem(text);
        if (delta.isValid())
            item->setData(DeltaRole, delta);
        return item;
    };
    const auto bytes = [](const std::optional<MemoryDiffSide> &side, std::uint64_t value) {
        return side ? formatBytes(value) : QStringLiteral("—");
    };
    for (int k = 0; k <= kMemoryCategoryCount; ++k) {
        const bool total = k == kMemoryCategoryCount;
        const auto category = MemoryCategory(total ? 0 : k);
        const std::uint64_t b = !memory.baseline ? 0
                                : total          ? memory.baseline->peakBytes
                                                 : memory.baseline->peakByCategory[std::size_t(k)];
        const std::uint64_t c = !memory.candidate ? 0
                                : total           ? memory.candidate->peakBytes
                                                  : memory.candidate->peakByCategory[std::size_t(k)];
        const std::optional<std::int64_t> d = total ? memory.peakDeltaBytes() : memory.categoryDeltaBytes(category);
        m_categories->setItem(k, 0, cell(total ? tr("Peak") : QString::fromUtf8(memoryCategoryName(category).data())));
        m_categories->setItem(k, 1, cell(bytes(memory.baseline, b)));
        m_categories->setItem(k, 2, cell(bytes(memory.candidate, c)));
        m_categories->setItem(
            k, 3, d ? cell(formatDeltaBytes(*d), QVariant::fromValue<qint64>(*d)) : cell(QStringLiteral("—")));
    }
}

void ComparePanel::showTimelineIfOpen()
{
    if (m_shown && m_views->currentWidget() == m_timeline)
        m_timeline->setComparison(m_shown);
}

void ComparePanel::clearComparison()
{
    m_shown.reset();
    m_timeline->setComparison({});
    m_spanModel->setComparison(nullptr);
    m_opModel->setComparison(nullptr);
    m_onlyModel->setComparison(nullptr);
    m_memoryChart->setMemoryDiff({});
    m_categories->setRowCount(0);
    m_summary->hide();
    m_indicative->hide();
    m_fairness->dismiss();
    m_views->setEnabled(false);
}

} // namespace TraceInspector
