// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/loadedtrace.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTextBrowser;
class QTimer;
class QTreeView;
template<typename T>
class QFutureWatcher;

namespace TraceInspector {

class ValidationIssueModel;
class ValidationFilterProxyModel;
class ValidationGroupModel;
class TableActions;
struct RawLine;

/// Every problem of the tolerant load and every health finding, filterable by severity and
/// text, optionally grouped by rule with counts. The file's path is named once above the
/// list (messages that repeat it show without it); the count follows the filter. Below the
/// list, the selected finding in full: its exact message, why it fired where the message
/// does not say (e.g. which tensor_stats field broke which rule), and the line of the file
/// it is on, read from the file. Activating a row asks for its span and/or op.
class ValidationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ValidationPanel(QWidget *parent = nullptr);
    ~ValidationPanel() override;

    /// Shows the problems of \a loaded: the reader's at once, health findings when present.
    void setLoadedTrace(LoadedTracePtr loaded);
    void clear();
    /// Back to no filter, all severities, ungrouped, nothing selected (a different file).
    void resetView();

    /// Selects the row of \a problem (same line, column, severity, rule and message, which
    /// the row may keep cut), clearing a filter that hides it. Returns false when no row shows that problem.
    bool selectProblem(const Problem &problem);
    /// Makes the row of finding \a row (a row of issueModel()) current and scrolls to it,
    /// without focus and without clearing a filter: false (nothing selected) when the filter
    /// hides it or it does not exist.
    bool showFinding(int row);
    /// The issueModel() row of the current finding, or -1.
    int currentFinding() const;
    /// The problem of the current row, or null.
    const Problem *currentProblem() const;

    void setGrouped(bool grouped);
    bool isGrouped() const;

    ValidationIssueModel *issueModel() const { return m_model; }
    ValidationFilterProxyModel *proxyModel() const { return m_proxy; }
    ValidationGroupModel *groupModel() const { return m_groups; }
    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *severityBox() const { return m_severity; }
    TableActions *tableActions() const { return m_actions; }
    QString countText() const;
    /// The detail pane's text (plain), for tests.
    QString detailText() const;

    /// Resolves the row at \a viewIndex (an index of the view's model) and emits
    /// spanRequested()/opRequested().
    void activate(const QModelIndex &viewIndex);

Q_SIGNALS:
    void spanRequested(qint64 spanIndex);
    void opRequested(qint64 opIndex);
    void countsChanged(int errors, int warnings);
    /// The current row changed: \a row of issueModel(), -1 for none or a group row.
    void findingSelected(int row);
    /// A row was activated (double click, Return): \a row of issueModel().
    void findingActivated(int row);
    /// The detail pane shows the current finding with its line (or why it could not).
    void detailShown();

private:
    int sourceRow(const QModelIndex &viewIndex) const;
    void updateCounts();
    void showDetail();
    void onLineRead();
    void explainTensorStats();
    QString detailHeader(const Problem &problem) const;

    ValidationIssueModel *m_model;
    ValidationFilterProxyModel *m_proxy;
    ValidationGroupModel *m_groups;
    QTreeView *m_view;
    QComboBox *m_severity;
    QLineEdit *m_filter;
    QCheckBox *m_groupBox;
    QLabel *m_counts;
    QLabel *m_file;
    QTextBrowser *m_detail;
    QTimer *m_filterTimer;
    TableActions *m_actions;
    QFutureWatcher<RawLine> *m_lineWatcher;
    QFutureWatcher<std::vector<std::pair<int, QString>>> *m_reasonWatcher;
    LoadedTracePtr m_loaded;
    const void *m_shownHealth = nullptr; // identity of the health report already shown
    int m_detailRow = -1;                // source row the pending line read is for
};

} // namespace TraceInspector
