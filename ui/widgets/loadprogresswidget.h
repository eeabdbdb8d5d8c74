// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace TraceInspector {

/// Status-bar progress of a running load: phase text, a 0–1000 bar and a Cancel button.
class LoadProgressWidget : public QWidget
{
    Q_OBJECT
public:
    explicit LoadProgressWidget(QWidget *parent = nullptr);

    void start(const QString &phase);
    void setProgress(int permille, const QString &phase);
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
