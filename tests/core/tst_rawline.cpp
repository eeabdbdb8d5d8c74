// SPDX-License-Identifier: MIT
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "core/loading/rawline.h"

using namespace TraceInspector;

class TestRawLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsOneLine_data();
    void readsOneLine();
    void readsManyInOnePass();
    void longLineIsCut();
    void missingFile();

private:
    QString write(const QByteArray &bytes);
    QTemporaryDir m_dir;
    int m_files = 0;
};

QString TestRawLine::write(const QByteArray &bytes)
{
    const QString path = m_dir.filePath(QStringLiteral("f%1.jsonl").arg(++m_files));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

void TestRawLine::readsOneLine_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<quint64>("line");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("first") << QByteArray("a\nb\nc\n") << quint64(1) << true << QByteArray("a");
    QTest::newRow("middle") << QByteArray("a\nb\nc\n") << quint64(2) << true << QByteArray("b");
    QTest::newRow("last without break") << QByteArray("a\nb\nc") << quint64(3) << true << QByteArray("c");
    QTest::newRow("blank lines count") << QByteArray("a\n\n\nd\n") << quint64(4) << true << QByteArray("d");
    QTest::newRow("a blank line") << QByteArray("a\n\nc\n") << quint64(2) << true << QByteArray();
    QTest::newRow("CRLF: the CR goes with the break")
        << QByteArray("a\r\nb\r\n") << quint64(2) << true << QByteArray("b");
    QTest::newRow("leading blanks kept") << QByteArray("  {\"x\":1}\n") << quint64(1) << true
                                         << QByteArray("  {\"x\":1}");
    QTest::newRow("beyond the end") << QByteArray("a\nb\n") << quint64(3) << false << QByteArray();
    QTest::newRow("far beyond") << QByteArray("a\nb\n") << quint64(9) << false << QByteArray();
    QTest::newRow("line 0 is no line") << QByteArray("a\n") << quint64(0) << false << QByteArray();
    QTest::newRow("empty file") << QByteArray() << quint64(1) << false << QByteArray();
}

void TestRawLine::readsOneLine()
{
    QFETCH(QByteArray, file);
    QFETCH(quint64, line);
    QFETCH(bool, ok);
    QFETCH(QByteArray, text);
    const QString path = write(file);
    QVERIFY(!path.isEmpty());
    const RawLine r = RawLine::read(path, line);
    QCOMPARE(r.ok, ok);
    QCOMPARE(r.line, std::uint64_t(line));
    if (ok) {
        QCOMPARE(r.bytes, text);
        QVERIFY(!r.truncated);
        QCOMPARE(r.length, std::uint64_t(text.size()));
    } else {
        QVERIFY(!r.error.isEmpty());
    }
}

void TestRawLine::readsManyInOnePass()
{
    QByteArray file;
    for (int i = 1; i <= 200000; ++i)
        file += "line " + QByteArray::number(i) + '\n';
    const QString path = write(file);
    const std::vector<RawLine> lines = RawLine::readMany(path, {150000, 2, 150000, 200001, 199999, 0});
    QCOMPARE(lines.size(), std::size_t(6));
    QCOMPARE(lines[0].bytes, QByteArray("line 150000"));
    QCOMPARE(lines[1].bytes, QByteArray("line 2"));
    QCOMPARE(lines[2].bytes, QByteArray("line 150000")); // asked twice, read once
    QVERIFY(!lines[3].ok);
    QVERIFY2(lines[3].error.contains(QStringLiteral("200000 lines")), qPrintable(lines[3].error));
    QCOMPARE(lines[4].bytes, QByteArray("line 199999"));
    QVERIFY(!lines[5].ok);
}

void TestRawLine::longLineIsCut()
{
    // Across the reader's 4 MB blocks, and cut at the limit with the whole length known.
    const QByteArray big(5 * 1024 * 1024, 'x');
    const QString path = write("short\n" + big + "\nafter\n");
    const RawLine r = RawLine::read(path, 2, 1000);
    QVERIFY(r.ok);
    QVERIFY(r.truncated);
    QCOMPARE(r.bytes.size(), 1000);
    QCOMPARE(r.length, std::uint64_t(big.size()));
    QCOMPARE(RawLine::read(path, 3).bytes, QByteArray("after"));
}

void TestRawLine::missingFile()
{
    const RawLine r = RawLine::read(m_dir.filePath(QStringLiteral("none.jsonl")), 1);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.startsWith(QStringLiteral("cannot open")), qPrintable(r.error));
}

QTEST_GUILESS_MAIN(TestRawLine)
#include "tst_rawline.moc"
