// SPDX-License-Identifier: MIT
#include "core/model/stringtable.h"

#include <cstring>

namespace TraceInspector {
namespace {

// FNV-1a over 8-byte words; ids are short, so a simple mixing hash beats std::hash here.
std::uint32_t hashBytes(std::string_view s)
{
    std::uint64_t h = 0xcbf29ce484222325ULL ^ s.size();
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, s.data() + i, s.size() - i);
    h = (h ^ tail) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
    return static_cast<std::uint32_t>(h);
}

} // namespace

StringTable::StringTable()
{
    m_entries.push_back({0, 0, 0}); // kNoString
    m_slots.assign(1024, kNoString);
}

StringId StringTable::find(std::string_view text) const
{
    const std::uint32_t h = hashBytes(text);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const StringId id = m_slots[i];
        if (id == kNoString)
            return kNoString;
        const Entry &e = m_entries[id];
        if (e.hash == h && e.length == text.size() && std::memcmp(m_bytes.data() + e.offset, text.data(), text.size()) == 0)
            return id;
    }
}

StringId StringTable::intern(std::string_view text)
{
    const std::uint32_t h = hashBytes(text);
    std::size_t mask = m_slots.size() - 1;
    std::size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
        const StringId id = m_slots[i];
        if (id == kNoString)
            break;
        const Entry &e = m_entries[id];
        if (e.hash == h && e.length == text.size() && std::memcmp(m_bytes.data() + e.offset, text.data(), text.size()) == 0)
            return id;
    }
    const auto id = static_cast<StringId>(m_entries.size());
    m_entries.push_back({m_bytes.size(), static_cast<std::uint32_t>(text.size()), h});
    m_bytes.insert(m_bytes.end(), text.begin(), text.end());
    m_slots[i] = id;
    if (m_entries.size() * 2 > m_slots.size())
        grow();
    return id;
}

void StringTable::grow()
{
    std::vector<StringId> slots(m_slots.size() * 2, kNoString);
    const std::size_t mask = slots.size() - 1;
    for (StringId id = 1; id < m_entries.size(); ++id) {
        std::size_t i = m_entries[id].hash & mask;
        while (slots[i] != kNoString)
            i = (i + 1) & mask;
        slots[i] = id;
    }
    m_slots.swap(slots);
}

std::size_t StringTable::memoryUsage() const
{
    return m_bytes.capacity() + m_entries.capacity() * sizeof(Entry) + m_slots.capacity() * sizeof(StringId);
}

} // namespace TraceInspector
