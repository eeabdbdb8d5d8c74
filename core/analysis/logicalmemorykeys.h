// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace TraceInspector {

/// Insert-only open-addressing map from a 64-bit key to a dense index 0, 1, 2… in order of
/// first insertion. The memory analysis maps millions of (device, storage id) keys; a node
/// per key (std::unordered_map) would cost an allocation each.
class DenseKeyIndex
{
public:
    explicit DenseKeyIndex(std::size_t expected = 0)
    {
        std::size_t cap = 16;
        while (cap < expected * 2)
            cap <<= 1;
        m_slots.assign(cap, kEmpty);
    }

    /// Index of \a key, inserting it when new.
    std::uint32_t insert(std::uint64_t key)
    {
        if ((m_keys.size() + 1) * 2 > m_slots.size())
            rehash(m_slots.size() * 2);
        std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
            const std::uint32_t slot = m_slots[i];
            if (slot == kEmpty) {
                const auto index = static_cast<std::uint32_t>(m_keys.size());
                m_slots[i] = index;
                m_keys.push_back(key);
                return index;
            }
            if (m_keys[slot] == key)
                return slot;
        }
    }

    /// Index of \a key, or UINT32_MAX when absent.
    std::uint32_t find(std::uint64_t key) const
    {
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
            const std::uint32_t slot = m_slots[i];
            if (slot == kEmpty || m_keys[slot] == key)
                return slot;
        }
    }

    std::size_t size() const { return m_keys.size(); }
    std::uint64_t key(std::uint32_t index) const { return m_keys[index]; }

private:
    static constexpr std::uint32_t kEmpty = UINT32_MAX;

    static std::size_t hash(std::uint64_t k)
    {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccdULL;
        k ^= k >> 33;
        return static_cast<std::size_t>(k);
    }

    void rehash(std::size_t cap)
    {
        m_slots.assign(cap, kEmpty);
        const std::size_t mask = cap - 1;
        for (std::uint32_t index = 0; index < m_keys.size(); ++index) {
            std::size_t i = hash(m_keys[index]) & mask;
            while (m_slots[i] != kEmpty)
                i = (i + 1) & mask;
            m_slots[i] = index;
        }
    }

    std::vector<std::uint32_t> m_slots;
    std::vector<std::uint64_t> m_keys;
};

/// Unsigned sum wide enough never to overflow for any number of u64 terms a trace can hold;
/// read back saturated. Live byte totals go up and down, so a saturating running sum would
/// lose information once clamped.
struct WideSum {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;

    void add(std::uint64_t v)
    {
        const std::uint64_t s = lo + v;
        hi += s < lo ? 1 : 0;
        lo = s;
    }
    void sub(std::uint64_t v)
    {
        hi -= lo < v ? 1 : 0;
        lo -= v;
    }
    std::uint64_t saturated() const { return hi != 0 ? UINT64_MAX : lo; }
};

} // namespace TraceInspector
