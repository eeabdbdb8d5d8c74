// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/model/listpool.h"

namespace TraceInspector {

/// Index of an interned shape. Shapes repeat heavily (every layer has the same ones).
using ShapeId = std::uint32_t;

/// Interned tensor shapes (lists of usize dims). Id 0 is the scalar shape `[]`.
class ShapeTable
{
public:
    ShapeTable();
    ShapeId intern(std::span<const std::uint64_t> dims);
    std::span<const std::uint64_t> view(ShapeId id) const { return m_pool.view(m_refs[id]); }
    std::size_t size() const { return m_refs.size(); }
    std::size_t memoryUsage() const;

private:
    ListPool<std::uint64_t> m_pool;
    std::vector<ListRef> m_refs;
    std::unordered_multimap<std::uint64_t, ShapeId> m_byHash;
};

} // namespace TraceInspector
