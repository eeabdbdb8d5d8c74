// SPDX-License-Identifier: MIT
#include "ui/evidencetablepanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/analysis/evidenceanalysis.h"
#include "core/itemmodels/flattablemodel.h"
#include "core/itemmodels/modelroles.h"
#include "ui/widgets/coveragebadge.h"
#include "ui/widgets/filterlineedit.h"
#include "ui/widgets/tableactions.h"

namespace TraceInspector {

EvidenceTablePanel::EvidenceTablePanel(InspectorView view, FlatTableModel *model, QWidget *parent)
    : QWidget(parent)
    , m_inspectorView(view)
    , m_model(model)
    , m_badge(new CoverageBadge(this))
    , m_filter(new FilterLineEdit(this))
    , m_status(new QLabel(this))
    , m_view(new QTableView(this))
    , m_layout(new QVBoxLayout(this))
{
    m_model->setParent(this);
    m_filter->setObjectName(QStringLiteral("evidenceFilter"));
    m_filter->setClearButtonEnabled(true);
    m_status->setObjectName(QStringLiteral("evidenceStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_view->setObjectName(QStringLiteral("evidenceTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setCornerButtonEnabled(false);
    m_view->verticalHeader()->hide();
    // Fixed row heights keep QHeaderView from tracking a million individual sections.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->horizontalHeader()->setSortIndicatorClearable(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setSortingEnabled(true);
    m_actions = new TableActions(m_view, ViewCoverageText::viewName(view));
    m_actions->addRowAction(
        tr("Select &Span"),
        [this](const QModelIndex &row) {
            Q_EMIT spanActivated(row.siblingAtColumn(0).data(SpanIndexRole).toLongLong());
        },
        [](const QModelIndex &row) { return row.siblingAtColumn(0).data(SpanIndexRole).toLongLong() >= 0; });
    m_actions->addRowAction(
        tr("Select &Op"),
        [this](const QModelIndex &row) { Q_EMIT opActivated(row.siblingAtColumn(0).data(OpIndexRole).toLongLong()); },
        [](const QModelIndex &row) {
            const QVariant op = row.siblingAtColumn(0).data(OpIndexRole);
            return op.isValid() && op.toLongLong() >= 0;
        });

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_status);
    m_layout->setContentsMargins(0, 4, 0, 0);
    m_layout->setSpacing(4);
    m_layout->addWidget(m_badge);
    m_layout->addLayout(bar);
    m_layout->addWidget(m_view, 1);

    connect(m_filter, &FilterLineEdit::filterChanged, this, [this](const QString &text) {
        m_model->setFilterText(text);
        updateStatus();
    });
    connect(m_view, &QTableView::activated, this, &EvidenceTablePanel::activateRow);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                Q_EMIT recordSelected(current.isValid() ? m_model->recordAt(current.row()) : -1);
            });
    connect(m_model, &QAbstractItemModel::modelReset, this, &EvidenceTablePanel::updateStatus);
    m_model->setBackgroundSorting(true);
    // A million-row table sorts on a worker thread: a busy cursor and word until it lands.
    connect(m_model, &FlatTableModel::sortingChanged, this, [this](bool sorting) {
        if (sorting)
            m_view->viewport()->setCursor(Qt::BusyCursor);
        else
            m_view->viewport()->unsetCursor();
        updateStatus();
    });
}

EvidenceTablePanel::~EvidenceTablePanel() = default;

void EvidenceTablePanel::activateRow(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const QModelIndex first = index.siblingAtColumn(0);
    const qint64 span = first.data(SpanIndexRole).toLongLong();
    if (span >= 0)
        Q_EMIT spanActivated(span);
    const QVariant op = first.data(OpIndexRole);
    if (op.isValid() && op.toLongLong() >= 0)
        Q_EMIT opActivated(op.toLongLong());
}

void EvidenceTablePanel::resetView()
{
    m_filter->setFilterText(QString());
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_model->sort(-1);
    m_view->clearSelection();
    updateStatus();
}

QString EvidenceTablePanel::statusText() const
{
    return m_status->text();
}

qint64 EvidenceTablePanel::currentRecord() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_model->recordAt(current.row()) : -1;
}

void EvidenceTablePanel::selectRecord(qint64 record)
{
    if (record < 0 || std::uint64_t(record) >= m_model->totalRecords())
        return;
    if (m_model->rowOfRecord(record) < 0) {
        m_filter->setFilterText(QString());
        m_model->setFilterText(QString());
    }
    const int row = m_model->rowOfRecord(record);
    if (row < 0)
        return;
    const QModelIndex index = m_model->index(row, 0);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    updateStatus();
}

void EvidenceTablePanel::updateBadge(const LoadedTracePtr &loaded)
{
    if (loaded && loaded->evidence)
        m_badge->setCoverage(ViewCoverageText::coverage(loaded->evidence->capabilities, m_inspectorView));
    else
        m_badge->clear();
}

void EvidenceTablePanel::updateStatus()
{
    const QString count = countText(m_model->rowCount(), m_model->totalRecords());
    m_status->setText(m_model->isSorting() ? tr("%1 (sorting…)").arg(count) : count);
}

} // namespace TraceInspector
