// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace TraceInspector {

/// Indices 0..n-1 ordered by \a keys, stable (equal keys keep index order). An LSD radix
/// sort on 16-bit digits keeps a million rows linear; passes over digits that every key
/// shares (the high bits of ns timestamps, ranks, byte counts) are skipped, keys that are in
/// order already cost one read, and keys each a few places from their own (device intervals
/// by start) a read and a few moves each.
/// When \a sortedKeys is given, it receives the keys in that order (the sort has them at
/// hand; reading keys[order[i]] afterwards would be a random access per row).
std::vector<std::uint32_t> radixOrder(std::vector<std::uint64_t> keys,
                                      std::vector<std::uint64_t> *sortedKeys = nullptr);

} // namespace TraceInspector
