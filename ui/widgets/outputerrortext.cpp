// SPDX-License-Identifier: MIT
#include "ui/widgets/outputerrortext.h"

#include <QFile>

#include <cerrno>
#include <cstring>

namespace TraceInspector {

QString OutputErrorText::reason(const OutputError &error)
{
    switch (error.kind) {
    case OutputError::Kind::None: return {};
    case OutputError::Kind::IsDirectory: return tr("it is a folder");
    case OutputError::Kind::DanglingSymlink: return tr("it is a symbolic link to a file that does not exist");
    case OutputError::Kind::ReadOnly: return tr("the file is read-only");
    case OutputError::Kind::OtherOwner:
        return tr("the file belongs to another user or group, and the replacement would not");
    case OutputError::Kind::Open:
        if (error.osError == ENXIO)
            return tr("no program is reading from this FIFO");
        break;
    case OutputError::Kind::Inspect:
    case OutputError::Kind::CreateTemporary:
    case OutputError::Kind::Write:
    case OutputError::Kind::Rename: break;
    }
    const QString os = QString::fromLocal8Bit(std::strerror(error.osError));
    if (error.kind == OutputError::Kind::CreateTemporary)
        return tr("cannot create a temporary file in %1: %2").arg(QFile::decodeName(error.path.c_str()), os);
    return os;
}

bool OutputErrorText::isProtection(const OutputError &error)
{
    return error.kind == OutputError::Kind::ReadOnly || error.kind == OutputError::Kind::OtherOwner;
}

std::string OutputErrorText::localPath(const QString &path)
{
    return QFile::encodeName(path).toStdString();
}

} // namespace TraceInspector
