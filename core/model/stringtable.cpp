// SPDX-License-Identifier: MIT
#include "core/model/stringtable.h"

#include <algorithm>
#include <cstring>

namespace TraceInspector {
namespace {

constexpr std::size_t kBlockBytes = std::size_t(1) << 20;
constexpr std::size_t kFirstBlockBytes = std::size_t(64) << 10;

// Multiply-xorshift over 8-byte words: ids are short, and this beats std::hash here.
std::uint32_t hashBytes(std::string_view s)
{
    std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ (s.size() * 0xff51afd7ed558ccdULL);
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    if (const std::size_t rest = s.size() - i; rest != 0) {
        // Fixed-size loads, overlapping where the rest is short: a memcpy of a variable
        // length is a library call, a tenth of interning's time. The length is in the seed,
        // so equal texts still hash equally.
        const char *p = s.data() + i;
        std::uint64_t tail;
        if (s.size() >= 8) {
            std::memcpy(&tail, s.data() + s.size() - 8, 8);
        } else if (rest >= 4) {
            std::uint32_t a, b;
            std::memcpy(&a, p, 4);
            std::memcpy(&b, p + rest - 4, 4);
            tail = a | (std::uint64_t(b) << 32);
        } else {
            tail = std::uint64_t(static_cast<unsigned char>(p[0]))
                   | (std::uint64_t(static_cast<unsigned char>(p[rest / 2])) << 8)
                   | (std::uint64_t(static_cast<unsigned char>(p[rest - 1])) << 16);
        }
        h = (h ^ tail) * 0x94d049bb133111ebULL;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return static_cast<std::uint32_t>(h);
}

bool sameBytes(const char *a, const char *b, std::size_t n)
{
    // Ids are short; a plain loop beats a call into memcmp for them.
    if (n <= 16) {
        for (std::size_t i = 0; i < n; ++i) {
            if (a[i] != b[i])
                return false;
        }
        return true;
    }
    return std::memcmp(a, b, n) == 0;
}

} // namespace

StringTable::StringTable()
{
    m_entries.resize(1024);
    m_entries[0] = {"", 0, 0}; // kNoString
    m_count = 1;
    m_slots.resize(1024);
}

StringId StringTable::find(std::string_view text) const
{
    const std::uint32_t h = hashBytes(text);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const std::uint64_t slot = m_slots[i];
        if (slot == 0)
            return kNoString;
        if (static_cast<std::uint32_t>(slot >> 32) != h)
            continue;
        const auto id = static_cast<StringId>(slot);
        const Entry &e = m_entries[id];
        if (e.length == text.size() && sameBytes(e.data, text.data(), text.size()))
            return id;
    }
}

const char *StringTable::store(std::string_view text)
{
    if (text.size() > kBlockBytes / 4) {
        if (m_offered && m_offered->data && text.size() >= m_offered->size / 2) {
            const auto begin = reinterpret_cast<std::uintptr_t>(m_offered->data.get());
            const auto at = reinterpret_cast<std::uintptr_t>(text.data());
            if (at >= begin && at - begin + text.size() <= m_offered->size) {
                m_bytesHeld += m_offered->size;
                m_largeBlocks.push_back(std::move(m_offered->data));
                m_offered->size = 0;
                return text.data();
            }
        }
        // Large strings get a block of their own and leave the current block open.
        m_largeBlocks.push_back(std::make_unique_for_overwrite<char[]>(text.size()));
        char *p = m_largeBlocks.back().get();
        std::memcpy(p, text.data(), text.size());
        m_bytesHeld += text.size();
        return p;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        // Blocks grow from 64 KB to 1 MB, so that a small trace holds a small table.
        std::size_t size = std::min(kBlockBytes, std::max(kFirstBlockBytes, m_blockSize * 2));
        if (size < text.size())
            size = kBlockBytes;
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(size));
        m_blockSize = size;
        m_blockUsed = 0;
        m_bytesHeld += size;
    }
    char *p = m_blocks.back().get() + m_blockUsed;
    std::memcpy(p, text.data(), text.size());
    m_blockUsed += text.size();
    return p;
}

StringId StringTable::intern(std::string_view text)
{
    return intern(text, hashBytes(text));
}

StringId StringTable::intern(std::string_view text, std::uint32_t h)
{
    // Both the cache line and the probe's first slot are likely misses: start fetching the
    // slot now, so that a miss in the cache does not wait for it from scratch.
    __builtin_prefetch(&m_slots[h & (m_slots.size() - 1)]);
    std::uint64_t &recent = m_recent[(h >> 7) & (m_recent.size() - 1)];
    if (static_cast<std::uint32_t>(recent >> 32) == h && recent != 0) {
        const auto id = static_cast<StringId>(recent);
        const Entry &e = m_entries[id];
        if (e.length == text.size() && sameBytes(e.data, text.data(), text.size()))
            return id;
    }
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
        const std::uint64_t slot = m_slots[i];
        if (slot == 0)
            break;
        if (static_cast<std::uint32_t>(slot >> 32) != h)
            continue;
        const auto id = static_cast<StringId>(slot);
        const Entry &e = m_entries[id];
        if (e.length == text.size() && sameBytes(e.data, text.data(), text.size())) {
            recent = slot;
            return id;
        }
    }
    const auto id = static_cast<StringId>(m_count);
    if (m_count == m_entries.size())
        m_entries.resize(m_entries.size() * 2);
    m_entries[m_count++] = {store(text), static_cast<std::uint32_t>(text.size()), h};
    m_slots[i] = (std::uint64_t(h) << 32) | id;
    recent = m_slots[i];
    // Grow at 70 % load: linear probing stays short, the table stays compact.
    if (m_count * 10 > m_slots.size() * 7)
        grow();
    return id;
}

std::uint32_t StringTable::hashOf(std::string_view text)
{
    return hashBytes(text);
}

void StringTable::prefetch(std::uint32_t hash) const
{
    __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
}

void StringTable::reserve(std::size_t count)
{
    if (count > m_entries.size())
        m_entries.resize(count);
    std::size_t slots = m_slots.size();
    while (count * 10 > slots * 7)
        slots *= 2;
    if (slots != m_slots.size())
        rehash(slots);
}

void StringTable::grow()
{
    rehash(m_slots.size() * 2);
}

void StringTable::rehash(std::size_t slotCount)
{
    HugePageArray<std::uint64_t> slots(slotCount);
    const std::size_t mask = slots.size() - 1;
    for (StringId id = 1; id < m_count; ++id) {
        std::size_t i = m_entries[id].hash & mask;
        while (slots[i] != 0)
            i = (i + 1) & mask;
        slots[i] = (std::uint64_t(m_entries[id].hash) << 32) | id;
    }
    m_slots = std::move(slots);
    if (m_recent.size() < kRecentSlots && m_recent.size() < slotCount)
        m_recent.assign(std::min(kRecentSlots, slotCount), 0); // a cache: starting empty is fine
}

void StringTable::eraseNewest(StringId id)
{
    if (id == kNoString || id + 1 != m_count)
        return;
    const Entry e = m_entries[id];
    const std::uint64_t value = (std::uint64_t(e.hash) << 32) | id;
    // Nothing was inserted after it (a rehash re-inserts in id order too), so no probe
    // chain runs through its slot: clearing the slot keeps every other string reachable.
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = e.hash & mask;; i = (i + 1) & mask) {
        if (m_slots[i] == value) {
            m_slots[i] = 0;
            break;
        }
        if (m_slots[i] == 0)
            break;
    }
    std::uint64_t &recent = m_recent[(e.hash >> 7) & (m_recent.size() - 1)];
    if (recent == value)
        recent = 0;
    if (e.length <= kBlockBytes / 4 && !m_blocks.empty() && e.data + e.length == m_blocks.back().get() + m_blockUsed)
        m_blockUsed -= e.length;
    m_entries[id] = {};
    --m_count;
}

void StringTable::dropLookup()
{
    m_slots = HugePageArray<std::uint64_t>();
    std::vector<std::uint64_t>().swap(m_recent);
}

std::size_t StringTable::memoryUsage() const
{
    return m_bytesHeld + m_entries.memoryUsage() + m_slots.memoryUsage();
}

} // namespace TraceInspector
