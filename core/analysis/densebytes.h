// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace TraceInspector {

// Dense byte resolution (TRACE_FORMAT.md §7.1).

/// Size in bytes of one element of \a dtype, after trimming Unicode White_Space and
/// lower-casing ASCII letters; none for labels outside the §7.1 table (e.g. "f8e4m3").
std::optional<std::uint64_t> dtypeSize(std::string_view dtype);

/// Product of \a shape's dims starting from 1, saturating at 2^64-1. `[]` gives 1.
std::uint64_t elemCount(std::span<const std::uint64_t> shape);

/// elemCount(shape) × dtypeSize(dtype), saturating; none when the dtype size is unknown.
std::optional<std::uint64_t> denseBytes(std::span<const std::uint64_t> shape, std::string_view dtype);

/// Saturating u64 helpers shared by the memory analysis.
constexpr std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    const std::uint64_t s = a + b;
    return s < a ? UINT64_MAX : s;
}
constexpr std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

} // namespace TraceInspector
