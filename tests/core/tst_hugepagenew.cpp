// SPDX-License-Identifier: MIT
// The process's operator new (hugepagenew.cpp) in a process whose malloc advises its own
// mappings huge and is tuned as the window's (glibc.malloc.hugetlb=1, set for this test by
// CMake; tuneMallocForBigTraces()): a large block's last, partly used huge page must stay in
// 4 KiB pages, or every array would hold up to 2 MiB it never uses (18 MiB of the window's
// peak RSS on the 1 GB trace); those pages are faulted in at once up to the block's end,
// unless the block is a reservation of an upper bound; and a block a little under one huge
// page is mapped on its own as exactly one, on a 2 MiB boundary.
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <sys/mman.h>
#include <vector>

#include "core/model/allocatorreplaced.h"
#include "core/model/hugepages.h"
#include "core/model/malloctuning.h"
#include "core/model/sparsereservation.h"
#include "tests/testutils/transparenthugepages.h"

namespace {

constexpr std::uintptr_t kPage = 4096;
constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;

/// Resident bytes of the pages of [begin, end) (mincore()); -1 when they are not all mapped.
long long residentBytes(std::uintptr_t begin, std::uintptr_t end)
{
    begin &= ~(kPage - 1);
    end = (end + kPage - 1) & ~(kPage - 1);
    std::vector<unsigned char> state((end - begin) / kPage, 0);
    if (::mincore(reinterpret_cast<void *>(begin), end - begin, state.data()) != 0)
        return -1;
    long long bytes = 0;
    for (const unsigned char s : state)
        bytes += (s & 1) * static_cast<long long>(kPage);
    return bytes;
}

/// The mapping of /proc/self/maps that holds \a address: its start and end, or {0, 0}.
std::pair<std::uintptr_t, std::uintptr_t> mappingOf(std::uintptr_t address)
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const std::size_t dash = line.find('-');
        const std::size_t space = line.find(' ');
        if (dash == std::string::npos || space == std::string::npos || dash > space)
            continue;
        const std::uintptr_t start = std::stoull(line.substr(0, dash), nullptr, 16);
        const std::uintptr_t end = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
        if (address >= start && address < end)
            return {start, end};
    }
    return {0, 0};
}

/// Whether this kernel places an anonymous mapping of a multiple of 2 MiB on a 2 MiB boundary
/// (Linux 6.7 and later), which hugeBlockBytes() counts on.
bool kernelAlignsHugeMappings()
{
    constexpr std::size_t kLength = 2 * kHuge;
    void *p = ::mmap(nullptr, kLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    const bool aligned = (reinterpret_cast<std::uintptr_t>(p) & (kHuge - 1)) == 0;
    ::munmap(p, kLength);
    return aligned;
}

} // namespace

class tst_HugePageNew : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void blockEndStaysInSmallPages_data();
    void blockEndStaysInSmallPages();
    void blockEndIsFaultedIn_data();
    void blockEndIsFaultedIn();
    void blockUnderOneHugePageIsOneMapping_data();
    void blockUnderOneHugePageIsOneMapping();
};

void tst_HugePageNew::initTestCase()
{
    TraceInspector::tuneMallocForBigTraces(TraceInspector::kWindowArenas); // as the window is
}

void tst_HugePageNew::blockEndStaysInSmallPages_data()
{
    QTest::addColumn<int>("kib");
    // Sizes whose block (whole 2 MiB pages) has more slack than an eighth of them, so that
    // only the block's own bytes are advised huge.
    QTest::newRow("3.1 MiB") << 3 * 1024 + 100;
    QTest::newRow("5 MiB") << 5 * 1024;
    QTest::newRow("8.5 MiB") << 8 * 1024 + 512;
}

void tst_HugePageNew::blockEndStaysInSmallPages()
{
#if defined(TI_ALLOCATOR_REPLACED)
    QSKIP("a sanitizer's allocator replaces operator new");
#endif
    if (TraceInspector::TestFixtures::transparentHugePagesOff())
        QSKIP("no transparent huge pages on this machine");
    QFETCH(int, kib);
    const std::size_t size = std::size_t(kib) * 1024;
    const std::unique_ptr<char[]> block(new char[size]);
    std::memset(block.get(), 1, size);
    const auto begin = reinterpret_cast<std::uintptr_t>(block.get());
    const std::uintptr_t lastHuge = (begin + size) & ~(kHuge - 1);
    // The bytes after the block's end up to its last huge page's end (within the mapping
    // operator new asked malloc for): resident only when that huge page was made whole.
    const std::uintptr_t mappingEnd = (begin + TraceInspector::hugeBlockBytes(size, kHuge)) & ~(kPage - 1);
    const long long beyond = residentBytes(begin + size, std::min(lastHuge + kHuge, mappingEnd));
    QVERIFY2(beyond >= 0, "the block's mapping ends before its last huge page");
    QVERIFY2(beyond <= static_cast<long long>(kPage),
             qPrintable(QStringLiteral("%1 bytes resident after the block's end").arg(beyond)));
    QCOMPARE(block[size - 1], char(1));
}

void tst_HugePageNew::blockEndIsFaultedIn_data()
{
    QTest::addColumn<int>("kib");
    QTest::addColumn<bool>("reservation");
    QTest::newRow("3.1 MiB") << 3 * 1024 + 100 << false;
    QTest::newRow("5 MiB") << 5 * 1024 << false;
    QTest::newRow("8.5 MiB") << 8 * 1024 + 512 << false;
    QTest::newRow("5 MiB, a reservation") << 5 * 1024 << true;
}

void tst_HugePageNew::blockEndIsFaultedIn()
{
#if defined(TI_ALLOCATOR_REPLACED)
    QSKIP("a sanitizer's allocator replaces operator new");
#endif
    if (TraceInspector::TestFixtures::transparentHugePagesOff())
        QSKIP("no transparent huge pages on this machine");
    QFETCH(int, kib);
    QFETCH(bool, reservation);
    const std::size_t size = std::size_t(kib) * 1024;
    std::unique_ptr<char[]> block;
    if (reservation) {
        const TraceInspector::SparseReservation bound;
        block.reset(new char[size]);
    } else {
        block.reset(new char[size]);
    }
    // Nothing written yet: the 4 KiB pages of the block's end are resident only when operator
    // new faulted them in.
    const auto begin = reinterpret_cast<std::uintptr_t>(block.get());
    const std::uintptr_t lastHuge = (begin + size) & ~(kHuge - 1);
    const std::uintptr_t wholePagesEnd = (begin + size) & ~(kPage - 1);
    const long long resident = residentBytes(lastHuge, wholePagesEnd);
    QVERIFY2(resident >= 0, "the block's end is not mapped");
    if (reservation)
        QCOMPARE(resident, 0LL);
    else
        QCOMPARE(resident, static_cast<long long>(wholePagesEnd - lastHuge));
}

void tst_HugePageNew::blockUnderOneHugePageIsOneMapping_data()
{
    QTest::addColumn<int>("kib");
    // From 1/9 under one huge page (operator new's kOneHugePageFrom) up to it: an array of one
    // u16 per span of the 1 GB trace is 1.93 MB.
    QTest::newRow("1.78 MiB") << 2048 - 2048 / 9;
    QTest::newRow("1.93 MB") << 1886;
    QTest::newRow("2 MiB less 1 KiB") << 2047;
}

void tst_HugePageNew::blockUnderOneHugePageIsOneMapping()
{
#if defined(TI_ALLOCATOR_REPLACED)
    QSKIP("a sanitizer's allocator replaces operator new");
#endif
    if (!kernelAlignsHugeMappings())
        QSKIP("this kernel does not place mappings of whole huge pages on a 2 MiB boundary");
    QFETCH(int, kib);
    const std::size_t size = std::size_t(kib) * 1024;
    const std::unique_ptr<char[]> block(new char[size]);
    const auto [start, end] = mappingOf(reinterpret_cast<std::uintptr_t>(block.get()));
    QVERIFY2(end > start, "the block is in no mapping");
    // One huge page, mapped for the block alone: a mapping of 2 MiB + 4 KiB would start
    // anywhere, and all of the block would fault by the 4 KiB.
    QCOMPARE(end - start, kHuge);
    QCOMPARE(start & (kHuge - 1), std::uintptr_t(0));
}

QTEST_GUILESS_MAIN(tst_HugePageNew)
#include "tst_hugepagenew.moc"
