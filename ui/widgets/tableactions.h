// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <vector>

#include <QKeySequence>
#include <QHash>
#include <QList>
#include <QSet>
#include <QModelIndex>
#include <QObject>
#include <QPointer>
#include <QString>

#include "ui/widgets/rowexportjob.h"

class QAbstractItemView;
class QAction;
class QMenu;

namespace TraceInspector {

/// What every table and tree of the inspector does the same way, in one place:
/// * Ctrl+C copies the selected rows as TSV with a header line (not just one cell);
/// * a context menu (mouse or the keyboard's menu key): Copy, Copy Cell, Copy Row as JSON,
///   Export Table as CSV (every row of the current filter), plus the panel's row actions
///   such as "Select Span";
/// * every cell shows its full text on hover, followed by the model's own tooltip;
/// * columns sized to their content within limits, never narrower than their header with
///   its sort arrow, one column stretching to fill the rest.
/// Big copies and exports run in slices (RowExportJob) and report in the status bar.
class TableActions : public QObject
{
    Q_OBJECT
public:
    struct ColumnFit {
        int column = 0;
        int minChars = 4;  // in average character widths
        int maxChars = 40; // content wider than this elides
        /// For ids, which never elide: the widest text of the column (not only of the rows
        /// sampled); the column never gets narrower than it, not even by hand.
        std::function<QString()> widestText = {};
        /// Gives up room for the stretching column when the view is narrow (times do not:
        /// their digits are what tells neighbours apart).
        bool yields = true;
    };

    /// Installs itself on \a view (its parent); \a tableName names the CSV file suggested.
    TableActions(QAbstractItemView *view, const QString &tableName);
    ~TableActions() override;

    QAbstractItemView *view() const { return m_view; }

    /// Columns left out of copies and exports (e.g. a bar drawn from another column's value).
    void setExcludedColumns(QList<int> columns) { m_excluded = std::move(columns); }
    /// Copies and exports include columns the view hides (their data is still the table's).
    void setIncludeHiddenColumns(bool include) { m_includeHidden = include; }
    /// An extra column in copies and exports: \a role of the row (e.g. a span id no column shows).
    void addRoleColumn(int role, const QString &header);
    /// Sizes \a fits after every model reset; \a stretchColumn (or -1) fills the remaining width
    /// and never gets narrower than \a stretchMinChars (other columns give up room first, down
    /// to their header's width; never-eliding columns never do).
    void setColumnFits(QList<ColumnFit> fits, int stretchColumn = -1, int stretchMinChars = 18);
    /// Sizes the columns now; in a shown window a view not shown is sized when it is shown.
    void fitColumns();
    /// Lays the fitted columns out in the view's width (on resize and after fitting).
    void layoutColumns();

    /// Adds \a text to the context menu for the row it opened on (the current row from the
    /// keyboard), and to the view as an action on the current row with \a shortcut.
    /// \a enabled decides per row; without it the action applies to every row.
    QAction *addRowAction(const QString &text, std::function<void(const QModelIndex &)> run,
                          std::function<bool(const QModelIndex &)> enabled = {}, const QKeySequence &shortcut = {});

    QAction *copyAction() const { return m_copy; }
    QAction *exportAction() const { return m_export; }

    /// The selected rows (or the current row) in display order, as column-0 indexes.
    QModelIndexList selectedRows() const;
    /// Header line plus \a rows as TSV, synchronously.
    QString rowsAsTsv(const QModelIndexList &rows) const;
    /// \a row as a JSON object: header → cell text, then the role columns.
    QString rowAsJson(const QModelIndex &row) const;

    /// Copies the selection to the clipboard (in slices when big); copied() follows.
    void copySelection();
    /// Writes every row of the view's model to \a path as CSV; exportFinished() follows.
    void exportCsv(const QString &path);
    void exportCsvWithDialog();
    bool isBusy() const { return m_job != nullptr; }

    /// The context menu for the row of \a index (the caller owns it; tests look inside).
    QMenu *buildContextMenu(const QModelIndex &index);

Q_SIGNALS:
    void copied(int rows);
    void exportFinished(bool ok, const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct RowAction {
        QAction *action;
        std::function<void(const QModelIndex &)> run;
        std::function<bool(const QModelIndex &)> enabled;
    };
    struct RoleColumn {
        int role;
        QString header;
    };

    std::vector<RowExportJob::Column> columns() const;
    void showToolTip(const QPoint &pos, const QPoint &globalPos);
    void showMenu(const QModelIndex &index, const QPoint &globalPos);
    void status(const QString &text, int timeoutMs = 6000);
    void startJob(RowExportJob *job, const QString &what);
    void requestFit();

    QAbstractItemView *m_view;
    // The viewport as it was when the filter was installed: the filter compares against this
    // and never calls m_view->viewport(), which is undefined while the view is being
    // destroyed and its children still deliver events (UBSan: not a QAbstractScrollArea).
    QPointer<QWidget> m_viewport;
    QString m_tableName;
    QList<int> m_excluded;
    bool m_includeHidden = false;
    QList<RoleColumn> m_roleColumns;
    QList<ColumnFit> m_fits;
    QHash<int, int> m_minimumWidths; // never-eliding columns
    struct Fitted {
        int width = 0;
        bool yields = true;
    };
    QHash<int, Fitted> m_fitted;
    QSet<int> m_userSized;
    int m_stretch = -1;
    int m_stretchMinChars = 18;
    bool m_layingOut = false;
    bool m_fitQueued = false; // a fit is queued for the next pass of the event loop
    bool m_fitStale = false;  // the content changed since the last fit
    std::vector<RowAction> m_rowActions;
    QAction *m_copy;
    QAction *m_export;
    QPointer<RowExportJob> m_job;
};

} // namespace TraceInspector
