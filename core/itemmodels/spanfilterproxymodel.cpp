// SPDX-License-Identifier: MIT
#include "core/itemmodels/spanfilterproxymodel.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/analysis/devicetime.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/diff/spancounterpart.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/spantreemodel.h"
#include "core/model/trace.h"

namespace TraceInspector {

namespace {
// -1, 0, 1 for optional values; an unknown value is greater than every known one.
template<typename T>
int compareOptional(const std::optional<T> &a, const std::optional<T> &b)
{
    if (a.has_value() != b.has_value())
        return a.has_value() ? -1 : 1;
    if (!a || *a == *b)
        return 0;
    return *a < *b ? -1 : 1;
}
} // namespace

SpanFilterProxyModel::SpanFilterProxyModel(QObject *parent)
    : QAbstractProxyModel(parent)
    , m_sorter(new BackgroundSort(this))
{
    connect(m_sorter, &BackgroundSort::runningChanged, this, &SpanFilterProxyModel::sortingChanged);
}

bool SpanFilterProxyModel::isSorting() const
{
    return m_sorter->isRunning();
}

SpanFilterProxyModel::~SpanFilterProxyModel() = default;

void SpanFilterProxyModel::setSourceModel(QAbstractItemModel *sourceModel)
{
    beginResetModel();
    m_sorter->cancel(); // an order for the previous source
    if (m_spanModel)
        disconnect(m_spanModel, nullptr, this, nullptr);
    QAbstractProxyModel::setSourceModel(sourceModel);
    m_spanModel = qobject_cast<SpanTreeModel *>(sourceModel);
    if (m_spanModel) {
        // SpanTreeModel only ever changes by a reset (it shows an immutable snapshot).
        connect(m_spanModel, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
            beginResetModel();
            m_sorter->cancel(); // an order for the previous tree
            // Until modelReset, answer from the source's arrays, whatever they hold.
            m_keep.clear();
            m_keepByText = false;
            m_identity = true;
        });
        connect(m_spanModel, &QAbstractItemModel::modelReset, this, [this] {
            // A new tree in a sorted view (the same file loaded again keeps its order): sorting
            // a million spans here would hold the window up. It shows in tree order, filtered,
            // until the worker's order lands.
            const bool later = sortsInBackground();
            install(computeNow(later ? -1 : m_sortColumn));
            endResetModel();
            if (later)
                relayout();
        });
        connect(m_spanModel, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                    // New text for the same values (another time unit) keeps the order.
                    if (!roles.isEmpty() && !roles.contains(SortRole)) {
                        if (rowCount() > 0)
                            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), roles);
                        return;
                    }
                    relayout();
                });
        connect(m_spanModel, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
        // The comparison columns come and go at the end (SpanTreeModel::setComparison()).
        connect(m_spanModel, &QAbstractItemModel::columnsAboutToBeInserted, this,
                [this](const QModelIndex &, int first, int last) { beginInsertColumns({}, first, last); });
        connect(m_spanModel, &QAbstractItemModel::columnsInserted, this, [this] { endInsertColumns(); });
        connect(m_spanModel, &QAbstractItemModel::columnsAboutToBeRemoved, this,
                [this](const QModelIndex &, int first, int last) {
                    // Announced first: a view may note the order it had (sortColumn()).
                    beginRemoveColumns({}, first, last);
                    m_sortedByRemovedColumn = m_sortColumn >= first && m_sortColumn <= last;
                    if (m_sortedByRemovedColumn) {
                        m_sorter->cancel();
                        m_sortColumn = -1; // relaid out in tree order once the columns are gone
                    }
                });
        connect(m_spanModel, &QAbstractItemModel::columnsRemoved, this, [this] {
            endRemoveColumns();
            // Any other order stays as it is: no second sort of a big tree on this thread.
            if (std::exchange(m_sortedByRemovedColumn, false))
                relayout();
        });
    }
    install(computeNow(m_sortColumn));
    endResetModel();
}

void SpanFilterProxyModel::setFilterText(const QString &text)
{
    TextFilter filter(text);
    if (filter.text() == m_filter.text())
        return;
    m_filter = std::move(filter);
    relayout();
    Q_EMIT filterTextChanged(m_filter.text());
}

void SpanFilterProxyModel::setTimeRange(const TimeWindow &range)
{
    const TimeWindow next = range.isEmpty() ? TimeWindow{} : range;
    if (next == m_range)
        return;
    m_range = next;
    relayout();
}

void SpanFilterProxyModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || !m_spanModel || column >= m_spanModel->columnCount())
        column = -1;
    if (column == m_sortColumn && (column < 0 || order == m_sortOrder))
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    relayout();
}

std::size_t SpanFilterProxyModel::spanCount() const
{
    const SpanTree *tree = m_spanModel ? m_spanModel->tree() : nullptr;
    return tree ? tree->spanCount() : 0;
}

bool SpanFilterProxyModel::isMatch(std::int64_t spanIndex) const
{
    if (spanIndex < 0 || std::uint64_t(spanIndex) >= spanCount())
        return false;
    return m_keep.empty() || m_keep[std::size_t(spanIndex)] == Match;
}

bool SpanFilterProxyModel::isVisible(std::int64_t spanIndex) const
{
    if (spanIndex < 0 || std::uint64_t(spanIndex) >= spanCount())
        return false;
    return m_keep.empty() || m_keep[std::size_t(spanIndex)] != Hidden;
}

std::vector<std::uint32_t> SpanFilterProxyModel::matches() const
{
    std::vector<std::uint32_t> result;
    result.reserve(m_keep.empty() ? 0 : m_matchCount);
    for (std::size_t i = 0; i < m_keep.size(); ++i) {
        if (m_keep[i] == Match)
            result.push_back(std::uint32_t(i));
    }
    return result;
}

SpanFilterProxyModel::KeepSet SpanFilterProxyModel::keepSet(const Trace &trace, const SpanTree &tree,
                                                            const TextFilter &filter, const TimeWindow &range)
{
    KeepSet result;
    const std::size_t n = tree.spanCount();
    const bool byText = !filter.isEmpty();
    const bool byTime = !range.isEmpty();
    result.byText = byText;
    if (!byText && !byTime) {
        result.matchCount = n;
        return result;
    }
    std::vector<std::uint8_t> &keep = result.keep;
    keep.assign(n, Hidden);
    // Names repeat across many spans: remember each name's verdict (0 = not yet tested).
    std::vector<std::uint8_t> nameVerdict(trace.strings.size(), 0);
    for (std::size_t i = 0; i < n; ++i) {
        const Span &s = trace.spans[i];
        if (byTime) {
            const bool open = !s.closed;
            const std::uint64_t end =
                open || s.durationNs > UINT64_MAX - s.startNs ? UINT64_MAX : s.startNs + s.durationNs;
            if (s.startNs >= range.end || std::max(end, s.startNs + 1) <= range.begin)
                continue;
            if (!byText) {
                keep[i] = Match;
                ++result.matchCount;
                continue;
            }
        }
        bool match = false;
        if (s.name < nameVerdict.size()) {
            std::uint8_t &verdict = nameVerdict[s.name];
            if (verdict == 0)
                verdict = filter.matches(trace.str(s.name)) ? 2 : 1;
            match = verdict == 2;
        }
        if (!match)
            match = filter.matches(trace.str(s.id));
        if (match) {
            keep[i] = Match;
            ++result.matchCount;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (keep[i] != Match)
            continue;
        // Stops at the first kept ancestor: its own ancestors are (or will be) marked.
        for (std::uint32_t p = tree.parent(i); p != SpanTree::kNoParent && keep[p] == Hidden; p = tree.parent(p))
            keep[p] = Ancestor;
    }
    return result;
}

SpanFilterProxyModel::Layout SpanFilterProxyModel::computeLayout(const Trace &trace, const SpanTree &tree,
                                                                 const DeviceTime *device,
                                                                 const TraceComparison *comparison,
                                                                 const TextFilter &filter, const TimeWindow &range,
                                                                 int column, Qt::SortOrder order)
{
    Layout layout;
    layout.keep = keepSet(trace, tree, filter, range);
    // Without filter and sort the source's own arrays serve (no copy of a million rows).
    layout.identity = layout.keep.keep.empty() && column < 0;
    if (!layout.identity) {
        // The baseline's values, for a sort by a comparison column.
        std::optional<SpanCounterpart> counterpart;
        if (comparison && column >= SpanTreeModel::ColumnCount)
            counterpart.emplace(comparison->diff.spans, *comparison->baseline->spanTree, tree);
        layout.rows =
            buildRows(trace, tree, device, counterpart ? &*counterpart : nullptr, layout.keep.keep, column, order);
    }
    return layout;
}

SpanFilterProxyModel::Layout SpanFilterProxyModel::computeNow(int column) const
{
    const Trace *trace = m_spanModel ? m_spanModel->trace() : nullptr;
    const SpanTree *tree = m_spanModel ? m_spanModel->tree() : nullptr;
    if (!trace || !tree)
        return Layout{};
    return computeLayout(*trace, *tree, m_spanModel->deviceTime(), m_spanModel->comparison().get(), m_filter, m_range,
                         column, m_sortOrder);
}

bool SpanFilterProxyModel::bigForTheWorker() const
{
    const SpanTree *tree = m_spanModel ? m_spanModel->tree() : nullptr;
    return tree && m_backgroundSorting && tree->spanCount() >= BackgroundSort::backgroundRows();
}

bool SpanFilterProxyModel::sortsInBackground() const
{
    // A sorted tree re-sorts every parent's children on each filter, range or order change:
    // a million spans take far longer than a GUI pass may.
    return m_sortColumn >= 0 && bigForTheWorker();
}

bool SpanFilterProxyModel::filtersInBackground() const
{
    // Unsorted, a filter or a time range is still a pass over every span and its ancestors
    // with fresh arrays (57 ms of GUI time for a million spans, more than half of a range
    // selection's): the worker takes it as well. Back to the whole tree stays here, and
    // callers see those rows at once.
    return bigForTheWorker() && (!m_filter.isEmpty() || !m_range.isEmpty());
}

void SpanFilterProxyModel::install(Layout layout)
{
    // The keep set and the rows change together: mapFromSource() reads both.
    m_keep = std::move(layout.keep.keep);
    m_matchCount = layout.keep.matchCount;
    m_keepByText = layout.keep.byText;
    m_identity = layout.identity;
    m_rows = std::move(layout.rows);
}

SpanFilterProxyModel::Rows SpanFilterProxyModel::buildRows(const Trace &trace, const SpanTree &tree,
                                                           const DeviceTime *device, const SpanCounterpart *counterpart,
                                                           const std::vector<std::uint8_t> &keep, int column,
                                                           Qt::SortOrder order)
{
    Rows rows;
    const std::size_t n = tree.spanCount();
    const auto sourceChildren = [&tree, n](std::size_t slot) { return slot == n ? tree.roots() : tree.children(slot); };
    const auto kept = [&keep](std::uint32_t span) { return keep.empty() || keep[span] != Hidden; };

    rows.childOffset.assign(n + 2, 0);
    for (std::size_t slot = 0; slot <= n; ++slot) {
        const auto list = sourceChildren(slot);
        rows.childOffset[slot + 1] = std::uint32_t(std::count_if(list.begin(), list.end(), kept));
    }
    for (std::size_t slot = 1; slot < rows.childOffset.size(); ++slot)
        rows.childOffset[slot] += rows.childOffset[slot - 1];
    rows.children.resize(rows.childOffset[n + 1]);
    rows.row.assign(n, kHidden);
    const auto less = [&](std::uint32_t a, std::uint32_t b) {
        return lessThan(trace, tree, device, counterpart, column, a, b);
    };
    for (std::size_t slot = 0; slot <= n; ++slot) {
        const auto list = sourceChildren(slot);
        const auto begin = rows.children.begin() + rows.childOffset[slot];
        const auto end = std::copy_if(list.begin(), list.end(), begin, kept);
        if (column >= 0 && end - begin > 1) {
            // stable_sort keeps ties in tree order in both directions.
            if (order == Qt::AscendingOrder)
                std::stable_sort(begin, end, less);
            else
                std::stable_sort(begin, end, [&less](std::uint32_t a, std::uint32_t b) { return less(b, a); });
        }
        for (auto it = begin; it != end; ++it)
            rows.row[*it] = std::uint32_t(it - begin);
    }
    return rows;
}

void SpanFilterProxyModel::relayout()
{
    m_sorter->cancel(); // this layout has the newest filter, range and order
    if (!sortsInBackground() && !filtersInBackground()) {
        applyLayout(computeNow(m_sortColumn));
        return;
    }
    const std::shared_ptr<const SpanTree> tree = m_spanModel->treeRef();
    // The worker owns what it reads: the shared snapshots and copies of the filter and range.
    m_sorter->start([this, trace = m_spanModel->traceRef(), tree, device = m_spanModel->deviceTimeRef(),
                     comparison = m_spanModel->comparison(), filter = m_filter, range = m_range, column = m_sortColumn,
                     order = m_sortOrder]() -> BackgroundSort::Apply {
        auto layout = std::make_shared<Layout>(
            computeLayout(*trace, *tree, device.get(), comparison.get(), filter, range, column, order));
        return [this, layout] { applyLayout(std::move(*layout)); };
    });
}

void SpanFilterProxyModel::applyLayout(Layout layout)
{
    Q_EMIT layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    install(std::move(layout));
    QModelIndexList after;
    after.reserve(before.size());
    const std::size_t n = spanCount();
    for (const QModelIndex &index : before) {
        const std::uint32_t span = std::uint32_t(index.internalId());
        const std::uint32_t row = span < n ? rowOf(span) : kHidden;
        after.append(row == kHidden ? QModelIndex() : createIndex(int(row), index.column(), quintptr(span)));
    }
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged();
}

bool SpanFilterProxyModel::lessThan(const Trace &trace, const SpanTree &tree, const DeviceTime *device,
                                    const SpanCounterpart *counterpart, int column, std::uint32_t a, std::uint32_t b)
{
    if (column >= SpanTreeModel::ColumnCount) {
        if (!counterpart)
            return false;
        const SpanCounterpart &c = *counterpart;
        switch (column) {
        case SpanTreeModel::BaselineTotalColumn: return compareOptional(c.baselineTotalNs(a), c.baselineTotalNs(b)) < 0;
        case SpanTreeModel::DeltaTotalColumn: return compareOptional(c.totalDeltaNs(a), c.totalDeltaNs(b)) < 0;
        case SpanTreeModel::DeltaTotalPercentColumn:
            return compareOptional(c.totalDeltaPercent(a), c.totalDeltaPercent(b)) < 0;
        case SpanTreeModel::BaselineSelfColumn: return compareOptional(c.baselineSelfNs(a), c.baselineSelfNs(b)) < 0;
        case SpanTreeModel::DeltaSelfColumn: return compareOptional(c.selfDeltaNs(a), c.selfDeltaNs(b)) < 0;
        case SpanTreeModel::DeltaSelfPercentColumn:
            return compareOptional(c.selfDeltaPercent(a), c.selfDeltaPercent(b)) < 0;
        default: return false;
        }
    }
    const Span &sa = trace.spans[a];
    const Span &sb = trace.spans[b];
    switch (column) {
    case SpanTreeModel::NameColumn: return trace.str(sa.name) < trace.str(sb.name);
    case SpanTreeModel::KindColumn: return sa.kind < sb.kind;
    case SpanTreeModel::StepColumn: return sa.step < sb.step;
    case SpanTreeModel::StartColumn: return sa.startNs < sb.startNs;
    case SpanTreeModel::MeasuredPercentColumn:
        // duration / a common total orders like the duration, unless every value is n/a.
        if (tree.measuredTotalNs() == 0)
            return false;
        [[fallthrough]];
    case SpanTreeModel::DurationColumn:
    case SpanTreeModel::BarColumn: return compareOptional(tree.durationNs(a), tree.durationNs(b)) < 0;
    case SpanTreeModel::SelfColumn: return compareOptional(tree.selfNs(a), tree.selfNs(b)) < 0;
    case SpanTreeModel::DeviceBusyColumn:
    case SpanTreeModel::DeviceLanesColumn: {
        if (!device)
            return false;
        const auto value = [&](std::uint32_t span) -> std::optional<std::uint64_t> {
            if (device->busyOfSpan(span).empty())
                return std::nullopt;
            return column == SpanTreeModel::DeviceBusyColumn
                       ? device->maxBusyNs(span)
                       : device->busyOfSpan(span).size() + device->lanesOmitted(span);
        };
        return compareOptional(value(a), value(b)) < 0;
    }
    default: return false;
    }
}

std::size_t SpanFilterProxyModel::childCount(std::size_t slot) const
{
    if (m_identity) {
        const SpanTree *tree = m_spanModel ? m_spanModel->tree() : nullptr;
        if (!tree)
            return 0;
        return slot == tree->spanCount() ? tree->roots().size() : tree->children(slot).size();
    }
    return m_rows.childOffset[slot + 1] - m_rows.childOffset[slot];
}

std::uint32_t SpanFilterProxyModel::childAt(std::size_t slot, std::size_t row) const
{
    if (m_identity) {
        const SpanTree *tree = m_spanModel->tree();
        return slot == tree->spanCount() ? tree->roots()[row] : tree->children(slot)[row];
    }
    return m_rows.children[m_rows.childOffset[slot] + row];
}

std::uint32_t SpanFilterProxyModel::rowOf(std::uint32_t span) const
{
    return m_identity ? m_spanModel->tree()->row(span) : m_rows.row[span];
}

QModelIndex SpanFilterProxyModel::index(int row, int column, const QModelIndex &parent) const
{
    const std::size_t n = spanCount();
    if (n == 0 || row < 0 || column < 0 || column >= columnCount())
        return {};
    std::size_t slot = n;
    if (parent.isValid()) {
        if (parent.model() != this || parent.column() != 0 || parent.internalId() >= n)
            return {};
        slot = parent.internalId();
    }
    if (std::size_t(row) >= childCount(slot))
        return {};
    return createIndex(row, column, quintptr(childAt(slot, std::size_t(row))));
}

QModelIndex SpanFilterProxyModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() >= spanCount())
        return {};
    const std::uint32_t p = m_spanModel->tree()->parent(child.internalId());
    if (p == SpanTree::kNoParent)
        return {};
    return createIndex(int(rowOf(p)), 0, quintptr(p));
}

QModelIndex SpanFilterProxyModel::sibling(int row, int column, const QModelIndex &idx) const
{
    if (!idx.isValid())
        return {};
    if (row == idx.row())
        return column >= 0 && column < columnCount() ? createIndex(row, column, idx.internalId()) : QModelIndex();
    return index(row, column, parent(idx));
}

int SpanFilterProxyModel::rowCount(const QModelIndex &parent) const
{
    const std::size_t n = spanCount();
    if (n == 0)
        return 0;
    if (!parent.isValid())
        return int(childCount(n));
    if (parent.column() != 0 || parent.internalId() >= n)
        return 0;
    return int(childCount(parent.internalId()));
}

int SpanFilterProxyModel::columnCount(const QModelIndex &parent) const
{
    if (!m_spanModel || (parent.isValid() && parent.column() != 0))
        return 0;
    return m_spanModel->columnCount();
}

bool SpanFilterProxyModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

QModelIndex SpanFilterProxyModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!m_spanModel || !proxyIndex.isValid())
        return {};
    return m_spanModel->indexForSpan(std::int64_t(proxyIndex.internalId()), proxyIndex.column());
}

QModelIndex SpanFilterProxyModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!m_spanModel || !sourceIndex.isValid() || sourceIndex.model() != m_spanModel)
        return {};
    const std::size_t span = sourceIndex.internalId();
    if (span >= spanCount() || !isVisible(std::int64_t(span)))
        return {};
    return createIndex(int(rowOf(std::uint32_t(span))), sourceIndex.column(), quintptr(span));
}

Qt::ItemFlags SpanFilterProxyModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || index.internalId() >= spanCount())
        return Qt::NoItemFlags;
    // The source's flags by span, not through mapToSource(): QTreeView asks for every row it
    // lays out (284k after clearing a filter on a 1 M-span tree), where the round trip through
    // a source index took ~15 ms of GUI CPU per relayout.
    return m_spanModel->spanFlags(index.internalId());
}

QVariant SpanFilterProxyModel::data(const QModelIndex &index, int role) const
{
    if (role == IsFilterMatchRole) {
        if (!index.isValid() || index.internalId() >= spanCount())
            return {};
        return m_keepByText && isMatch(std::int64_t(index.internalId()));
    }
    return QAbstractProxyModel::data(index, role);
}

QVariant SpanFilterProxyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Columns are the source's own; QAbstractProxyModel would map through row 0, which an
    // empty filter result does not have.
    if (!m_spanModel || orientation != Qt::Horizontal)
        return {};
    return m_spanModel->headerData(section, orientation, role);
}

} // namespace TraceInspector
