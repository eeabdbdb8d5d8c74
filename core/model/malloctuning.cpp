// SPDX-License-Identifier: MIT
#include "core/model/malloctuning.h"

#include <algorithm>
#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#include <string_view>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/auxv.h>
#include <unistd.h>
#endif

#include "core/model/allocatorreplaced.h"

// Under a sanitizer (TI_ALLOCATOR_REPLACED) glibc's heaps hold nothing, and glibc has not even
// set them up: malloc_trim() would do that lazily without a lock, and two loaders trimming at
// once crashed on bins still null (tst_malloctuning).

namespace TraceInspector {

void tuneMallocForBigTraces(int maxArenas)
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, std::max(1, maxArenas));
    // Just under 2 MiB, so that operator new's blocks of one huge page less malloc's header
    // (hugepagenew.cpp) are mapped on their own too. Also turns the dynamic threshold off.
    mallopt(M_MMAP_THRESHOLD, 2 * 1024 * 1024 - 4096);
    mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024); // which no longer raises this one either
#else
    (void)maxArenas;
#endif
}

std::optional<std::string> tunablesWithHugePageHeap(const char *current)
{
    constexpr std::string_view kName = "glibc.malloc.hugetlb=";
    const std::string_view value = current ? current : "";
    // Tunables are colon-separated name=value pairs.
    for (std::size_t at = 0; at <= value.size();) {
        const std::size_t end = std::min(value.find(':', at), value.size());
        if (value.substr(at, end - at).starts_with(kName))
            return std::nullopt;
        at = end + 1;
    }
    std::string tunables(value);
    if (!tunables.empty())
        tunables += ':';
    tunables.append(kName).append("1");
    return tunables;
}

void relaunchWithHugePageHeap(char **argv)
{
#if defined(__GLIBC__) && !defined(TI_ALLOCATOR_REPLACED)
    // Started again already: whatever became of the tunables (a set-user-ID program's are
    // dropped, a C library may rewrite them), the program must not start again and again.
    constexpr const char *kStartedAgain = "CANDLE_TRACE_STARTED_WITH_HUGE_PAGE_HEAP";
    if (std::getenv(kStartedAgain)) {
        unsetenv(kStartedAgain); // not handed on to the programs it starts
        return;
    }
    if (getauxval(AT_SECURE) != 0)
        return;
    const char *current = std::getenv("GLIBC_TUNABLES");
    const std::optional<std::string> tunables = tunablesWithHugePageHeap(current);
    if (!tunables)
        return;
    const std::optional<std::string> before = current ? std::optional<std::string>(current) : std::nullopt;
    if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0 || setenv(kStartedAgain, "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Not started again (no /proc, say): go on as before, with the environment as it was.
    unsetenv(kStartedAgain);
    if (before)
        setenv("GLIBC_TUNABLES", before->c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

void releaseFreeMemory()
{
#if defined(__GLIBC__) && !defined(TI_ALLOCATOR_REPLACED)
    malloc_trim(0);
#endif
}

} // namespace TraceInspector
