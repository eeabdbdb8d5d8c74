// SPDX-License-Identifier: MIT
#include "core/analysis/radixorder.h"

#include <algorithm>
#include <bit>
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
    // Digits of at most 11 bits over the keys' range above their minimum: 2048 buckets keep
    // the passes' scattered writes within the cache, and timestamps of a run of seconds span
    // ~34 bits, 4 passes. With 16-bit digits from 0 the same keys took 3 passes of 65536
    // buckets, ~40 % longer (a micro benchmark, 1 M timestamps in span id order: 19.6 ->
    // 14.2 ms).
    constexpr int kMaxDigitBits = 11;
    const auto [lowest, highest] = std::minmax_element(keys.begin(), keys.end());
    const std::uint64_t base = *lowest;
    const int bits = 64 - std::countl_zero(*highest - base); // > 0: the keys are not all equal
    const int passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
    const int digitBits = (bits + passes - 1) / passes;
    const std::size_t buckets = std::size_t(1) << digitBits;
    const std::uint64_t digitMask = buckets - 1;
    std::vector<std::uint32_t> histogram(std::size_t(passes) * buckets, 0);
    for (const std::uint64_t key : keys) {
        for (int p = 0; p < passes; ++p)
            ++histogram[std::size_t(p) * buckets + (((key - base) >> (p * digitBits)) & digitMask)];
    }
    std::vector<std::uint64_t> keysOut(n);
    std::vector<std::uint32_t> orderOut(n);
    for (int p = 0; p < passes; ++p) {
        std::uint32_t *counts = histogram.data() + std::size_t(p) * buckets;
        if (std::any_of(counts, counts + buckets, [n](std::uint32_t c) { return c == n; }))
            continue; // one digit for every key: the pass would keep the order
        std::uint32_t running = 0;
        for (std::size_t b = 0; b < buckets; ++b)
            running += std::exchange(counts[b], running);
        const int shift = p * digitBits;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t slot = counts[((keys[i] - base) >> shift) & digitMask]++;
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
