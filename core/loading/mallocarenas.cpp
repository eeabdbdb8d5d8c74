// SPDX-License-Identifier: MIT
#include "core/loading/mallocarenas.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace TraceInspector {

void limitMallocArenas()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
#endif
}

} // namespace TraceInspector
