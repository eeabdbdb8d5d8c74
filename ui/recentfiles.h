// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>

namespace TraceInspector {

/// The most recently opened traces, newest first, kept in QSettings.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxFiles = 10;

    explicit RecentFiles(QObject *parent = nullptr);

    QStringList files() const { return m_files; }
    /// Moves \a path to the front (adding it when new) and drops the oldest beyond kMaxFiles.
    void add(const QString &path);
    void remove(const QString &path);
    void clear();

Q_SIGNALS:
    void changed();

private:
    void save();

    QStringList m_files;
};

} // namespace TraceInspector
