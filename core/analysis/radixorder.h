// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace TraceInspector {

/// Indices 0..n-1 ordered by \a keys, stable (equal keys keep index order). An LSD radix
/// sort on 16-bit digits keeps a million rows linear; passes over digits that every key
/// shares (the high bits of ns timestamps, ranks, byte counts) are skipped.
std::vector<std::uint32_t> radixOrder(std::vector<std::uint64_t> keys);

} // namespace TraceInspector
