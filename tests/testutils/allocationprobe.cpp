// SPDX-License-Identifier: MIT
#include "tests/testutils/allocationprobe.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace {

struct Watch {
    bool active = false;
    std::size_t count = 0;
    std::size_t largest = 0;
};

thread_local Watch t_watch;

} // namespace

namespace TraceInspector::TestFixtures {

AllocationProbe::AllocationProbe()
{
    t_watch = Watch{true, 0, 0};
}

AllocationProbe::~AllocationProbe()
{
    stop();
}

void AllocationProbe::stop()
{
    t_watch.active = false;
}

std::size_t AllocationProbe::count() const
{
    return t_watch.count;
}

std::size_t AllocationProbe::largest() const
{
    return t_watch.largest;
}

} // namespace TraceInspector::TestFixtures

void *operator new(std::size_t size)
{
    if (t_watch.active) {
        ++t_watch.count;
        t_watch.largest = std::max(t_watch.largest, size);
    }
    if (void *p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}

void operator delete(void *p) noexcept
{
    std::free(p);
}

void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}

// The other unaligned forms come from malloc() too, so that every such block is freed the
// way it was allocated (a sanitizer's runtime would otherwise pair its own new with free()).
void *operator new[](std::size_t size)
{
    return ::operator new(size);
}

void *operator new(std::size_t size, const std::nothrow_t &) noexcept
{
    return std::malloc(size ? size : 1);
}

void *operator new[](std::size_t size, const std::nothrow_t &) noexcept
{
    return std::malloc(size ? size : 1);
}

void operator delete[](void *p) noexcept
{
    std::free(p);
}

void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}

void operator delete(void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}

void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    std::free(p);
}
