// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "core/model/hugepagearray.h"

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
    /// Frees bytes from std::malloc(): a reader grows its buffer for a long line with
    /// std::realloc(), which moves the pages of a large block instead of copying them.
    struct FreeBytes {
        void operator()(char *p) const noexcept { std::free(p); }
    };
    using Bytes = std::unique_ptr<char[], FreeBytes>;
    /// \a size bytes from std::malloc(), not zeroed; throws std::bad_alloc when there are none.
    static Bytes allocateBytes(std::size_t size);
    /// A caller's buffer that the table may take over instead of copying a large string
    /// lying inside it (see offerBlock()). Emptied (data null, size 0) when taken.
    struct AdoptableBlock {
        Bytes data;
        std::size_t size = 0;
        /// The first bytes that hold data; the rest of a large block was never written, so
        /// it takes no memory, and only these count in memoryUsage() once taken.
        std::size_t used = 0;
    };

    StringTable();
    StringTable(StringTable &&) noexcept = default;
    StringTable &operator=(StringTable &&) noexcept = default;

    /// Returns the id of \a text, adding it when new. Never returns kNoString.
    StringId intern(std::string_view text);
    /// Interns every string of \a src, in id order, as intern() one by one would, and returns
    /// each one's id here, indexed by its id in \a src (kNoString stays kNoString). The texts
    /// are not copied: this table takes over \a src's blocks of texts (adoptTexts()). The
    /// rest of \a src is given back as it is read (dropLookup() first, then releaseBefore()),
    /// so that merging a segment's table of millions of unique ids does not hold both tables'
    /// entries at once; it is empty afterwards.
    HugePageArray<StringId> internAllOf(StringTable &src);
    /// Makes room for \a count strings in all, so that interning that many never rehashes.
    void reserve(std::size_t count);
    /// Returns the id of \a text or kNoString when it was never interned.
    StringId find(std::string_view text) const;
    /// The text of \a id; empty for kNoString.
    std::string_view view(StringId id) const
    {
        const Entry e = m_entries[id];
        if ((e >> kLengthShift) != kEscaped) [[likely]]
            return {reinterpret_cast<const char *>(static_cast<std::uintptr_t>(e & kAddressMask)),
                    static_cast<std::size_t>(e >> kLengthShift)};
        return escapedView(id);
    }
    /// While \a block is offered (null: none), a new string of more than 256 KB that lies
    /// inside it and fills at least half of its used bytes is kept by taking the block over rather than
    /// by copying it: the reader's buffer holding one 200 MB line would otherwise be alive
    /// next to a copy of the line's 200 MB string.
    void offerBlock(AdoptableBlock *block) { m_offered = block; }
    /// Forgets the string interned last (\a id must be the newest id): a span_end naming a
    /// span no earlier line named is an unknown span's end, and ten million of them must not
    /// keep ten million ids. A string of its own block (one of more than 256 KB) keeps its
    /// bytes: in the table, or with \a block given, in *\a block, which then holds the block
    /// (a reader's whole buffer, when the table took it over) so that the caller can keep the
    /// text without copying it. *\a block stays empty for a string in a shared block. The
    /// text stays readable until the next intern() either way.
    void eraseNewest(StringId id, Bytes *block = nullptr);
    /// Frees the lookup index (hash slots and the recent cache) of a table that is only
    /// read from here on: view() and size() keep working; intern() and find() must not be
    /// called again. Merging a segment's table into another needs only the texts, and
    /// the index of millions of unique ids is a third of the table.
    void dropLookup();
    /// Gives back the memory of the texts and entries of the ids below \a upTo (after
    /// dropLookup()): view() must not be called for them again. Merging a
    /// segment's table into another reads it once in id order; releasing it on the way keeps
    /// the two copies of millions of unique ids from being alive at once.
    void releaseBefore(StringId upTo);
    /// Number of ids handed out, including the reserved id 0.
    std::size_t size() const { return m_count; }
    /// Approximate heap bytes held.
    std::size_t memoryUsage() const;

    /// Byte-wise comparison (Rust String order) of two interned strings.
    bool less(StringId a, StringId b) const { return view(a) < view(b); }

private:
    // 8 bytes, not 16: a 1 GB trace has 2.25 million strings. An entry is its text's address
    // in the low 48 bits and its length in the high 16. Every user-space address on x86-64
    // and AArch64 Linux fits in 48 bits unless a program asks the kernel for more, and all
    // but a few strings are shorter than 64 KiB. A text that does not fit this way is
    // "escaped": its entry's length bits are kEscaped and m_escaped holds it whole. The hash
    // is not kept: the slots hold the hashes of the strings they index, and most strings are
    // numbered ids, which need none.
    using Entry = std::uint64_t;
    static constexpr unsigned kLengthShift = 48;
    static constexpr std::uint64_t kAddressMask = (std::uint64_t(1) << kLengthShift) - 1;
    static constexpr std::uint64_t kEscaped = 0xFFFF;
    struct EscapedText {
        StringId id;
        const char *data;
        std::size_t length;
    };
    /// The entry of \a id's text [\a data, + \a length), escaping it when it does not fit.
    Entry makeEntry(StringId id, const char *data, std::size_t length);
    std::string_view escapedView(StringId id) const;
    /// Drops the newest entry, \a id.
    void forgetEntry(StringId id);
    // Ids like "s137786", "t98966", "st82102": a short prefix and a canonical decimal number.
    // They are most of a trace's strings and nearly all of its unique ones; a hash table of
    // millions of them misses the cache (and the TLB) on every lookup. Indexed by number
    // instead, per prefix, the lookups of a trace (new ids ascending, references to recent
    // ones) stay within a few pages. Strings of other shapes, and numbers a family has no
    // page for within its budget, go to the hash table; each string lives in exactly one.
    struct Numbered {
        std::uint64_t prefix = 0; // prefix bytes, zero-padded
        std::uint32_t prefixLength = 0;
        std::uint32_t number = 0;
    };
    struct NumberedFamily {
        std::uint64_t prefix = 0;
        std::uint32_t prefixLength = 0;
        std::vector<StringId *> pages; // null: not made yet; deniedPage(): its ids are hashed
    };
    static bool parseNumbered(std::string_view text, Numbered &out);
    /// The slot of \a key's id (0: not interned yet), or null when \a key's string belongs
    /// in the hash table. Makes the family and the page when \a make and the budget allows;
    /// without \a make a page not made yet gives \a absent.
    StringId *numberedSlot(const Numbered &key, bool make, StringId *absent);
    static StringId *deniedPage();
    /// \a textIsKept: \a text lies in this table's blocks already (adoptTexts()).
    StringId internHashed(std::string_view text, std::uint32_t hash, bool textIsKept = false);
    StringId addEntry(std::string_view text, bool textIsKept = false);
    /// Takes over the blocks holding \a src's texts, which are then this table's, while
    /// \a src's entries still point into them. Copied instead, the texts of a 1 GB trace's
    /// second segment (1.1 M ids) were fresh pages and a copy in the merge's serial part;
    /// the texts of strings this table had already stay behind, unused.
    void adoptTexts(StringTable &src);
    void grow();
    void rehash(std::size_t slotCount);
    const char *store(std::string_view text);

    // Bytes live in fixed blocks that never move, so views stay valid while the table grows.
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::vector<std::size_t> m_blockSizes;
    std::size_t m_releasedBlocks = 0; // m_blocks before this index were freed (releaseBefore())
    std::vector<Bytes> m_largeBlocks;
    std::vector<std::size_t> m_largeBlockBytes; // what each of m_largeBlocks counts in m_bytesHeld
    // Another table's blocks, taken over with its texts (adoptTexts()): never written to,
    // and freed only with this table.
    std::vector<std::unique_ptr<char[]>> m_adoptedBlocks;
    std::vector<Bytes> m_adoptedLargeBlocks;
    AdoptableBlock *m_offered = nullptr;
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::size_t m_blockPopulated = 0; // bytes of the current block faulted in (store())
    std::size_t m_bytesHeld = 0;
    HugePageArray<Entry> m_entries;
    std::vector<EscapedText> m_escaped; // in id order
    std::size_t m_count = 0;            // entries in use, including the reserved id 0
    std::vector<NumberedFamily> m_families;
    // Pages of numbered ids are carved from slabs of anonymous memory, which the kernel
    // hands out zeroed: a page of its own each was cleared twice (by the kernel and by
    // make_unique) and, in 4 KiB pages, took a quarter of a 1 GB read's page faults. The
    // first slab is small, so a small trace touches little; later ones double up to a huge
    // page.
    StringId *newNumberedPage();
    std::vector<HugePageArray<StringId>> m_pageSlabs;
    std::size_t m_pagesMade = 0;
    std::size_t m_slabPagesLeft = 0;
    // Ids in the hash table, in id order (a rehash re-inserts them in that order).
    std::vector<StringId> m_hashedIds;
    // Open addressing, power-of-two size. Each slot holds (hash << 32 | id); 0 = empty. The
    // hash in the slot lets most probes finish without touching the entry.
    HugePageArray<std::uint64_t> m_slots;
    // Direct-mapped cache of recently seen strings, same slot format. Traces refer to an id
    // shortly after introducing it (a span's ops, a tensor's memory events), so most
    // lookups end here, in L2, instead of in a cache-missing probe of m_slots.
    // It grows with the table up to kRecentSlots: a small trace (a fuzz input, a test
    // fixture) should not pay for clearing 128 KB.
    static constexpr std::size_t kRecentSlots = 16384;
    std::vector<std::uint64_t> m_recent = std::vector<std::uint64_t>(1024, 0);
};

} // namespace TraceInspector
