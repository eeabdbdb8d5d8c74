// SPDX-License-Identifier: MIT
// The output-file rules shared by candle-trace normalize and the GUI export.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "core/io/fileidentity.h"
#include "core/output/atomicfilewriter.h"

using namespace TraceInspector;

class TestAtomicFileWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void writesNewFileWithUmaskMode();
    void replacesAndKeepsMode();
    void refusals_data();
    void refusals();
    void forceReplacesReadOnly();
    void writesThroughSymlinkChain();
    void longNames();
    void discardLeavesTargetUntouched();
    void fullDeviceReportsTheReason();
    void checkAgreesWithOpen();
    void identityComparesFilesNotNames();

private:
    std::string path(const char *name) const { return m_dir->filePath(QLatin1StringView(name)).toStdString(); }
    QStringList entries() const
    {
        return QDir(m_dir->path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System);
    }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

std::string readAll(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string("<unreadable>");
}

bool writeAll(const std::string &path, const std::string &bytes)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

unsigned modeOf(const std::string &path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? unsigned(st.st_mode & 07777) : 0;
}

bool writeFile(AtomicFileWriter &w, const std::string &bytes)
{
    return w.open() && w.write(bytes) && w.commit();
}

} // namespace

void TestAtomicFileWriter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestAtomicFileWriter::writesNewFileWithUmaskMode()
{
    const mode_t mask = ::umask(022);
    AtomicFileWriter w(path("new.jsonl"));
    QVERIFY(writeFile(w, "data\n"));
    ::umask(mask);
    QCOMPARE(readAll(path("new.jsonl")), std::string("data\n"));
    QCOMPARE(modeOf(path("new.jsonl")), 0644u);
    QCOMPARE(entries(), QStringList{QStringLiteral("new.jsonl")});
}

void TestAtomicFileWriter::replacesAndKeepsMode()
{
    QVERIFY(writeAll(path("old.jsonl"), "old\n"));
    QCOMPARE(::chmod(path("old.jsonl").c_str(), 0640), 0);
    AtomicFileWriter w(path("old.jsonl"));
    QVERIFY(writeFile(w, "new\n"));
    QCOMPARE(readAll(path("old.jsonl")), std::string("new\n"));
    QCOMPARE(modeOf(path("old.jsonl")), 0640u);
    QCOMPARE(entries(), QStringList{QStringLiteral("old.jsonl")});
}

void TestAtomicFileWriter::refusals_data()
{
    QTest::addColumn<QString>("setup");
    QTest::addColumn<int>("kind");
    QTest::newRow("directory") << QStringLiteral("dir") << int(OutputError::Kind::IsDirectory);
    QTest::newRow("trailing slash") << QStringLiteral("slash") << int(OutputError::Kind::IsDirectory);
    QTest::newRow("dangling symlink") << QStringLiteral("dangling") << int(OutputError::Kind::DanglingSymlink);
    QTest::newRow("read-only file") << QStringLiteral("readonly") << int(OutputError::Kind::ReadOnly);
    QTest::newRow("missing directory") << QStringLiteral("nodir") << int(OutputError::Kind::CreateTemporary);
    QTest::newRow("FIFO without reader") << QStringLiteral("fifo") << int(OutputError::Kind::Open);
}

void TestAtomicFileWriter::refusals()
{
    QFETCH(QString, setup);
    QFETCH(int, kind);
    std::string target = path("target");
    if (setup == QLatin1StringView("dir")) {
        QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("target")));
    } else if (setup == QLatin1StringView("slash")) {
        target += "/";
    } else if (setup == QLatin1StringView("dangling")) {
        QCOMPARE(::symlink("nowhere", target.c_str()), 0);
    } else if (setup == QLatin1StringView("readonly")) {
        QVERIFY(writeAll(target, "keep\n"));
        QCOMPARE(::chmod(target.c_str(), 0444), 0);
    } else if (setup == QLatin1StringView("nodir")) {
        target = path("no/such/dir/target");
    } else if (setup == QLatin1StringView("fifo")) {
        QCOMPARE(::mkfifo(target.c_str(), 0600), 0);
    }
    const QStringList before = entries();
    AtomicFileWriter w(target);
    QVERIFY(!w.open());
    QCOMPARE(int(w.error().kind), kind);
    QVERIFY(!outputErrorMessage(w.error()).empty());
    QCOMPARE(entries(), before); // nothing created, nothing left
    if (setup == QLatin1StringView("readonly"))
        QCOMPARE(readAll(target), std::string("keep\n"));
    if (setup == QLatin1StringView("dangling"))
        QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral("nowhere"))));
}

void TestAtomicFileWriter::forceReplacesReadOnly()
{
    QVERIFY(writeAll(path("ro.jsonl"), "keep\n"));
    QCOMPARE(::chmod(path("ro.jsonl").c_str(), 0444), 0);
    AtomicFileWriter w(path("ro.jsonl"), true);
    QVERIFY(writeFile(w, "new\n"));
    QCOMPARE(readAll(path("ro.jsonl")), std::string("new\n"));
    QCOMPARE(modeOf(path("ro.jsonl")), 0444u);
}

void TestAtomicFileWriter::writesThroughSymlinkChain()
{
    QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("sub")));
    QVERIFY(writeAll(path("sub/real.jsonl"), "old\n"));
    QCOMPARE(::symlink("sub/real.jsonl", path("link1").c_str()), 0);
    QCOMPARE(::symlink("link1", path("link2").c_str()), 0);
    AtomicFileWriter w(path("link2"));
    QVERIFY(writeFile(w, "new\n"));
    QVERIFY(QFileInfo(QString::fromStdString(path("link1"))).isSymLink());
    QVERIFY(QFileInfo(QString::fromStdString(path("link2"))).isSymLink());
    QCOMPARE(readAll(path("sub/real.jsonl")), std::string("new\n"));
    QCOMPARE(QString::fromStdString(w.resolvedTarget()),
             QFileInfo(QString::fromStdString(path("sub/real.jsonl"))).canonicalFilePath());
    QCOMPARE(QDir(m_dir->filePath(QStringLiteral("sub"))).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("real.jsonl")});
}

// The temporary name is short: any name the file system takes works.
void TestAtomicFileWriter::longNames()
{
    const std::string name(255, 'n');
    const std::string target = m_dir->filePath(QString::fromStdString(name)).toStdString();
    AtomicFileWriter w(target);
    QVERIFY2(writeFile(w, "x\n"), outputErrorMessage(w.error()).c_str());
    AtomicFileWriter again(target);
    QVERIFY(writeFile(again, "y\n"));
    QCOMPARE(readAll(target), std::string("y\n"));
}

void TestAtomicFileWriter::discardLeavesTargetUntouched()
{
    QVERIFY(writeAll(path("keep.jsonl"), "keep\n"));
    {
        AtomicFileWriter w(path("keep.jsonl"));
        QVERIFY(w.open());
        QVERIFY(w.write("partial"));
        QCOMPARE(entries().size(), 2); // the temporary file
        w.discard();
    }
    {
        AtomicFileWriter w(path("keep.jsonl"));
        QVERIFY(w.open());
        QVERIFY(w.write("partial"));
    } // destroyed without commit
    QCOMPARE(readAll(path("keep.jsonl")), std::string("keep\n"));
    QCOMPARE(entries(), QStringList{QStringLiteral("keep.jsonl")});
}

void TestAtomicFileWriter::fullDeviceReportsTheReason()
{
    if (::access("/dev/full", W_OK) != 0)
        QSKIP("/dev/full is not writable here");
    AtomicFileWriter w("/dev/full");
    QVERIFY(w.open());
    const std::string block(1 << 16, 'x');
    const bool written = w.write(block) && w.commit();
    QVERIFY(!written);
    QCOMPARE(w.error().kind, OutputError::Kind::Write);
    QCOMPARE(w.error().osError, ENOSPC);
    QCOMPARE(outputErrorMessage(w.error()), std::string("write /dev/full: No space left on device"));
}

void TestAtomicFileWriter::checkAgreesWithOpen()
{
    QVERIFY(writeAll(path("ro.jsonl"), "keep\n"));
    QCOMPARE(::chmod(path("ro.jsonl").c_str(), 0444), 0);
    QCOMPARE(AtomicFileWriter::check(path("ro.jsonl"), false).kind, OutputError::Kind::ReadOnly);
    QCOMPARE(AtomicFileWriter::check(path("ro.jsonl"), true).kind, OutputError::Kind::None);
    QCOMPARE(AtomicFileWriter::check(path("absent.jsonl"), false).kind, OutputError::Kind::None);
    QCOMPARE(entries(), QStringList{QStringLiteral("ro.jsonl")});
}

void TestAtomicFileWriter::identityComparesFilesNotNames()
{
    QVERIFY(writeAll(path("a.jsonl"), "a\n"));
    QCOMPARE(::link(path("a.jsonl").c_str(), path("hard.jsonl").c_str()), 0);
    QCOMPARE(::symlink("a.jsonl", path("soft.jsonl").c_str()), 0);
    QVERIFY(writeAll(path("b.jsonl"), "a\n"));
    const auto a = identityOfPath(path("a.jsonl"));
    QVERIFY(a);
    QCOMPARE(identityOfPath(path("hard.jsonl")), a);
    QCOMPARE(identityOfPath(path("soft.jsonl")), a);
    QVERIFY(identityOfPath(path("b.jsonl")) != a);
    QVERIFY(!identityOfPath(path("absent.jsonl")));
}

QTEST_GUILESS_MAIN(TestAtomicFileWriter)
#include "tst_atomicfilewriter.moc"
