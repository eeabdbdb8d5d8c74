// SPDX-License-Identifier: MIT
#include "ui/details/rawlinereader.h"

#include "core/loading/workerpool.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QMutex>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

namespace TraceInspector {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("TraceInspector::RawLineReader", text);
}

constexpr qint64 kBlock = qint64(1) << 22;

/// Offsets of lines 1, 1 + stride, 1 + 2·stride…
struct LineIndex {
    QString path;
    qint64 size = -1;
    qint64 modified = 0;
    std::vector<qint64> offsets;
};

bool buildIndex(QFile &file, LineIndex &index, QString *error)
{
    index.offsets.assign(1, 0);
    QByteArray block;
    block.resize(kBlock);
    qint64 base = 0;
    quint64 line = 1;
    file.seek(0);
    for (;;) {
        const qint64 n = file.read(block.data(), kBlock);
        if (n < 0) {
            *error = tr("cannot read %1: %2").arg(index.path, file.errorString());
            return false;
        }
        if (n == 0)
            break;
        const char *p = block.constData();
        const char *end = p + n;
        while (p < end) {
            const void *nl = std::memchr(p, '\n', std::size_t(end - p));
            if (!nl)
                break;
            p = static_cast<const char *>(nl) + 1;
            ++line;
            if ((line - 1) % RawLineReader::kIndexStride == 0)
                index.offsets.push_back(base + (p - block.constData()));
        }
        base += n;
    }
    return true;
}

bool openChecked(QFile &file, quint64 expectedBytes, QString *error)
{
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot open %1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    if (expectedBytes > 0 && quint64(file.size()) != expectedBytes) {
        *error = tr("%1 changed on disk since it was loaded (%2 bytes now, %3 then); the raw line is not shown")
                     .arg(file.fileName())
                     .arg(file.size())
                     .arg(expectedBytes);
        return false;
    }
    return true;
}

void skipLine(QFile &file)
{
    char buffer[65536];
    for (;;) {
        const qint64 n = file.readLine(buffer, sizeof buffer);
        if (n <= 0 || buffer[n - 1] == '\n')
            return;
    }
}

QList<SourceLine> readIndexed(QFile &file, const LineIndex &index, const QList<quint64> &lines, QString *error)
{
    QList<quint64> sorted = lines;
    std::sort(sorted.begin(), sorted.end());
    QList<SourceLine> out;
    QStringList missing;
    for (quint64 number : std::as_const(sorted)) {
        const std::size_t slot =
            number == 0 ? index.offsets.size() : std::size_t((number - 1) / RawLineReader::kIndexStride);
        bool found = false;
        if (slot < index.offsets.size()) {
            file.seek(index.offsets[slot]);
            for (quint64 current = quint64(slot) * RawLineReader::kIndexStride + 1; !file.atEnd(); ++current) {
                if (current != number) {
                    skipLine(file);
                    continue;
                }
                SourceLine line;
                line.number = number;
                line.text = file.readLine(RawLineReader::kMaxLineBytes + 1);
                if (line.text.endsWith('\n')) {
                    line.text.chop(1);
                } else if (line.text.size() > RawLineReader::kMaxLineBytes) {
                    line.text.truncate(RawLineReader::kMaxLineBytes);
                    line.truncated = true;
                }
                if (line.text.endsWith('\r'))
                    line.text.chop(1);
                out.append(line);
                found = true;
                break;
            }
        }
        if (!found)
            missing << QString::number(number);
    }
    if (!missing.isEmpty())
        *error = tr("%1 has no line %2").arg(file.fileName(), missing.join(QStringLiteral(", ")));
    return out;
}

} // namespace

struct RawLineReader::Shared {
    QMutex mutex;
    std::atomic<bool> indexed{false}; // the index describes the file (read without the mutex)
    QString path;
    quint64 expectedBytes = 0;
    LineIndex index; // guarded by mutex
};

namespace {

// Scans the file for the line index unless the index already describes it. Call with the
// mutex held.
bool ensureIndex(RawLineReader::Shared &shared, QFile &file, QString *error)
{
    LineIndex &index = shared.index;
    const qint64 modified = QFileInfo(file).lastModified().toMSecsSinceEpoch();
    if (!index.offsets.empty() && index.size == file.size() && index.modified == modified)
        return true;
    index.path = shared.path;
    index.size = file.size();
    index.modified = modified;
    shared.indexed = false;
    if (buildIndex(file, index, error)) {
        shared.indexed = true;
        return true;
    }
    index.offsets.clear();
    return false;
}

} // namespace

RawLineReader::RawLineReader(QObject *parent)
    : QObject(parent)
    , m_shared(std::make_shared<Shared>())
{
    qRegisterMetaType<TraceInspector::SourceLine>();
    qRegisterMetaType<QList<TraceInspector::SourceLine>>();
}

RawLineReader::~RawLineReader() = default;

void RawLineReader::setFile(const QString &path, quint64 expectedBytes)
{
    // A new Shared: requests still running keep the old one and their answers are for it.
    auto shared = std::make_shared<Shared>();
    shared->path = path;
    shared->expectedBytes = expectedBytes;
    m_shared = std::move(shared);
}

void RawLineReader::prepare()
{
    if (m_shared->path.isEmpty())
        return;
    // The scan of a 1 GB file is a second of a worker: done now, after the load, it no longer
    // competes with the GUI thread for the cores when the first record is clicked.
    std::shared_ptr<Shared> shared = m_shared;
    QFuture<void> future = QtConcurrent::run(workerPool(), [shared] {
        QMutexLocker lock(&shared->mutex);
        QFile file(shared->path);
        QString error; // a request reports it, with the lines it could not read
        if (openChecked(file, shared->expectedBytes, &error))
            ensureIndex(*shared, file, &error);
    });
    Q_UNUSED(future);
}

bool RawLineReader::isIndexed() const
{
    return m_shared->indexed;
}

QString RawLineReader::path() const
{
    return m_shared->path;
}

QList<SourceLine> RawLineReader::readLines(const QString &path, quint64 expectedBytes, const QList<quint64> &lines,
                                           QString *error)
{
    QString message;
    QList<SourceLine> out;
    QFile file(path);
    LineIndex index;
    index.path = path;
    if (openChecked(file, expectedBytes, &message) && buildIndex(file, index, &message))
        out = readIndexed(file, index, lines, &message);
    if (error)
        *error = message;
    return out;
}

quint64 RawLineReader::request(const QList<quint64> &lines)
{
    const quint64 id = ++m_nextRequest;
    std::shared_ptr<Shared> shared = m_shared;
    QPointer<RawLineReader> self(this);
    QFuture<void> future = QtConcurrent::run(workerPool(), [shared, lines, id, self] {
        QString error;
        QList<SourceLine> out;
        QMutexLocker lock(&shared->mutex);
        QFile file(shared->path);
        if (openChecked(file, shared->expectedBytes, &error) && ensureIndex(*shared, file, &error))
            out = readIndexed(file, shared->index, lines, &error);
        lock.unlock();
        QMetaObject::invokeMethod(
            qApp,
            [self, id, out, error] {
                if (self)
                    Q_EMIT self->linesRead(id, out, error);
            },
            Qt::QueuedConnection);
    });
    Q_UNUSED(future);
    return id;
}

} // namespace TraceInspector
