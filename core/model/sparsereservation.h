// SPDX-License-Identifier: MIT
#pragma once

namespace TraceInspector {

/// Says, for as long as it lives, that the blocks this thread allocates are reservations of
/// an upper bound (one key per record, at most), whose end is likely never written. The
/// process's operator new (hugepagenew.cpp) faults in the 4 KiB-page end of a large block
/// at once, because most blocks are filled whole (a vector of n values), and one call costs
/// ~0.5 us a page where a fault costs ~11 us on a virtual machine; for a reservation that
/// would make memory resident that nothing uses, so it leaves those ends alone.
class SparseReservation
{
public:
    SparseReservation() { ++depth(); }
    ~SparseReservation() { --depth(); }
    SparseReservation(const SparseReservation &) = delete;
    SparseReservation &operator=(const SparseReservation &) = delete;

    static bool active() { return depth() > 0; }

private:
    static int &depth()
    {
        thread_local int d = 0;
        return d;
    }
};

} // namespace TraceInspector
