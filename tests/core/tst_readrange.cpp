// SPDX-License-Identifier: MIT
#include <QtTest>

#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "core/io/readrange.h"

using namespace TraceInspector;

namespace {

/// A file of the given bytes, open for reading, removed with the test's directory.
class TempFile
{
public:
    explicit TempFile(const std::string &bytes)
    {
        const QString path = m_dir.filePath(QStringLiteral("range.jsonl"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly) && f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size())) {
            f.close();
            m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
        }
    }
    ~TempFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;
    int fd() const { return m_fd; }

private:
    QTemporaryDir m_dir;
    int m_fd = -1;
};

/// \a lines lines of \a width bytes each, the last byte of each a newline.
std::string linesOf(int lines, int width)
{
    std::string s;
    for (int i = 0; i < lines; ++i)
        s += std::string(std::size_t(width - 1), 'x') + '\n';
    return s;
}

} // namespace

class tst_ReadRange : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void claimsUpToTheEnd();
    void takesTheBackHalfFromALineStart_data();
    void takesTheBackHalfFromALineStart();
    void ownerStopsAtTheNewEnd();
    void leavesASmallRest();
    void leavesARestWithoutALineEnd();
    void takesNothingOfAFinishedRange();
    void findsTheNextNewline_data();
    void findsTheNextNewline();
};

void tst_ReadRange::claimsUpToTheEnd()
{
    ReadRange r(10, 100);
    QCOMPARE(r.unclaimed(), std::uint64_t(90));
    QCOMPARE(r.claim(10, 50), std::uint64_t(50));
    QCOMPARE(r.unclaimed(), std::uint64_t(40));
    QCOMPARE(r.claim(60, 50), std::uint64_t(40));
    QCOMPARE(r.unclaimed(), std::uint64_t(0));
    QCOMPARE(r.claim(100, 5), std::uint64_t(0));
    QCOMPARE(r.end(), std::uint64_t(100));
}

void tst_ReadRange::takesTheBackHalfFromALineStart_data()
{
    QTest::addColumn<int>("claimed");
    QTest::addColumn<std::uint64_t>("split");
    // 100 lines of 100 bytes: just after the first newline at or after the rest's middle.
    QTest::newRow("nothing claimed: the middle starts a line") << 0 << std::uint64_t(5100);
    QTest::newRow("the middle is a line's last byte") << 198 << std::uint64_t(5100);
    QTest::newRow("a line and a half claimed") << 150 << std::uint64_t(5100);
    QTest::newRow("most claimed") << 9000 << std::uint64_t(9600);
}

void tst_ReadRange::takesTheBackHalfFromALineStart()
{
    QFETCH(int, claimed);
    QFETCH(std::uint64_t, split);
    const TempFile file(linesOf(100, 100));
    QVERIFY(file.fd() >= 0);
    ReadRange r(0, 10000);
    QCOMPARE(r.claim(0, std::uint64_t(claimed)), std::uint64_t(claimed));
    const std::optional<ReadRange> part = r.takeBackPart(file.fd(), 0);
    QVERIFY(part);
    QCOMPARE(part->begin(), split);
    QCOMPARE(part->end(), std::uint64_t(10000));
    QCOMPARE(part->unclaimed(), std::uint64_t(10000) - split);
    QCOMPARE(r.end(), split);
    QCOMPARE(r.unclaimed(), split - std::uint64_t(claimed));
}

void tst_ReadRange::ownerStopsAtTheNewEnd()
{
    const TempFile file(linesOf(100, 100));
    QVERIFY(file.fd() >= 0);
    ReadRange r(1000, 9000);
    QCOMPARE(r.claim(1000, 1000), std::uint64_t(1000));
    const std::optional<ReadRange> part = r.takeBackPart(file.fd(), 1000);
    QVERIFY(part);
    QCOMPARE(part->begin(), std::uint64_t(5600)); // 2000 + 7000 / 2 = 5500, within the line at 5500
    QCOMPARE(r.claim(2000, 1 << 20), std::uint64_t(3600));
    QCOMPARE(r.claim(5600, 1 << 20), std::uint64_t(0));
    // The part taken over can be split again.
    ReadRange taken = *part;
    const std::optional<ReadRange> again = taken.takeBackPart(file.fd(), 0);
    QVERIFY(again);
    QCOMPARE(again->begin(), std::uint64_t(7400)); // 5600 + 3400 / 2 = 7300, then the line's end
    QCOMPARE(taken.end(), std::uint64_t(7400));
}

void tst_ReadRange::leavesASmallRest()
{
    const TempFile file(linesOf(100, 100));
    QVERIFY(file.fd() >= 0);
    ReadRange r(0, 10000);
    r.claim(0, 6000);
    QVERIFY(!r.takeBackPart(file.fd(), 4001));
    QCOMPARE(r.end(), std::uint64_t(10000));
    QVERIFY(r.takeBackPart(file.fd(), 4000));
}

void tst_ReadRange::leavesARestWithoutALineEnd()
{
    // One long line from 100 on: no line starts after the middle of the rest.
    const TempFile file(linesOf(1, 100) + std::string(9899, 'y') + '\n');
    QVERIFY(file.fd() >= 0);
    ReadRange r(0, 10000);
    r.claim(0, 10);
    QVERIFY(!r.takeBackPart(file.fd(), 0));
    QCOMPARE(r.end(), std::uint64_t(10000));
    QCOMPARE(r.claim(10, 1 << 20), std::uint64_t(9990));
}

void tst_ReadRange::takesNothingOfAFinishedRange()
{
    const TempFile file(linesOf(100, 100));
    QVERIFY(file.fd() >= 0);
    ReadRange r(0, 10000);
    r.claim(0, 10000);
    QVERIFY(!r.takeBackPart(file.fd(), 0));
    ReadRange almost(0, 10000);
    almost.claim(0, 9999);
    QVERIFY(!almost.takeBackPart(file.fd(), 0)); // one byte: nothing to split
}

void tst_ReadRange::findsTheNextNewline_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("end");
    QTest::addColumn<int>("expected"); // -1: none
    const QByteArray far = QByteArray(9000, 'a') + '\n' + QByteArray(10, 'b');
    QTest::newRow("at from") << QByteArray("ab\ncd\n") << 2 << 6 << 3;
    QTest::newRow("the next one") << QByteArray("ab\ncd\n") << 3 << 6 << 6;
    QTest::newRow("beyond the end") << QByteArray("ab\ncd\n") << 3 << 5 << -1;
    QTest::newRow("past several windows") << far << 10 << int(far.size()) << 9001;
    QTest::newRow("none") << QByteArray(5000, 'a') << 0 << 5000 << -1;
    QTest::newRow("the file is shorter than the range") << QByteArray("abc") << 0 << 100 << -1;
}

void tst_ReadRange::findsTheNextNewline()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, from);
    QFETCH(int, end);
    QFETCH(int, expected);
    const TempFile file(bytes.toStdString());
    QVERIFY(file.fd() >= 0);
    const std::optional<std::uint64_t> at = afterNextNewline(file.fd(), std::uint64_t(from), std::uint64_t(end));
    if (expected < 0)
        QVERIFY(!at);
    else
        QCOMPARE(at.value_or(0), std::uint64_t(expected));
}

QTEST_GUILESS_MAIN(tst_ReadRange)
#include "tst_readrange.moc"
