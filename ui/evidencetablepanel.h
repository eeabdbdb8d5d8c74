// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/itemmodels/viewcoverage.h"
#include "core/loading/loadedtrace.h"

class QLabel;
class QTableView;
class QVBoxLayout;

namespace TraceInspector {

class CoverageBadge;
class FilterLineEdit;
class FlatTableModel;
class TableActions;

/// Shared frame of the evidence tables (tensors, tensor statistics, gradients): coverage
/// badge, debounced filter, status line and a table over a FlatTableModel. Activating a row
/// (double click, Return) selects its span (SpanIndexRole) and its op (OpIndexRole).
class EvidenceTablePanel : public QWidget
{
    Q_OBJECT
public:
    EvidenceTablePanel(InspectorView view, FlatTableModel *model, QWidget *parent = nullptr);
    ~EvidenceTablePanel() override;

    /// Shows \a loaded (any stage); the evidence arrives with the Memory stage.
    virtual void setLoadedTrace(LoadedTracePtr loaded) = 0;
    virtual void clear() = 0;
    /// No filter, record order, no selection (a different file was opened).
    void resetView();

    QTableView *view() const { return m_view; }
    FlatTableModel *model() const { return m_model; }
    FilterLineEdit *filterEdit() const { return m_filter; }
    CoverageBadge *badge() const { return m_badge; }
    TableActions *actions() const { return m_actions; }
    QString statusText() const;
    /// Record of the current row, or -1.
    qint64 currentRecord() const;
    /// Makes record \a record current, clearing a filter that hides it.
    void selectRecord(qint64 record);

Q_SIGNALS:
    /// The user activated a row whose span exists.
    void spanActivated(qint64 spanIndex);
    /// The user activated a row with a known op.
    void opActivated(qint64 opIndex);
    /// The current record changed; -1 when none.
    void recordSelected(qint64 record);

protected:
    /// Updates the badge from \a loaded's capability matrix (hidden before it exists).
    void updateBadge(const LoadedTracePtr &loaded);
    void updateStatus();
    /// What the status line says about the records (e.g. "12 of 40 tensors").
    virtual QString countText(int shown, std::size_t total) const = 0;
    QVBoxLayout *panelLayout() const { return m_layout; }
    void activateRow(const QModelIndex &index);

private:
    InspectorView m_inspectorView;
    FlatTableModel *m_model;
    CoverageBadge *m_badge;
    FilterLineEdit *m_filter;
    QLabel *m_status;
    QTableView *m_view;
    TableActions *m_actions;
    QVBoxLayout *m_layout;
};

} // namespace TraceInspector
