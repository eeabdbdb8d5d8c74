// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QListWidget;
class QPushButton;
class QLabel;

namespace TraceInspector {

class LoadProgressWidget;

/// What the window shows before a trace is open: how to open one, recent files, the sample.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(QWidget *parent = nullptr);

    void setRecentFiles(const QStringList &files);
    void setSampleAvailable(bool available);
    /// The progress of a load started from this page, shown under its buttons while loading.
    LoadProgressWidget *progress() const { return m_progress; }

Q_SIGNALS:
    void openRequested();
    void openSampleRequested();
    void openFileRequested(const QString &path);
    void cancelRequested();

private:
    QListWidget *m_recent;
    QLabel *m_recentTitle;
    QPushButton *m_sample;
    LoadProgressWidget *m_progress;
};

} // namespace TraceInspector
