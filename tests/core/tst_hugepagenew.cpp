// SPDX-License-Identifier: MIT
// The process's operator new (hugepagenew.cpp) in a process whose malloc advises its own
// mappings huge, as the window runs (glibc.malloc.hugetlb=1, set for this test by CMake): a
// large block's last, partly used huge page must stay in 4 KiB pages, or every array would
// hold up to 2 MiB it never uses (18 MiB of the window's peak RSS on the 1 GB trace).
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

bool transparentHugePagesOff()
{
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(f, modes);
    return !f || modes.find("[never]") != std::string::npos;
}

} // namespace

class tst_HugePageNew : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void blockEndStaysInSmallPages_data();
    void blockEndStaysInSmallPages();
};

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
    if (transparentHugePagesOff())
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

QTEST_GUILESS_MAIN(tst_HugePageNew)
#include "tst_hugepagenew.moc"
