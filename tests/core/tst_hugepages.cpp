// SPDX-License-Identifier: MIT
#include <QTest>

#include <cerrno>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#include "core/model/hugepages.h"
#include "core/model/pagemove.h"
#include "core/model/pagerelease.h"

using namespace TraceInspector;

namespace {

constexpr std::size_t kPage = 4096;

/// Whether each 4 KiB page of [begin, end) is resident (mincore()); begin page-aligned.
std::vector<bool> residentPages(const char *begin, const char *end)
{
    const std::size_t pages = std::size_t(end - begin) / kPage;
    std::vector<unsigned char> state(pages, 0);
    if (::mincore(const_cast<char *>(begin), pages * kPage, state.data()) != 0)
        return {};
    std::vector<bool> out(pages);
    for (std::size_t i = 0; i < pages; ++i)
        out[i] = (state[i] & 1) != 0;
    return out;
}

/// A fresh anonymous mapping nothing has touched yet.
struct FreshMapping {
    explicit FreshMapping(std::size_t bytes)
        : size(bytes)
    {
        void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        data = p == MAP_FAILED ? nullptr : static_cast<char *>(p);
        // No huge pages: a populated huge page would make its neighbours resident too.
        if (data)
            ::madvise(data, bytes, MADV_NOHUGEPAGE);
    }
    ~FreshMapping()
    {
        if (data)
            ::munmap(data, size);
    }
    FreshMapping(const FreshMapping &) = delete;
    FreshMapping &operator=(const FreshMapping &) = delete;
    std::size_t size;
    char *data = nullptr;
};

/// Whether this kernel populates ranges (MADV_POPULATE_WRITE, Linux 5.14).
bool kernelPopulates()
{
    FreshMapping probe(kPage);
    return probe.data && ::madvise(probe.data, kPage, 23) == 0;
}

} // namespace

class tst_HugePages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void populateCoversWholePagesOfTheRange_data();
    void populateCoversWholePagesOfTheRange();
    void populatedPagesAreWritableWithoutFaults();
    void reserveHugeKeepsElementsAndFaultsInTheExpected();
    void reserveHugeOfAnEmptyArray();
    void readyEndHugePageBeforeAMerge_data();
    void readyEndHugePageBeforeAMerge();
};

void tst_HugePages::populateCoversWholePagesOfTheRange_data()
{
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::addColumn<int>("firstPage"); // the resident pages expected: [firstPage, endPage)
    QTest::addColumn<int>("endPage");
    QTest::newRow("whole pages") << 2 * 4096 << 5 * 4096 << 2 << 5;
    QTest::newRow("a start inside a page takes that page") << 2 * 4096 + 100 << 5 * 4096 << 2 << 5;
    QTest::newRow("an end inside a page leaves that page") << 2 * 4096 << 5 * 4096 + 100 << 2 << 5;
    QTest::newRow("less than a page") << 3 * 4096 + 10 << 3 * 4096 + 20 << 0 << 0;
    QTest::newRow("empty") << 4096 << 4096 << 0 << 0;
    QTest::newRow("backwards") << 5 * 4096 << 2 * 4096 << 0 << 0;
}

void tst_HugePages::populateCoversWholePagesOfTheRange()
{
    QFETCH(int, from);
    QFETCH(int, to);
    QFETCH(int, firstPage);
    QFETCH(int, endPage);
    if (!kernelPopulates())
        QSKIP("this kernel does not know MADV_POPULATE_WRITE");
    FreshMapping map(8 * kPage);
    QVERIFY(map.data);
    populateForWrite(map.data, std::size_t(from), std::size_t(to));
    const std::vector<bool> resident = residentPages(map.data, map.data + map.size);
    QCOMPARE(resident.size(), std::size_t(8));
    for (int page = 0; page < 8; ++page)
        QCOMPARE(bool(resident[std::size_t(page)]), page >= firstPage && page < endPage);
}

void tst_HugePages::populatedPagesAreWritableWithoutFaults()
{
    if (!kernelPopulates())
        QSKIP("this kernel does not know MADV_POPULATE_WRITE");
    constexpr std::size_t kPages = 64;
    FreshMapping map(kPages * kPage);
    QVERIFY(map.data);
    populateForWrite(map.data, 0, map.size);
    // Faulted in for reading, each page would map the zero page and fault again on the
    // first write: that second fault is what populating for writing saves.
    rusage before{};
    getrusage(RUSAGE_THREAD, &before);
    for (std::size_t page = 0; page < kPages; ++page) {
        QCOMPARE(int(map.data[page * kPage + 5]), 0);
        map.data[page * kPage + 5] = 'x';
    }
    rusage after{};
    getrusage(RUSAGE_THREAD, &after);
    // AddressSanitizer's shadow of these pages faults on its own: one page per eight (9 here
    // under the dev-asan preset). Without the populate every page faults: 64.
    QVERIFY2(after.ru_minflt - before.ru_minflt < long(kPages / 4),
             qPrintable(QStringLiteral("%1 faults").arg(after.ru_minflt - before.ru_minflt)));
    QCOMPARE(map.data[kPage + 5], 'x');
}

void tst_HugePages::reserveHugeKeepsElementsAndFaultsInTheExpected()
{
    std::vector<std::uint64_t> v(1000);
    std::iota(v.begin(), v.end(), std::uint64_t(7));
    // 200,000 values are 1.6 MB: under a huge page, so the first 150,000 are faulted in.
    reserveHuge(v, 200000, 150000);
    QVERIFY(v.capacity() >= 200000);
    QCOMPARE(v.size(), std::size_t(1000));
    for (std::size_t i = 0; i < v.size(); ++i)
        QCOMPARE(v[i], std::uint64_t(7 + i));
    if (!kernelPopulates())
        QSKIP("this kernel does not know MADV_POPULATE_WRITE");
    const auto begin = (reinterpret_cast<std::uintptr_t>(v.data()) + kPage - 1) & ~(kPage - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(v.data() + 150000) & ~(kPage - 1);
    const std::vector<bool> resident =
        residentPages(reinterpret_cast<const char *>(begin), reinterpret_cast<const char *>(end));
    QVERIFY(!resident.empty());
    for (std::size_t page = 0; page < resident.size(); ++page)
        QVERIFY2(resident[page], qPrintable(QStringLiteral("page %1 of %2").arg(page).arg(resident.size())));
    // A smaller count than the room changes nothing.
    const std::uint64_t *before = v.data();
    reserveHuge(v, 100, 100);
    QCOMPARE(v.data(), before);
}

void tst_HugePages::reserveHugeOfAnEmptyArray()
{
    std::vector<std::uint32_t> v;
    reserveHuge(v, 10, 10);
    QVERIFY(v.capacity() >= 10);
    QVERIFY(v.empty());
    v.push_back(3);
    QCOMPARE(v.front(), std::uint32_t(3));
}

void tst_HugePages::readyEndHugePageBeforeAMerge_data()
{
    constexpr std::size_t kPerHuge = (std::size_t(2) << 20) / sizeof(std::uint64_t);
    QTest::addColumn<int>("endInSecondPage"); // where the elements end in the array's second huge page, in values
    QTest::addColumn<int>("appended");        // the values to come, from that end on, in values
    QTest::addColumn<bool>("movedIn");        // its first 64 KiB are pages moved there from another mapping
    QTest::addColumn<bool>("readied");
    QTest::newRow("the values to come fill the page") << 1000 << int(kPerHuge) << false << true;
    QTest::newRow("they fill it exactly") << 1000 << int(kPerHuge) - 1000 << false << true;
    QTest::newRow("they end inside it") << 1000 << int(kPerHuge) - 1001 << false << false;
    QTest::newRow("the elements end at its start") << 0 << int(kPerHuge) << false << false;
    QTest::newRow("nothing to come") << 1000 << 0 << false << false;
    // As after an earlier merge: the page spans two mappings, which the kernel does not
    // make one huge page of.
    QTest::newRow("pages of another mapping in it") << 9000 << int(kPerHuge) << true << true;
}

// The rest of the huge page an array ends in is resident before a merge writes it, its
// elements as they were; untouched when the merge will not fill it.
void tst_HugePages::readyEndHugePageBeforeAMerge()
{
    QFETCH(int, endInSecondPage);
    QFETCH(int, appended);
    QFETCH(bool, movedIn);
    QFETCH(bool, readied);
    if (!kernelPopulates())
        QSKIP("this kernel does not know MADV_POPULATE_WRITE");
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    std::vector<std::uint64_t> v;
    reserveHuge(v, (std::size_t(6) << 20) / sizeof(std::uint64_t));
    // The block's second huge page, wherever the allocator started the block.
    const auto base = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t second = ((base + kHuge - 1) & ~(kHuge - 1)) + kHuge;
    const std::size_t count = (second - base) / sizeof(std::uint64_t) + std::size_t(endInSecondPage);
    QVERIFY(count + std::size_t(appended) <= v.capacity());
    constexpr std::size_t kMovedIn = std::size_t(64) << 10;
    std::vector<char> other(2 * kMovedIn);
    if (movedIn) {
        const auto at = (reinterpret_cast<std::uintptr_t>(other.data()) + kPage - 1) & ~(kPage - 1);
        QCOMPARE(movePages(reinterpret_cast<char *>(second), reinterpret_cast<char *>(at), kMovedIn), kMovedIn);
    }
    for (std::size_t i = 0; i < count; ++i)
        v.push_back(i * 3);
    // As the reader leaves an array's end: in 4 KiB pages, the pages after its elements given back.
    adviseSmallPages(v.data(), second - base, v.capacity() * sizeof(std::uint64_t));
    releasePages(v.data() + v.size(), v.data() + v.capacity());
    const auto endPage = (reinterpret_cast<std::uintptr_t>(v.data() + v.size()) + kPage - 1) & ~(kPage - 1);
    const auto pageEnd = reinterpret_cast<const char *>((endPage & ~(kHuge - 1)) + kHuge);
    const auto *from = reinterpret_cast<const char *>(endPage);
    std::vector<bool> resident = residentPages(from, pageEnd);
    QCOMPARE(std::count(resident.begin(), resident.end(), true), 0);

    readyEndHugePage(v, v.size() + std::size_t(appended));
    resident = residentPages(from, pageEnd);
    QCOMPARE(std::size_t(std::count(resident.begin(), resident.end(), true)), readied ? resident.size() : 0);
    QCOMPARE(v.size(), count);
    for (std::size_t i = 0; i < count; ++i) {
        if (v[i] != i * 3)
            QFAIL(qPrintable(QStringLiteral("value %1 is %2").arg(i).arg(v[i])));
    }
}

QTEST_GUILESS_MAIN(tst_HugePages)
#include "tst_hugepages.moc"
