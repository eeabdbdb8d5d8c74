// SPDX-License-Identifier: MIT
#include <QtTest>

#include <cstdint>
#include <vector>

#include "core/model/narrowu32array.h"

using namespace TraceInspector;

Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

class TestNarrowU32Array : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void values_data()
    {
        QTest::addColumn<std::vector<std::uint32_t>>("values");
        QTest::addColumn<std::size_t>("bytesPerValue");
        QTest::newRow("empty") << std::vector<std::uint32_t>{} << std::size_t(2);
        QTest::newRow("small") << std::vector<std::uint32_t>{0, 1, 7, 65535, 300} << std::size_t(2);
        QTest::newRow("one above 16 bits") << std::vector<std::uint32_t>{0, 1, 65536, 2} << std::size_t(4);
        QTest::newRow("largest") << std::vector<std::uint32_t>{UINT32_MAX, 0, 0x80000001u} << std::size_t(4);
        std::vector<std::uint32_t> many(100000);
        for (std::size_t i = 0; i < many.size(); ++i)
            many[i] = std::uint32_t(i * 7919 % 65536);
        QTest::newRow("many small") << many << std::size_t(2);
    }

    void values()
    {
        QFETCH(std::vector<std::uint32_t>, values);
        QFETCH(std::size_t, bytesPerValue);
        const NarrowU32Array a(values);
        QCOMPARE(a.size(), values.size());
        QCOMPARE(a.empty(), values.empty());
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (a[i] != values[i])
                QFAIL(qPrintable(QStringLiteral("value %1: %2 instead of %3").arg(i).arg(a[i]).arg(values[i])));
        }
        QCOMPARE(a.memoryUsage(), values.size() * bytesPerValue);
    }
};

QTEST_GUILESS_MAIN(TestNarrowU32Array)
#include "tst_narrowu32array.moc"
