// SPDX-License-Identifier: MIT
#include <QTest>

#include <string>

#include "core/analysis/sha256.h"

using namespace TraceInspector;
using namespace Qt::Literals::StringLiterals;

class TestSha256 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void knownVectors_data();
    void knownVectors();
    void chunkedUpdatesMatchOneShot_data();
    void chunkedUpdatesMatchOneShot();
};

void TestSha256::knownVectors_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("hex");
    // FIPS 180-4 examples, then padding boundaries (lengths around 56 and 64 bytes).
    QTest::newRow("empty") << QByteArray() << u"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"_s;
    QTest::newRow("abc") << QByteArray("abc") << u"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"_s;
    QTest::newRow("two-block message") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                       << u"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"_s;
    QTest::newRow("million a") << QByteArray(1000000, 'a')
                               << u"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"_s;
    QTest::newRow("55 x") << QByteArray(55, 'x')
                          << u"d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"_s;
    QTest::newRow("56 x") << QByteArray(56, 'x')
                          << u"04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"_s;
    QTest::newRow("63 x") << QByteArray(63, 'x')
                          << u"75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"_s;
    QTest::newRow("64 x") << QByteArray(64, 'x')
                          << u"7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"_s;
    QTest::newRow("65 x") << QByteArray(65, 'x')
                          << u"9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"_s;
    QTest::newRow("119 x") << QByteArray(119, 'x')
                           << u"000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"_s;
    QTest::newRow("120 x") << QByteArray(120, 'x')
                           << u"13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"_s;
}

void TestSha256::knownVectors()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, hex);
    QCOMPARE(QString::fromStdString(Sha256::hexOf(std::string_view(input.constData(), std::size_t(input.size())))),
             hex);
}

void TestSha256::chunkedUpdatesMatchOneShot_data()
{
    QTest::addColumn<int>("chunk");
    QTest::newRow("1") << 1;
    QTest::newRow("7") << 7;
    QTest::newRow("63") << 63;
    QTest::newRow("64") << 64;
    QTest::newRow("65") << 65;
    QTest::newRow("1000") << 1000;
}

void TestSha256::chunkedUpdatesMatchOneShot()
{
    QFETCH(int, chunk);
    std::string text;
    for (int i = 0; i < 5000; ++i)
        text += static_cast<char>('a' + i % 26);
    Sha256 h;
    for (std::size_t i = 0; i < text.size(); i += std::size_t(chunk))
        h.update(std::string_view(text).substr(i, std::size_t(chunk)));
    QCOMPARE(Sha256::toHex(h.finish()), Sha256::hexOf(text));
}

QTEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
