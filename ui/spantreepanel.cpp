// SPDX-License-Identifier: MIT
#include "ui/spantreepanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include <vector>

#include "core/analysis/format.h"
#include "core/analysis/spantree.h"
#include "core/itemmodels/spanfilterproxymodel.h"
#include "core/itemmodels/spantreemodel.h"
#include "ui/delegates/durationbardelegate.h"
#include "ui/delegates/spanitemdelegate.h"
#include "ui/widgets/filterlineedit.h"

namespace TraceInspector {

namespace {
// Above this many matches the filter does not expand their ancestors automatically: the
// expansion itself would cost more than it helps.
constexpr std::size_t kAutoExpandLimit = 2000;
// Traces with fewer spans open two levels at load; larger ones only the roots.
constexpr std::size_t kExpandTwoLevelsBelow = 100000;
} // namespace

SpanTreePanel::SpanTreePanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new SpanTreeModel(this))
    , m_proxy(new SpanFilterProxyModel(this))
    , m_itemDelegate(new SpanItemDelegate(this))
    , m_filter(new FilterLineEdit(this))
    , m_status(new QLabel(this))
    , m_view(new QTreeView(this))
{
    m_proxy->setSourceModel(m_model);

    m_filter->setObjectName(QStringLiteral("spanFilter"));
    m_filter->setPlaceholderText(tr("Filter spans by name or id"));
    m_filter->setToolTip(tr("Case-insensitive; the ancestors of matching spans stay visible"));
    m_status->setObjectName(QStringLiteral("spanStatus"));
    m_status->setTextFormat(Qt::PlainText);

    m_view->setObjectName(QStringLiteral("spanTreeView"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true); // constant-time layout for huge trees
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAllColumnsShowFocus(true);
    m_view->setIndentation(14);
    m_view->setTextElideMode(Qt::ElideMiddle); // span names differ at both ends (model.layers.N.…)
    m_view->setItemDelegate(m_itemDelegate);
    m_view->setItemDelegateForColumn(SpanTreeModel::BarColumn, new DurationBarDelegate(m_view));
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder); // tree order until a header is clicked
    m_view->header()->setSortIndicatorClearable(true);
    m_view->setSortingEnabled(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    m_view->setColumnWidth(SpanTreeModel::NameColumn, 24 * em);
    m_view->setColumnWidth(SpanTreeModel::KindColumn, 6 * em);
    m_view->setColumnWidth(SpanTreeModel::StepColumn, 7 * em);
    m_view->setColumnWidth(SpanTreeModel::StartColumn, 8 * em);
    m_view->setColumnWidth(SpanTreeModel::DurationColumn, 6 * em);
    m_view->setColumnWidth(SpanTreeModel::SelfColumn, 6 * em);
    m_view->setColumnWidth(SpanTreeModel::MeasuredPercentColumn, 7 * em);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_filter, 1);
    top->addWidget(m_status);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

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

void SpanTreePanel::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree)
{
    m_trace = std::move(trace);
    m_tree = std::move(tree);
    m_model->setTrace(m_trace, m_tree);
    if (m_tree) {
        m_view->expandToDepth(m_tree->spanCount() < kExpandTwoLevelsBelow ? 1 : 0);
        expandMatches();
    }
    updateStatus();
}

void SpanTreePanel::clear()
{
    setTrace({}, {});
}

qint64 SpanTreePanel::selectedSpan() const
{
    return spanOf(m_view->currentIndex());
}

QString SpanTreePanel::filterText() const
{
    return m_proxy->filterText();
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
    expandMatches();
    if (current >= 0) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSpan(current));
        if (index.isValid())
            m_view->scrollTo(index);
    }
    m_view->viewport()->update();
    updateStatus();
}

void SpanTreePanel::expandMatches()
{
    if (!m_tree || m_proxy->filterText().isEmpty())
        return;
    const std::vector<std::uint32_t> matches = m_proxy->matches();
    if (matches.size() > kAutoExpandLimit)
        return;
    std::vector<std::uint8_t> done(m_tree->spanCount(), 0);
    std::vector<std::uint32_t> chain;
    for (std::uint32_t match : matches) {
        chain.clear();
        for (std::uint32_t p = m_tree->parent(match); p != SpanTree::kNoParent && !done[p]; p = m_tree->parent(p)) {
            done[p] = 1;
            chain.push_back(p);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            m_view->expand(m_proxy->mapFromSource(m_model->indexForSpan(*it)));
    }
}

void SpanTreePanel::expandTo(qint64 spanIndex)
{
    std::vector<std::uint32_t> chain;
    for (std::uint32_t p = m_tree->parent(std::size_t(spanIndex)); p != SpanTree::kNoParent; p = m_tree->parent(p))
        chain.push_back(p);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        m_view->expand(m_proxy->mapFromSource(m_model->indexForSpan(*it)));
}

void SpanTreePanel::selectSpan(qint64 spanIndex)
{
    if (!m_tree || spanIndex < 0 || std::uint64_t(spanIndex) >= m_tree->spanCount())
        return;
    if (!m_proxy->mapFromSource(m_model->indexForSpan(spanIndex)).isValid())
        setFilterText(QString()); // the filter hides it; showing it wins
    expandTo(spanIndex);
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSpan(spanIndex));
    if (!index.isValid())
        return;
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void SpanTreePanel::updateStatus()
{
    if (!m_tree) {
        m_status->setText(tr("No spans"));
        return;
    }
    QStringList parts;
    if (m_proxy->filterText().isEmpty())
        parts << (m_tree->spanCount() == 1 ? tr("1 span") : tr("%1 spans").arg(formatCount(m_tree->spanCount())));
    else
        parts << tr("%1 of %2 spans match").arg(formatCount(m_proxy->matchCount()), formatCount(m_tree->spanCount()));
    if (m_tree->measuredTotalNs() > 0)
        parts << tr("measured %1").arg(formatDuration(m_tree->measuredTotalNs()));
    else
        parts << tr("no measured span");
    if (m_tree->openCount() > 0)
        parts << tr("%1 open").arg(formatCount(m_tree->openCount()));
    if (m_tree->danglingCount() > 0)
        parts << tr("%1 dangling").arg(formatCount(m_tree->danglingCount()));
    if (m_tree->cycleCount() > 0)
        parts << tr("%1 parent cycles").arg(formatCount(m_tree->cycleCount()));
    m_status->setText(parts.join(QStringLiteral(" \u00B7 ")));
}

} // namespace TraceInspector
