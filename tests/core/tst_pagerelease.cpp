// SPDX-License-Identifier: MIT
#include <QFile>
#include <QTest>

#include <cstdint>
#include <string>
#include <sys/mman.h>

#include "core/model/pagerelease.h"

using namespace TraceInspector;

namespace {

constexpr std::size_t kBytes = std::size_t(8) << 20;

char patternByte(std::size_t i)
{
    return char('a' + (i * 7 + i / 4096) % 26);
}

/// An anonymous mapping of kBytes holding the pattern: writable memory nothing reads again.
struct Source {
    Source()
    {
        void *p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        data = p == MAP_FAILED ? nullptr : static_cast<char *>(p);
        for (std::size_t i = 0; data && i < kBytes; ++i)
            data[i] = patternByte(i);
    }
    ~Source()
    {
        if (data)
            ::munmap(data, kBytes);
    }
    Source(const Source &) = delete;
    Source &operator=(const Source &) = delete;
    char *data = nullptr;
};

/// The VmFlags line of the mapping that holds \a address, from /proc/self/smaps; empty when
/// there is none.
QByteArray vmFlagsAt(const void *address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return {};
    const auto at = reinterpret_cast<quintptr>(address);
    bool inside = false;
    // readAll(), not atEnd(): a /proc file has no size, so atEnd() is true at once.
    const QByteArray text = smaps.readAll();
    for (const QByteArray &line : text.split('\n')) {
        const QByteArray first = line.left(line.indexOf(' '));
        if (const qsizetype dash = first.indexOf('-'); dash > 0) { // "start-end perms ..."
            bool okBegin = false;
            bool okEnd = false;
            const quintptr begin = first.left(dash).toULongLong(&okBegin, 16);
            const quintptr end = first.mid(dash + 1).toULongLong(&okEnd, 16);
            inside = okBegin && okEnd && begin <= at && at < end;
        } else if (inside && line.startsWith("VmFlags:")) {
            return line.mid(8).trimmed();
        }
    }
    return {};
}

} // namespace

class tst_PageRelease : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void copiesAndGivesSourceBack();
    void copyRoomTakesSmallPages();
};

void tst_PageRelease::copiesAndGivesSourceBack()
{
    Source from;
    QVERIFY(from.data);
    std::string out = "head:";
    appendReleasing(out, std::string_view(from.data, kBytes));
    QCOMPARE(out.size(), kBytes + 5);
    QCOMPARE(out.substr(0, 5), std::string("head:"));
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < kBytes; ++i)
        mismatches += out[5 + i] != patternByte(i);
    QCOMPARE(mismatches, std::size_t(0));
    // The source's pages were given back: they read as zeros now.
    std::size_t nonZero = 0;
    for (std::size_t i = 0; i < kBytes; ++i)
        nonZero += from.data[i] != 0;
    QCOMPARE(nonZero, std::size_t(0));
}

// A large string is advised huge pages by the process's operator new; copying into it step
// by step while the source goes back would fault 2 MiB ahead of each 256 KiB step, holding
// copy and source together by up to 2 MiB. The room for the copy takes 4 KiB pages instead.
void tst_PageRelease::copyRoomTakesSmallPages()
{
#if !defined(__linux__) || !defined(MADV_HUGEPAGE)
    QSKIP("transparent huge pages are Linux's");
#else
    Source from;
    QVERIFY(from.data);
    std::string out;
    out.reserve(kBytes);
    // What operator new does for a block this size (core/loading/hugepagenew.cpp): the tests
    // do not link it, so advise here. The probe lies in the block's whole pages.
    const auto first = (reinterpret_cast<std::uintptr_t>(out.data()) + 4095) & ~std::uintptr_t(4095);
    const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(out.data()) + kBytes) & ~std::uintptr_t(4095);
    QCOMPARE(::madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE), 0);
    const char *probe = out.data() + kBytes / 2;
    const QByteArray before = vmFlagsAt(probe);
    if (!before.contains("hg"))
        QSKIP("this kernel does not list VmFlags with huge-page advice in /proc/self/smaps");
    appendReleasing(out, std::string_view(from.data, kBytes));
    QCOMPARE(out.data() + kBytes / 2, probe); // the reserved block was written in place
    const QByteArray after = vmFlagsAt(probe);
    QVERIFY2(after.contains("nh") && !after.contains("hg"), after.constData());
#endif
}

QTEST_GUILESS_MAIN(tst_PageRelease)
#include "tst_pagerelease.moc"
