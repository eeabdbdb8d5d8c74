// SPDX-License-Identifier: MIT
#include "core/loading/tracesniffer.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <array>

namespace TraceInspector {
namespace {

constexpr int kMaxLinesExamined = 50;

bool isTraceKind(const QString &kind)
{
    static const std::array<QLatin1StringView, 12> kinds{
        QLatin1StringView("meta"),          QLatin1StringView("span_start"),   QLatin1StringView("span_end"),
        QLatin1StringView("op"),            QLatin1StringView("tensor"),       QLatin1StringView("tensor_stats"),
        QLatin1StringView("memory"),        QLatin1StringView("device_memory"), QLatin1StringView("device_interval"),
        QLatin1StringView("gradient"),      QLatin1StringView("edge"),         QLatin1StringView("terminal"),
    };
    for (QLatin1StringView k : kinds) {
        if (kind == k)
            return true;
    }
    return false;
}

QString notATrace(const QString &why)
{
    return QStringLiteral("Not a candle-graph trace: %1").arg(why);
}

} // namespace

TraceSniffer::Result TraceSniffer::check(const QString &path, qint64 headBytes)
{
    const QFileInfo info(path);
    if (!info.exists())
        return {Verdict::Unreadable, QStringLiteral("Cannot open %1: No such file or directory").arg(path)};
    if (info.isDir())
        return {Verdict::Unreadable, QStringLiteral("Cannot open %1: it is a folder, not a file").arg(path)};

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {Verdict::Unreadable, QStringLiteral("Cannot open %1: %2").arg(path, file.errorString())};
    const QByteArray head = file.read(headBytes);
    if (head.isEmpty() && file.error() != QFileDevice::NoError)
        return {Verdict::Unreadable, QStringLiteral("Cannot read %1: %2").arg(path, file.errorString())};
    const bool truncated = file.size() > head.size();

    if (head.trimmed().isEmpty() && !truncated)
        return {Verdict::NotATrace, notATrace(QStringLiteral("the file is empty"))};
    if (head.contains('\0'))
        return {Verdict::NotATrace, notATrace(QStringLiteral("the file contains binary data, not JSON lines"))};

    QString firstReason;
    int examined = 0;
    qsizetype pos = 0;
    quint64 lineNo = 0;
    while (pos < head.size() && examined < kMaxLinesExamined) {
        qsizetype end = head.indexOf('\n', pos);
        const bool complete = end >= 0 || !truncated;
        if (end < 0)
            end = head.size();
        const QByteArray line = head.mid(pos, end - pos).trimmed();
        pos = end + 1;
        ++lineNo;
        if (line.isEmpty())
            continue;
        ++examined;

        QString reason;
        if (!complete) {
            // A first line longer than the head (a huge meta record): judge by its start.
            if (line.startsWith('{') && line.contains("\"kind\""))
                return {};
            reason = QStringLiteral("line %1 does not start a JSON object").arg(lineNo);
        } else {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError) {
                reason = QStringLiteral("line %1 is not JSON (%2)").arg(lineNo).arg(error.errorString());
            } else if (!doc.isObject()) {
                reason = QStringLiteral("line %1 is JSON but not an object").arg(lineNo);
            } else {
                const QJsonValue kind = doc.object().value(QLatin1StringView("kind"));
                if (kind.isString() && isTraceKind(kind.toString()))
                    return {};
                if (kind.isUndefined())
                    reason = QStringLiteral("line %1 is a JSON object without a \"kind\" member").arg(lineNo);
                else
                    reason = QStringLiteral("line %1 has no trace record kind").arg(lineNo);
            }
        }
        if (firstReason.isEmpty())
            firstReason = reason;
        if (!complete)
            break;
    }
    if (firstReason.isEmpty())
        firstReason = QStringLiteral("no trace record found in its first %1 lines").arg(lineNo);
    return {Verdict::NotATrace, notATrace(firstReason)};
}

} // namespace TraceInspector
