// SPDX-License-Identifier: MIT
#include "core/model/stringtable.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "core/model/hugepages.h"
#include "core/model/pagerelease.h"

namespace TraceInspector {
namespace {

constexpr std::size_t kBlockBytes = std::size_t(1) << 20;
constexpr std::size_t kFirstBlockBytes = std::size_t(64) << 10;
constexpr std::size_t kMaxBlockBytes = (std::size_t(8) << 20) - 32; // a mapping of 8 MiB (hugeBlockBytes)
// Numbered ids: up to 8 families (prefixes of up to 8 bytes), numbers below 2^26 in pages of
// 4096 ids (16 KB), so a family's page directory stays under 128 KB whatever the input.
constexpr std::size_t kMaxFamilies = 8;
constexpr std::size_t kMaxPrefix = 8;
constexpr std::uint32_t kPageShift = 12;
constexpr std::uint32_t kPageIds = std::uint32_t(1) << kPageShift;
constexpr std::uint32_t kNumberLimit = std::uint32_t(1) << 26;
// Pages beyond these are refused (their ids are hashed): scattered numbers (a hostile file
// of random ids, each naming a page of its own) must not cost 16 KB a string.
constexpr std::size_t kFreePages = 16;
constexpr std::size_t kStringsPerPage = 512;
// Pages of the largest slabs: 2 MiB, one huge page.
constexpr std::size_t kSlabPages = (std::size_t(2) << 20) / (kPageIds * sizeof(StringId));

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
    m_entries[0] = makeEntry(0, "", 0); // kNoString
    m_count = 1;
    m_slots.resize(1024);
}

bool StringTable::parseNumbered(std::string_view text, Numbered &out)
{
    const std::size_t n = text.size();
    if (n == 0 || n > kMaxPrefix + 8)
        return false;
    // The digits are valued as they are found, from the last: one pass, not two.
    std::size_t i = n;
    std::uint32_t number = 0;
    std::uint32_t scale = 1;
    while (i > 0) {
        const auto digit = static_cast<std::uint32_t>(static_cast<unsigned char>(text[i - 1] - '0'));
        if (digit > 9)
            break;
        if (n - i == 8)
            return false; // at most 8 digits
        number += digit * scale;
        scale *= 10;
        --i;
    }
    const std::size_t digits = n - i;
    // Canonical numbers only ("t07" is another string than "t7").
    if (digits == 0 || i > kMaxPrefix || (digits > 1 && text[i] == '0'))
        return false;
    if (number >= kNumberLimit)
        return false;
    std::uint64_t prefix = 0;
    for (std::size_t k = 0; k < i; ++k)
        prefix |= std::uint64_t(static_cast<unsigned char>(text[k])) << (8 * k);
    out = {prefix, static_cast<std::uint32_t>(i), number};
    return true;
}

StringId *StringTable::deniedPage()
{
    static StringId marker = 0;
    return &marker;
}

StringId *StringTable::numberedSlot(const Numbered &key, bool make, StringId *absent)
{
    NumberedFamily *family = nullptr;
    for (NumberedFamily &f : m_families) {
        if (f.prefix == key.prefix && f.prefixLength == key.prefixLength) {
            family = &f;
            break;
        }
    }
    if (!family) {
        if (!make)
            return m_families.size() < kMaxFamilies ? absent : nullptr;
        if (m_families.size() == kMaxFamilies)
            return nullptr;
        family = &m_families.emplace_back();
        family->prefix = key.prefix;
        family->prefixLength = key.prefixLength;
    }
    const std::uint32_t page = key.number >> kPageShift;
    if (page >= family->pages.size()) {
        if (!make)
            return absent;
        family->pages.resize(page + 1, nullptr);
    }
    StringId *&ids = family->pages[page];
    if (!ids) {
        if (!make)
            return absent;
        if (m_pagesMade >= kFreePages + m_count / kStringsPerPage) {
            ids = deniedPage();
            return nullptr;
        }
        ids = newNumberedPage();
    }
    if (ids == deniedPage())
        return nullptr;
    return ids + (key.number & (kPageIds - 1));
}

StringId *StringTable::newNumberedPage()
{
    if (m_slabPagesLeft == 0) {
        // Slabs double up to a huge page: a 100 MB trace's ~40 pages took a whole 2 MiB slab
        // in each reading thread, mostly unused but resident as one huge page.
        const std::size_t pages =
            m_pageSlabs.empty() ? kFreePages : std::min(kSlabPages, 2 * m_pageSlabs.back().size() / kPageIds);
        m_pageSlabs.emplace_back(pages * kPageIds);
        m_slabPagesLeft = pages;
    }
    HugePageArray<StringId> &slab = m_pageSlabs.back();
    StringId *page = &slab[slab.size() - m_slabPagesLeft * kPageIds];
    // Read before it is written (intern() looks at the slot first), a fresh page would map
    // the zero page and then fault again, flushing the other threads' TLBs, per 4 KiB.
    populateForWrite(page, 0, kPageIds * sizeof(StringId));
    --m_slabPagesLeft;
    ++m_pagesMade;
    return page;
}

StringId StringTable::find(std::string_view text) const
{
    Numbered key;
    if (parseNumbered(text, key)) {
        StringId absent = kNoString;
        if (StringId *slot = const_cast<StringTable *>(this)->numberedSlot(key, false, &absent))
            return *slot;
    }
    if (m_slots.size() == 0)
        return kNoString;
    const std::uint32_t h = hashBytes(text);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const std::uint64_t slot = m_slots[i];
        if (slot == 0)
            return kNoString;
        if (static_cast<std::uint32_t>(slot >> 32) != h)
            continue;
        const auto id = static_cast<StringId>(slot);
        const std::string_view e = view(id);
        if (e.size() == text.size() && sameBytes(e.data(), text.data(), text.size()))
            return id;
    }
}

StringTable::Bytes StringTable::allocateBytes(std::size_t size)
{
    auto *p = static_cast<char *>(std::malloc(size));
    if (!p)
        throw std::bad_alloc();
    return Bytes(p);
}

const char *StringTable::store(std::string_view text)
{
    if (text.size() > kBlockBytes / 4) {
        if (m_offered && m_offered->data && text.size() >= m_offered->used / 2) {
            const auto begin = reinterpret_cast<std::uintptr_t>(m_offered->data.get());
            const auto at = reinterpret_cast<std::uintptr_t>(text.data());
            if (at >= begin && at - begin + text.size() <= m_offered->used) {
                m_bytesHeld += m_offered->used;
                m_largeBlocks.push_back(std::move(m_offered->data));
                m_largeBlockBytes.push_back(m_offered->used);
                m_offered->size = 0;
                m_offered->used = 0;
                return text.data();
            }
        }
        // Large strings get a block of their own and leave the current block open.
        char *p = m_largeBlocks.emplace_back(allocateBytes(text.size())).get();
        std::memcpy(p, text.data(), text.size());
        m_largeBlockBytes.push_back(text.size());
        m_bytesHeld += text.size();
        return p;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        // Blocks grow from 64 KB to 8 MB, so that a small trace holds a small table. The
        // large ones fill whole huge pages: the texts of a 1 GB trace's ids in 1 MB blocks
        // of 4 KiB pages were a fifth of the read's page faults.
        std::size_t size = hugeBlockBytes(std::min(kMaxBlockBytes, std::max(kFirstBlockBytes, m_blockSize * 2)));
        if (size < text.size())
            size = kBlockBytes;
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(size));
        adviseHugePages(m_blocks.back().get(), size);
        m_blockSizes.push_back(size);
        m_blockSize = size;
        m_blockUsed = 0;
        // A block below huge pages' size (adviseHugePages()) has its pages faulted in 64 at
        // a time, ahead of the texts, rather than one by one as they arrive (a sixth of a
        // 100 MB trace's faults); not all at once, for the last block is mostly left empty.
        m_blockPopulated = size < (std::size_t(4) << 20) ? 0 : size;
        m_bytesHeld += size;
    }
    if (m_blockUsed + text.size() > m_blockPopulated) {
        constexpr std::size_t kPopulateStep = std::size_t(256) << 10;
        const std::size_t to =
            std::min(m_blockSize, (m_blockUsed + text.size() + kPopulateStep) & ~(kPopulateStep - 1));
        populateForWrite(m_blocks.back().get(), m_blockPopulated, to);
        m_blockPopulated = to;
    }
    char *p = m_blocks.back().get() + m_blockUsed;
    std::memcpy(p, text.data(), text.size());
    m_blockUsed += text.size();
    return p;
}

StringId StringTable::intern(std::string_view text)
{
    // A numbered id already interned needs no hash: only a new one stores it.
    Numbered key;
    if (parseNumbered(text, key)) {
        if (StringId *slot = numberedSlot(key, true, nullptr)) {
            if (*slot == kNoString)
                *slot = addEntry(text);
            return *slot;
        }
    }
    return internHashed(text, hashBytes(text));
}

HugePageArray<StringId> StringTable::internAllOf(StringTable &src)
{
    src.dropLookup(); // before this table grows: only the texts are read
    adoptTexts(src);
    const auto count = static_cast<StringId>(src.size());
    // Fresh zero pages (kNoString), huge ones: a vector of a million ids, faulted in by the
    // 4 KiB and cleared again, was a fifth of this loop's time in a microbenchmark.
    HugePageArray<StringId> ids(count);
    // Most strings of a later segment are new (ids are unique), so make room at once rather
    // than rehashing the big table while both copies are alive.
    reserve(m_count + count);
    // In batches: first each string is parsed, and only one outside the numbered families is
    // hashed, its slot fetched; then the batch is interned in id order. The fetches overlap
    // the cache misses of probing a table of millions, and the numbered ids, nearly all of a
    // segment's strings, cost no hash: hashing and fetching for every string was over a
    // quarter of this loop's time in the 1 GB trace's merge.
    constexpr StringId kBatch = 16;
    constexpr StringId kReleaseEvery = 1 << 16;
    Numbered keys[kBatch];
    bool numbered[kBatch];
    std::uint32_t hashes[kBatch];
    StringId released = 1;
    for (StringId first = 1; first < count; first += kBatch) {
        const StringId last = std::min<StringId>(count, first + kBatch);
        for (StringId id = first; id < last; ++id) {
            const StringId k = id - first;
            const std::string_view text = src.view(id);
            numbered[k] = parseNumbered(text, keys[k]);
            if (!numbered[k]) {
                hashes[k] = hashBytes(text);
                __builtin_prefetch(&m_slots[hashes[k] & (m_slots.size() - 1)]);
            }
        }
        for (StringId id = first; id < last; ++id) {
            const StringId k = id - first;
            const std::string_view text = src.view(id);
            StringId *slot = numbered[k] ? numberedSlot(keys[k], true, nullptr) : nullptr;
            if (slot) {
                if (*slot == kNoString)
                    *slot = addEntry(text, true);
                ids[id] = *slot;
            } else {
                // A number whose page was refused is hashed like any other string.
                ids[id] = internHashed(text, numbered[k] ? hashBytes(text) : hashes[k], true);
            }
        }
        if (last - released >= kReleaseEvery) {
            src.releaseBefore(last);
            released = last;
        }
    }
    src = StringTable();
    return ids;
}

void StringTable::adoptTexts(StringTable &src)
{
    for (std::unique_ptr<char[]> &block : src.m_blocks) {
        if (block) // null: released already
            m_adoptedBlocks.push_back(std::move(block));
    }
    for (Bytes &block : src.m_largeBlocks)
        m_adoptedLargeBlocks.push_back(std::move(block));
    for (std::unique_ptr<char[]> &block : src.m_adoptedBlocks)
        m_adoptedBlocks.push_back(std::move(block));
    for (Bytes &block : src.m_adoptedLargeBlocks)
        m_adoptedLargeBlocks.push_back(std::move(block));
    src.m_adoptedBlocks.clear();
    src.m_adoptedLargeBlocks.clear();
    m_bytesHeld += src.m_bytesHeld;
    src.m_blocks.clear();
    src.m_blockSizes.clear();
    src.m_releasedBlocks = 0;
    src.m_largeBlocks.clear();
    src.m_largeBlockBytes.clear();
    src.m_blockUsed = 0;
    src.m_blockSize = 0;
    src.m_blockPopulated = 0;
    src.m_bytesHeld = 0;
}

StringId StringTable::addEntry(std::string_view text, bool textIsKept)
{
    const auto id = static_cast<StringId>(m_count);
    if (m_count == m_entries.size())
        m_entries.resize(m_entries.size() * 2);
    m_entries[id] = makeEntry(id, textIsKept ? text.data() : store(text), text.size());
    ++m_count;
    return id;
}

StringTable::Entry StringTable::makeEntry(StringId id, const char *data, std::size_t length)
{
    const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(data));
    if (length < kEscaped && (address & ~kAddressMask) == 0)
        return address | (std::uint64_t(length) << kLengthShift);
    m_escaped.push_back({id, data, length});
    return kEscaped << kLengthShift;
}

std::string_view StringTable::escapedView(StringId id) const
{
    const auto it = std::lower_bound(m_escaped.begin(), m_escaped.end(), id,
                                     [](const EscapedText &e, StringId wanted) { return e.id < wanted; });
    return {it->data, it->length};
}

StringId StringTable::internHashed(std::string_view text, std::uint32_t h, bool textIsKept)
{
    // Both the cache line and the probe's first slot are likely misses: start fetching the
    // slot now, so that a miss in the cache does not wait for it from scratch.
    __builtin_prefetch(&m_slots[h & (m_slots.size() - 1)]);
    std::uint64_t &recent = m_recent[(h >> 7) & (m_recent.size() - 1)];
    if (static_cast<std::uint32_t>(recent >> 32) == h && recent != 0) {
        const auto id = static_cast<StringId>(recent);
        const std::string_view e = view(id);
        if (e.size() == text.size() && sameBytes(e.data(), text.data(), text.size()))
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
        const std::string_view e = view(id);
        if (e.size() == text.size() && sameBytes(e.data(), text.data(), text.size())) {
            recent = slot;
            return id;
        }
    }
    const StringId id = addEntry(text, textIsKept);
    m_hashedIds.push_back(id);
    m_slots[i] = (std::uint64_t(h) << 32) | id;
    recent = m_slots[i];
    // Grow at 70 % load: linear probing stays short, the table stays compact.
    if (m_hashedIds.size() * 10 > m_slots.size() * 7)
        grow();
    return id;
}

void StringTable::reserve(std::size_t count)
{
    if (count > m_entries.size()) {
        m_entries.resize(count);
        // In 4 KiB pages (under 2 MiB), the entries expected are faulted in at once.
        if (count * sizeof(Entry) < (std::size_t(2) << 20))
            populateForWrite(&m_entries[0], m_count * sizeof(Entry), count * sizeof(Entry));
    }
    // Only the strings outside the numbered families need slots: expect the share of them
    // seen so far among the new ones, with room to spare.
    const std::size_t added = count > m_count ? count - m_count : 0;
    const std::size_t hashed = m_hashedIds.size() + added * (m_hashedIds.size() + 1) / m_count + added / 64 + 16;
    std::size_t slots = m_slots.size();
    while (hashed * 10 > slots * 7)
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
    // Probes read slots before any is written: page by page, each read mapped the shared
    // zero page and the first write there copied it, flushing the other threads' TLBs (two
    // faults and an interrupt to every core, ~5 % of a 100 MB trace's read). Every page of
    // a table is written as it fills, so all of them are faulted in at once instead.
    populateForWrite(&slots[0], 0, slotCount * sizeof(std::uint64_t));
    const std::size_t mask = slots.size() - 1;
    for (const StringId id : m_hashedIds) {
        const std::uint32_t h = hashBytes(view(id));
        std::size_t i = h & mask;
        while (slots[i] != 0)
            i = (i + 1) & mask;
        slots[i] = (std::uint64_t(h) << 32) | id;
    }
    m_slots = std::move(slots);
    if (m_recent.size() < kRecentSlots && m_recent.size() < slotCount)
        m_recent.assign(std::min(kRecentSlots, slotCount), 0); // a cache: starting empty is fine
}

void StringTable::eraseNewest(StringId id, Bytes *block)
{
    if (id == kNoString || id + 1 != m_count)
        return;
    const std::string_view e = view(id);
    // A text taken over from another table (adoptTexts()) lies in none of this table's.
    const bool newestLarge = !m_largeBlocks.empty() && e.data() >= m_largeBlocks.back().get()
                             && e.data() + e.size() <= m_largeBlocks.back().get() + m_largeBlockBytes.back();
    if (block && e.size() > kBlockBytes / 4 && newestLarge) {
        // store() gave the newest long string the newest large block.
        *block = std::move(m_largeBlocks.back());
        m_largeBlocks.pop_back();
        m_bytesHeld -= m_largeBlockBytes.back();
        m_largeBlockBytes.pop_back();
    }
    if (m_hashedIds.empty() || m_hashedIds.back() != id) {
        // A numbered id: its slot is the only reference to it.
        Numbered key;
        if (parseNumbered(e, key)) {
            StringId absent = kNoString;
            if (StringId *slot = numberedSlot(key, false, &absent); slot && *slot == id)
                *slot = kNoString;
        }
        if (e.size() <= kBlockBytes / 4 && !m_blocks.empty()
            && e.data() + e.size() == m_blocks.back().get() + m_blockUsed)
            m_blockUsed -= e.size();
        forgetEntry(id);
        return;
    }
    m_hashedIds.pop_back();
    const std::uint32_t hash = hashBytes(e);
    const std::uint64_t value = (std::uint64_t(hash) << 32) | id;
    // Nothing was inserted after it (a rehash re-inserts in id order too), so no probe
    // chain runs through its slot: clearing the slot keeps every other string reachable.
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        if (m_slots[i] == value) {
            m_slots[i] = 0;
            break;
        }
        if (m_slots[i] == 0)
            break;
    }
    std::uint64_t &recent = m_recent[(hash >> 7) & (m_recent.size() - 1)];
    if (recent == value)
        recent = 0;
    if (e.size() <= kBlockBytes / 4 && !m_blocks.empty() && e.data() + e.size() == m_blocks.back().get() + m_blockUsed)
        m_blockUsed -= e.size();
    forgetEntry(id);
}

void StringTable::forgetEntry(StringId id)
{
    if (!m_escaped.empty() && m_escaped.back().id == id)
        m_escaped.pop_back();
    m_entries[id] = 0;
    --m_count;
}

void StringTable::dropLookup()
{
    m_slots = HugePageArray<std::uint64_t>();
    std::vector<std::uint64_t>().swap(m_recent);
    std::vector<NumberedFamily>().swap(m_families);
    std::vector<HugePageArray<StringId>>().swap(m_pageSlabs);
    m_pagesMade = 0;
    m_slabPagesLeft = 0;
    std::vector<StringId>().swap(m_hashedIds);
}

void StringTable::releaseBefore(StringId upTo)
{
    if (upTo >= m_count)
        return;
    m_entries.discardFront(upTo);
    // Texts of small strings lie in m_blocks in id order: the blocks before the one holding
    // id upTo's text hold only texts of lower ids. Other strings do not tell where they lie.
    const std::string_view e = view(upTo);
    if (e.empty() || e.size() > kBlockBytes / 4)
        return;
    const auto at = reinterpret_cast<std::uintptr_t>(e.data());
    std::size_t block = m_releasedBlocks;
    for (; block < m_blocks.size(); ++block) {
        const auto begin = reinterpret_cast<std::uintptr_t>(m_blocks[block].get());
        if (at >= begin && at - begin < m_blockSizes[block])
            break;
    }
    if (block == m_blocks.size())
        return;
    for (; m_releasedBlocks < block; ++m_releasedBlocks) {
        m_blocks[m_releasedBlocks].reset();
        m_bytesHeld -= m_blockSizes[m_releasedBlocks];
    }
    // And the read part of that block: a block is up to 8 MiB, which the merge's peak held
    // twice (the copy made and the texts not released yet).
    releasePages(m_blocks[block].get(), e.data());
}

std::size_t StringTable::memoryUsage() const
{
    std::size_t directories = 0;
    for (const NumberedFamily &f : m_families)
        directories += f.pages.capacity() * sizeof(StringId *);
    return m_bytesHeld + m_entries.memoryUsage() + m_slots.memoryUsage() + m_pagesMade * kPageIds * sizeof(StringId)
           + directories + m_hashedIds.capacity() * sizeof(StringId) + m_escaped.capacity() * sizeof(EscapedText);
}

} // namespace TraceInspector
