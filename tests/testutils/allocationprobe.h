// SPDX-License-Identifier: MIT
#pragma once

// Watching what an analysis allocates (ti_allocationprobe): the tests that link it get
// replacement global operators new and delete that count the blocks of the thread being
// watched and remember the largest.

#include <cstddef>

namespace TraceInspector::TestFixtures {

/// Watches the global operator new calls of the thread that creates it, from its creation
/// until stop() (or its end). One at a time per thread.
class AllocationProbe
{
public:
    AllocationProbe();
    ~AllocationProbe();
    AllocationProbe(const AllocationProbe &) = delete;
    AllocationProbe &operator=(const AllocationProbe &) = delete;

    /// Stops watching; count() and largest() keep what was seen until then.
    void stop();
    /// The blocks allocated while watching.
    std::size_t count() const;
    /// The size of the largest of them (0 when there were none).
    std::size_t largest() const;
};

} // namespace TraceInspector::TestFixtures
