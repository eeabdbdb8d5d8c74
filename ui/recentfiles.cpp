// SPDX-License-Identifier: MIT
#include "ui/recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace TraceInspector {
namespace {
const QString &settingsKey()
{
    static const QString key = QStringLiteral("recentFiles");
    return key;
}
} // namespace

RecentFiles::RecentFiles(QObject *parent)
    : QObject(parent)
{
    const QStringList stored = QSettings().value(settingsKey()).toStringList();
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
    QSettings().setValue(settingsKey(), m_files);
    Q_EMIT changed();
}

} // namespace TraceInspector
