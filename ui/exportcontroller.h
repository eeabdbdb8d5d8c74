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
    Status status = Status::Failed;
    QString message; ///< for the user: what happened and why
    quint64 bytes = 0;
};

/// File > Export normalized JSONL (TRACE_FORMAT.md §11): refuses while the trace carries
/// hard errors (a normalized file would silently drop what could not be decoded or was
/// rejected), never replaces the opened trace without confirmation, and writes atomically
/// (QSaveFile: the target is either the complete new file or untouched).
class ExportController : public QObject
{
    Q_OBJECT
public:
    explicit ExportController(QObject *parent = nullptr);
    ~ExportController() override;

    /// Why \a loaded must not be exported, or an empty string when it may be.
    static QString refusalReason(const LoadedTrace *loaded);
    /// True when \a a and \a b name the same existing file.
    static bool isSameFile(const QString &a, const QString &b);
    /// Checks and writes synchronously. Returns NeedsConfirmation, writing nothing, when
    /// \a target is the opened trace and \a replaceOpenedTrace is false.
    static ExportOutcome exportTo(const LoadedTrace &loaded, const QString &target, bool replaceOpenedTrace = false);

    /// exportTo() on a worker thread; emits finished() on this object's thread.
    void exportAsync(LoadedTracePtr loaded, const QString &target, bool replaceOpenedTrace);
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void finished(const TraceInspector::ExportOutcome &outcome);

private:
    bool m_running = false;
};

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::ExportOutcome)
