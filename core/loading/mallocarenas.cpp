// SPDX-License-Identifier: MIT
#include "core/loading/mallocarenas.h"

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
