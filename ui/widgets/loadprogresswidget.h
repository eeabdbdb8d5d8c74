// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/loading/loadprogress.h"

class QLabel;
class QProgressBar;
class QToolButton;

namespace TraceInspector {

/// Progress of a running load: the named step ("Step 1 of 4 · Reading run.jsonl: 545 MB of
/// 1.0 GB"), a bar for that step (its percentage, or busy when the step cannot tell) and a
/// Cancel button. Text and bar always describe the same thing.
class LoadProgressWidget : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProgressWidget(QWidget *parent = nullptr);

    void start(const QString &phase);
    void setProgress(const LoadProgress &progress);
    /// The bar's value, 0..1000 of the current step; -1 while busy (the step cannot tell).
    int permille() const;
    QString phase() const;

Q_SIGNALS:
    void cancelRequested();

private:
    QLabel *m_phase;
    QProgressBar *m_bar;
    QToolButton *m_cancel;
};

} // namespace TraceInspector
