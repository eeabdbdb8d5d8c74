// SPDX-License-Identifier: MIT
#include "ui/recentfiles.h"

#include "core/loading/workerpool.h"

#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace TraceInspector {
namespace {
const QString &settingsKey()
{
    static const QString key = QStringLiteral("recentFiles");
    return key;
}

// Writing QSettings syncs the file to disk, tens of milliseconds on a slow disk: it happens
// on a worker. The newest list waits here until written, and readers see it meanwhile.
QMutex &pendingMutex()
{
    static QMutex mutex;
    return mutex;
}
std::optional<QStringList> &pendingList()
{
    static std::optional<QStringList> list;
    return list;
}

QStringList storedList()
{
    {
        const QMutexLocker lock(&pendingMutex());
        if (pendingList())
            return *pendingList();
    }
    return QSettings().value(settingsKey()).toStringList();
}

void writePending()
{
    // Serialised: the newest list is written last, whatever order the workers run in.
    static QMutex writing;
    const QMutexLocker writeLock(&writing);
    QStringList list;
    {
        const QMutexLocker lock(&pendingMutex());
        if (!pendingList())
            return;
        list = *pendingList();
    }
    {
        QSettings settings;
        settings.setValue(settingsKey(), list);
        settings.sync();
    }
    const QMutexLocker lock(&pendingMutex());
    if (pendingList() == list)
        pendingList().reset();
}
} // namespace

RecentFiles::RecentFiles(QObject *parent)
    : QObject(parent)
{
    const QStringList stored = storedList();
    for (const QString &path : stored) {
        if (!path.isEmpty() && !m_files.contains(path) && m_files.size() < kMaxFiles)
            m_files.append(path);
    }
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_files.removeAll(absolute);
    m_files.prepend(absolute);
    while (m_files.size() > kMaxFiles)
        m_files.removeLast();
    save();
}

void RecentFiles::remove(const QString &path)
{
    if (m_files.removeAll(QFileInfo(path).absoluteFilePath()) > 0)
        save();
}

void RecentFiles::clear()
{
    if (m_files.isEmpty())
        return;
    m_files.clear();
    save();
}

void RecentFiles::save()
{
    {
        const QMutexLocker lock(&pendingMutex());
        pendingList() = m_files;
    }
    (void)QtConcurrent::run(workerPool(), &writePending);
    Q_EMIT changed();
}

} // namespace TraceInspector
