// SPDX-License-Identifier: MIT
#include "ui/exportcontroller.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "core/output/jsonwriter.h"
#include "core/output/normalizedwriter.h"

namespace TraceInspector {

ExportController::ExportController(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<ExportOutcome>();
}

ExportController::~ExportController() = default;

QString ExportController::refusalReason(const LoadedTrace *loaded)
{
    if (!loaded || !loaded->trace)
        return QStringLiteral("No trace is loaded.");
    if (loaded->strictError) {
        const Problem &p = *loaded->strictError;
        const QString where = p.line > 0 ? QStringLiteral(" (line %1)").arg(p.line) : QString();
        return QStringLiteral("The trace was rejected by the strict rules: %1%2. A normalized file would silently "
                              "leave out what was rejected, so it is not written.")
            .arg(QString::fromStdString(p.message), where);
    }
    if (const std::size_t failures = loaded->decodeFailureCount(); failures > 0) {
        return QStringLiteral("%1 line(s) of the trace could not be decoded; a normalized file would silently leave "
                              "them out, so it is not written.")
            .arg(failures);
    }
    return {};
}

bool ExportController::isSameFile(const QString &a, const QString &b)
{
    const QFileInfo fa(a);
    const QFileInfo fb(b);
    if (!fa.exists() || !fb.exists())
        return false;
    return fa.canonicalFilePath() == fb.canonicalFilePath();
}

ExportOutcome ExportController::exportTo(const LoadedTrace &loaded, const QString &target, bool replaceOpenedTrace)
{
    using Status = ExportOutcome::Status;
    if (const QString reason = refusalReason(&loaded); !reason.isEmpty())
        return {Status::Refused, reason, 0};
    if (target.isEmpty())
        return {Status::Failed, QStringLiteral("No file name was given."), 0};
    if (!replaceOpenedTrace && isSameFile(target, loaded.path)) {
        return {Status::NeedsConfirmation,
                QStringLiteral("%1 is the trace that is open. Replace it with its normalized form?").arg(target), 0};
    }

    QSaveFile file(target);
    if (!file.open(QIODevice::WriteOnly))
        return {Status::Failed, QStringLiteral("Cannot write %1: %2").arg(target, file.errorString()), 0};
    bool sinkOk = true;
    JsonWriter writer([&file, &sinkOk](std::string_view chunk) {
        sinkOk = file.write(chunk.data(), qint64(chunk.size())) == qint64(chunk.size());
        return sinkOk;
    });
    const bool written = writeNormalized(*loaded.trace, writer) && writer.flush() && sinkOk;
    const quint64 bytes = writer.bytesWritten();
    if (!written) {
        const QString reason = file.error() != QFileDevice::NoError ? file.errorString()
                                                                    : QString::fromStdString(writer.errorString());
        file.cancelWriting();
        return {Status::Failed, QStringLiteral("Cannot write %1: %2").arg(target, reason), 0};
    }
    if (!file.commit())
        return {Status::Failed, QStringLiteral("Cannot write %1: %2").arg(target, file.errorString()), 0};
    return {Status::Written,
            QStringLiteral("Exported normalized JSONL to %1 (%2)")
                .arg(target, QLocale::system().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeSIFormat)),
            bytes};
}

void ExportController::exportAsync(LoadedTracePtr loaded, const QString &target, bool replaceOpenedTrace)
{
    if (!loaded) {
        Q_EMIT finished({ExportOutcome::Status::Refused, refusalReason(nullptr), 0});
        return;
    }
    m_running = true;
    auto *watcher = new QFutureWatcher<ExportOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        m_running = false;
        const ExportOutcome outcome = watcher->result();
        watcher->deleteLater();
        Q_EMIT finished(outcome);
    });
    watcher->setFuture(QtConcurrent::run([loaded, target, replaceOpenedTrace] {
        return exportTo(*loaded, target, replaceOpenedTrace);
    }));
}

} // namespace TraceInspector
