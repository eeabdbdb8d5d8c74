// SPDX-License-Identifier: MIT
// The reader on inputs that are not ordinary regular files, or that do not hold still:
// FIFOs with and without a writer, pipes, procfs, devices, files that change while they
// are read; and the memory bounds on hostile content (problem limits, long lines).
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <chrono>
#include <cerrno>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/analysis/health.h"
#include "core/io/tracereader.h"
#include "core/io/tracesource.h"

using namespace TraceInspector;

class TestTraceSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void fifoWithoutWriterOpensAndCancels();
    void fifoWithWriterIsReadToItsEnd();
    void pipeMatchesFile_data();
    void pipeMatchesFile();
    void peekDoesNotWaitForAPausingProducer();
    void procfsFileIsRead();
    void devicesAreRefused_data();
    void devicesAreRefused();
    void directoryAndSymlinkLoop();
    void fileChangedWhileRead_data();
    void fileChangedWhileRead();
    void streamLineLimit();
    void hostileContent_data();
    void hostileContent();
    void problemsAreLimitedPerRule_data();
    void problemsAreLimitedPerRule();
    void healthFindingsAreLimited();
    void longMessagesAreShortenedInTheList();
    void longLineInRegularFile();

private:
    QString examplePath(const char *name) const;
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

std::string readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

bool writeAll(const QString &path, const std::string &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

bool writeFd(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(std::size_t(n));
    }
    return true;
}

const std::string kMeta =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e","phase":"infer",)"
    R"("timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host","capture_contract":)"
    R"({"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none","physical_memory":"none",)"
    R"("device_timing":"none"},"tags":{}})"
    "\n";
const std::string kTerminal = "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000}\n";

/// Everything observable about a read, for comparing two reads of the same bytes.
std::string fingerprint(const ReadResult &r)
{
    std::string out = r.accepted() ? "accepted\n" : "rejected\n";
    if (r.strictError)
        out += "strict " + r.strictError->ruleId + " " + std::to_string(r.strictError->line) + " "
               + r.strictError->message + "\n";
    for (const Problem &p : r.problems)
        out += std::to_string(p.line) + ":" + std::to_string(p.column) + " " + p.ruleId + " " + p.message + "\n";
    for (const OmittedProblems &o : r.omittedProblems)
        out += "omitted " + o.ruleId + " " + std::to_string(o.count) + "\n";
    if (r.trace)
        out +=
            "lines " + std::to_string(r.trace->lineCount) + " records " + std::to_string(r.trace->recordCount) + "\n";
    return out;
}

std::uint64_t omittedOf(const std::vector<OmittedProblems> &list, const std::string &rule)
{
    for (const OmittedProblems &o : list) {
        if (o.ruleId == rule)
            return o.count;
    }
    return 0;
}

std::size_t storedOf(const std::vector<Problem> &list, const std::string &rule)
{
    return std::size_t(std::count_if(list.begin(), list.end(), [&](const Problem &p) { return p.ruleId == rule; }));
}

} // namespace

QString TestTraceSource::examplePath(const char *name) const
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1StringView(name);
}

void TestTraceSource::initTestCase()
{
    // Writers in these tests see their readers go away; that is an EPIPE, not a crash.
    std::signal(SIGPIPE, SIG_IGN);
}

void TestTraceSource::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

// Defect 1: open() used to block for good on a FIFO nobody writes to, and no cancel could
// reach it. Now open returns at once and the wait for data gives up when cancelled.
void TestTraceSource::fifoWithoutWriterOpensAndCancels()
{
    const std::string fifo = m_dir->filePath(QStringLiteral("nowriter")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    std::atomic<bool> cancel{false};
    std::atomic<bool> done{false};
    std::atomic<int> waits{0};
    ReadResult result;
    std::thread reader([&] {
        TraceSource source = TraceSource::open(fifo);
        ReadOptions options;
        options.waiting = [&](std::uint64_t, std::uint64_t bytes) {
            if (bytes == 0)
                ++waits;
        };
        result = TraceReader::read(source, options, {}, &cancel);
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(waits.load() >= 2, 5000); // waiting in poll(), not stuck in open()
    QVERIFY(!done.load());
    const auto asked = std::chrono::steady_clock::now();
    cancel = true;
    QTRY_VERIFY_WITH_TIMEOUT(done.load(), 2000);
    reader.join();
    QVERIFY(std::chrono::steady_clock::now() - asked < std::chrono::seconds(1));
    QVERIFY(result.cancelled);
    QVERIFY(!result.accepted());
    QVERIFY(!result.inputError);
}

// Defect 2: a FIFO with a writer read as empty ("missing a meta event").
void TestTraceSource::fifoWithWriterIsReadToItsEnd()
{
    const QString example = examplePath("01_valid_trace10_forward.jsonl");
    const std::string bytes = readAll(example);
    QVERIFY(!bytes.empty());
    const std::string fifo = m_dir->filePath(QStringLiteral("withwriter")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300)); // the reader opens first
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return;
        // In pieces, with pauses: a slow producer must not look like the end.
        for (std::size_t at = 0; at < bytes.size(); at += 100) {
            writeFd(fd, std::string_view(bytes).substr(at, 100));
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ::close(fd);
    });
    const ReadResult r = TraceReader::readFile(fifo);
    writer.join();
    QVERIFY2(r.accepted(), r.strictError ? r.strictError->message.c_str() : "no trace");
    QCOMPARE(fingerprint(r), fingerprint(TraceReader::readBytes(bytes, fifo)));
}

void TestTraceSource::pipeMatchesFile_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files =
        QDir(QStringLiteral(TI_EXAMPLES_DIR)).entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name);
    QVERIFY(!files.isEmpty());
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << QStringLiteral(TI_EXAMPLES_DIR "/") + f;
}

// `cat run.jsonl | candle-trace check /dev/stdin` and `<(cat run.jsonl)`: the same verdict
// and problems as the file itself.
void TestTraceSource::pipeMatchesFile()
{
    QFETCH(QString, file);
    const std::string bytes = readAll(file);
    int fds[2];
    QCOMPARE(::pipe2(fds, O_CLOEXEC), 0);
    std::thread writer([&] {
        writeFd(fds[1], bytes);
        ::close(fds[1]);
    });
    TraceSource source = TraceSource::fromDescriptor(fds[0], file.toStdString());
    QVERIFY(source.isOpen());
    QCOMPARE(source.kind(), TraceSource::Kind::Stream);
    const ReadResult piped = TraceReader::read(source);
    writer.join();
    ::close(fds[0]);
    const ReadResult direct = TraceReader::readFile(file.toStdString());
    QCOMPARE(fingerprint(piped), fingerprint(direct));
}

// The loader's first look at a pipe takes the first whole lines as soon as they are there,
// even if the producer then pauses; what it saw is read again by the reader.
void TestTraceSource::peekDoesNotWaitForAPausingProducer()
{
    int fds[2];
    QCOMPARE(::pipe2(fds, O_CLOEXEC), 0);
    std::atomic<bool> release{false};
    std::thread writer([&] {
        writeFd(fds[1], "{\"ki");
        std::this_thread::sleep_for(std::chrono::milliseconds(300)); // half a line: keep waiting
        writeFd(fds[1], "nd\":\"x\"}\nsecond\n");
        while (!release)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        writeFd(fds[1], "third\n");
        ::close(fds[1]);
    });
    TraceSource source = TraceSource::fromDescriptor(fds[0], "pipe");
    std::string head;
    const auto start = std::chrono::steady_clock::now();
    QVERIFY(source.peek(1 << 20, head, {}));
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
    QCOMPARE(head, std::string("{\"kind\":\"x\"}\nsecond\n"));
    QVERIFY(!source.peekedAll());
    release = true;
    std::string all(64, '\0');
    std::size_t got = 0;
    for (std::int64_t n; (n = source.readSome(all.data() + got, all.size() - got, {})) > 0;)
        got += std::size_t(n);
    writer.join();
    ::close(fds[0]);
    QCOMPARE(all.substr(0, got), std::string("{\"kind\":\"x\"}\nsecond\nthird\n"));
}

// procfs reports a size of 0 for files with content: read as a stream, not as empty.
void TestTraceSource::procfsFileIsRead()
{
    const ReadResult r = TraceReader::readFile("/proc/self/status");
    QVERIFY(!r.inputError);
    QVERIFY(r.strictError);
    QCOMPARE(r.strictError->ruleId, std::string("E-LINE-PARSE"));
    QCOMPARE(r.strictError->line, std::uint64_t(1));
    QVERIFY(r.trace->lineCount > 5);
}

void TestTraceSource::devicesAreRefused_data()
{
    QTest::addColumn<QString>("device");
    for (const char *d : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
        if (QFile::exists(QLatin1StringView(d)))
            QTest::newRow(d) << QString::fromLatin1(d);
    }
}

// /dev/zero and /dev/urandom used to read as empty; read as streams they would never end.
void TestTraceSource::devicesAreRefused()
{
    QFETCH(QString, device);
    const ReadResult r = TraceReader::readFile(device.toStdString());
    QCOMPARE(r.inputError.kind, InputError::Kind::IsDevice);
    QVERIFY(!r.trace);
    QVERIFY(r.strictError);
    QCOMPARE(r.strictError->ruleId, std::string("E-FILE-OPEN"));
    QVERIFY(r.strictError->message.find("it is a device") != std::string::npos);
}

void TestTraceSource::directoryAndSymlinkLoop()
{
    ReadResult r = TraceReader::readFile(m_dir->path().toStdString());
    QCOMPARE(r.inputError.kind, InputError::Kind::IsDirectory);
    const std::string a = m_dir->filePath(QStringLiteral("loop-a")).toStdString();
    const std::string b = m_dir->filePath(QStringLiteral("loop-b")).toStdString();
    QCOMPARE(::symlink(b.c_str(), a.c_str()), 0);
    QCOMPARE(::symlink(a.c_str(), b.c_str()), 0);
    r = TraceReader::readFile(a);
    QCOMPARE(r.inputError.kind, InputError::Kind::OpenFailed);
    QCOMPARE(r.inputError.osError, ELOOP);
}

void TestTraceSource::fileChangedWhileRead_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<unsigned>("threads");
    QTest::addColumn<bool>("asStream");
    for (const char *change : {"shrink", "grow", "rewrite"}) {
        QTest::addRow("%s, one segment", change) << QString::fromLatin1(change) << 1u << false;
        QTest::addRow("%s, three segments", change) << QString::fromLatin1(change) << 3u << false;
        QTest::addRow("%s, read as a stream", change) << QString::fromLatin1(change) << 1u << true;
    }
}

// Defect 3: a file truncated or appended to mid-read gave wrong line numbers and false
// "span_end for unknown span" errors. Now the read says that the file changed, and
// reports nothing about its content.
void TestTraceSource::fileChangedWhileRead()
{
    QFETCH(QString, change);
    QFETCH(unsigned, threads);
    QFETCH(bool, asStream);
    // 20 000 spans opened, then closed: a cut anywhere leaves span_ends of spans never seen.
    std::string bytes = kMeta;
    for (int i = 0; i < 20000; ++i)
        bytes += R"({"kind":"span_start","id":"s)" + std::to_string(i)
                 + R"(","name":"n","start_ns":0,"span_kind":"function"})"
                   "\n";
    for (int i = 0; i < 20000; ++i)
        bytes += R"({"kind":"span_end","id":"s)" + std::to_string(i)
                 + R"(","duration_ns":5})"
                   "\n";
    bytes += kTerminal;
    const QString path = m_dir->filePath(QStringLiteral("changing.jsonl"));
    QVERIFY(writeAll(path, bytes));
    QVERIFY(TraceReader::readFile(path.toStdString()).accepted());

    ReadOptions options;
    options.chunkBytes = 64 << 10;
    options.maxThreads = threads;
    options.cores = threads; // as many threads as asked, whatever the machine has
    options.parallelThresholdBytes = 0;
    options.minSegmentBytes = 0;
    options.readAsStream = asStream;
    bool changed = false;
    const ProgressSink sink = [&](std::uint64_t done, std::uint64_t) {
        if (changed || done == 0)
            return;
        changed = true;
        if (change == QLatin1StringView("shrink")) {
            QVERIFY(::truncate(path.toLocal8Bit().constData(), off_t(bytes.size() / 2)) == 0);
        } else if (change == QLatin1StringView("grow")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append));
            f.write("{\"kind\":\"span_end\",\"id\":\"late\"}\n");
        } else {
            // Same size, new content: only the modification time tells.
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.write("{");
        }
    };
    const ReadResult r = TraceReader::readFile(path.toStdString(), options, sink);
    QVERIFY(changed);
    QCOMPARE(r.inputError.kind, InputError::Kind::Changed);
    QVERIFY(!r.trace);
    QVERIFY(r.strictError);
    QVERIFY(r.strictError->message.find("the file changed while it was read") != std::string::npos);
    // Nothing about the content: in particular no invented span_end errors.
    QCOMPARE(r.problems.size(), std::size_t(1));
    QCOMPARE(r.inputError.sizeAtOpen, std::uint64_t(bytes.size()));
}

// A stream's line may not grow without end (a pipe from /dev/zero).
void TestTraceSource::streamLineLimit()
{
    int fds[2];
    QCOMPARE(::pipe2(fds, O_CLOEXEC), 0);
    std::thread writer([&] {
        writeFd(fds[1], kMeta);
        writeFd(fds[1], "\n");
        const std::string block(1 << 16, 'x');
        for (int i = 0; i < 64; ++i) { // 4 MiB without a newline
            if (!writeFd(fds[1], block))
                break;
        }
        ::close(fds[1]);
    });
    TraceSource source = TraceSource::fromDescriptor(fds[0], "pipe");
    ReadOptions options;
    options.chunkBytes = 64 << 10;
    options.maxStreamLineBytes = 1 << 20;
    const ReadResult r = TraceReader::read(source, options);
    ::close(fds[0]); // lets the writer stop
    writer.join();
    QCOMPARE(r.inputError.kind, InputError::Kind::LineTooLong);
    QCOMPARE(r.inputError.line, std::uint64_t(3));
    QVERIFY(!r.trace);
}

void TestTraceSource::hostileContent_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("rule");
    QTest::newRow("NUL byte") << QByteArray("{\"kind\":\"span_end\",\"id\":\"a\0b\"}", 31)
                              << QStringLiteral("E-LINE-PARSE");
    QTest::newRow("overlong UTF-8 slash")
        << QByteArray("{\"kind\":\"span_end\",\"id\":\"\xC0\xAF\"}") << QStringLiteral("E-LINE-READ");
    QTest::newRow("overlong UTF-8 NUL") << QByteArray("{\"kind\":\"span_end\",\"id\":\"\xE0\x80\x80\"}")
                                        << QStringLiteral("E-LINE-READ");
    QTest::newRow("lone surrogate escape")
        << QByteArray("{\"kind\":\"span_end\",\"id\":\"\\ud800\"}") << QStringLiteral("E-LINE-PARSE");
    QTest::newRow("million-deep arrays") << QByteArray(1000000, '[') << QStringLiteral("E-LINE-PARSE");
    QTest::newRow("million-deep objects")
        << QByteArray("{\"kind\":") + QByteArray(1000000, '{') << QStringLiteral("E-LINE-PARSE");
    QTest::newRow("1e999999") << QByteArray("{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":1e999999}")
                              << QStringLiteral("E-LINE-PARSE");
    QTest::newRow("100k-digit integer") << QByteArray("{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":")
                                               + QByteArray(100000, '7') + "}"
                                        << QStringLiteral("E-LINE-PARSE");
}

// Content that once only looked dangerous: one bad line each, with the reader's message,
// read the same from a file and from a pipe.
void TestTraceSource::hostileContent()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, rule);
    const std::string bytes = kMeta + line.toStdString() + "\n" + kTerminal;
    const QString path = m_dir->filePath(QStringLiteral("hostile.jsonl"));
    QVERIFY(writeAll(path, bytes));
    const ReadResult r = TraceReader::readFile(path.toStdString());
    QVERIFY(r.trace);
    QVERIFY(r.strictError);
    QCOMPARE(QString::fromStdString(r.strictError->ruleId), rule);
    QCOMPARE(r.strictError->line, std::uint64_t(2));
    QCOMPARE(r.problems.size(), std::size_t(1));
    ReadOptions stream;
    stream.readAsStream = true;
    stream.chunkBytes = 4096;
    QCOMPARE(fingerprint(TraceReader::readFile(path.toStdString(), stream)), fingerprint(r));
}

void TestTraceSource::problemsAreLimitedPerRule_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("rule");
    QTest::newRow("garbage lines") << QStringLiteral("garbage") << QStringLiteral("E-LINE-PARSE");
    QTest::newRow("invalid UTF-8") << QStringLiteral("utf8") << QStringLiteral("E-LINE-READ");
    QTest::newRow("unknown span_end") << QStringLiteral("unknown") << QStringLiteral("E-SPAN-END-UNKNOWN");
}

// Defect 8: every problem used to be stored (a file of 10 M garbage lines took 36 times
// its size). Each rule keeps its first kMaxPerRule; the rest are counted exactly, and a
// read split over threads keeps exactly what one sequential pass keeps.
void TestTraceSource::problemsAreLimitedPerRule()
{
    QFETCH(QString, kind);
    QFETCH(QString, rule);
    const std::uint64_t n = ProblemLimiter::kMaxPerRule * 3 + 7;
    std::string bytes = kMeta;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (kind == QLatin1StringView("garbage"))
            bytes += "x\n";
        else if (kind == QLatin1StringView("utf8"))
            bytes += "\xff\n";
        else
            bytes += R"({"kind":"span_end","id":"u)" + std::to_string(i)
                     + R"("})"
                       "\n";
    }
    bytes += kTerminal;
    const QString path = m_dir->filePath(QStringLiteral("many.jsonl"));
    QVERIFY(writeAll(path, bytes));

    const ReadResult one = TraceReader::readBytes(bytes, path.toStdString());
    QCOMPARE(storedOf(one.problems, rule.toStdString()), std::size_t(ProblemLimiter::kMaxPerRule));
    QCOMPARE(omittedOf(one.omittedProblems, rule.toStdString()), n - ProblemLimiter::kMaxPerRule);
    QCOMPARE(one.problemCount(), n);
    QVERIFY(one.strictError);
    QCOMPARE(one.strictError->line, std::uint64_t(2));

    ReadOptions split;
    split.maxThreads = 3;
    split.cores = 3;
    split.parallelThresholdBytes = 0;
    split.minSegmentBytes = 0;
    split.chunkBytes = 4096;
    QCOMPARE(fingerprint(TraceReader::readFile(path.toStdString(), split)), fingerprint(one));
    ReadOptions stream;
    stream.readAsStream = true;
    QCOMPARE(fingerprint(TraceReader::readFile(path.toStdString(), stream)), fingerprint(one));
}

// Health findings too: 10 M unclosed spans took 4 times the file in check --all.
void TestTraceSource::healthFindingsAreLimited()
{
    const std::uint64_t n = ProblemLimiter::kMaxPerRule * 2 + 3;
    std::string bytes = kMeta;
    for (std::uint64_t i = 0; i < n; ++i)
        bytes += R"({"kind":"span_start","id":"s)" + std::to_string(i)
                 + R"(","name":"n","start_ns":0,"span_kind":"function"})"
                   "\n";
    bytes += kTerminal;
    const ReadResult r = TraceReader::readBytes(bytes, "open.jsonl");
    QVERIFY(r.accepted());
    const HealthReport health = analyzeHealth(*r.trace);
    QCOMPARE(storedOf(health.findings, "H-SPAN-UNCLOSED"), std::size_t(ProblemLimiter::kMaxPerRule));
    QCOMPARE(omittedOf(health.omittedFindings, "H-SPAN-UNCLOSED"), n - ProblemLimiter::kMaxPerRule);
    QVERIFY(!health.structurallyValid);
}

// A 100 KB id is listed with a shortened message; the strict error keeps all of it.
void TestTraceSource::longMessagesAreShortenedInTheList()
{
    const std::string id(100000, 'q');
    const std::string bytes = kMeta + R"({"kind":"span_end","id":")" + id + "\"}\n" + kTerminal;
    const ReadResult r = TraceReader::readBytes(bytes, "long.jsonl");
    QVERIFY(r.strictError);
    QVERIFY(r.strictError->message.find(id) != std::string::npos);
    QCOMPARE(r.problems.size(), std::size_t(1));
    QVERIFY(r.problems[0].message.size() < ProblemLimiter::kMaxMessageBytes + 100);
    QVERIFY(r.problems[0].message.find("more bytes not shown") != std::string::npos);
    QVERIFY(r.problems[0].relatedId.empty());
}

// A line far longer than a chunk: read in one piece, the same as from memory.
void TestTraceSource::longLineInRegularFile()
{
    const std::string name(20 << 20, 'n'); // 20 MB span name
    const std::string bytes = kMeta + R"({"kind":"span_start","id":"s","name":")" + name
                              + R"(","start_ns":0,"span_kind":"function"})"
                                "\n"
                                R"({"kind":"span_end","id":"s","duration_ns":5})"
                                "\n"
                              + kTerminal;
    const QString path = m_dir->filePath(QStringLiteral("longline.jsonl"));
    QVERIFY(writeAll(path, bytes));
    ReadOptions options;
    options.chunkBytes = 1 << 20;
    const ReadResult r = TraceReader::readFile(path.toStdString(), options);
    QVERIFY2(r.accepted(), r.strictError ? r.strictError->message.substr(0, 200).c_str() : "");
    QCOMPARE(r.trace->str(r.trace->spans.at(0).name).size(), name.size());
    QCOMPARE(fingerprint(r), fingerprint(TraceReader::readBytes(bytes, path.toStdString())));
}

QTEST_GUILESS_MAIN(TestTraceSource)
#include "tst_tracesource.moc"
