// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/loadedtrace.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QTreeView;

namespace TraceInspector {

class ValidationIssueModel;
class ValidationFilterProxyModel;

/// Every problem of the tolerant load and every health finding, filterable by severity and
/// text. Activating a row asks for the related span and/or op to be selected.
class ValidationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ValidationPanel(QWidget *parent = nullptr);
    ~ValidationPanel() override;

    /// Shows the problems of \a loaded: the reader's at once, health findings when present.
    void setLoadedTrace(LoadedTracePtr loaded);
    void clear();

    ValidationIssueModel *issueModel() const { return m_model; }
    ValidationFilterProxyModel *proxyModel() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }

    /// Resolves the row at \a proxyIndex and emits spanRequested()/opRequested().
    void activate(const QModelIndex &proxyIndex);

Q_SIGNALS:
    void spanRequested(qint64 spanIndex);
    void opRequested(qint64 opIndex);
    void countsChanged(int errors, int warnings);

private:
    void updateCounts();

    ValidationIssueModel *m_model;
    ValidationFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QComboBox *m_severity;
    QLineEdit *m_filter;
    QLabel *m_counts;
    QTimer *m_filterTimer;
    LoadedTracePtr m_loaded;
    const void *m_shownHealth = nullptr; // identity of the health report already shown
};

} // namespace TraceInspector
