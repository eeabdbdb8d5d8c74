// SPDX-License-Identifier: MIT
#pragma once

// TI_ALLOCATOR_REPLACED is defined in a build whose malloc and operator new a sanitizer's
// runtime replaces: AddressSanitizer, ThreadSanitizer or MemorySanitizer, in GCC's or clang's
// spelling (UndefinedBehaviorSanitizer alone replaces neither). The one test of it, for the
// code that must step aside there: the huge-page operator new (the runtime has its own) and
// malloc_trim() (glibc's heaps are never set up, see malloctuning.cpp).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TI_ALLOCATOR_REPLACED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TI_ALLOCATOR_REPLACED 1
#endif
#endif
