// SPDX-License-Identifier: MIT
#include <QtTest>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <vector>

#include "core/model/hugepages.h"
#include "core/model/pagemove.h"
#include "core/model/pagerelease.h"
#include "core/model/records.h"

using namespace TraceInspector;

namespace {

constexpr std::size_t kPage = 4096;
constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;

/// Private anonymous memory of whole pages, as malloc() hands out for a large block.
class Mapping
{
public:
    explicit Mapping(std::size_t pages)
        : m_bytes(pages * kPage)
    {
        void *p = ::mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        m_data = p == MAP_FAILED ? nullptr : static_cast<char *>(p);
    }
    ~Mapping()
    {
        if (m_data)
            ::munmap(m_data, m_bytes);
    }
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    char *data() const { return m_data; }
    std::size_t size() const { return m_bytes; }

private:
    char *m_data = nullptr;
    std::size_t m_bytes = 0;
};

/// Whether this kernel moves pages for movePages() (Linux 5.7 on): elsewhere it copies.
bool kernelMovesPages()
{
    Mapping from(3);
    Mapping to(3);
    from.data()[kPage] = 1;
    return movePages(to.data() + 1, from.data() + 1, 3 * kPage - 2) == kPage;
}

char patternAt(std::size_t i)
{
    return static_cast<char>((i * 131 + 7) % 251);
}

void writePattern(char *p, std::size_t bytes)
{
    for (std::size_t i = 0; i < bytes; ++i)
        p[i] = patternAt(i);
}

/// The index of the first of the \a bytes at \a p that is not the pattern's, or \a bytes.
std::size_t patternMismatch(const char *p, std::size_t bytes)
{
    for (std::size_t i = 0; i < bytes; ++i) {
        if (p[i] != patternAt(i))
            return i;
    }
    return bytes;
}

/// A record of MemoryEvent's size, 52 bytes: its remainders modulo a page are every
/// multiple of 4.
MemoryEvent eventNumbered(std::uint32_t i)
{
    MemoryEvent e;
    e.timestampNs = std::uint64_t(i) * 0x100000001ull;
    e.bytes = ~std::uint64_t(i);
    e.storageId = i;
    e.tensorId = i + 1;
    e.spanId = i + 2;
    e.opName = i + 3;
    e.device = i + 4;
    e.dtype = i + 5;
    e.shape = i + 6;
    e.action = (i % 2) ? MemoryAction::Free : MemoryAction::Alloc;
    e.line = i * 3;
    return e;
}

bool sameEvent(const MemoryEvent &a, const MemoryEvent &b)
{
    return a.timestampNs == b.timestampNs && a.bytes == b.bytes && a.storageId == b.storageId
           && a.tensorId == b.tensorId && a.spanId == b.spanId && a.opName == b.opName && a.device == b.device
           && a.dtype == b.dtype && a.shape == b.shape && a.action == b.action && a.category == b.category
           && a.line == b.line;
}

/// The index of the first record of \a dst that is not what appending \a count events
/// numbered from 100000, each passed through \a fix, to \a before events numbered from 0 must
/// give; before + count when every one is.
template<typename Fix>
std::size_t firstWrongRecord(const std::vector<MemoryEvent> &dst, std::uint32_t before, std::uint32_t count, Fix &fix)
{
    for (std::uint32_t i = 0; i < before + count; ++i) {
        MemoryEvent expected = eventNumbered(i < before ? i : 100000 + (i - before));
        if (i >= before)
            fix(expected);
        if (!sameEvent(dst[i], expected))
            return i;
    }
    return std::size_t(before) + count;
}

} // namespace

class tst_PageMove : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void movesAtEveryOffset();
    void copiesWhatTheKernelRefuses();
    void sourceOfSeveralMappings();
    void appendsBytesAtEveryRemainder();
    void appendsRecordsAtEveryRemainder();
    void appendsLargeArraysAtHugePageOffsets_data();
    void appendsLargeArraysAtHugePageOffsets();
    void largeArrayWithinItsFirstHugePage();
    void stagedThenTouchedThenFinished_data();
    void stagedThenTouchedThenFinished();
    void smallArraysAreCopied();
};

// The bytes arrive whole at every offset within a page; only [to, to + bytes) changes; the
// source's partial pages (an allocator's header) stay, its whole pages are given back; and
// the whole pages are moved, not copied.
void tst_PageMove::initTestCase()
{
#if defined(__GLIBC__)
    // As the application does (tuneMallocForBigTraces()): blocks of megabytes get mappings of
    // their own, not heap memory an earlier test row left resident, so that the pages found
    // behind an append's records are the append's.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

void tst_PageMove::movesAtEveryOffset()
{
    const bool moves = kernelMovesPages();
#ifdef __linux__
    QVERIFY(moves); // Linux 5.7 on; the CI's kernels are newer
#endif
    constexpr std::size_t kBytes = 3 * kPage + 123;
    for (std::size_t offset = 0; offset < kPage; ++offset) {
        Mapping from(5);
        Mapping to(6);
        QVERIFY(from.data() && to.data());
        std::memset(from.data(), 0xCD, from.size());
        std::memset(to.data(), 0xAB, to.size());
        char *source = from.data() + offset;
        writePattern(source, kBytes);
        char *target = to.data() + kPage + offset;
        const std::size_t moved = movePages(target, source, kBytes);

        const std::size_t wholePages = ((offset + kBytes) / kPage - (offset + kPage - 1) / kPage) * kPage;
        QCOMPARE(moved, moves ? wholePages : std::size_t(0));
        if (const std::size_t at = patternMismatch(target, kBytes); at != kBytes)
            QFAIL(qPrintable(QStringLiteral("offset %1: byte %2 differs").arg(offset).arg(at)));
        for (char *p = to.data(); p < target; ++p)
            QCOMPARE(static_cast<unsigned char>(*p), 0xABu);
        for (char *p = target + kBytes; p < to.data() + to.size(); ++p)
            QCOMPARE(static_cast<unsigned char>(*p), 0xABu);
        // The source's bytes around the range are untouched, its whole pages read as zero.
        for (char *p = from.data(); p < source; ++p)
            QCOMPARE(static_cast<unsigned char>(*p), 0xCDu);
        for (char *p = source + kBytes; p < from.data() + from.size(); ++p)
            QCOMPARE(static_cast<unsigned char>(*p), 0xCDu);
        const std::size_t firstWhole = (offset + kPage - 1) / kPage * kPage;
        for (std::size_t i = firstWhole; i < firstWhole + wholePages; ++i)
            QCOMPARE(from.data()[i], '\0');
    }
}

std::uintptr_t g_refuseBelow = 0;

// A kernel that refuses to move the pages below g_refuseBelow.
bool refusingBelow(char *to, char *from, std::size_t length)
{
    if (reinterpret_cast<std::uintptr_t>(from) < g_refuseBelow)
        return false;
    return moveWholePages(to, from, length);
}

// A piece the kernel refuses is copied instead, exactly, and given back; the other pieces
// still move.
void tst_PageMove::copiesWhatTheKernelRefuses()
{
    constexpr std::size_t kPages = 3 * 512;
    Mapping from(kPages + 1);
    Mapping to(kPages + 2);
    QVERIFY(from.data() && to.data());
    const auto base = reinterpret_cast<std::uintptr_t>(from.data());
    // The pieces end at the source's 2 MiB boundaries: refuse the first one.
    const std::uintptr_t boundary = (base + 8 * kPage + kHuge - 1) & ~(kHuge - 1);
    const std::size_t bytes = kPages * kPage - 100;
    char *source = from.data() + 50;
    writePattern(source, bytes);
    g_refuseBelow = boundary;
    char *target = to.data() + kPage + 50;
    const std::size_t moved = movePages(target, source, bytes, refusingBelow);
    QCOMPARE(patternMismatch(target, bytes), bytes); // else: the index of the first wrong byte
    const std::size_t firstPiece = boundary - (base + kPage);
    const std::size_t wholePages = (bytes + 50) / kPage * kPage - kPage;
    QCOMPARE(moved, kernelMovesPages() ? wholePages - firstPiece : std::size_t(0));
    for (std::size_t i = kPage; i < kPage + wholePages; ++i)
        QCOMPARE(from.data()[i], '\0'); // copied or moved, given back
    QCOMPARE(from.data()[49], '\0');    // before the range: untouched
    QCOMPARE(source[0], patternAt(0));  // the partial first page stays
}

// The source may be several mappings (here: a read-only page a little before a 2 MiB
// boundary); whether the kernel moves such a piece or refuses, the bytes arrive.
void tst_PageMove::sourceOfSeveralMappings()
{
    constexpr std::size_t kPages = 3 * 512;
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    Mapping from(kPages + 1);
    Mapping to(kPages + 2);
    QVERIFY(from.data() && to.data());
    const auto base = reinterpret_cast<std::uintptr_t>(from.data());
    const std::uintptr_t boundary = (base + 8 * kPage + kHuge - 1) & ~(kHuge - 1);
    const std::size_t bytes = kPages * kPage - 100;
    char *source = from.data() + 50;
    writePattern(source, bytes);
    QCOMPARE(::mprotect(reinterpret_cast<char *>(boundary) - 5 * kPage, kPage, PROT_READ), 0);
    char *target = to.data() + kPage + 50;
    movePages(target, source, bytes);
    QCOMPARE(patternMismatch(target, bytes), bytes); // else: the index of the first wrong byte
}

// appendMovingPages() gives what a copying append gives, whatever the remainder of the
// destination's end within a page.
void tst_PageMove::appendsBytesAtEveryRemainder()
{
    constexpr std::size_t kSource = 100000;
    for (std::size_t before = 0; before < kPage; ++before) {
        std::vector<std::uint8_t> dst(before);
        for (std::size_t i = 0; i < before; ++i)
            dst[i] = static_cast<std::uint8_t>(i * 7);
        std::vector<std::uint8_t> src(kSource);
        for (std::size_t i = 0; i < kSource; ++i)
            src[i] = static_cast<std::uint8_t>(patternAt(i));
        const std::size_t moved = appendMovingPages(dst, src, [](std::uint8_t &b) { b ^= 0x5A; });
        QVERIFY(src.empty());
        QCOMPARE(dst.size(), before + kSource);
        for (std::size_t i = 0; i < before; ++i)
            QCOMPARE(dst[i], static_cast<std::uint8_t>(i * 7));
        for (std::size_t i = 0; i < kSource; ++i) {
            if (dst[before + i] != (static_cast<std::uint8_t>(patternAt(i)) ^ 0x5A))
                QFAIL(qPrintable(QStringLiteral("%1 before: byte %2 differs").arg(before).arg(i)));
        }
#ifdef __linux__
        QVERIFY2(moved >= kSource - 2 * kPage, qPrintable(QString::number(before)));
#else
        (void)moved;
#endif
    }
}

void tst_PageMove::appendsRecordsAtEveryRemainder()
{
    constexpr std::uint32_t kSource = 3000; // 156 KB
    // 1024 sizes: 52 * n covers every multiple of 4 modulo a page.
    for (std::uint32_t before = 0; before < kPage / 4; ++before) {
        std::vector<MemoryEvent> dst;
        for (std::uint32_t i = 0; i < before; ++i)
            dst.push_back(eventNumbered(i));
        std::vector<MemoryEvent> src;
        for (std::uint32_t i = 0; i < kSource; ++i)
            src.push_back(eventNumbered(100000 + i));
        const auto fix = [](MemoryEvent &e) {
            e.storageId += 1000000;
            e.line += 7;
        };
        const std::size_t moved = appendMovingPages(dst, src, fix);
        QCOMPARE(dst.size(), std::size_t(before + kSource));
        if (const std::size_t wrong = firstWrongRecord(dst, before, kSource, fix); wrong != dst.size())
            QFAIL(qPrintable(QStringLiteral("%1 before: record %2 differs").arg(before).arg(wrong)));
#ifdef __linux__
        QVERIFY(moved >= kSource * sizeof(MemoryEvent) - 2 * kPage);
#else
        (void)moved;
#endif
        // Appending goes on as usual after it.
        dst.push_back(eventNumbered(7));
        QVERIFY(sameEvent(dst.back(), eventNumbered(7)));
    }
}

/// The number of resident pages among the whole pages of [begin, end).
std::size_t residentPages(const void *begin, const void *end)
{
    const auto first = (reinterpret_cast<std::uintptr_t>(begin) + kPage - 1) & ~(kPage - 1);
    const auto last = reinterpret_cast<std::uintptr_t>(end) & ~(kPage - 1);
    if (last <= first)
        return 0;
    std::vector<unsigned char> pages((last - first) / kPage);
    if (::mincore(reinterpret_cast<void *>(first), last - first, pages.data()) != 0)
        return SIZE_MAX;
    std::size_t n = 0;
    for (unsigned char p : pages)
        n += p & 1;
    return n;
}

void tst_PageMove::appendsLargeArraysAtHugePageOffsets_data()
{
    QTest::addColumn<std::uint32_t>("before");
    QTest::addColumn<bool>("roomReserved");
    // 52-byte records: the destination ends at assorted offsets within a page and a huge page.
    for (std::uint32_t before : {0u, 1u, 79u, 40000u, 40329u, 80661u}) {
        QTest::addRow("%u before", before) << before << false;
        QTest::addRow("%u before, room for them all", before) << before << true;
    }
}

// Arrays of 4 MiB or more land at their offset within a 2 MiB page, up to 2 MiB past the
// destination's end: the records still come out in order, and the room behind the last
// one holds no pages. Their part in their first huge page is read where it is.
void tst_PageMove::appendsLargeArraysAtHugePageOffsets()
{
    QFETCH(std::uint32_t, before);
    QFETCH(bool, roomReserved);
    constexpr std::uint32_t kSource = 130000; // 6.4 MiB
    std::vector<MemoryEvent> dst;
    if (roomReserved)
        reserveHuge(dst, before + kSource + (std::size_t(2) << 20) / sizeof(MemoryEvent) + 1);
    for (std::uint32_t i = 0; i < before; ++i)
        dst.push_back(eventNumbered(i));
    // The huge page the records end in may hold pages beyond them: not the append's.
    releasePages(dst.data() + dst.size(), dst.data() + dst.capacity());
    std::vector<MemoryEvent> src;
    reserveHuge(src, kSource);
    for (std::uint32_t i = 0; i < kSource; ++i)
        src.push_back(eventNumbered(100000 + i));
    // The source's part in its first huge page stays, and a record across that page's end
    // is read from both sides (with glibc's malloc the block starts 16 bytes into a huge
    // page, and 52 bytes do not divide 2 MiB - 16).
    const auto srcBegin = reinterpret_cast<std::uintptr_t>(src.data());
    const std::uintptr_t firstWhole = (srcBegin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t lastPage = (srcBegin + kSource * sizeof(MemoryEvent)) & ~(kPage - 1);
    const auto fix = [](MemoryEvent &e) { e.line += 7; };
    const std::size_t moved = appendMovingPages(dst, src, fix);
    QVERIFY(src.empty());
    QCOMPARE(dst.size(), std::size_t(before + kSource));
    QCOMPARE(firstWrongRecord(dst, before, kSource, fix), dst.size());
#ifdef __linux__
    QCOMPARE(moved, std::size_t(lastPage - firstWhole));
    QCOMPARE(residentPages(dst.data() + dst.size(), dst.data() + dst.capacity()), std::size_t(0));
#else
    (void)moved;
#endif
}

// An array landing at its huge-page offset that ends before its first huge page does is
// read where it is, wholly: nothing moves.
void tst_PageMove::largeArrayWithinItsFirstHugePage()
{
    std::vector<MemoryEvent> dst;
    for (std::uint32_t i = 0; i < 777; ++i)
        dst.push_back(eventNumbered(i));
    // Where a block starts within its huge page is the allocator's choice (a sanitizer's
    // differs from glibc's): take the first block with room for 64 KiB or more of records
    // before its first 2 MiB boundary, and fill just that room.
    constexpr std::size_t kMinBytes = std::size_t(64) << 10;
    std::vector<std::vector<MemoryEvent>> blocks;
    std::uint32_t records = 0;
    for (int attempt = 0; attempt < 16 && records == 0; ++attempt) {
        std::vector<MemoryEvent> &block = blocks.emplace_back();
        reserveHuge(block, std::size_t(3) << 20 >> 6);
        const auto begin = reinterpret_cast<std::uintptr_t>(block.data());
        const std::size_t room = ((begin + kHuge - 1) & ~(kHuge - 1)) - begin;
        if (room >= kMinBytes + sizeof(MemoryEvent))
            records = static_cast<std::uint32_t>(std::min<std::size_t>(room / sizeof(MemoryEvent), 20000));
    }
    QVERIFY(records > 0);
    std::vector<MemoryEvent> &src = blocks.back();
    for (std::uint32_t i = 0; i < records; ++i)
        src.push_back(eventNumbered(100000 + i));
    const auto fix = [](MemoryEvent &e) { e.line += 7; };
    QCOMPARE(appendMovingPages(dst, src, fix, kMinBytes, kMinBytes), std::size_t(0));
    QVERIFY(src.empty());
    QCOMPARE(dst.size(), std::size_t(777 + records));
    QCOMPARE(firstWrongRecord(dst, 777, records, fix), dst.size());
}

void tst_PageMove::stagedThenTouchedThenFinished_data()
{
    QTest::addColumn<std::uint32_t>("records");
    QTest::addColumn<bool>("stopAtOnce");
    QTest::addRow("small, copied") << 300u << false;
    QTest::addRow("4 KiB pages") << 20000u << false;
    QTest::addRow("huge pages") << 130000u << false;
    QTest::addRow("huge pages, touch stopped at once") << 130000u << true;
}

// Staged, its pages touched (or not, when told to stop) and finished, an array comes out
// as appendMovingPages() gives it: two arrays staged before either is finished.
void tst_PageMove::stagedThenTouchedThenFinished()
{
    QFETCH(std::uint32_t, records);
    QFETCH(bool, stopAtOnce);
    std::vector<MemoryEvent> dst;
    std::vector<Edge> dstEdges(5);
    for (std::uint32_t i = 0; i < 333; ++i)
        dst.push_back(eventNumbered(i));
    std::vector<MemoryEvent> src;
    std::vector<Edge> srcEdges(records);
    reserveHuge(src, records);
    for (std::uint32_t i = 0; i < records; ++i) {
        src.push_back(eventNumbered(100000 + i));
        srcEdges[i].line = i;
    }
    const StagedMove staged = stageMovingPages(dst, src);
    const StagedMove stagedEdges = stageMovingPages(dstEdges, srcEdges);
    QCOMPARE(staged.copy, records * sizeof(MemoryEvent) < (std::size_t(64) << 10));
    const std::atomic<bool> stop{stopAtOnce};
    QCOMPARE(touchMovedPages(staged, stop), !stopAtOnce || staged.copy || staged.movedBytes < 16 * kPage);
    const auto fix = [](MemoryEvent &e) { e.line += 7; };
    finishMovingPages(dst, src, staged, fix);
    finishMovingPages(dstEdges, srcEdges, stagedEdges, [](Edge &e) { e.line *= 3; });
    QVERIFY(src.empty());
    QCOMPARE(dst.size(), std::size_t(333 + records));
    QCOMPARE(firstWrongRecord(dst, 333, records, fix), dst.size());
    QCOMPARE(dstEdges.size(), std::size_t(5 + records));
    for (std::uint32_t i = 0; i < records; ++i) {
        if (dstEdges[5 + i].line != 3 * i)
            QFAIL(qPrintable(QStringLiteral("edge %1 differs").arg(i)));
    }
}

void tst_PageMove::smallArraysAreCopied()
{
    std::vector<Edge> dst(3);
    std::vector<Edge> src(10);
    for (std::size_t i = 0; i < src.size(); ++i)
        src[i].line = std::uint32_t(i);
    QCOMPARE(appendMovingPages(dst, src, [](Edge &e) { e.line *= 2; }), std::size_t(0));
    QVERIFY(src.empty());
    QCOMPARE(dst.size(), std::size_t(13));
    for (std::size_t i = 0; i < 10; ++i)
        QCOMPARE(dst[3 + i].line, std::uint32_t(2 * i));
}

QTEST_GUILESS_MAIN(tst_PageMove)
#include "tst_pagemove.moc"
