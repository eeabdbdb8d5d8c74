// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace TraceInspector {

/// bucketOf()'s answer for an item that belongs to no bucket.
inline constexpr std::uint32_t kNoBucket = UINT32_MAX;

/// Groups the items 0 .. \a itemCount - 1 by \a bucketOf(item), a bucket below \a bucketCount
/// or kNoBucket (left out), in item order within a bucket (a counting sort): bucket b's items
/// are items[offsets[b]] .. items[offsets[b + 1] - 1]. The span tree's ops, a span's device
/// intervals and its tensors and memory events are grouped by span this way: two passes over
/// 4-byte indices, where a sort of (bucket, item) pairs would move eight bytes an item
/// several times. \a bucketOf is called twice per item.
template<typename BucketOf>
void groupByIndex(std::size_t itemCount, std::size_t bucketCount, BucketOf &&bucketOf,
                  std::vector<std::uint32_t> &offsets, std::vector<std::uint32_t> &items)
{
    offsets.assign(bucketCount + 1, 0);
    for (std::size_t i = 0; i < itemCount; ++i) {
        if (const std::uint32_t b = bucketOf(i); b != kNoBucket)
            ++offsets[b + 1];
    }
    for (std::size_t b = 1; b <= bucketCount; ++b)
        offsets[b] += offsets[b - 1];
    items.resize(offsets[bucketCount]);
    std::vector<std::uint32_t> cursor(offsets.begin(), offsets.end() - 1);
    for (std::size_t i = 0; i < itemCount; ++i) {
        if (const std::uint32_t b = bucketOf(i); b != kNoBucket)
            items[cursor[b]++] = std::uint32_t(i);
    }
}

} // namespace TraceInspector
