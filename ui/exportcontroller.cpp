// SPDX-License-Identifier: MIT
#include "ui/exportcontroller.h"

#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <climits>

#include "core/io/fileidentity.h"
#include "core/output/atomicfilewriter.h"
#include "core/output/jsonwriter.h"
#include "core/output/normalizedwriter.h"
#include "ui/widgets/outputerrortext.h"
#include "core/loading/workerpool.h"

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
        return tr("No trace is loaded.");
    if (loaded->strictError) {
        const Problem &p = *loaded->strictError;
        const QString where = p.line > 0 ? tr(" (line %1)").arg(p.line) : QString();
        return tr("The trace was rejected by the strict rules: %1%2. A normalized file would silently "
                  "leave out what was rejected, so it is not written.")
            .arg(QString::fromStdString(p.message), where);
    }
    if (const std::size_t failures = loaded->decodeFailureCount(); failures > 0) {
        return tr("%n line(s) of the trace could not be decoded; a normalized file would silently leave "
                  "them out, so it is not written.",
                  nullptr, int(std::min<std::size_t>(failures, INT_MAX)));
    }
    return {};
}

bool ExportController::isSameFile(const QString &a, const QString &b)
{
    const auto ia = identityOfPath(OutputErrorText::localPath(a));
    const auto ib = identityOfPath(OutputErrorText::localPath(b));
    if (ia && ib && *ia == *ib)
        return true; // hard links have different canonical paths
    const QFileInfo fa(a);
    const QFileInfo fb(b);
    return fa.exists() && fb.exists() && fa.canonicalFilePath() == fb.canonicalFilePath();
}

QString ExportController::protectionReason(const QString &target)
{
    const OutputError e = AtomicFileWriter::check(OutputErrorText::localPath(target), false);
    return OutputErrorText::isProtection(e) ? OutputErrorText::reason(e) : QString();
}

ExportOutcome ExportController::exportTo(const LoadedTrace &loaded, const QString &target, bool replaceOpenedTrace,
                                         bool replaceProtected)
{
    using Status = ExportOutcome::Status;
    using Question = ExportOutcome::Question;
    if (const QString reason = refusalReason(&loaded); !reason.isEmpty())
        return {Status::Refused, reason, 0};
    if (target.isEmpty())
        return {Status::Failed, tr("No file name was given."), 0};
    if (!replaceOpenedTrace && isSameFile(target, loaded.path)) {
        return {Status::NeedsConfirmation,
                tr("%1 is the trace that is open. Replace it with its normalized form?").arg(target), 0,
                Question::ReplaceOpenedTrace};
    }

    AtomicFileWriter file(OutputErrorText::localPath(target), replaceProtected);
    if (!file.open()) {
        if (OutputErrorText::isProtection(file.error())) {
            return {Status::NeedsConfirmation,
                    tr("%1: %2. Replace it anyway?").arg(target, OutputErrorText::reason(file.error())), 0,
                    Question::ReplaceProtectedFile};
        }
        return {Status::Failed, tr("Cannot write %1: %2").arg(target, OutputErrorText::reason(file.error())), 0};
    }
    JsonWriter writer([&file](std::string_view chunk) { return file.write(chunk); });
    writeNormalized(*loaded.trace, writer);
    writer.flush();
    const quint64 bytes = writer.bytesWritten();
    if (!file.commit())
        return {Status::Failed, tr("Cannot write %1: %2").arg(target, OutputErrorText::reason(file.error())), 0};
    return {Status::Written,
            tr("Exported normalized JSONL to %1 (%2)")
                .arg(target, QLocale::system().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeSIFormat)),
            bytes};
}

void ExportController::exportAsync(LoadedTracePtr loaded, const QString &target, bool replaceOpenedTrace,
                                   bool replaceProtected)
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
    watcher->setFuture(QtConcurrent::run(workerPool(), [loaded, target, replaceOpenedTrace, replaceProtected] {
        return exportTo(*loaded, target, replaceOpenedTrace, replaceProtected);
    }));
}

} // namespace TraceInspector
