// SPDX-License-Identifier: MIT
#include "core/loading/malloctuning.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace TraceInspector {

void tuneMallocForBigTraces()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 2 * 1024 * 1024); // also turns the dynamic threshold off
#endif
}

void releaseFreeMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace TraceInspector
