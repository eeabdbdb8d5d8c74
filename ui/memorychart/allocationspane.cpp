// SPDX-License-Identifier: MIT
#include "ui/memorychart/allocationspane.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/analysis/memoryprofile.h"
#include "core/itemmodels/liveallocationsmodel.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

AllocationsPane::AllocationsPane(QWidget *parent)
    : QWidget(parent)
    , m_query(this, [this](std::uint64_t timeNs, std::vector<std::uint32_t> lifetimes) {
        m_model->setAllocations(m_trace, m_profile, timeNs, std::move(lifetimes));
        listed(timeNs);
    })
{
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("peakTableTitle"));
    m_title->setWordWrap(true);
    m_peakButton = new QPushButton(tr("Back to &peak"), this);
    m_peakButton->setObjectName(QStringLiteral("memoryBackToPeak"));
    m_peakButton->setToolTip(tr("List the allocations live at the logical peak again (key P on the chart)"));
    m_peakButton->hide();
    m_model = new LiveAllocationsModel(this);
    connect(m_model, &LiveAllocationsModel::filteringChanged, this, [this](bool filtering) {
        if (filtering)
            m_table->viewport()->setCursor(Qt::BusyCursor);
        else
            m_table->viewport()->unsetCursor();
        updateTitle();
    });
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("peakAllocationsTable"));
    // The header and a row or two at the least (Qt's default minimum is taller): the panel
    // shares the window's height with the timeline, and a small screen must hold it all.
    m_table->setMinimumHeight(3 * fontMetrics().height());
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(LiveAllocationsModel::BytesColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_actions = new TableActions(m_table, QStringLiteral("live-allocations"));
    m_actions->setColumnFits({{LiveAllocationsModel::StorageColumn, 8, 60},
                              {LiveAllocationsModel::DeviceColumn, 6, 20},
                              {LiveAllocationsModel::BytesColumn, 7, 12},
                              {LiveAllocationsModel::CategoryColumn, 8, 12},
                              {LiveAllocationsModel::SpanColumn, 6, 60},
                              {LiveAllocationsModel::OpColumn, 6, 24},
                              {LiveAllocationsModel::StartColumn, 10, 30,
                               [this] {
                                   const TimeUnit unit = m_model->timeUnit();
                                   return widestTimePoint(m_runEnd, unit, unit == TimeUnit::Auto);
                               },
                               false}},
                             LiveAllocationsModel::TensorIdsColumn);
    m_actions->addRowAction(
        tr("Select &Span"),
        [this](const QModelIndex &row) { Q_EMIT spanActivated(row.data(SpanIndexRole).toLongLong()); },
        [](const QModelIndex &row) { return row.data(SpanIndexRole).toLongLong() >= 0; },
        QKeySequence(Qt::CTRL | Qt::Key_J));
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const qint64 span = index.data(SpanIndexRole).toLongLong();
        if (span >= 0)
            Q_EMIT allocationSpanSelected(span);
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) {
        const qint64 span = index.data(SpanIndexRole).toLongLong();
        if (span >= 0)
            Q_EMIT spanActivated(span);
    });
    connect(m_peakButton, &QPushButton::clicked, this, &AllocationsPane::peakRequested);

    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_title, 1);
    header->addWidget(m_peakButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_table);
}

void AllocationsPane::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const MemoryProfile> profile,
                               std::uint64_t runEnd)
{
    m_trace = std::move(trace);
    m_profile = std::move(profile);
    m_runEnd = runEnd;
}

void AllocationsPane::clear()
{
    m_query.cancel();
    m_trace.reset();
    m_profile.reset();
    m_runEnd = 0;
    m_logicalKnown = false;
    m_device.clear();
    m_clicked.reset();
    m_peak.reset();
    m_tableInstant.reset();
    m_model->clear();
    m_peakButton->hide();
    m_title->setText(tr("Allocations live at an instant"));
}

void AllocationsPane::show(bool logicalKnown, const QString &device, std::optional<std::uint64_t> clicked,
                           std::optional<std::uint64_t> peak)
{
    m_query.cancel();
    m_logicalKnown = logicalKnown && m_trace && m_profile;
    m_device = device;
    m_clicked = clicked;
    m_peak = peak;
    const std::optional<std::uint64_t> t = clicked ? clicked : peak;
    if (!m_logicalKnown || !t) {
        m_model->clear();
        listed(std::nullopt);
        return;
    }
    if (!clicked && device.isEmpty()) {
        // The §8.1 peak lists them already.
        m_model->setPeak(m_trace, m_profile);
        listed(t);
        return;
    }
    m_title->setText(tr("Finding the allocations live at %1…").arg(formatTimePoint(*t, m_timeUnit)));
    m_query.start(m_trace, m_profile, *t, device.toStdString());
}

void AllocationsPane::listed(std::optional<std::uint64_t> instant)
{
    m_tableInstant = instant;
    updateTitle();
    Q_EMIT allocationsShown();
}

void AllocationsPane::setTimeUnit(TimeUnit unit)
{
    m_timeUnit = unit;
    m_model->setTimeUnit(unit);
    m_actions->fitColumns();
    updateTitle();
}

void AllocationsPane::setTimeRange(const TimeWindow &range)
{
    // Only the storages alive in the range, like the other lists.
    m_model->setTimeRange(range);
    updateTitle();
}

bool AllocationsPane::selectAllocationsOfSpan(qint64 spanIndex)
{
    const int row = m_model->firstRowOfSpan(spanIndex);
    const QModelIndex index = row >= 0 ? m_proxy->mapFromSource(m_model->index(row, 0)) : QModelIndex();
    const QSignalBlocker block(m_table->selectionModel());
    if (!index.isValid()) {
        m_table->clearSelection();
        m_table->viewport()->update();
        return false;
    }
    m_table->setCurrentIndex(index);
    m_table->selectRow(index.row());
    m_table->scrollTo(index);
    m_table->viewport()->update();
    return true;
}

QString AllocationsPane::title() const
{
    return m_title->text();
}

void AllocationsPane::updateTitle()
{
    m_peakButton->setVisible(m_clicked.has_value() && m_peak.has_value());
    if (!m_logicalKnown) {
        m_title->setText(tr("Allocations live at an instant"));
        return;
    }
    if (!m_tableInstant) {
        m_title->setText(tr("No logical peak: no storage was allocated"));
        return;
    }
    const QString where = m_device.isEmpty() ? QString() : tr(" on %1").arg(m_device);
    const int n = m_model->rowCount();
    QString count = n == 1 ? tr("1 storage") : tr("%1 storages").arg(formatCount(std::uint64_t(n)));
    if (m_model->isFiltering())
        count = tr("keeping those alive in the time range…");
    else if (!m_model->timeRange().isEmpty())
        count = tr("%1 of %2 alive in the time range").arg(count, formatCount(std::uint64_t(m_model->liveCount())));
    const QString at = formatTimePoint(*m_tableInstant, m_timeUnit);
    if (m_clicked)
        m_title->setText(
            tr("Allocations live at %1%2 (clicked): %3, %4").arg(at, where, formatBytes(m_model->totalBytes()), count));
    else
        m_title->setText(tr("Allocations live at the logical peak%1 (%2 at %3): %4")
                             .arg(where, formatBytes(m_model->totalBytes()), at, count));
}

} // namespace TraceInspector
