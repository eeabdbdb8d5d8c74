// SPDX-License-Identifier: MIT
#include "ui/spantreepanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <limits>
#include <utility>

#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"
#include "ui/delegates/durationbardelegate.h"
#include "ui/delegates/spanitemdelegate.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"
#include "ui/widgets/treeview.h"

namespace TraceInspector {

namespace {
// Matches opened at once when a filter applies; the rest follow slice by slice.
constexpr std::size_t kFirstBatch = 400;
// Beyond this many the tree would be too long to read; Next/Previous still reach every match.
constexpr std::size_t kExpandLimit = 20000;
// A slice of the progressive expansion never holds the window longer than this.
constexpr int kSliceMs = 15;
// Traces with fewer spans open two levels at load; larger ones only the roots.
constexpr std::size_t kExpandTwoLevelsBelow = 100000;
} // namespace

SpanTreePanel::SpanTreePanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new SpanTreeModel(this))
    , m_proxy(new SpanFilterProxyModel(this))
    , m_itemDelegate(new SpanItemDelegate(this))
    , m_filter(new FilterLineEdit(this))
    , m_status(new ElidedLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_view(new TreeView(this))
    , m_expandTimer(new QTimer(this))
    , m_expandAllTimer(new QTimer(this))
    , m_stopExpandAll(new QToolButton(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setBackgroundSorting(true);

    m_filter->setObjectName(QStringLiteral("spanFilter"));
    m_filter->setPlaceholderText(tr("Filter spans by name or id"));
    m_filter->setToolTip(tr("Case-insensitive; the ancestors of matching spans stay visible. "
                            "F3 / Shift+F3: next / previous match"));
    m_status->setObjectName(QStringLiteral("spanStatus"));
    m_status->setTextFormat(Qt::PlainText);

    // F3 / Shift+F3 plus the platform's own keys, each once (a key listed twice is ambiguous
    // and triggers nothing).
    const auto keys = [](QKeySequence first, QKeySequence::StandardKey standard) {
        QList<QKeySequence> list{first};
        for (const QKeySequence &k : QKeySequence::keyBindings(standard))
            if (!list.contains(k))
                list << k;
        return list;
    };
    auto *previousAction = new QAction(tr("Previous Match"), this);
    previousAction->setShortcuts(keys(QKeySequence(Qt::SHIFT | Qt::Key_F3), QKeySequence::FindPrevious));
    previousAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    previousAction->setToolTip(tr("Previous span matching the filter (Shift+F3)"));
    connect(previousAction, &QAction::triggered, this, &SpanTreePanel::previousMatch);
    auto *nextAction = new QAction(tr("Next Match"), this);
    nextAction->setShortcuts(keys(QKeySequence(Qt::Key_F3), QKeySequence::FindNext));
    nextAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    nextAction->setToolTip(tr("Next span matching the filter (F3)"));
    connect(nextAction, &QAction::triggered, this, &SpanTreePanel::nextMatch);
    addAction(previousAction);
    addAction(nextAction);
    m_previous->setObjectName(QStringLiteral("spanPreviousMatch"));
    m_previous->setDefaultAction(previousAction);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setAutoRaise(true);
    m_next->setObjectName(QStringLiteral("spanNextMatch"));
    m_next->setDefaultAction(nextAction);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setAutoRaise(true);

    m_view->setObjectName(QStringLiteral("spanTreeView"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true); // constant-time layout for huge trees
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAllColumnsShowFocus(true);
    m_view->setIndentation(14);
    m_view->setItemDelegate(m_itemDelegate);
    m_view->setItemDelegateForColumn(SpanTreeModel::BarColumn, new DurationBarDelegate(m_view));
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder); // tree order until a header is clicked
    m_view->header()->setSortIndicatorClearable(true);
    m_view->setSortingEnabled(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);

    // Names elide at their end (the distinguishing part of module paths is often in the
    // middle, so the full name is on hover); the Name column takes the room left.
    m_actions = new TableActions(m_view, QStringLiteral("spans"));
    m_actions->setExcludedColumns({SpanTreeModel::BarColumn});
    m_actions->addRoleColumn(SpanIdRole, tr("Span id"));
    m_actions->addRoleColumn(DepthRole, tr("Depth"));
    m_actions->setColumnFits({{SpanTreeModel::KindColumn, 5, 14},
                              {SpanTreeModel::StepColumn, 5, 14},
                              {SpanTreeModel::StartColumn, 9, 26,
                               [this] {
                                   // Times never elide: their last digits tell neighbours apart.
                                   const TimeUnit unit = m_model->timeUnit();
                                   return widestTimePoint(m_latestStart, unit, unit == TimeUnit::Auto);
                               },
                               false},
                              {SpanTreeModel::DurationColumn, 7, 20, {}, false},
                              {SpanTreeModel::SelfColumn, 7, 20, {}, false},
                              {SpanTreeModel::MeasuredPercentColumn, 6, 12},
                              {SpanTreeModel::BarColumn, 12, 12},
                              {SpanTreeModel::DeviceBusyColumn, 9, 26},
                              {SpanTreeModel::DeviceLanesColumn, 10, 40}},
                             SpanTreeModel::NameColumn);
    m_actions->addRowAction(tr("E&xpand All Below"),
                            [this](const QModelIndex &row) { expandAllBelow(row.data(SpanIndexRole).toLongLong()); });
    m_actions->addRowAction(tr("Expand &All"), [this](const QModelIndex &) { expandAll(); });
    m_actions->addRowAction(tr("C&ollapse All"), [this](const QModelIndex &) { collapseAll(); });
    m_view->setExpandBelowHandler([this](const QModelIndex &row) { expandAllBelow(spanOf(row)); });
    m_actions->addRowAction(tr("Copy Span &Id"), [](const QModelIndex &row) {
        QApplication::clipboard()->setText(row.data(SpanIdRole).toString());
    });
    // Activation is what zooms the timeline to a span (as a double-click does).
    m_actions->addRowAction(
        tr("Reveal in &Timeline"),
        [this](const QModelIndex &row) { Q_EMIT spanActivated(row.data(SpanIndexRole).toLongLong()); },
        [](const QModelIndex &row) { return row.data(SpanIndexRole).toLongLong() >= 0; });

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(2);
    top->addWidget(m_filter, 1);
    top->addWidget(m_previous);
    top->addWidget(m_next);
    top->addSpacing(4);
    top->addWidget(m_status);
    top->addWidget(m_stopExpandAll);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

    m_stopExpandAll->setObjectName(QStringLiteral("spanStopExpandAll"));
    m_stopExpandAll->setText(tr("Stop"));
    m_stopExpandAll->setToolTip(tr("Stop opening rows; what is open stays open"));
    m_stopExpandAll->hide();
    connect(m_stopExpandAll, &QToolButton::clicked, this, &SpanTreePanel::stopExpandAll);
    m_expandAllTimer->setSingleShot(true);
    m_expandAllTimer->setInterval(0);
    connect(m_expandAllTimer, &QTimer::timeout, this, &SpanTreePanel::expandAllSlice);
    // A million-span sort runs on a worker thread: say so until it lands.
    connect(m_proxy, &SpanFilterProxyModel::sortingChanged, this, [this](bool sorting) {
        m_sorting = sorting;
        if (sorting)
            m_view->viewport()->setCursor(Qt::BusyCursor);
        else
            m_view->viewport()->unsetCursor();
        updateStatus();
        if (!sorting && m_selectWhenLaidOut >= 0)
            selectSpan(std::exchange(m_selectWhenLaidOut, -1));
    });

    m_expandTimer->setSingleShot(true);
    m_expandTimer->setInterval(0);
    connect(m_expandTimer, &QTimer::timeout, this, &SpanTreePanel::expandSlice);
    // A new order (sort) changes which matches come first: open the way again in that order.
    // Filter changes are layout changes too.
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &SpanTreePanel::startExpansion);
    // Comparing again drops the Δ columns while the new baseline loads: a tree sorted by one
    // of them falls back to tree order, and returns to that order (sorted on the worker when
    // big) when the columns come back, unless another order was chosen meanwhile.
    connect(m_proxy, &QAbstractItemModel::columnsAboutToBeRemoved, this,
            [this](const QModelIndex &, int first, int last) {
                const int column = m_proxy->sortColumn();
                if (column >= first && column <= last) {
                    m_comparisonSortColumn = column;
                    m_comparisonSortOrder = m_proxy->sortOrder();
                }
            });
    // Queued: a sort is a layout change, which must not start inside the column insertion.
    connect(
        m_proxy, &QAbstractItemModel::columnsInserted, this,
        [this](const QModelIndex &, int, int last) {
            // This call may come after the columns went again (a queued insertion): keep the
            // order for when they are back.
            const int column = m_comparisonSortColumn;
            if (column < 0 || column > last || column >= m_proxy->columnCount())
                return;
            m_comparisonSortColumn = -1;
            if (m_proxy->sortColumn() < 0) {
                m_view->sortByColumn(column, m_comparisonSortOrder);
                m_proxy->sort(column, m_comparisonSortOrder); // the header may still show it: no signal then
            }
        },
        Qt::QueuedConnection);
    connect(m_filter, &FilterLineEdit::filterChanged, this, &SpanTreePanel::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { Q_EMIT spanSelected(spanOf(current)); });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (const qint64 span = spanOf(index); span >= 0)
            Q_EMIT spanActivated(span);
    });
    updateStatus();
}

SpanTreePanel::~SpanTreePanel() = default;

QTreeView *SpanTreePanel::view() const
{
    return m_view;
}

void SpanTreePanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                             std::shared_ptr<const DeviceTime> deviceTime, const RecordExtents *extents)
{
    stopExpandAll();
    m_expandAllRows = 0;
    m_expandAllTruncated = false;
    m_expandTimer->stop();
    m_walk.clear();
    m_expandedMatches = 0;
    m_matchPosition = 0;
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    m_measured = {};
    m_latestStart = 0;
    if (m_trace) {
        const RecordExtents e = extents ? *extents : RecordExtents::compute(*m_trace);
        m_measured = MeasuredSpanCount{e.measuredSpans, e.closedMeasuredSpans};
        m_latestStart = e.spanLatestStartNs;
    }
    m_model->setTrace(m_trace, m_tree, std::move(deviceTime));
    // No device_interval records: no device columns rather than two empty ones.
    const bool device = m_model->deviceTime() != nullptr;
    m_view->setColumnHidden(SpanTreeModel::DeviceBusyColumn, !device);
    m_view->setColumnHidden(SpanTreeModel::DeviceLanesColumn, !device);
    // Device busy time reads beside host duration and self time (a reset restores model order).
    QHeaderView *header = m_view->header();
    header->moveSection(header->visualIndex(SpanTreeModel::DeviceBusyColumn),
                        header->visualIndex(SpanTreeModel::SelfColumn) + 1);
    header->moveSection(header->visualIndex(SpanTreeModel::DeviceLanesColumn),
                        header->visualIndex(SpanTreeModel::DeviceBusyColumn) + 1);
    if (m_tree) {
        m_view->expandToDepth(m_tree->spanCount() < kExpandTwoLevelsBelow ? 1 : 0);
        if (!m_proxy->filterText().isEmpty())
            startExpansion();
    }
    updateStatus();
}

void SpanTreePanel::clear()
{
    setTrace({}, {});
}

void SpanTreePanel::resetView()
{
    setFilterText(QString());
    m_proxy->setTimeRange({});
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_proxy->sort(-1);
    m_view->selectionModel()->clear();
    m_view->setCurrentIndex(QModelIndex());
    m_view->scrollToTop();
}

void SpanTreePanel::setTimeUnit(TimeUnit unit)
{
    m_model->setTimeUnit(unit);
    m_actions->fitColumns();
}

qint64 SpanTreePanel::selectedSpan() const
{
    return spanOf(m_view->currentIndex());
}

QString SpanTreePanel::filterText() const
{
    return m_proxy->filterText();
}

bool SpanTreePanel::isExpanding() const
{
    return m_expandTimer->isActive();
}

void SpanTreePanel::setFilterText(const QString &text)
{
    m_filter->setFilterText(text);
}

qint64 SpanTreePanel::spanOf(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid())
        return -1;
    return m_model->spanIndex(m_proxy->mapToSource(proxyIndex));
}

void SpanTreePanel::applyFilter(const QString &text)
{
    const qint64 current = selectedSpan();
    m_proxy->setFilterText(text);
    m_itemDelegate->setFilterActive(!m_proxy->filterText().isEmpty());
    m_matchPosition = 0;
    if (current >= 0) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSpan(current));
        if (index.isValid())
            m_view->scrollTo(index);
    }
    m_view->viewport()->update();
    updateStatus();
}

void SpanTreePanel::startExpansion()
{
    m_expandTimer->stop();
    m_walk.clear();
    m_expandedMatches = 0;
    if (!m_tree || m_proxy->filterText().isEmpty()) {
        updateStatus();
        return;
    }
    m_walk.emplace_back(QPersistentModelIndex(), 0);
    expandSlice();
}

void SpanTreePanel::expandSlice()
{
    // Depth first over the rows the filter keeps, in the order shown: every kept row with
    // kept children leads to a match, so it opens. The view relays out once per slice.
    QElapsedTimer clock;
    clock.start();
    const std::size_t budget = m_expandedMatches == 0 ? kFirstBatch : std::numeric_limits<std::size_t>::max();
    std::size_t matchesThisSlice = 0;
    QModelIndexList toExpand;
    while (!m_walk.empty() && m_expandedMatches < kExpandLimit) {
        auto &[parent, next] = m_walk.back();
        if (next >= m_proxy->rowCount(parent)) {
            m_walk.pop_back();
            continue;
        }
        const QModelIndex row = m_proxy->index(next++, 0, parent);
        if (row.data(IsFilterMatchRole).toBool()) {
            ++m_expandedMatches;
            ++matchesThisSlice;
        }
        if (m_proxy->hasChildren(row)) {
            toExpand.append(row);
            m_walk.emplace_back(QPersistentModelIndex(row), 0);
        }
        if (matchesThisSlice >= budget || ((matchesThisSlice & 63) == 0 && clock.elapsed() >= kSliceMs))
            break;
    }
    m_view->expandMany(toExpand);
    if (!m_walk.empty() && m_expandedMatches < kExpandLimit) {
        m_expandTimer->start();
    } else {
        m_walk.clear();
        Q_EMIT expansionFinished();
    }
    updateStatus();
}

bool SpanTreePanel::isExpandingAll() const
{
    return m_expandAllTimer->isActive();
}

QModelIndex SpanTreePanel::proxyIndexOf(std::uint32_t span) const
{
    return m_proxy->mapFromSource(m_model->indexForSpan(std::int64_t(span)));
}

void SpanTreePanel::expandAll()
{
    expandAllBelow(-1);
}

void SpanTreePanel::expandAllBelow(qint64 spanIndex)
{
    stopExpandAll();
    m_expandAllQueue.clear();
    m_expandAllNext = 0;
    m_expandAllRows = 0;
    m_expandAllTruncated = false;
    if (!m_tree)
        return;
    if (spanIndex < 0) {
        const int top = m_proxy->rowCount();
        m_expandAllRows = std::size_t(top);
        for (int r = 0; r < top; ++r)
            m_expandAllQueue.push_back(std::uint32_t(m_proxy->index(r, 0).internalId()));
    } else if (std::uint64_t(spanIndex) < m_tree->spanCount() && proxyIndexOf(std::uint32_t(spanIndex)).isValid()) {
        expandTo(spanIndex);
        m_expandAllQueue.push_back(std::uint32_t(spanIndex));
    }
    m_stopExpandAll->show();
    expandAllSlice();
}

void SpanTreePanel::expandAllSlice()
{
    // Breadth first: a level is opened before the one below it, in the order shown. The view
    // lays out once per slice; slices end after kSliceMs.
    QElapsedTimer clock;
    clock.start();
    QModelIndexList toExpand;
    while (m_expandAllNext < m_expandAllQueue.size()) {
        const std::uint32_t span = m_expandAllQueue[m_expandAllNext];
        const QModelIndex index = proxyIndexOf(span);
        const int children = index.isValid() ? m_proxy->rowCount(index) : 0;
        if (children > 0) {
            const bool open = m_view->isExpanded(index);
            // The node asked for (the first) always opens, whatever its size.
            if (!open && m_expandAllNext > 0 && m_expandAllRows + std::size_t(children) > kExpandAllRowLimit) {
                m_expandAllTruncated = true;
                break;
            }
            if (!open)
                toExpand.append(index);
            m_expandAllRows += std::size_t(children);
            for (int r = 0; r < children; ++r)
                m_expandAllQueue.push_back(std::uint32_t(m_proxy->index(r, 0, index).internalId()));
        }
        ++m_expandAllNext;
        if ((m_expandAllNext & 255) == 0 && clock.elapsed() >= kSliceMs)
            break;
    }
    m_view->expandMany(toExpand);
    if (!m_expandAllTruncated && m_expandAllNext < m_expandAllQueue.size()) {
        m_expandAllTimer->start();
        updateStatus();
        return;
    }
    finishExpandAll();
}

void SpanTreePanel::finishExpandAll()
{
    m_expandAllTimer->stop();
    std::vector<std::uint32_t>().swap(m_expandAllQueue);
    m_expandAllNext = 0;
    m_stopExpandAll->hide();
    updateStatus();
    Q_EMIT expandAllFinished();
}

void SpanTreePanel::stopExpandAll()
{
    if (!m_expandAllTimer->isActive())
        return;
    finishExpandAll();
}

void SpanTreePanel::collapseAll()
{
    stopExpandAll();
    m_expandAllRows = 0;
    m_expandAllTruncated = false;
    m_view->collapseAll();
    updateStatus();
}

void SpanTreePanel::expandTo(qint64 spanIndex)
{
    QModelIndexList chain;
    for (std::uint32_t p = m_tree->parent(std::size_t(spanIndex)); p != SpanTree::kNoParent; p = m_tree->parent(p))
        chain.prepend(m_proxy->mapFromSource(m_model->indexForSpan(p)));
    m_view->expandMany(chain);
}

void SpanTreePanel::selectSpan(qint64 spanIndex)
{
    if (!m_tree || spanIndex < 0 || std::uint64_t(spanIndex) >= m_tree->spanCount())
        return;
    m_selectWhenLaidOut = -1;
    if (!m_proxy->mapFromSource(m_model->indexForSpan(spanIndex)).isValid())
        setFilterText(QString()); // the filter hides it; showing it wins
    if (m_proxy->isSorting() && !m_proxy->mapFromSource(m_model->indexForSpan(spanIndex)).isValid()) {
        // A big sorted tree lays the cleared filter out on a worker: select when it lands.
        m_selectWhenLaidOut = spanIndex;
        return;
    }
    expandTo(spanIndex);
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSpan(spanIndex));
    if (!index.isValid())
        return;
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void SpanTreePanel::setTimeRange(const TimeWindow &range)
{
    const qint64 current = selectedSpan();
    m_proxy->setTimeRange(range);
    if (current >= 0) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSpan(current));
        if (index.isValid())
            m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    }
    updateStatus();
}

TimeWindow SpanTreePanel::timeRange() const
{
    return m_proxy->timeRange();
}

bool SpanTreePanel::showSpan(qint64 spanIndex)
{
    if (!m_tree || spanIndex < 0 || std::uint64_t(spanIndex) >= m_tree->spanCount()
        || !m_proxy->mapFromSource(m_model->indexForSpan(spanIndex)).isValid()) {
        m_view->selectionModel()->clearCurrentIndex();
        m_view->selectionModel()->clearSelection();
        return false;
    }
    selectSpan(spanIndex);
    return true;
}

void SpanTreePanel::nextMatch()
{
    stepMatch(true);
}

void SpanTreePanel::previousMatch()
{
    stepMatch(false);
}

void SpanTreePanel::stepMatch(bool forward)
{
    // While a new filter is laid out on a worker, the rows shown are the old filter's.
    if (!m_tree || m_proxy->filterText().isEmpty() || m_proxy->matchCount() == 0 || m_proxy->isSorting())
        return;
    // Pre-order neighbours in the filtered model (collapsed rows included): a kept row that
    // is no match leads to one within its depth, so the walk stays short.
    const auto lastDescendant = [this](QModelIndex i) {
        while (m_proxy->hasChildren(i))
            i = m_proxy->index(m_proxy->rowCount(i) - 1, 0, i);
        return i;
    };
    const auto after = [this](const QModelIndex &i) -> QModelIndex {
        if (!i.isValid())
            return m_proxy->index(0, 0);
        if (m_proxy->hasChildren(i))
            return m_proxy->index(0, 0, i);
        for (QModelIndex up = i; up.isValid(); up = up.parent()) {
            if (up.row() + 1 < m_proxy->rowCount(up.parent()))
                return m_proxy->index(up.row() + 1, 0, up.parent());
        }
        return {};
    };
    const auto before = [this, &lastDescendant](const QModelIndex &i) -> QModelIndex {
        if (!i.isValid())
            return m_proxy->rowCount() > 0 ? lastDescendant(m_proxy->index(m_proxy->rowCount() - 1, 0)) : QModelIndex();
        if (i.row() > 0)
            return lastDescendant(m_proxy->index(i.row() - 1, 0, i.parent()));
        return i.parent();
    };
    const QModelIndex start = m_view->currentIndex().siblingAtColumn(0);
    QModelIndex i = start;
    bool wrapped = false;
    for (;;) {
        i = forward ? after(i) : before(i);
        if (!i.isValid()) {
            if (wrapped)
                return;
            wrapped = true; // past the end: continue from the other end
            continue;
        }
        if (i == start)
            return;
        if (i.data(IsFilterMatchRole).toBool())
            break;
    }
    const qint64 span = spanOf(i);
    // The position is known while the user walks from match to match.
    const int count = int(std::min<std::size_t>(m_proxy->matchCount(), std::size_t(INT_MAX)));
    int position = 0;
    if (m_matchPosition > 0 && m_lastMatchSpan == spanOf(start))
        position = forward ? (m_matchPosition % count) + 1 : (m_matchPosition + count - 2) % count + 1;
    else if (!start.isValid())
        position = forward ? 1 : count;
    expandTo(span);
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSpan(span));
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_matchPosition = position;
    m_lastMatchSpan = span;
    updateStatus();
}

void SpanTreePanel::updateStatus()
{
    m_previous->setEnabled(m_tree && !m_proxy->filterText().isEmpty() && m_proxy->matchCount() > 0 && !m_sorting);
    m_next->setEnabled(m_previous->isEnabled());
    if (!m_tree) {
        m_status->setText(tr("No spans"));
        return;
    }
    QStringList parts;
    if (m_proxy->filterText().isEmpty() && !m_proxy->timeRange().isEmpty()) {
        parts << tr("%1 of %2 span(s) in the time range", nullptr, numerusCount(m_tree->spanCount()))
                     .arg(formatCount(m_proxy->matchCount()), formatCount(m_tree->spanCount()));
    } else if (m_proxy->filterText().isEmpty()) {
        parts << tr("%1 span(s)", nullptr, numerusCount(m_tree->spanCount())).arg(formatCount(m_tree->spanCount()));
    } else {
        parts << tr("%1 of %2 span(s) match", nullptr, numerusCount(m_tree->spanCount()))
                     .arg(formatCount(m_proxy->matchCount()), formatCount(m_tree->spanCount()));
        if (m_matchPosition > 0 && m_lastMatchSpan == selectedSpan())
            parts << tr("match %1 of %2")
                         .arg(formatCount(std::uint64_t(m_matchPosition)), formatCount(m_proxy->matchCount()));
        if (m_expandTimer->isActive())
            parts << tr("opening %1…").arg(formatCount(m_expandedMatches));
        else if (m_expandedMatches < m_proxy->matchCount() && m_proxy->matchCount() > 0)
            parts << tr("first %1 opened; F3 for the rest").arg(formatCount(m_expandedMatches));
    }
    if (m_sorting) // a worker lays the tree out: a new order, or a filter or range over a big tree
        parts << (m_proxy->sortColumn() >= 0 ? tr("sorting…") : tr("filtering…"));
    if (m_expandAllTimer->isActive())
        parts << tr("expanding: %n row(s)…", nullptr, int(std::min<std::size_t>(m_expandAllRows, INT_MAX)));
    else if (m_expandAllTruncated)
        parts << tr("expanded to %n row(s); Expand All Below (*) on a row goes deeper", nullptr,
                    int(std::min<std::size_t>(m_expandAllRows, INT_MAX)));
    parts << measuredTimeText(m_measured.measured, m_measured.closed, m_tree->measuredTotalNs());
    if (m_tree->openCount() > 0)
        parts << tr("%1 open").arg(formatCount(m_tree->openCount()));
    if (m_tree->danglingCount() > 0)
        parts << tr("%1 dangling").arg(formatCount(m_tree->danglingCount()));
    if (m_tree->cycleCount() > 0)
        parts << tr("%1 parent cycles").arg(formatCount(m_tree->cycleCount()));
    m_status->setText(parts.join(QStringLiteral(" \u00B7 ")));
}

} // namespace TraceInspector
