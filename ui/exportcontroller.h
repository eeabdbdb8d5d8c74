// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>
#include <QObject>
#include <QString>

#include "core/loading/loadedtrace.h"

namespace TraceInspector {

/// What an export attempt did.
struct ExportOutcome {
    enum class Status { Written, Refused, NeedsConfirmation, Failed };
    /// What a NeedsConfirmation outcome asks the user.
    enum class Question { None, ReplaceOpenedTrace, ReplaceProtectedFile };
    Status status = Status::Failed;
    QString message; ///< for the user: what happened and why
    quint64 bytes = 0;
    Question question = Question::None;
};

/// File > Export normalized JSONL (TRACE_FORMAT.md §11): refuses while the trace carries
/// hard errors (a normalized file would silently drop what could not be decoded or was
/// rejected), never replaces the opened trace without confirmation, and writes by the
/// same rules as `candle-trace normalize` (AtomicFileWriter: atomic replacement, write
/// through symlinks, keep permissions and owner, ask before replacing a read-only file or
/// another user's; the target is either the complete new file or untouched).
class ExportController : public QObject
{
    Q_OBJECT
public:
    explicit ExportController(QObject *parent = nullptr);
    ~ExportController() override;

    /// Why \a loaded must not be exported, or an empty string when it may be.
    static QString refusalReason(const LoadedTrace *loaded);
    /// True when \a a and \a b name the same existing file: the same device and inode (so
    /// also through hard links and symlinks), or the same canonical path.
    static bool isSameFile(const QString &a, const QString &b);
    /// Why \a target may only be replaced after asking (read-only, another user's), or an
    /// empty string.
    static QString protectionReason(const QString &target);
    /// Checks and writes synchronously. Returns NeedsConfirmation, writing nothing, when
    /// \a target is the opened trace and \a replaceOpenedTrace is false, or when it is
    /// read-only or another user's and \a replaceProtected is false.
    static ExportOutcome exportTo(const LoadedTrace &loaded, const QString &target, bool replaceOpenedTrace = false,
                                  bool replaceProtected = false);

    /// exportTo() on a worker thread; emits finished() on this object's thread.
    void exportAsync(LoadedTracePtr loaded, const QString &target, bool replaceOpenedTrace,
                     bool replaceProtected = false);
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void finished(const TraceInspector::ExportOutcome &outcome);

private:
    bool m_running = false;
};

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::ExportOutcome)
