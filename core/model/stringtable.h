// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace TraceInspector {

/// Index into a StringTable. 0 is reserved for "absent" (an optional member that was
/// missing or null); the empty string has an id of its own.
using StringId = std::uint32_t;
inline constexpr StringId kNoString = 0;

/// Interned UTF-8 strings (ids, names, dtypes, devices...). Ids and labels repeat millions
/// of times in a large trace; one copy of the bytes plus a 4-byte id per use keeps the
/// document at a fraction of the file size. Strings may contain NUL bytes.
///
/// Not thread-safe for writing; readers may share a finished table.
class StringTable
{
public:
    StringTable();

    /// Returns the id of \a text, adding it when new. Never returns kNoString.
    StringId intern(std::string_view text);
    /// Returns the id of \a text or kNoString when it was never interned.
    StringId find(std::string_view text) const;
    /// The text of \a id; empty for kNoString.
    std::string_view view(StringId id) const
    {
        const Entry &e = m_entries[id];
        return {m_bytes.data() + e.offset, e.length};
    }
    /// Number of ids handed out, including the reserved id 0.
    std::size_t size() const { return m_entries.size(); }
    /// Approximate heap bytes held.
    std::size_t memoryUsage() const;

    /// Byte-wise comparison (Rust String order) of two interned strings.
    bool less(StringId a, StringId b) const { return view(a) < view(b); }

private:
    struct Entry {
        std::uint64_t offset;
        std::uint32_t length;
        std::uint32_t hash;
    };
    void grow();

    std::vector<char> m_bytes;
    std::vector<Entry> m_entries;
    std::vector<StringId> m_slots; // open addressing, power-of-two size, 0 = empty
};

} // namespace TraceInspector
