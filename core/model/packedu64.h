// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace TraceInspector {

/// An unsigned 64-bit value kept as two 32-bit halves, so that a record holding it needs only
/// 4-byte alignment: MemoryEvent takes 52 bytes with it instead of 56, and a 1 GB trace has
/// 1.26 M of them. Why not std::uint64_t under #pragma pack: binding a reference to such a
/// member (std::max, push_back) is undefined behaviour, which UBSan reported in five places
/// that GCC had compiled without a warning. This type converts to a plain value instead, a
/// reference to it is always aligned, and a use that needs a std::uint64_t lvalue does not
/// compile.
class PackedU64
{
public:
    constexpr PackedU64(std::uint64_t value = 0) noexcept
        : m_low(static_cast<std::uint32_t>(value))
        , m_high(static_cast<std::uint32_t>(value >> 32))
    {
    }
    constexpr operator std::uint64_t() const noexcept { return value(); }
    constexpr std::uint64_t value() const noexcept { return std::uint64_t(m_high) << 32 | m_low; }

private:
    std::uint32_t m_low;
    std::uint32_t m_high;
};

} // namespace TraceInspector
