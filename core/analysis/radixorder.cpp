// SPDX-License-Identifier: MIT
#include "core/analysis/radixorder.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace TraceInspector {

namespace {

/// Sorts \a keys with \a order alongside by insertion, stably, while that takes at most
/// \a budget element moves; returns false when it gave up. Keys that are nearly in order, each
/// a few places from its own (a device stream's intervals, begun a little after their
/// neighbours), cost a read and a few moves: the radix passes of such a lane of 377 k
/// intervals took ~20 ms on the 1 GB trace. Given up, the arrays are a permutation of what
/// they were in which equal keys are still in index order, so the radix passes can go on
/// from there.
bool insertionSortWithin(std::vector<std::uint64_t> &keys, std::vector<std::uint32_t> &order, std::size_t budget)
{
    std::size_t moves = 0;
    for (std::size_t i = 1; i < keys.size(); ++i) {
        const std::uint64_t key = keys[i];
        if (keys[i - 1] <= key)
            continue;
        const std::uint32_t index = order[i];
        std::size_t j = i;
        bool withinBudget = true;
        // Only past greater keys: an equal one stays in front (stable).
        while (j > 0 && keys[j - 1] > key) {
            if (++moves > budget) {
                withinBudget = false;
                break;
            }
            keys[j] = keys[j - 1];
            order[j] = order[j - 1];
            --j;
        }
        keys[j] = key;
        order[j] = index;
        if (!withinBudget)
            return false;
    }
    return true;
}

} // namespace

std::vector<std::uint32_t> radixOrder(std::vector<std::uint64_t> keys, std::vector<std::uint64_t> *sortedKeys)
{
    const std::size_t n = keys.size();
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0U);
    // Records are mostly written in time order, so keys often come sorted already: one read
    // of them then replaces the passes and their two fresh arrays (on the 1 GB trace the
    // span starts, 1 M keys, and the ops', 0.76 M, for the span tree and the timeline).
    if (std::is_sorted(keys.begin(), keys.end())) {
        if (sortedKeys)
            *sortedKeys = std::move(keys);
        return order;
    }
    if (n < 2048) {
        std::stable_sort(order.begin(), order.end(),
                         [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
        if (sortedKeys) {
            sortedKeys->resize(n);
            for (std::size_t i = 0; i < n; ++i)
                (*sortedKeys)[i] = keys[order[i]];
        }
        return order;
    }
    // Nearly in order: a few moves per key are still far less than a radix pass's scattered
    // writes. Keys far from order use the budget up, most of them early; the passes then
    // cost at most a read and 4 moves a key more than they would alone.
    if (insertionSortWithin(keys, order, 4 * n)) {
        if (sortedKeys)
            *sortedKeys = std::move(keys);
        return order;
    }
    constexpr int kDigitBits = 16;
    constexpr std::size_t kBuckets = std::size_t(1) << kDigitBits;
    constexpr int kPasses = 64 / kDigitBits;
    std::vector<std::uint32_t> histogram(kPasses * kBuckets, 0);
    for (std::uint64_t key : keys) {
        for (int p = 0; p < kPasses; ++p)
            ++histogram[p * kBuckets + ((key >> (p * kDigitBits)) & (kBuckets - 1))];
    }
    std::vector<std::uint64_t> keysOut(n);
    std::vector<std::uint32_t> orderOut(n);
    for (int p = 0; p < kPasses; ++p) {
        std::uint32_t *counts = histogram.data() + p * kBuckets;
        if (std::any_of(counts, counts + kBuckets, [n](std::uint32_t c) { return c == n; }))
            continue;
        std::uint32_t running = 0;
        for (std::size_t b = 0; b < kBuckets; ++b)
            running += std::exchange(counts[b], running);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t slot = counts[(keys[i] >> (p * kDigitBits)) & (kBuckets - 1)]++;
            keysOut[slot] = keys[i];
            orderOut[slot] = order[i];
        }
        keys.swap(keysOut);
        order.swap(orderOut);
    }
    if (sortedKeys)
        *sortedKeys = std::move(keys);
    return order;
}

} // namespace TraceInspector
