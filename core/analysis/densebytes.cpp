// SPDX-License-Identifier: MIT
#include "core/analysis/densebytes.h"

#include <array>

#include "core/compat/rustformat.h"

namespace TraceInspector {

std::optional<std::uint64_t> dtypeSize(std::string_view dtype)
{
    const std::string_view core = rustTrim(dtype);
    // Every known label has 2..4 ASCII characters.
    if (core.size() < 2 || core.size() > 4)
        return std::nullopt;
    std::array<char, 4> buf{};
    for (std::size_t i = 0; i < core.size(); ++i) {
        char c = core[i];
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        buf[i] = c;
    }
    const std::string_view l(buf.data(), core.size());
    if (l == "u8" || l == "i8" || l == "bool" || l == "f8")
        return 1;
    if (l == "u16" || l == "i16" || l == "f16" || l == "bf16")
        return 2;
    if (l == "u32" || l == "i32" || l == "f32")
        return 4;
    if (l == "u64" || l == "i64" || l == "f64")
        return 8;
    return std::nullopt;
}

std::uint64_t elemCount(std::span<const std::uint64_t> shape)
{
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape)
        n = saturatingMul(n, d);
    return n;
}

std::optional<std::uint64_t> denseBytes(std::span<const std::uint64_t> shape, std::string_view dtype)
{
    const std::optional<std::uint64_t> size = dtypeSize(dtype);
    if (!size)
        return std::nullopt;
    return saturatingMul(elemCount(shape), *size);
}

} // namespace TraceInspector
