// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QStringList>

#include "core/comparison/comparisonresult.h"

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace TraceInspector {

class SampleStripPlot;

/// upstream's replicated comparison in the window (issue #15 item 7; the engine is the one
/// behind `candle-trace compare`, docs/COMPARISON.md): several baseline and candidate
/// inputs, each an evidence bundle directory or, with "raw trace files", a trace file (then
/// diagnostic only, as upstream's --unverified-traces). Reading, verifying and comparing run
/// on a worker thread; the result shows the verdict, every reason with upstream's text, both
/// distributions as strips (SampleStripPlot), the median delta and its 95 % interval. A
/// failing input shows upstream's error chain.
class ReplicatedCompareDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ReplicatedCompareDialog(QWidget *parent = nullptr);
    ~ReplicatedCompareDialog() override;

    void setInputs(const QStringList &baseline, const QStringList &candidate, bool rawTraces);
    QStringList baselineInputs() const;
    QStringList candidateInputs() const;
    /// Starts the comparison of the listed inputs (the Compare button).
    void run();
    bool isRunning() const { return m_running; }
    /// Shows \a result (what run() does when the worker is done).
    void showResult(const ReplicatedComparison &result);
    void showError(const QString &message);

    QLabel *verdictLabel() const { return m_verdict; }
    QLabel *reasonsLabel() const { return m_reasons; }
    QLabel *statisticsLabel() const { return m_statistics; }
    QLabel *intervalLabel() const { return m_interval; }
    QLabel *errorLabel() const { return m_error; }
    SampleStripPlot *plot() const { return m_plot; }
    QPushButton *compareButton() const { return m_compare; }

    /// "Candidate faster", "Inconclusive", … for \a verdict.
    static QString verdictText(ComparisonVerdict verdict);
    /// The median delta and the interval in words ("no interval: the comparison is ineligible").
    static QString intervalText(const ReplicatedComparison &result);

Q_SIGNALS:
    /// A comparison finished (with a result or an error).
    void finished(bool ok);

private:
    QWidget *inputColumn(const QString &title, QListWidget *list);
    void updateButtons();

    QListWidget *m_baselineList;
    QListWidget *m_candidateList;
    QCheckBox *m_raw;
    QPushButton *m_compare;
    QLabel *m_busy;
    QLabel *m_error;
    QLabel *m_verdict;
    QLabel *m_reasons;
    QLabel *m_statistics;
    QLabel *m_interval;
    SampleStripPlot *m_plot;
    bool m_running = false;
    quint64 m_generation = 0;
};

} // namespace TraceInspector
