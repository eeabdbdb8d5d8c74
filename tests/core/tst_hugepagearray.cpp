// SPDX-License-Identifier: MIT
// HugePageArray: the elements survive every resize, new ones read as zero, and from one huge
// page on the array starts on a 2 MiB boundary, however it got there (allocated large, or
// grown out of small pages as a string table does), so that its first 2 MiB is a huge page;
// the last huge page the elements only partly fill stays in 4 KiB pages.
#include <QTest>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/model/hugepagearray.h"
#include "tests/testutils/transparenthugepages.h"

using namespace TraceInspector;

namespace {

constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;

/// AnonHugePages of the mapping that holds \a address (/proc/self/smaps), in bytes; -1 when
/// no mapping holds it.
long long anonHugeBytesAt(std::uintptr_t address)
{
    std::FILE *f = std::fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    bool inside = false;
    long long result = -1;
    while (std::fgets(line, sizeof line, f)) {
        unsigned long start = 0;
        unsigned long end = 0;
        if (std::sscanf(line, "%lx-%lx ", &start, &end) == 2 && std::strchr(line, '-') < std::strchr(line, ' ')) {
            inside = address >= start && address < end;
            continue;
        }
        long long kib = 0;
        if (inside && std::sscanf(line, "AnonHugePages: %lld kB", &kib) == 1) {
            result = kib * 1024;
            break;
        }
    }
    std::fclose(f);
    return result;
}

std::uint64_t valueAt(std::size_t i)
{
    return i * 0x9E3779B97F4A7C15ull + 1;
}

} // namespace

class tst_HugePageArray : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resizeKeepsElementsAndZeroesNewOnes_data();
    void resizeKeepsElementsAndZeroesNewOnes();
    void shrunkThenGrownReadsZero();
    void partlyFilledLastHugePageStaysSmall_data();
    void partlyFilledLastHugePageStaysSmall();
};

void tst_HugePageArray::resizeKeepsElementsAndZeroesNewOnes_data()
{
    // Sizes in 8-byte elements; 262,144 of them fill one huge page.
    QTest::addColumn<int>("initial");
    QTest::addColumn<QList<int>>("resizes");
    QTest::newRow("allocated large") << 393216 << QList<int>{};
    QTest::newRow("small, grown small") << 1024 << QList<int>{2048, 4096};
    QTest::newRow("grown out of small pages") << 1024 << QList<int>{2048, 300000};
    QTest::newRow("grown out of small pages to a whole huge page") << 1024 << QList<int>{262144};
    QTest::newRow("doubled while large") << 524288 << QList<int>{1048576, 2097152};
    QTest::newRow("grown a little while large") << 300000 << QList<int>{300001, 600000};
    QTest::newRow("shrunk and grown") << 1048576 << QList<int>{300000, 700000};
    QTest::newRow("shrunk to small") << 600000 << QList<int>{1000};
}

void tst_HugePageArray::resizeKeepsElementsAndZeroesNewOnes()
{
    QFETCH(int, initial);
    QFETCH(QList<int>, resizes);
    HugePageArray<std::uint64_t> a(static_cast<std::size_t>(initial));
    std::size_t filled = a.size();
    for (std::size_t i = 0; i < filled; ++i) {
        QCOMPARE(a[i], std::uint64_t(0));
        a[i] = valueAt(i);
    }
    for (const int n : resizes) {
        a.resize(static_cast<std::size_t>(n));
        QCOMPARE(a.size(), std::size_t(n));
        const std::size_t kept = std::min(filled, a.size());
        for (std::size_t i = 0; i < kept; ++i)
            if (a[i] != valueAt(i))
                QFAIL(qPrintable(QStringLiteral("element %1 lost after a resize to %2").arg(i).arg(n)));
        for (std::size_t i = kept; i < a.size(); ++i) {
            if (a[i] != 0)
                QFAIL(qPrintable(QStringLiteral("new element %1 is not zero after a resize to %2").arg(i).arg(n)));
            a[i] = valueAt(i);
        }
        filled = a.size();
        if (a.size() * sizeof(std::uint64_t) >= kHuge)
            QCOMPARE(reinterpret_cast<std::uintptr_t>(&a[0]) & (kHuge - 1), std::uintptr_t(0));
    }
    if (a.size() * sizeof(std::uint64_t) >= kHuge)
        QCOMPARE(reinterpret_cast<std::uintptr_t>(&a[0]) & (kHuge - 1), std::uintptr_t(0));
}

void tst_HugePageArray::shrunkThenGrownReadsZero()
{
    // Shrunk within its last huge page, which stays mapped: the elements cut off must not
    // come back when it grows again.
    HugePageArray<std::uint64_t> a(300000);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = valueAt(i);
    a.resize(299000);
    a.resize(300000);
    for (std::size_t i = 0; i < 299000; ++i)
        QCOMPARE(a[i], valueAt(i));
    for (std::size_t i = 299000; i < 300000; ++i)
        QCOMPARE(a[i], std::uint64_t(0));
    a.resize(0);
    a.resize(10);
    for (std::size_t i = 0; i < 10; ++i)
        QCOMPARE(a[i], std::uint64_t(0));
}

void tst_HugePageArray::partlyFilledLastHugePageStaysSmall_data()
{
    QTest::addColumn<int>("initial");
    QTest::addColumn<int>("grown");
    QTest::newRow("allocated") << 300000 << 300000;
    QTest::newRow("grown out of small pages") << 1024 << 300000;
    QTest::newRow("grown while large") << 300000 << 700000;
}

void tst_HugePageArray::partlyFilledLastHugePageStaysSmall()
{
    if (TraceInspector::TestFixtures::transparentHugePagesOff())
        QSKIP("no transparent huge pages on this machine");
    QFETCH(int, initial);
    QFETCH(int, grown);
    HugePageArray<std::uint64_t> a(static_cast<std::size_t>(initial));
    a.resize(static_cast<std::size_t>(grown));
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = valueAt(i);
    // Every element written: only the huge pages the elements fill may be huge pages.
    const std::size_t used = a.size() * sizeof(std::uint64_t);
    const long long huge = anonHugeBytesAt(reinterpret_cast<std::uintptr_t>(&a[0]));
    QVERIFY(huge >= 0);
    QVERIFY2(huge <= static_cast<long long>(used / kHuge * kHuge),
             qPrintable(QStringLiteral("%1 bytes in huge pages for %2 bytes of elements").arg(huge).arg(used)));
}

QTEST_GUILESS_MAIN(tst_HugePageArray)
#include "tst_hugepagearray.moc"
