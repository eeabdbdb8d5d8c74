// SPDX-License-Identifier: MIT
#include "core/model/shapetable.h"

#include <algorithm>

namespace TraceInspector {
namespace {
std::uint64_t hashDims(std::span<const std::uint64_t> dims)
{
    std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ dims.size();
    for (std::uint64_t d : dims)
        h = (h ^ d) * 0x100000001b3ULL + (h >> 31);
    return h;
}
} // namespace

ShapeTable::ShapeTable()
{
    m_refs.push_back(m_pool.append({}));
    m_byHash.emplace(hashDims({}), 0);
}

ShapeId ShapeTable::intern(std::span<const std::uint64_t> dims)
{
    const std::uint64_t h = hashDims(dims);
    auto [it, end] = m_byHash.equal_range(h);
    for (; it != end; ++it) {
        const auto known = view(it->second);
        if (std::equal(known.begin(), known.end(), dims.begin(), dims.end()))
            return it->second;
    }
    const auto id = static_cast<ShapeId>(m_refs.size());
    m_refs.push_back(m_pool.append(dims));
    m_byHash.emplace(h, id);
    return id;
}

std::size_t ShapeTable::memoryUsage() const
{
    return m_pool.memoryUsage() + m_refs.capacity() * sizeof(ListRef) + m_byHash.size() * 48;
}

} // namespace TraceInspector
