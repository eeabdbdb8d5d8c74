// SPDX-License-Identifier: MIT
// The process's global operator new: large blocks are advised to use transparent huge pages.
// Linked into the executables that load big traces (the CLI, the window, their benchmarks).
//
// The analysis of a 1 GB trace (health, memory) fills arrays of tens of MB that malloc maps
// fresh; with 4 KiB pages every 4 KiB written is a page fault, and on machines set to THP
// `madvise` (the common default) only advised ranges get 2 MiB pages. The reader already
// advises its record arrays (core/model/hugepages.h); this covers every other large
// allocation of the process, as glibc's `glibc.malloc.hugetlb=1` tunable would (measured on
// the 1 GB trace: ~10 % less CPU time for check --all, peak RSS +1.5 %). Blocks under 4 MiB
// are left alone, so a small trace faults in no 2 MiB page it does not use. Memory still
// comes from malloc and goes back with free(), as the library's own operator delete does.
#include <cstdlib>
#include <new>

#include "core/model/hugepages.h"

#if defined(TI_HUGE_PAGE_NEW) // not under a sanitizer, whose runtime has its own

void *operator new(std::size_t size)
{
    for (;;) {
        if (void *p = std::malloc(size ? size : 1)) {
            TraceInspector::adviseHugePages(p, size);
            return p;
        }
        std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

#endif
