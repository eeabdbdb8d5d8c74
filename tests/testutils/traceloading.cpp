// SPDX-License-Identifier: MIT
#include "tests/testutils/traceloading.h"

#include <QFile>

#include "core/analysis/memoryprofile.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spantree.h"
#include "core/model/trace.h"

namespace TraceInspector::TestFixtures {

ReadResult readJsonl(const QByteArray &jsonl, const QString &name)
{
    return TraceReader::readBytes(std::string_view(jsonl.constData(), std::size_t(jsonl.size())), name.toStdString());
}

std::shared_ptr<const Trace> traceFrom(const QByteArray &jsonl, const QString &name)
{
    return readJsonl(jsonl, name).trace;
}

std::shared_ptr<const Trace> acceptedTraceFrom(const QByteArray &jsonl, const QString &name)
{
    ReadResult r = readJsonl(jsonl, name);
    if (!r.accepted()) {
        qWarning("fixture %s rejected: %s", qPrintable(name), r.strictError ? r.strictError->message.c_str() : "?");
        return {};
    }
    return r.trace;
}

QByteArray withRecords(QByteArray trace, const QByteArray &records)
{
    const qsizetype terminal = trace.lastIndexOf("{\"kind\":\"terminal\"");
    trace.insert(terminal >= 0 ? terminal : trace.size(), records);
    return trace;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QString examplePath(const QString &name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + name;
}

std::shared_ptr<const Trace> exampleTrace(const QString &name)
{
    const QString path = examplePath(name);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return traceFrom(file.readAll(), name);
}

Analysed analysed(const QByteArray &jsonl, int analyses, const QString &name)
{
    Analysed out;
    out.trace = traceFrom(jsonl, name);
    if (!out.trace)
        return out;
    if (analyses & SpanTreeAnalysis)
        out.tree = std::make_shared<const SpanTree>(SpanTree::build(*out.trace));
    if (analyses & OpStatisticsAnalysis)
        out.stats = std::make_shared<const OpStatistics>(OpStatistics::compute(*out.trace));
    if (analyses & MemoryAnalysis)
        out.profile = std::make_shared<const MemoryProfile>(analyzeMemory(*out.trace));
    return out;
}

} // namespace TraceInspector::TestFixtures
