// SPDX-License-Identifier: MIT
#include "ui/widgets/tableactions.h"

#include <algorithm>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QHelpEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QSet>
#include <QStyle>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>

#include "core/display/format.h"

namespace TraceInspector {

namespace {

constexpr int kSizeSampleRows = 120;

QHeaderView *headerOf(const QAbstractItemView *view)
{
    if (const auto *table = qobject_cast<const QTableView *>(view))
        return table->horizontalHeader();
    if (const auto *tree = qobject_cast<const QTreeView *>(view))
        return tree->header();
    return nullptr;
}

/// Rows from the root to \a index, for sorting tree rows into display order.
QList<int> pathOf(QModelIndex index)
{
    QList<int> path;
    for (; index.isValid(); index = index.parent())
        path.prepend(index.row());
    return path;
}

} // namespace

TableActions::TableActions(QAbstractItemView *view, const QString &tableName)
    : QObject(view)
    , m_view(view)
    , m_tableName(tableName)
    , m_copy(new QAction(tr("&Copy"), this))
    , m_export(new QAction(tr("&Export Table as CSV…"), this))
{
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copy->setToolTip(tr("Copy the selected rows as tab-separated text with a header line"));
    connect(m_copy, &QAction::triggered, this, &TableActions::copySelection);
    m_view->addAction(m_copy);
    connect(m_export, &QAction::triggered, this, &TableActions::exportCsvWithDialog);

    // Column widths sample the visible rows plus this many: the default 1000 rows costs
    // ~10 ms a column on a million-row table, and ids are measured over all rows anyway.
    if (QHeaderView *header = headerOf(m_view))
        header->setResizeContentsPrecision(kSizeSampleRows);
    if (auto *table = qobject_cast<QTableView *>(m_view))
        table->verticalHeader()->setResizeContentsPrecision(kSizeSampleRows);
    m_view->setContextMenuPolicy(Qt::DefaultContextMenu);
    m_view->installEventFilter(this);
    m_viewport = m_view->viewport();
    m_viewport->installEventFilter(this);
    m_view->setTextElideMode(Qt::ElideRight);
}

TableActions::~TableActions() = default;

void TableActions::addRoleColumn(int role, const QString &header)
{
    m_roleColumns.append({role, header});
}

void TableActions::setColumnFits(QList<ColumnFit> fits, int stretchColumn, int stretchMinChars)
{
    m_fits = std::move(fits);
    m_stretch = stretchColumn;
    m_stretchMinChars = stretchMinChars;
    // The stretching column is chosen here; a stretched last section would also keep its
    // stretch when hidden, adding it to the header's length (a needless scroll bar).
    if (QHeaderView *header = headerOf(m_view))
        header->setStretchLastSection(false);
    // Ids never elide, not even when a column is dragged narrower.
    if (QHeaderView *header = headerOf(m_view)) {
        connect(header, &QHeaderView::sectionResized, this, [this, header](int column, int, int size) {
            if (!m_layingOut && column != m_stretch && m_fitted.contains(column))
                m_userSized.insert(column); // by hand: keep it
            const int minimum = m_minimumWidths.value(column, 0);
            if (size < minimum)
                QMetaObject::invokeMethod(
                    header, [header, column, minimum] { header->resizeSection(column, minimum); },
                    Qt::QueuedConnection);
        });
    }
    // After a reset the view has new content; size once it has laid it out.
    if (QAbstractItemModel *model = m_view->model())
        connect(model, &QAbstractItemModel::modelReset, this, &TableActions::requestFit);
    fitColumns();
}

void TableActions::requestFit()
{
    // One fit for however many resets one pass of the event loop brings, and none when
    // fitColumns() ran after them.
    m_fitStale = true;
    if (m_fitQueued)
        return;
    m_fitQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_fitQueued = false;
            if (m_fitStale)
                fitColumns();
        },
        Qt::QueuedConnection);
}

void TableActions::fitColumns()
{
    QHeaderView *header = headerOf(m_view);
    if (!header || !m_view->model())
        return;
    // A table on a tab not shown is fitted when it is shown: a fit samples rows through the
    // delegate, ~5 ms for each evidence table on the 1 GB trace, and the load's stages each
    // reset them while the window is drawing its first panels (issue #13).
    if (!m_view->isVisible() && m_view->window()->isVisible()) {
        m_fitStale = true;
        return;
    }
    m_fitStale = false;
    const int em = m_view->fontMetrics().averageCharWidth();
    m_minimumWidths.clear();
    m_fitted.clear();
    m_userSized.clear();
    const bool hasRows = m_view->model()->rowCount() > 0;
    for (const ColumnFit &fit : std::as_const(m_fits)) {
        if (fit.column == m_stretch || fit.column >= m_view->model()->columnCount())
            continue;
        // The header's own hint includes the sort arrow: a header is never clipped.
        const int headerWidth = header->sectionSizeHint(fit.column);
        const int content = hasRows ? m_view->sizeHintForColumn(fit.column) : 0;
        // A character of air: bold (a filter match) or another unit must still fit.
        int width = std::max(headerWidth, std::clamp(content + em, fit.minChars * em, fit.maxChars * em));
        if (fit.widestText && hasRows) {
            // Cell margins as the style draws them, on both sides, plus a little air.
            const int margin =
                2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 8;
            const int widest = m_view->fontMetrics().horizontalAdvance(fit.widestText()) + margin;
            width = std::max({width, widest, content});
            m_minimumWidths.insert(fit.column, width);
        }
        m_fitted.insert(fit.column, {width, fit.yields && !fit.widestText});
    }
    layoutColumns();
}

void TableActions::layoutColumns()
{
    // The fitted widths when they fit; when the view is too narrow the yielding columns give
    // up room for the stretching one, each down to its header at most, and take it back
    // when the view grows. Columns resized by hand stay as they are.
    QHeaderView *header = headerOf(m_view);
    if (!header || m_layingOut)
        return;
    m_layingOut = true;
    const int em = m_view->fontMetrics().averageCharWidth();
    // A pixel of slack: a header exactly as wide as the view still gets a scroll bar.
    const int available = m_view->viewport()->width() - 2;
    const int stretchMin = m_stretch >= 0 ? std::max(header->sectionSizeHint(m_stretch), m_stretchMinChars * em) : 0;
    int others = 0;
    int spare = 0;
    for (int c = 0; c < header->count(); ++c) {
        if (c == m_stretch || header->isSectionHidden(c))
            continue;
        const auto it = m_fitted.constFind(c);
        if (it == m_fitted.constEnd() || m_userSized.contains(c)) {
            others += header->sectionSize(c);
            continue;
        }
        others += it->width;
        if (it->yields)
            spare += std::max(0, it->width - header->sectionSizeHint(c));
    }
    const int excess = m_stretch >= 0 ? others + stretchMin - available : 0;
    const double keep = excess > 0 && spare > 0 ? 1.0 - std::min(1.0, double(excess) / double(spare)) : 1.0;
    int used = 0;
    for (int c = 0; c < header->count(); ++c) {
        if (c == m_stretch || header->isSectionHidden(c))
            continue;
        const auto it = m_fitted.constFind(c);
        if (it != m_fitted.constEnd() && !m_userSized.contains(c)) {
            const int hint = header->sectionSizeHint(c);
            const int width = it->yields && it->width > hint ? hint + int(double(it->width - hint) * keep) : it->width;
            header->resizeSection(c, width);
        }
        used += header->sectionSize(c);
    }
    if (m_stretch >= 0 && m_stretch < header->count())
        header->resizeSection(m_stretch, std::max(stretchMin, available - used));
    m_layingOut = false;
}

QAction *TableActions::addRowAction(const QString &text, std::function<void(const QModelIndex &)> run,
                                    std::function<bool(const QModelIndex &)> enabled, const QKeySequence &shortcut)
{
    auto *action = new QAction(text, this);
    if (!shortcut.isEmpty()) {
        action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_view->addAction(action);
    }
    // Triggered from the view's shortcut: the current row; the menu passes its own row.
    connect(action, &QAction::triggered, this, [this, action] {
        const QModelIndex row = action->data().isValid()
                                    ? action->data().value<QPersistentModelIndex>()
                                    : QPersistentModelIndex(m_view->currentIndex().siblingAtColumn(0));
        action->setData({});
        if (row.isValid()) {
            for (const RowAction &a : m_rowActions)
                if (a.action == action && (!a.enabled || a.enabled(row)))
                    a.run(row);
        }
    });
    m_rowActions.push_back({action, std::move(run), std::move(enabled)});
    return action;
}

std::vector<RowExportJob::Column> TableActions::columns() const
{
    std::vector<RowExportJob::Column> out;
    const QAbstractItemModel *model = m_view->model();
    if (!model)
        return out;
    const QHeaderView *header = headerOf(m_view);
    const int count = model->columnCount();
    for (int visual = 0; visual < count; ++visual) {
        const int logical = header ? header->logicalIndex(visual) : visual;
        if (logical < 0 || (header && header->isSectionHidden(logical) && !m_includeHidden)
            || m_excluded.contains(logical))
            continue;
        out.push_back({logical, Qt::DisplayRole, model->headerData(logical, Qt::Horizontal).toString()});
    }
    for (const RoleColumn &r : m_roleColumns)
        out.push_back({0, r.role, r.header});
    return out;
}

QModelIndexList TableActions::selectedRows() const
{
    QModelIndexList rows;
    const QItemSelectionModel *selection = m_view->selectionModel();
    if (selection) {
        for (const QModelIndex &i : selection->selectedIndexes())
            rows.append(i.siblingAtColumn(0));
    }
    if (rows.isEmpty() && m_view->currentIndex().isValid())
        rows.append(m_view->currentIndex().siblingAtColumn(0));
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return pathOf(a) < pathOf(b); });
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

QString TableActions::rowsAsTsv(const QModelIndexList &rows) const
{
    RowExportJob job(m_view->model(), columns(), RowExportJob::Format::Tsv);
    job.setRows(rows);
    job.start(); // a given list of rows is written at once
    return job.text();
}

QString TableActions::rowAsJson(const QModelIndex &row) const
{
    QJsonObject object;
    for (const RowExportJob::Column &c : columns()) {
        const QModelIndex cell = c.role == Qt::DisplayRole ? row.siblingAtColumn(c.column) : row.siblingAtColumn(0);
        const QVariant value = cell.data(c.role);
        const QString key = c.header.isEmpty() ? QStringLiteral("column %1").arg(c.column) : c.header;
        object.insert(key, value.toString());
    }
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

void TableActions::startJob(RowExportJob *job, const QString &what)
{
    if (m_job)
        m_job->cancel();
    m_job = job;
    connect(job, &RowExportJob::progress, this, [this, what](int rows) {
        status(tr("%1… %2 row(s)", nullptr, rows).arg(what, formatCount(std::uint64_t(rows))), 0);
    });
    job->start();
}

void TableActions::copySelection()
{
    QModelIndexList rows;
    std::vector<std::pair<int, int>> ranges;
    const bool flat = qobject_cast<QTableView *>(m_view) != nullptr;
    if (flat && m_view->selectionModel() && m_view->selectionModel()->hasSelection()) {
        // A table selection may hold a million rows: copy it range by range, never as indexes.
        for (const QItemSelectionRange &r : m_view->selectionModel()->selection())
            ranges.emplace_back(r.top(), r.bottom());
        std::sort(ranges.begin(), ranges.end());
        std::vector<std::pair<int, int>> merged;
        for (const auto &r : ranges) {
            if (!merged.empty() && r.first <= merged.back().second + 1)
                merged.back().second = std::max(merged.back().second, r.second);
            else
                merged.push_back(r);
        }
        ranges = std::move(merged);
    } else {
        rows = selectedRows();
        if (rows.isEmpty())
            return;
    }
    auto *job = new RowExportJob(m_view->model(), columns(), RowExportJob::Format::Tsv, this);
    if (ranges.empty())
        job->setRows(rows);
    else
        job->setRowRanges(std::move(ranges));
    connect(job, &RowExportJob::finished, this, [this, job](bool ok, const QString &message) {
        job->deleteLater();
        if (ok) {
            QApplication::clipboard()->setText(job->text());
            status(tr("Copied %1 as tab-separated text").arg(message));
            Q_EMIT copied(job->rowsWritten());
        } else {
            status(tr("Copy failed: %1").arg(message));
        }
    });
    startJob(job, tr("Copying"));
}

void TableActions::exportCsv(const QString &path)
{
    auto *job = new RowExportJob(m_view->model(), columns(), RowExportJob::Format::Csv, this);
    job->setAllRows();
    job->setOutputFile(path);
    connect(job, &RowExportJob::finished, this, [this, job, path](bool ok, const QString &message) {
        job->deleteLater();
        const QString text = ok ? tr("Exported %1 to %2").arg(message, QDir::toNativeSeparators(path))
                                : tr("CSV export failed: %1").arg(message);
        status(text);
        Q_EMIT exportFinished(ok, text);
    });
    startJob(job, tr("Exporting"));
}

void TableActions::exportCsvWithDialog()
{
    const QString suggestion = QDir::home().filePath(m_tableName + QStringLiteral(".csv"));
    const QString path = QFileDialog::getSaveFileName(m_view, tr("Export Table as CSV"), suggestion,
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportCsv(path);
}

QMenu *TableActions::buildContextMenu(const QModelIndex &index)
{
    auto *menu = new QMenu(m_view);
    const QModelIndex row = index.siblingAtColumn(0);
    menu->addAction(m_copy);
    QAction *cell = menu->addAction(tr("Copy C&ell"), this,
                                    [index] { QApplication::clipboard()->setText(index.data().toString()); });
    cell->setEnabled(index.isValid());
    QAction *json = menu->addAction(tr("Copy Row as &JSON"), this, [this, row] {
        QApplication::clipboard()->setText(rowAsJson(row));
        status(tr("Copied the row as JSON"));
    });
    json->setEnabled(row.isValid());
    menu->addSeparator();
    menu->addAction(m_export);
    m_export->setEnabled(m_view->model() && m_view->model()->rowCount() > 0);
    if (!m_rowActions.empty()) {
        menu->addSeparator();
        for (const RowAction &a : m_rowActions) {
            a.action->setData(QVariant::fromValue(QPersistentModelIndex(row)));
            a.action->setEnabled(row.isValid() && (!a.enabled || a.enabled(row)));
            menu->addAction(a.action);
        }
        // Once the menu is gone, the actions act on the current row again (their shortcuts).
        const auto release = [this] {
            QMetaObject::invokeMethod(
                this,
                [this] {
                    for (const RowAction &a : m_rowActions) {
                        a.action->setData({});
                        a.action->setEnabled(true);
                    }
                },
                Qt::QueuedConnection);
        };
        connect(menu, &QMenu::aboutToHide, this, release);
        connect(menu, &QObject::destroyed, this, release);
    }
    return menu;
}

void TableActions::showMenu(const QModelIndex &index, const QPoint &globalPos)
{
    if (index.isValid() && m_view->selectionModel()
        && !m_view->selectionModel()->isRowSelected(index.row(), index.parent())) {
        m_view->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    QMenu *menu = buildContextMenu(index);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void TableActions::showToolTip(const QPoint &pos, const QPoint &globalPos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid()) {
        QToolTip::hideText();
        return;
    }
    const QString text = index.data(Qt::DisplayRole).toString();
    const QString own = index.data(Qt::ToolTipRole).toString();
    QString html;
    if (!text.isEmpty())
        html = QStringLiteral("<p style='white-space:pre-wrap'><b>%1</b></p>").arg(text.toHtmlEscaped());
    if (!own.isEmpty() && own != text)
        html += QStringLiteral("<p style='white-space:pre-wrap'>%1</p>").arg(own.toHtmlEscaped());
    if (html.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, html, m_view->viewport(), m_view->visualRect(index));
}

bool TableActions::eventFilter(QObject *watched, QEvent *event)
{
    const bool onViewport = m_viewport && watched == m_viewport.data();
    if (watched == m_view && event->type() == QEvent::Show && m_fitStale)
        fitColumns();
    if (onViewport && event->type() == QEvent::Resize)
        layoutColumns();
    if (onViewport && event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        showToolTip(help->pos(), help->globalPos());
        return true;
    }
    if (event->type() == QEvent::ContextMenu && (watched == m_view || onViewport)) {
        const auto *e = static_cast<QContextMenuEvent *>(event);
        QModelIndex index;
        QPoint global = e->globalPos();
        if (e->reason() == QContextMenuEvent::Keyboard) {
            index = m_view->currentIndex();
            const QRect r = m_view->visualRect(index);
            global = m_view->viewport()->mapToGlobal(r.isValid() ? r.center() : QPoint(8, 8));
        } else {
            index = m_view->indexAt(m_view->viewport()->mapFromGlobal(e->globalPos()));
        }
        showMenu(index, global);
        return true;
    }
    return QObject::eventFilter(watched, event);
}

void TableActions::status(const QString &text, int timeoutMs)
{
    if (auto *window = qobject_cast<QMainWindow *>(m_view->window()))
        window->statusBar()->showMessage(text, timeoutMs);
}

} // namespace TraceInspector
