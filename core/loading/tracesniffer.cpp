// SPDX-License-Identifier: MIT
#include "core/loading/tracesniffer.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "core/compat/rustformat.h"
#include "core/io/compression.h"
#include "core/io/linedecoder.h"
#include "core/io/tracesource.h"
#include "core/model/trace.h"

namespace TraceInspector {
namespace {

constexpr int kMaxLinesExamined = 50;

bool isTraceKind(const QString &kind)
{
    static const std::array<QLatin1StringView, 12> kinds{
        QLatin1StringView("meta"),     QLatin1StringView("span_start"),    QLatin1StringView("span_end"),
        QLatin1StringView("op"),       QLatin1StringView("tensor"),        QLatin1StringView("tensor_stats"),
        QLatin1StringView("memory"),   QLatin1StringView("device_memory"), QLatin1StringView("device_interval"),
        QLatin1StringView("gradient"), QLatin1StringView("edge"),          QLatin1StringView("terminal"),
    };
    for (QLatin1StringView k : kinds) {
        if (kind == k)
            return true;
    }
    return false;
}

QString notATrace(const QString &why)
{
    return QCoreApplication::translate("TraceSniffer", "Not a candle-graph trace: %1").arg(why);
}

/// A line the decoder refused may still be a trace record with a bad member: an object
/// whose `kind`, or an array (§5.2) whose first element, names a record kind.
bool namesTraceKind(const QJsonDocument &doc)
{
    if (doc.isObject()) {
        const QJsonValue kind = doc.object().value(QLatin1StringView("kind"));
        return kind.isString() && isTraceKind(kind.toString());
    }
    if (doc.isArray() && !doc.array().isEmpty()) {
        const QJsonValue kind = doc.array().first();
        return kind.isString() && isTraceKind(kind.toString());
    }
    return false;
}

/// Control bytes other than tab, CR and LF in the first 4 KiB: text has next to none.
bool looksBinary(std::string_view head)
{
    const std::size_t n = std::min<std::size_t>(head.size(), 4096);
    std::size_t control = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(head[i]);
        if (c < 0x20 && c != '\t' && c != '\r' && c != '\n')
            ++control;
    }
    return n > 0 && control * 10 >= n; // at least 10 %
}

} // namespace

TraceSniffer::Result TraceSniffer::inspect(std::string_view head, bool wholeFile)
{
    if (rustTrim(head).empty() && wholeFile)
        return {Verdict::NotATrace, notATrace(tr("the file is empty"))};
    if (const Compression c = detectCompression(head); c != Compression::None) {
        return {Verdict::NotATrace,
                notATrace(tr("the file is %1-compressed; decompress it first (for example with %2)")
                              .arg(QLatin1StringView(compressionName(c)), QLatin1StringView(decompressCommand(c))))};
    }

    Trace scratch;
    LineDecoder decoder(scratch);
    DecodedEvent event;
    DecodeFailure failure;
    std::string padded; // the decoder reads up to kDecoderPadding bytes past a line

    QString firstReason;
    int examined = 0;
    std::size_t pos = 0;
    quint64 lineNo = 0;
    while (pos < head.size() && examined < kMaxLinesExamined) {
        std::size_t end = head.find('\n', pos);
        const bool complete = end != std::string_view::npos || wholeFile;
        if (end == std::string_view::npos)
            end = head.size();
        std::string_view raw = head.substr(pos, end - pos);
        if (raw.ends_with('\r') && end < head.size())
            raw.remove_suffix(1);
        pos = end + 1;
        ++lineNo;
        const std::string_view line = rustTrim(raw);
        if (line.empty())
            continue;
        ++examined;

        QString reason;
        if (!complete) {
            // A line longer than the head (a huge meta record): judge by its start.
            if ((line.starts_with('{') && line.find("\"kind\"") != std::string_view::npos) || line.starts_with("[\""))
                return {};
            reason = tr("line %1 does not start a JSON object").arg(lineNo);
        } else {
            padded.assign(line);
            padded.append(kDecoderPadding, '\0');
            if (decoder.decode(padded.data(), line.size(), event, failure))
                return {};
            const QByteArray bytes = QByteArray::fromRawData(line.data(), qsizetype(line.size()));
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
            if (error.error == QJsonParseError::NoError && namesTraceKind(doc))
                return {}; // a record with an error: the reader will say which
            if (error.error != QJsonParseError::NoError)
                reason = tr("line %1 is not JSON (%2)").arg(lineNo).arg(error.errorString());
            else if (!doc.isObject())
                reason = tr("line %1 is JSON but not an object").arg(lineNo);
            else if (!doc.object().contains(QLatin1StringView("kind")))
                reason = tr("line %1 is a JSON object without a \"kind\" member").arg(lineNo);
            else
                reason = tr("line %1 has no trace record kind").arg(lineNo);
        }
        if (firstReason.isEmpty())
            firstReason = reason;
        if (!complete)
            break;
    }
    // No line looks like a record: say what the bytes look like instead.
    if (looksBinary(head))
        return {Verdict::NotATrace, notATrace(tr("the file contains binary data, not JSON lines"))};
    if (firstReason.isEmpty())
        firstReason = tr("no trace record found in its first %n line(s)", nullptr, int(lineNo));
    return {Verdict::NotATrace, notATrace(firstReason)};
}

QString TraceSniffer::unreadableMessage(const QString &path, const InputError &error)
{
    switch (error.kind) {
    case InputError::Kind::None: return {};
    case InputError::Kind::OpenFailed:
        if (error.osError == ELOOP)
            return tr("Cannot open %1: it is a symbolic link loop (a link that leads back to itself)").arg(path);
        return tr("Cannot open %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error.osError)));
    case InputError::Kind::IsDirectory: return tr("Cannot open %1: it is a folder, not a file").arg(path);
    case InputError::Kind::IsDevice:
        return tr("Cannot open %1: it is a device, not a file or a pipe (a device such as /dev/zero may "
                  "never end)")
            .arg(path);
    case InputError::Kind::ReadFailed:
        return tr("Cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(error.osError)));
    case InputError::Kind::Changed:
        return tr("Cannot load %1: the file changed while it was read (%2 bytes when opened, %3 bytes at the "
                  "end). It may still be being written, or was truncated; reload it once it is complete.")
            .arg(path)
            .arg(error.sizeAtOpen)
            .arg(error.sizeAfter);
    case InputError::Kind::LineTooLong:
        return tr("Cannot load %1: line %2 is longer than %3 bytes, the limit for a pipe or other stream")
            .arg(path)
            .arg(error.line)
            .arg(error.limit);
    }
    return {};
}

TraceSniffer::Result TraceSniffer::check(const QString &path, qint64 headBytes)
{
    TraceSource source = TraceSource::open(QFile::encodeName(path).toStdString());
    if (!source.isOpen())
        return {Verdict::Unreadable, unreadableMessage(path, source.error())};
    std::string head;
    if (!source.peek(std::size_t(headBytes), head, {}))
        return {Verdict::Unreadable, unreadableMessage(path, source.error())};
    return inspect(head, source.peekedAll());
}

} // namespace TraceInspector
