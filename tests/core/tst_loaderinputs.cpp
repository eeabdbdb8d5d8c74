// SPDX-License-Identifier: MIT
// The background loader (the GUI's reader) on hostile inputs: what the sniffer says about
// files that are no trace, FIFOs with and without a writer (cancel and destruction must
// not wait for a writer), devices, and files that change while they are read.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/loading/loadedtrace.h"
#include "core/loading/traceloader.h"
#include "core/loading/tracesniffer.h"

using namespace TraceInspector;

class TestLoaderInputs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void nulByteIsOneBadLine();
    void omittedProblemsAreCounted();
    void sniffSaysWhatTheFileIs_data();
    void sniffSaysWhatTheFileIs();
    void arrayRecordsAreATrace();
    void symlinkLoop();
    void devicesAreRefused();
    void fifoWithWriterLoads();
    void fifoWithoutWriterCancels();
    void destroyingTheLoaderDoesNotWaitForAWriter();
    void fileChangedWhileRead();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QString example(const char *name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1StringView(name);
}

/// The example trace with \a line inserted as line 2.
QByteArray withLine2(const QByteArray &line)
{
    const QByteArray valid = readAll(example("01_valid_trace10_forward.jsonl"));
    const qsizetype nl = valid.indexOf('\n');
    return valid.left(nl + 1) + line + '\n' + valid.mid(nl + 1);
}

struct Outcome {
    bool read = false;
    bool failed = false;
    QString message;
    TraceLoader::FailureKind kind = TraceLoader::FailureKind::Unreadable;
    LoadedTracePtr snapshot;
};

Outcome loadAndWait(TraceLoader &loader, const QString &path)
{
    Outcome o;
    QSignalSpy read(&loader, &TraceLoader::traceRead);
    QSignalSpy failed(&loader, &TraceLoader::failed);
    loader.load(path);
    QElapsedTimer clock;
    clock.start();
    while (read.isEmpty() && failed.isEmpty() && clock.elapsed() < 20000)
        QTest::qWait(10);
    if (!read.isEmpty()) {
        o.read = true;
        o.snapshot = read.at(0).at(1).value<LoadedTracePtr>();
    }
    if (!failed.isEmpty()) {
        o.failed = true;
        o.message = failed.at(0).at(1).toString();
        o.kind = failed.at(0).at(2).value<TraceLoader::FailureKind>();
    }
    return o;
}

} // namespace

void TestLoaderInputs::initTestCase()
{
    std::signal(SIGPIPE, SIG_IGN);
}

void TestLoaderInputs::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

// Defect 9: one NUL byte in the first MiB of a real trace made the whole file "binary
// data"; the reader sees one bad line, and now so does the sniffer.
void TestLoaderInputs::nulByteIsOneBadLine()
{
    const QString path = m_dir->filePath(QStringLiteral("nul.jsonl"));
    QVERIFY(writeAll(path, withLine2(QByteArray("{\"kind\":\"span_end\",\"id\":\"a\0b\"}", 31))));
    TraceLoader loader;
    const Outcome o = loadAndWait(loader, path);
    QVERIFY2(o.read, qPrintable(o.message));
    QVERIFY(o.snapshot->readProblems);
    QCOMPARE(o.snapshot->decodeFailureCount(), std::size_t(1));
    QCOMPARE(o.snapshot->readProblems->front().line, std::uint64_t(2));
    QCOMPARE(TraceSniffer::check(path).verdict, TraceSniffer::Verdict::Trace);
}

// Problems beyond a rule's first ProblemLimiter::kMaxPerRule are counted, not stored: the
// snapshot still knows how many lines failed.
void TestLoaderInputs::omittedProblemsAreCounted()
{
    const QByteArray valid = readAll(example("01_valid_trace10_forward.jsonl"));
    const qsizetype nl = valid.indexOf('\n');
    QByteArray garbage;
    const int n = int(ProblemLimiter::kMaxPerRule) + 50;
    for (int i = 0; i < n; ++i)
        garbage += "x\n";
    const QString path = m_dir->filePath(QStringLiteral("garbage.jsonl"));
    QVERIFY(writeAll(path, valid.left(nl + 1) + garbage + valid.mid(nl + 1)));
    TraceLoader loader;
    const Outcome o = loadAndWait(loader, path);
    QVERIFY2(o.read, qPrintable(o.message));
    QCOMPARE(o.snapshot->readProblems->size(), std::size_t(ProblemLimiter::kMaxPerRule));
    QCOMPARE(o.snapshot->decodeFailureCount(), std::size_t(n));
    QCOMPARE(o.snapshot->readOmitted.size(), std::size_t(1));
    QCOMPARE(o.snapshot->readOmitted.front().count, std::uint64_t(50));
}

void TestLoaderInputs::sniffSaysWhatTheFileIs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10)
                          << QStringLiteral("gzip-compressed");
    QTest::newRow("zstd") << QByteArray("\x28\xb5\x2f\xfd\x00\x58\x61\x00", 8) << QStringLiteral("zstd-compressed");
    QByteArray binary;
    for (int i = 0; i < 4096; ++i)
        binary += char(i % 2 ? 0 : (i * 7919) & 0xff); // an object file's worth of NULs
    QTest::newRow("binary") << binary << QStringLiteral("binary data");
    QTest::newRow("empty") << QByteArray("\n\n") << QStringLiteral("the file is empty");
    QTest::newRow("csv") << QByteArray("a,b,c\n1,2,3\n") << QStringLiteral("line 1 is not JSON");
    QTest::newRow("JSON object, no kind") << QByteArray("{\"x\":1}\n") << QStringLiteral("without a \"kind\" member");
}

// A compressed trace used to say "stream did not contain valid UTF-8".
void TestLoaderInputs::sniffSaysWhatTheFileIs()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    const QString path = m_dir->filePath(QStringLiteral("file"));
    QVERIFY(writeAll(path, bytes));
    TraceLoader loader;
    const Outcome o = loadAndWait(loader, path);
    QVERIFY(o.failed);
    QCOMPARE(o.kind, TraceLoader::FailureKind::NotATrace);
    QVERIFY2(o.message.contains(says), qPrintable(o.message));
}

// §5.2: records may be JSON arrays; the sniffer reads them as the reader does.
void TestLoaderInputs::arrayRecordsAreATrace()
{
    const QByteArray valid = readAll(example("01_valid_trace10_forward.jsonl"));
    const qsizetype nl = valid.indexOf('\n');
    // Twenty array-form span_ends of unknown spans first, then the trace as usual.
    QByteArray bytes;
    for (int i = 0; i < 20; ++i)
        bytes += "[\"span_end\",\"x" + QByteArray::number(i) + "\",1]\n";
    QVERIFY(writeAll(m_dir->filePath(QStringLiteral("arrays.jsonl")), bytes + valid.mid(nl + 1)));
    QCOMPARE(TraceSniffer::check(m_dir->filePath(QStringLiteral("arrays.jsonl"))).verdict,
             TraceSniffer::Verdict::Trace);
}

// A symlink loop said "No such file or directory".
void TestLoaderInputs::symlinkLoop()
{
    const QString a = m_dir->filePath(QStringLiteral("a"));
    const QString b = m_dir->filePath(QStringLiteral("b"));
    QVERIFY(QFile::link(b, a));
    QVERIFY(QFile::link(a, b));
    TraceLoader loader;
    const Outcome o = loadAndWait(loader, a);
    QVERIFY(o.failed);
    QCOMPARE(o.kind, TraceLoader::FailureKind::Unreadable);
    QVERIFY2(o.message.contains(QStringLiteral("symbolic link loop")), qPrintable(o.message));
}

void TestLoaderInputs::devicesAreRefused()
{
    if (!QFile::exists(QStringLiteral("/dev/zero")))
        QSKIP("/dev/zero does not exist here");
    TraceLoader loader;
    const Outcome o = loadAndWait(loader, QStringLiteral("/dev/zero"));
    QVERIFY(o.failed);
    QVERIFY2(o.message.contains(QStringLiteral("it is a device")), qPrintable(o.message));
}

// Defect 2 in the GUI: a FIFO with a writer is read to its end.
void TestLoaderInputs::fifoWithWriterLoads()
{
    const QString fifo = m_dir->filePath(QStringLiteral("fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QByteArray bytes = readAll(example("01_valid_trace10_forward.jsonl"));
    std::thread writer([&] {
        QFile f(fifo);
        if (f.open(QIODevice::WriteOnly))
            f.write(bytes);
    });
    TraceLoader loader;
    QSignalSpy finished(&loader, &TraceLoader::finished);
    const Outcome o = loadAndWait(loader, fifo);
    writer.join();
    QVERIFY2(o.read, qPrintable(o.message));
    QVERIFY(!o.snapshot->isRejected());
    QCOMPARE(o.snapshot->trace->recordCount, std::uint64_t(16));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
}

// Defect 1 in the GUI: a FIFO nobody writes to kept the job in open() for good, so Cancel
// did nothing. Now the job waits in poll() and says so, and Cancel ends it.
void TestLoaderInputs::fifoWithoutWriterCancels()
{
    const QString fifo = m_dir->filePath(QStringLiteral("fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    TraceLoader loader;
    QSignalSpy progress(&loader, &TraceLoader::progressChanged);
    QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
    loader.load(fifo);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(progress.cbegin(), progress.cend(),
                                         [](const QList<QVariant> &args) {
                                             return args.at(2).toString().startsWith(
                                                 QStringLiteral("Waiting for data"));
                                         }),
                             5000);
    QVERIFY(loader.isLoading());
    loader.cancel();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!loader.isLoading());
    // The job itself ends too: a writer that comes later finds no reader.
    QTRY_VERIFY_WITH_TIMEOUT(
        ::access(QFile::encodeName(fifo).constData(), F_OK) == 0 &&
            [&] {
                const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
                if (fd >= 0)
                    ::close(fd);
                return fd < 0 && errno == ENXIO;
            }(),
        2000);
}

// Closing the window destroys the loader, which waits for its jobs: that wait must end.
void TestLoaderInputs::destroyingTheLoaderDoesNotWaitForAWriter()
{
    const QString fifo = m_dir->filePath(QStringLiteral("fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    auto loader = std::make_unique<TraceLoader>();
    QSignalSpy progress(loader.get(), &TraceLoader::progressChanged);
    loader->load(fifo);
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 2, 5000);
    QElapsedTimer clock;
    clock.start();
    loader.reset();
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QStringLiteral("destruction took %1 ms").arg(clock.elapsed())));
}

// Defect 3 in the GUI: a file still being written fails with its own kind, so the window
// can offer to reload it, instead of showing errors the file does not have.
void TestLoaderInputs::fileChangedWhileRead()
{
    const QString path = m_dir->filePath(QStringLiteral("growing.jsonl"));
    const QByteArray valid = readAll(example("01_valid_trace10_forward.jsonl"));
    QByteArray bytes = valid.left(valid.indexOf('\n') + 1);
    for (int i = 0; i < 200000; ++i)
        bytes += "{\"kind\":\"span_start\",\"id\":\"s" + QByteArray::number(i)
                 + "\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n";
    QVERIFY(writeAll(path, bytes));
    std::atomic<bool> stop{false};
    std::atomic<int> appended{0};
    std::thread appender([&] {
        QFile f(path);
        if (!f.open(QIODevice::Append))
            return;
        for (int i = 0; !stop; ++i) {
            f.write("{\"kind\":\"span_end\",\"id\":\"s" + QByteArray::number(i) + "\",\"duration_ns\":1}\n");
            f.flush();
            ++appended;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    });
    QTRY_VERIFY(appended.load() > 0);
    TraceLoader loader;
    const Outcome o = loadAndWait(loader, path);
    stop = true;
    appender.join();
    QVERIFY(o.failed);
    QCOMPARE(o.kind, TraceLoader::FailureKind::ChangedWhileRead);
    QVERIFY2(o.message.contains(QStringLiteral("changed while it was read")), qPrintable(o.message));
}

QTEST_GUILESS_MAIN(TestLoaderInputs)
#include "tst_loaderinputs.moc"
