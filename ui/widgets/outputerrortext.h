// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

#include "core/output/atomicfilewriter.h"

namespace TraceInspector {

/// How the GUI words an AtomicFileWriter refusal or failure, for every file it writes
/// (normalized export, CSV export): the same rules, the same words.
class OutputErrorText
{
    Q_DECLARE_TR_FUNCTIONS(OutputErrorText)
public:
    /// "the file is read-only", "No space left on device", ...: a clause, no file name.
    static QString reason(const OutputError &error);
    /// The refusals a user may override (AtomicFileWriter's force): read-only or another owner's file.
    static bool isProtection(const OutputError &error);
    /// The local (8-bit) form of \a path AtomicFileWriter takes.
    static std::string localPath(const QString &path);
};

} // namespace TraceInspector
