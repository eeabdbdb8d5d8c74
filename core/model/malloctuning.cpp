// SPDX-License-Identifier: MIT
#include "core/model/malloctuning.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/model/allocatorreplaced.h"

// Under a sanitizer (TI_ALLOCATOR_REPLACED) glibc's heaps hold nothing, and glibc has not even
// set them up: malloc_trim() would do that lazily without a lock, and two loaders trimming at
// once crashed on bins still null (tst_malloctuning).

namespace TraceInspector {

void tuneMallocForBigTraces()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 2 * 1024 * 1024); // also turns the dynamic threshold off
    mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024); // which no longer raises this one either
#endif
}

void releaseFreeMemory()
{
#if defined(__GLIBC__) && !defined(TI_ALLOCATOR_REPLACED)
    malloc_trim(0);
#endif
}

} // namespace TraceInspector
