// SPDX-License-Identifier: MIT
#include "ui/optablepanel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLoggingCategory>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/display/format.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/opaggregatemodel.h"
#include "core/itemmodels/opfilterproxymodel.h"
#include "core/itemmodels/optablemodel.h"
#include "core/model/trace.h"
#include "ui/compare/deltadelegate.h"
#include "ui/delegates/durationbardelegate.h"
#include "ui/delegates/spanitemdelegate.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"
#include "core/loading/workerpool.h"

namespace TraceInspector {

Q_LOGGING_CATEGORY(lcOpTable, "candle.ui.optable", QtInfoMsg)

namespace {
// Selecting more rows than this one by one costs more than it tells the user.
constexpr std::size_t kMaxSpanOpSelection = 10000;
} // namespace

OpTablePanel::OpTablePanel(QWidget *parent)
    : QWidget(parent)
    , m_rangeWatcher(new QFutureWatcher<RangeStatistics>(this))
    , m_opModel(new OpTableModel(this))
    , m_opProxy(new OpFilterProxyModel(this))
    , m_aggregateModel(new OpAggregateModel(this))
    , m_aggregateProxy(new QSortFilterProxyModel(this))
    , m_filter(new FilterLineEdit(this))
    , m_status(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_opView(new QTableView(this))
    , m_aggregateView(new QTableView(this))
{
    m_opProxy->setSourceModel(m_opModel);
    m_opModel->setBackgroundSorting(true);
    connect(m_rangeWatcher, &QFutureWatcherBase::finished, this, [this] {
        const quint64 generation = m_rangeGeneration;
        const RangeStatistics stats = m_rangeWatcher->result();
        if (!m_aggregating || !stats.byName || generation != m_rangeGeneration)
            return;
        m_aggregating = false;
        if (m_range.isEmpty()) { // the whole run's, computed because setTrace() was given none
            m_statistics = stats.byName;
            if (stats.byShape)
                m_shapeStatistics = stats.byShape;
        }
        m_aggregateModel->setTrace(m_trace, stats.byName);
        m_aggregateModel->setShapeStatistics(stats.byShape);
        updateStatus();
        Q_EMIT timeRangeApplied();
    });
    m_aggregateProxy->setSourceModel(m_aggregateModel);
    m_aggregateProxy->setSortRole(SortRole);
    m_aggregateProxy->setFilterKeyColumn(OpAggregateModel::NameColumn);
    m_aggregateProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setObjectName(QStringLiteral("opFilter"));
    m_filter->setPlaceholderText(tr("Filter ops by name, span, device or dtype"));
    m_filter->setToolTip(tr("Case-insensitive substring of op name, span id, span name, device or dtype"));
    m_status->setObjectName(QStringLiteral("opStatus"));
    m_status->setTextFormat(Qt::PlainText);

    m_opView->setObjectName(QStringLiteral("opTableView"));
    setupTable(m_opView);
    m_opView->setModel(m_opProxy);
    m_opView->setItemDelegate(new SpanItemDelegate(m_opView)); // warning icon for unknown spans
    // Names and shapes elide at their end, span ids never: a cut id names another span.
    m_opActions = new TableActions(m_opView, QStringLiteral("ops"));
    m_opActions->setColumnFits({{OpTableModel::SpanColumn, 4, 60, [this] { return longestSpanId(); }},
                                {OpTableModel::ShapeColumn, 8, 30},
                                {OpTableModel::DtypeColumn, 4, 10},
                                {OpTableModel::DeviceColumn, 5, 14},
                                {OpTableModel::StartColumn, 9, 26, [this] { return widestStart(); }, false},
                                {OpTableModel::DurationColumn, 7, 20, {}, false},
                                {OpTableModel::InputBytesColumn, 8, 12},
                                {OpTableModel::OutputBytesColumn, 8, 12},
                                {OpTableModel::BytesMovedColumn, 8, 12},
                                {OpTableModel::BytesPerNsColumn, 8, 14},
                                {OpTableModel::ParentShareColumn, 6, 10}},
                               OpTableModel::NameColumn);
    m_opActions->addRowAction(
        tr("Select &Span"), [this](const QModelIndex &row) { Q_EMIT spanActivated(m_opModel->spanOfOp(opOf(row))); },
        [this](const QModelIndex &row) { return m_opModel->spanOfOp(opOf(row)) >= 0; },
        QKeySequence(Qt::CTRL | Qt::Key_J));

    m_aggregateView->setObjectName(QStringLiteral("opAggregateView"));
    setupTable(m_aggregateView);
    m_aggregateView->setModel(m_aggregateProxy);
    m_aggregateView->setItemDelegateForColumn(OpAggregateModel::TotalColumn, new DurationBarDelegate(m_aggregateView));
    // The comparison's Δ columns (present while a comparison is shown): faster / slower colours.
    auto *delta = new DeltaDelegate(m_aggregateView);
    for (const int column : {OpAggregateModel::DeltaTotalColumn, OpAggregateModel::DeltaTotalPercentColumn,
                             OpAggregateModel::DeltaBytesColumn, OpAggregateModel::DeltaBytesPercentColumn})
        m_aggregateView->setItemDelegateForColumn(column, delta);
    m_aggregateView->setToolTip(tr("Double-click a row to list its ops"));
    m_aggregateActions = new TableActions(m_aggregateView, QStringLiteral("ops-by-name"));
    m_aggregateActions->setColumnFits({{OpAggregateModel::CountColumn, 6, 12},
                                       {OpAggregateModel::TotalColumn, 10, 20},
                                       {OpAggregateModel::MeanColumn, 7, 20},
                                       {OpAggregateModel::MinColumn, 7, 20},
                                       {OpAggregateModel::MaxColumn, 7, 20},
                                       {OpAggregateModel::PercentColumn, 6, 12},
                                       {OpAggregateModel::BytesMovedColumn, 8, 12},
                                       {OpAggregateModel::BytesPerNsColumn, 8, 14},
                                       {OpAggregateModel::ParentShareColumn, 6, 10},
                                       {OpAggregateModel::ShapeColumn, 8, 30},
                                       {OpAggregateModel::DtypeColumn, 4, 10},
                                       {OpAggregateModel::DeviceColumn, 5, 14}},
                                      OpAggregateModel::NameColumn);
    // The group key reads first: shape, dtype and device sit right after the op name.
    for (int i = 0; i < 3; ++i)
        m_aggregateView->horizontalHeader()->moveSection(OpAggregateModel::ShapeColumn + i, 1 + i);
    m_aggregateActions->addRowAction(tr("&List These Ops"), [this](const QModelIndex &row) { showOpsNamed(row); });

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_opView, tr("All ops"));
    m_tabs->addTab(m_aggregateView, tr("Aggregate"));

    m_grouping = new QComboBox(this);
    m_grouping->setObjectName(QStringLiteral("opGrouping"));
    m_grouping->addItem(tr("By op"), int(OpGrouping::Name));
    m_grouping->addItem(tr("By op, shape, dtype, device"), int(OpGrouping::NameShapeDtypeDevice));
    m_grouping->setToolTip(tr("How the aggregate groups op records"));
    m_tabs->setCornerWidget(m_grouping, Qt::TopRightCorner);
    connect(m_grouping, &QComboBox::currentIndexChanged, this,
            [this] { setGrouping(OpGrouping(m_grouping->currentData().toInt())); });
    setGrouping(OpGrouping::Name);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_status);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);

    connect(m_filter, &FilterLineEdit::filterChanged, this, &OpTablePanel::applyFilter);
    connect(m_opView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { Q_EMIT opSelected(opOf(current)); });
    connect(m_opView, &QTableView::activated, this, [this](const QModelIndex &index) {
        const qint64 op = opOf(index);
        if (op >= 0)
            Q_EMIT opActivated(op);
        if (const qint64 span = m_opModel->spanOfOp(op); span >= 0)
            Q_EMIT spanActivated(span);
    });
    connect(m_aggregateView, &QTableView::activated, this, &OpTablePanel::showOpsNamed);
    connect(m_opProxy, &QAbstractItemModel::modelReset, this, &OpTablePanel::updateStatus);
    connect(m_opProxy, &QAbstractItemModel::layoutChanged, this, &OpTablePanel::updateStatus);
    // A big table sorts on a worker thread: a busy cursor and word until the order lands.
    connect(m_opModel, &OpTableModel::sortingChanged, this, [this](bool sorting) {
        if (sorting)
            m_opView->viewport()->setCursor(Qt::BusyCursor);
        else
            m_opView->viewport()->unsetCursor();
        updateStatus();
    });
    updateStatus();
}

OpTablePanel::~OpTablePanel() = default;

void OpTablePanel::setupTable(QTableView *view)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setCornerButtonEnabled(false);
    view->verticalHeader()->hide();
    // Fixed row heights keep QHeaderView from tracking a million individual sections.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // stream order
    view->horizontalHeader()->setSortIndicatorClearable(true);
    view->horizontalHeader()->setHighlightSections(false);
    view->setSortingEnabled(true);
}

void OpTablePanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                            std::shared_ptr<const OpStatistics> statistics,
                            std::shared_ptr<const RecordExtents> extents)
{
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    if (m_trace && !extents)
        extents = std::make_shared<const RecordExtents>(RecordExtents::compute(*m_trace));
    m_extents = m_trace ? std::move(extents) : nullptr;
    m_shapeStatistics.reset();
    ++m_rangeGeneration;
    m_aggregating = false;
    m_range = {};
    m_opProxy->setTimeRange({});
    m_opView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_opModel->setTrace(m_trace, m_tree, m_extents.get());
    m_statistics = statistics;
    m_aggregateModel->setTrace(m_trace, std::move(statistics));
    if (m_trace && !m_statistics)
        aggregateInBackground({});
    updateStatus();
}

void OpTablePanel::setShapeStatistics(std::shared_ptr<const OpStatistics> statistics)
{
    m_shapeStatistics = statistics;
    if (m_range.isEmpty())
        m_aggregateModel->setShapeStatistics(std::move(statistics));
    updateStatus();
}

void OpTablePanel::setGrouping(OpGrouping grouping)
{
    const int item = m_grouping->findData(int(grouping));
    if (item != m_grouping->currentIndex()) {
        m_grouping->setCurrentIndex(item); // comes back here through currentIndexChanged
        return;
    }
    QElapsedTimer clock;
    clock.start();
    m_aggregateModel->setGrouping(grouping);
    const bool detailed = grouping == OpGrouping::NameShapeDtypeDevice;
    for (int column : {OpAggregateModel::ShapeColumn, OpAggregateModel::DtypeColumn, OpAggregateModel::DeviceColumn})
        m_aggregateView->setColumnHidden(column, !detailed);
    m_aggregateActions->fitColumns();
    updateStatus();
    qCInfo(lcOpTable) << "aggregate regrouped in" << clock.elapsed() << "ms," << m_aggregateModel->rowCount() << "rows";
}

void OpTablePanel::setSpanTree(std::shared_ptr<const SpanTree> tree)
{
    if (!m_trace)
        return;
    const qint64 current = selectedOp();
    const int sortColumn = m_opModel->sortColumn();
    const Qt::SortOrder sortOrder = m_opModel->sortOrder();
    m_tree = std::move(tree);
    m_opModel->setTrace(m_trace, m_tree, m_extents.get()); // resets the order; put it back
    if (sortColumn >= 0)
        m_opProxy->sort(sortColumn, sortOrder);
    if (current >= 0) {
        const QModelIndex index = m_opProxy->mapFromSource(m_opModel->indexForOp(current));
        if (index.isValid()) {
            m_opView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                                   | QItemSelectionModel::Rows);
            m_opView->scrollTo(index);
        }
    }
    updateStatus();
}

void OpTablePanel::clear()
{
    setTrace({});
}

void OpTablePanel::resetView()
{
    setFilterText(QString());
    m_opView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_aggregateView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_aggregateProxy->sort(-1); // the model's own order: longest total first
    m_opView->selectionModel()->clear();
    m_opView->setCurrentIndex(QModelIndex());
    m_aggregateView->selectionModel()->clear();
    m_tabs->setCurrentIndex(AllOpsTab);
    m_opView->scrollToTop();
}

void OpTablePanel::setTimeRange(const TimeWindow &range)
{
    const TimeWindow next = range.isEmpty() ? TimeWindow{} : range;
    if (next == m_range || !m_trace)
        return;
    m_range = next;
    const qint64 current = selectedOp();
    m_opProxy->setTimeRange(next);
    if (current >= 0) {
        const QModelIndex index = m_opProxy->mapFromSource(m_opModel->indexForOp(current));
        if (index.isValid())
            m_opView->scrollTo(index);
    }
    ++m_rangeGeneration;
    if (next.isEmpty()) {
        m_aggregating = false;
        m_aggregateModel->setTrace(m_trace, m_statistics);
        m_aggregateModel->setShapeStatistics(m_shapeStatistics);
        if (!m_statistics) { // the whole run's aggregate was still being computed
            aggregateInBackground({});
            return;
        }
        updateStatus();
        Q_EMIT timeRangeApplied();
        return;
    }
    aggregateInBackground(next);
}

void OpTablePanel::aggregateInBackground(const TimeWindow &window)
{
    // A pass over every op (0.8 M at 1 GB): off the GUI thread.
    m_aggregating = true;
    updateStatus();
    const std::shared_ptr<const Trace> trace = m_trace;
    const std::shared_ptr<const SpanTree> tree = m_tree;
    m_rangeWatcher->setFuture(QtConcurrent::run(workerPool(), [trace, tree, next = window] {
        // Both groupings, so switching between them inside the range needs no new pass.
        RangeStatistics stats;
        stats.byName =
            std::make_shared<const OpStatistics>(OpStatistics::compute(*trace, OpGrouping::Name, tree.get(), next));
        if (tree)
            stats.byShape = std::make_shared<const OpStatistics>(
                OpStatistics::compute(*trace, OpGrouping::NameShapeDtypeDevice, tree.get(), next));
        return stats;
    }));
}

void OpTablePanel::setTimeUnit(TimeUnit unit)
{
    m_opModel->setTimeUnit(unit);
    m_aggregateModel->setTimeUnit(unit);
    m_opActions->fitColumns();
    m_aggregateActions->fitColumns();
}

QString OpTablePanel::widestStart() const
{
    // Times never elide: their last digits tell neighbours apart (late in a run too).
    if (!m_trace)
        return {};
    const TimeUnit unit = m_opModel->timeUnit();
    return widestTimePoint(m_extents->opLatestStartNs, unit, unit == TimeUnit::Auto);
}

QString OpTablePanel::longestSpanId() const
{
    // The widest id is almost always the longest; measuring every one would cost more.
    if (!m_trace || m_extents->longestIdSpan >= m_trace->spans.size()) // kNoSpan: no spans
        return {};
    const std::string_view id = m_trace->str(m_trace->spans[m_extents->longestIdSpan].id);
    return QString::fromUtf8(id.data(), qsizetype(id.size()));
}

qint64 OpTablePanel::selectedOp() const
{
    return opOf(m_opView->currentIndex());
}

QString OpTablePanel::filterText() const
{
    return m_opProxy->filterText();
}

void OpTablePanel::setFilterText(const QString &text)
{
    m_filter->setFilterText(text);
}

qint64 OpTablePanel::opOf(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid())
        return -1;
    return m_opModel->opAt(m_opProxy->mapToSource(proxyIndex).row());
}

void OpTablePanel::applyFilter(const QString &text)
{
    const qint64 current = selectedOp();
    m_opProxy->setFilterText(text);
    m_aggregateProxy->setFilterFixedString(text.trimmed());
    if (current >= 0) {
        const QModelIndex index = m_opProxy->mapFromSource(m_opModel->indexForOp(current));
        if (index.isValid())
            m_opView->scrollTo(index);
    }
    updateStatus();
}

void OpTablePanel::showOpsNamed(const QModelIndex &aggregateIndex)
{
    const QString name = aggregateIndex.data(OpNameRole).toString();
    if (name.isEmpty())
        return;
    setFilterText(name);
    m_tabs->setCurrentIndex(AllOpsTab);
}

void OpTablePanel::selectOp(qint64 opIndex)
{
    QModelIndex source = m_opModel->indexForOp(opIndex);
    if (!source.isValid())
        return;
    if (!m_opProxy->mapFromSource(source).isValid())
        setFilterText(QString());
    const QModelIndex index = m_opProxy->mapFromSource(m_opModel->indexForOp(opIndex));
    if (!index.isValid())
        return;
    m_tabs->setCurrentIndex(AllOpsTab);
    m_opView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_opView->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

bool OpTablePanel::showOp(qint64 opIndex)
{
    const QModelIndex index = m_opProxy->mapFromSource(m_opModel->indexForOp(opIndex));
    if (!index.isValid()) {
        m_opView->selectionModel()->clearSelection();
        return false;
    }
    m_opView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_opView->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

void OpTablePanel::selectOpsOfSpan(qint64 spanIndex)
{
    if (!m_tree || spanIndex < 0 || std::uint64_t(spanIndex) >= m_tree->spanCount())
        return;
    const auto ops = m_tree->opsOfSpan(std::size_t(spanIndex));
    QItemSelection selection;
    QModelIndex first;
    for (std::size_t i = 0; i < ops.size() && i < kMaxSpanOpSelection; ++i) {
        const QModelIndex index = m_opProxy->mapFromSource(m_opModel->indexForOp(ops[i]));
        if (!index.isValid())
            continue;
        selection.select(index, index);
        if (!first.isValid() || index.row() < first.row())
            first = index;
    }
    m_opView->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (first.isValid())
        m_opView->scrollTo(first, QAbstractItemView::PositionAtCenter);
}

void OpTablePanel::updateStatus()
{
    if (!m_trace) {
        m_status->setText(tr("No ops"));
        return;
    }
    const std::size_t total = m_trace->ops.size();
    QString text;
    if (m_opProxy->filterText().isEmpty() && m_range.isEmpty())
        text = tr("%1 op(s)", nullptr, numerusCount(total)).arg(formatCount(total));
    else
        text = tr("%1 of %2 op(s)", nullptr, numerusCount(total))
                   .arg(formatCount(std::uint64_t(m_opProxy->rowCount())), formatCount(total));
    if (!m_range.isEmpty())
        text += m_aggregating ? tr(" in the time range (aggregating…)") : tr(" in the time range");
    else if (m_aggregating)
        text += tr(" (aggregating…)");
    if (m_opModel->isSorting())
        text += tr(" (sorting…)");
    m_status->setText(text);
    if (m_aggregateModel->isPending())
        m_aggregateView->setToolTip(tr(
            "The grouping by op, shape, dtype and device is computed with the span tree; it appears when the load gets there"));
    else
        m_aggregateView->setToolTip(tr("Double-click a row to list its ops"));
}

} // namespace TraceInspector
