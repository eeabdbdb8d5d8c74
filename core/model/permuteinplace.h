// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace TraceInspector {

/// permuteInPlace() (below) one cycle at a time: for arrays too large for its tags, and the
/// reference its test compares with.
template<typename T>
void permuteInPlaceOneByOne(std::vector<T> &items, std::vector<std::uint32_t> &order)
{
    // A placed position is marked by pointing at itself, which fixed points already do.
    for (std::size_t start = 0; start < items.size(); ++start) {
        if (order[start] == start)
            continue;
        const T first = items[start];
        std::size_t at = start;
        for (;;) {
            const std::size_t from = order[at];
            order[at] = static_cast<std::uint32_t>(at);
            if (from == start) {
                items[at] = first;
                break;
            }
            items[at] = items[from];
            at = from;
        }
    }
}

/// Reorders \a items in place so that the new items[i] is the old items[order[i]]; \a order
/// (a permutation of 0..n-1) is used up. No second copy of the items is made: a sorted copy
/// of ten million spans would be the peak of a read.
///
/// The permutation is applied cycle by cycle, but several cycles are followed at once: a
/// step of one cycle needs the slot the previous step named, a cache miss a step on a large
/// array, and one cycle at a time waits for each of them in turn (a million spans took
/// ~130 ms). Walking kWalkers chains in turn keeps that many misses in flight, each chain
/// prefetching what its next step reads. Two walkers may share a cycle: each one stops at
/// the start of the next, taking the item saved there, so every item moves exactly once.
template<typename T>
void permuteInPlace(std::vector<T> &items, std::vector<std::uint32_t> &order)
{
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t n = items.size();
    // A walker's start is tagged in `order` with the slot its saved item lies in.
    constexpr std::uint32_t kTag = std::uint32_t(1) << 31;
    constexpr std::size_t kWalkers = 16;
    if (n >= kTag)
        return permuteInPlaceOneByOne(items, order);
    struct Walker {
        std::uint32_t to = 0;   // the slot written next
        std::uint32_t from = 0; // where its item comes from (order[to] before the walk)
        bool active = false;
    };
    std::array<Walker, kWalkers> walkers{};
    // The items of started walkers' starts, until the chain ending there takes them. Each
    // active walker ends at exactly one start, so at most kWalkers are waiting.
    std::array<T, kWalkers> saved;
    std::array<bool, kWalkers> savedUsed{};
    T *data = items.data();
    std::uint32_t *next = order.data();
    std::size_t active = 0;
    std::size_t scan = 0; // starts below this are placed or taken
    for (;;) {
        for (Walker &w : walkers) {
            if (!w.active) {
                // Start a new chain at the next slot not placed yet and not a started one.
                while (scan < n && (next[scan] == scan || (next[scan] & kTag)))
                    ++scan;
                if (scan == n)
                    continue;
                std::size_t slot = 0;
                while (savedUsed[slot])
                    ++slot;
                savedUsed[slot] = true;
                saved[slot] = data[scan];
                w.to = static_cast<std::uint32_t>(scan);
                w.from = next[scan];
                next[scan] = kTag | static_cast<std::uint32_t>(slot);
                w.active = true;
                ++active;
                __builtin_prefetch(&data[w.from]);
                __builtin_prefetch(&next[w.from]);
                continue;
            }
            const std::uint32_t after = next[w.from];
            if (after & kTag) {
                // The chain reached a walker's start (its own or another's): its item was saved.
                const std::uint32_t slot = after & ~kTag;
                data[w.to] = saved[slot];
                savedUsed[slot] = false;
                next[w.from] = w.from;
                w.active = false;
                --active;
                continue;
            }
            data[w.to] = data[w.from];
            next[w.from] = w.from;
            w.to = w.from;
            w.from = after;
            __builtin_prefetch(&data[after]);
            __builtin_prefetch(&next[after]);
        }
        if (active == 0 && scan == n)
            break;
    }
}

} // namespace TraceInspector
