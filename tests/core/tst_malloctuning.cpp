// SPDX-License-Identifier: MIT
// releaseFreeMemory() is called by every post-read analysis, so two loaders (a comparison's
// candidate and baseline) call it at the same moment. In a sanitizer build glibc's heaps were
// never set up, and malloc_trim() set them up lazily without a lock: a thread trimming while
// another was still initialising walked null bins and crashed (CI, tst_comparecolumns).
#include <QTest>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include "core/model/allocatorreplaced.h"
#include "core/model/malloctuning.h"
#include "tests/testutils/residentmemory.h"

using namespace TraceInspector;

class tst_MallocTuning : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void releaseFromManyThreadsAtOnce();
    void givesFreedHeapPagesBack();
    void hugePageHeapTunable_data();
    void hugePageHeapTunable();
    void keepsTheHeapTopForReuse(); // tunes malloc: stays the last
};

void tst_MallocTuning::releaseFromManyThreadsAtOnce()
{
    // The first calls in the process are the racy ones: this test function must stay the only
    // caller before this point.
    constexpr int kThreads = 16;
    std::atomic<int> ready{0};
    std::atomic<int> done{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            ready.fetch_add(1);
            while (ready.load() < kThreads)
                std::this_thread::yield();
            releaseFreeMemory();
            done.fetch_add(1);
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    QCOMPARE(done.load(), kThreads);
}

void tst_MallocTuning::givesFreedHeapPagesBack()
{
#if defined(TI_ALLOCATOR_REPLACED)
    QSKIP("a sanitizer's allocator replaces glibc's heaps");
#endif
    // 64 KiB blocks come from the heap; the last one stays live, so glibc alone cannot give
    // the freed ones below it back.
    constexpr int kBlocks = 64;
    constexpr std::size_t kBlock = 64 * 1024;
    std::vector<char *> blocks;
    for (int i = 0; i < kBlocks; ++i) {
        blocks.push_back(new char[kBlock]);
        std::memset(blocks.back(), 1, kBlock);
    }
    for (int i = 0; i + 1 < kBlocks; ++i)
        delete[] blocks[std::size_t(i)];
    const auto before = static_cast<long long>(ResidentMemory::residentBytes());
    releaseFreeMemory();
    const auto after = static_cast<long long>(ResidentMemory::residentBytes());
    delete[] blocks.back();
    // At least half of the freed blocks' pages given back.
    QVERIFY2(before - after >= static_cast<long long>((kBlocks - 2) * kBlock / 4096 / 2 * 4096),
             qPrintable(QStringLiteral("resident bytes %1 -> %2").arg(before).arg(after)));
}

// The window starts again with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES,
// keeping the user's other tunables; when the user named that tunable, their value stands
// and it does not start again (which would otherwise also be a loop).
void tst_MallocTuning::hugePageHeapTunable_data()
{
    QTest::addColumn<QByteArray>("current");  // "<unset>": no GLIBC_TUNABLES
    QTest::addColumn<QByteArray>("expected"); // "<none>": no second start
    QTest::newRow("unset") << QByteArray("<unset>") << QByteArray("glibc.malloc.hugetlb=1");
    QTest::newRow("empty") << QByteArray("") << QByteArray("glibc.malloc.hugetlb=1");
    QTest::newRow("others kept") << QByteArray("glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=0")
                                 << QByteArray("glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=0:"
                                               "glibc.malloc.hugetlb=1");
    QTest::newRow("already on") << QByteArray("glibc.malloc.hugetlb=1") << QByteArray("<none>");
    QTest::newRow("turned off by the user")
        << QByteArray("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0") << QByteArray("<none>");
    QTest::newRow("huge TLB pages asked for")
        << QByteArray("glibc.malloc.hugetlb=2:glibc.malloc.arena_max=2") << QByteArray("<none>");
    QTest::newRow("a name that only ends alike")
        << QByteArray("x.glibc.malloc.hugetlb=0") << QByteArray("x.glibc.malloc.hugetlb=0:glibc.malloc.hugetlb=1");
}

void tst_MallocTuning::hugePageHeapTunable()
{
    QFETCH(QByteArray, current);
    QFETCH(QByteArray, expected);
    const std::optional<std::string> tunables =
        tunablesWithHugePageHeap(current == "<unset>" ? nullptr : current.constData());
    QCOMPARE(QByteArray(tunables ? tunables->c_str() : "<none>"), expected);
}

void tst_MallocTuning::keepsTheHeapTopForReuse()
{
#if defined(TI_ALLOCATOR_REPLACED)
    QSKIP("a sanitizer's allocator replaces glibc's heaps");
#endif
    // A scratch block under the mmap threshold, freed at the heap's top and asked for again
    // (the span id sort's radix histogram, once per bucket of ids): with glibc's trim threshold
    // left at 128 KiB its pages went back on free and faulted in again (224 of its 256 here).
    tuneMallocForBigTraces(kWindowArenas);
    constexpr std::size_t kBytes = std::size_t(1) << 20;
    const auto touch = [] {
        auto *p = static_cast<char *>(std::malloc(kBytes));
        QVERIFY(p);
        std::memset(p, 1, kBytes);
        // Read back through a volatile: the compiler may not drop the writes with the free.
        QCOMPARE(static_cast<volatile char *>(p)[kBytes - 1], 1);
        std::free(p);
    };
    const auto minorFaults = [] {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        return usage.ru_minflt;
    };
    touch();
    const long before = minorFaults();
    touch();
    const long faults = minorFaults() - before;
    QVERIFY2(faults < 32, qPrintable(QStringLiteral("%1 page faults for a block reused").arg(faults)));
}

QTEST_GUILESS_MAIN(tst_MallocTuning)
#include "tst_malloctuning.moc"
