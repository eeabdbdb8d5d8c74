// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "core/model/problem.h"
#include "ui/details/rawlinereader.h"
#include "ui/selection/selection.h"

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace TraceInspector {

struct Trace;
struct RecordExtents;
class SpanTree;
class RecordFieldsModel;
class SpanContentsModel;

/// Everything about the selection: every field of the record and the values derived from
/// it, the span's contents (child spans, ops, tensors, memory events; sortable), the
/// findings that name it, and its raw JSONL line(s) read back from the file off the GUI
/// thread, with copy buttons.
///
/// Clicking a row of the contents or findings lists asks for that record to be selected
/// (selectRequested()); a double click asks for it to be activated.
class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget *parent = nullptr);
    ~DetailsPane() override;

    /// The trace (its path and size locate the raw lines) and its span tree; null clears.
    /// \a extents (of the same trace) are computed here when null.
    void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const SpanTree> tree,
                  const RecordExtents *extents = nullptr);
    /// Scans the trace file for its line index in the background now, so that the first
    /// selection's raw line does not wait for it. setTrace() leaves this to the caller: on a
    /// 1 GB trace the scan is ~0.3 s of a worker, which the window spends once the load is
    /// drawn rather than beside the load's own analyses.
    void prepareRawLines();
    /// Whether the raw-line index of the current trace's file is built.
    bool isRawLineIndexed() const;
    /// The window's findings (load problems and health findings, in the order the validation
    /// panel lists them): a Selection of Kind::Finding or with `finding` set indexes this.
    void setFindings(std::shared_ptr<const std::vector<Problem>> findings);

    Selection selection() const { return m_selection; }
    /// The raw line text shown (or the reason there is none) — what "Copy line" copies.
    QString rawText() const;
    QString title() const;
    /// Rows of the findings list that name the selection.
    int findingCount() const;

    RecordFieldsModel *fieldsModel() const { return m_fields; }
    SpanContentsModel *contentsModel() const { return m_contents; }
    QSortFilterProxyModel *contentsProxy() const { return m_contentsProxy; }
    QTreeView *fieldsView() const { return m_fieldsView; }
    QTableView *contentsView() const { return m_contentsView; }
    QListWidget *findingsView() const { return m_findingsView; }
    QPushButton *copyLineButton() const { return m_copyLine; }
    QPushButton *copyFieldsButton() const { return m_copyFields; }

public Q_SLOTS:
    void setSelection(const TraceInspector::Selection &selection);
    void copyRawLine();
    void copyFields();

Q_SIGNALS:
    void selectRequested(const TraceInspector::Selection &selection);
    void activateRequested(const TraceInspector::Selection &selection);
    /// The raw line(s) of the current selection were read (or failed: rawText() says why).
    void rawLineShown();

private:
    void onLinesRead(quint64 requestId, const QList<TraceInspector::SourceLine> &lines, const QString &error);
    void updateFindings();
    Selection selectionOfContentsRow(const QModelIndex &proxyIndex) const;
    QList<quint64> linesOf(const Selection &selection) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const SpanTree> m_tree;
    std::shared_ptr<const std::vector<Problem>> m_findings;
    Selection m_selection;
    std::vector<qint64> m_findingRows; // findings list row -> index into m_findings

    RecordFieldsModel *m_fields;
    SpanContentsModel *m_contents;
    QSortFilterProxyModel *m_contentsProxy;
    RawLineReader *m_reader;
    quint64 m_pendingRequest = 0;

    QLabel *m_title;
    QTreeView *m_fieldsView;
    QTabWidget *m_tabs;
    QTableView *m_contentsView;
    QListWidget *m_findingsView;
    QPlainTextEdit *m_raw;
    QPushButton *m_copyLine;
    QPushButton *m_copyFields;
};

} // namespace TraceInspector
