// SPDX-License-Identifier: MIT
#include "core/io/spanidorder.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "core/analysis/radixorder.h"

namespace TraceInspector {
namespace {

constexpr int kDigitBits = 16;
constexpr std::size_t kBuckets = std::size_t(1) << kDigitBits;
// A part up to this many spans (or an eighth of them all) is radix sorted at once; its
// buffers (24 bytes a span) then stay at a fraction of the spans' own 40 bytes.
constexpr std::size_t kMinDirectSpans = std::size_t(1) << 16;

class IdOrder
{
public:
    explicit IdOrder(const Trace &trace)
        : m_trace(trace)
        , m_direct(std::max(kMinDirectSpans, trace.spans.size() / 8))
    {
    }

    /// Orders \a count indices at \a order whose prefixes agree above bit \a shift + 16.
    bool sort(std::uint32_t *order, std::size_t count, int shift)
    {
        if (count < 2)
            return true;
        if (count <= m_direct)
            return sortDirect(order, count);
        // The digits are kept for the scatter below (2 bytes a span): working one out reads
        // the span, its string entry and its text, cache misses all over a large table.
        std::vector<std::uint16_t> digits(count);
        std::vector<std::uint32_t> counts(kBuckets + 1, 0);
        for (std::size_t k = 0; k < count; ++k) {
            digits[k] = static_cast<std::uint16_t>(digit(order[k], shift));
            ++counts[digits[k] + 1];
        }
        const bool oneBucket =
            std::any_of(counts.begin(), counts.end(), [count](std::uint32_t c) { return c == count; });
        if (oneBucket) {
            std::vector<std::uint16_t>().swap(digits);
            if (shift == 0)
                return sortRun(order, count); // the whole prefix is shared
            return sort(order, count, shift - kDigitBits);
        }
        std::partial_sum(counts.begin(), counts.end(), counts.begin());
        {
            // Stable: within a bucket the spans keep file order, as the radix sort would.
            std::vector<std::uint32_t> scattered(count);
            std::vector<std::uint32_t> next(counts.begin(), counts.end() - 1);
            for (std::size_t k = 0; k < count; ++k)
                scattered[next[digits[k]]++] = order[k];
            std::copy(scattered.begin(), scattered.end(), order);
        }
        std::vector<std::uint16_t>().swap(digits);
        for (std::size_t b = 0; b < kBuckets; ++b) {
            const std::size_t size = counts[b + 1] - counts[b];
            if (size < 2)
                continue;
            std::uint32_t *part = order + counts[b];
            if (!(shift == 0 ? sortRun(part, size) : sort(part, size, shift - kDigitBits)))
                return false;
        }
        return true;
    }

private:
    std::string_view idOf(std::uint32_t span) const { return m_trace.str(m_trace.spans[span].id); }
    std::uint64_t prefixOf(std::uint32_t span) const
    {
        const std::string_view id = idOf(span);
        std::uint64_t prefix = 0;
        for (std::size_t b = 0; b < 8; ++b)
            prefix = (prefix << 8) | (b < id.size() ? static_cast<unsigned char>(id[b]) : 0u);
        return prefix;
    }
    std::size_t digit(std::uint32_t span, int shift) const
    {
        return static_cast<std::size_t>((prefixOf(span) >> shift) & (kBuckets - 1));
    }

    /// Orders spans that share their whole prefix by their full ids.
    bool sortRun(std::uint32_t *order, std::size_t count) const
    {
        std::sort(order, order + count, [this](std::uint32_t a, std::uint32_t b) { return idOf(a) < idOf(b); });
        for (std::size_t k = 1; k < count; ++k) {
            if (!(idOf(order[k - 1]) < idOf(order[k])))
                return false;
        }
        return true;
    }

    bool sortDirect(std::uint32_t *order, std::size_t count) const
    {
        std::vector<std::uint64_t> keys(count);
        for (std::size_t k = 0; k < count; ++k)
            keys[k] = prefixOf(order[k]);
        // The sorted keys are read again below: two ids with different prefixes are ordered
        // by them alone, which spares looking up both texts (cache misses all over the
        // string table) for nearly every pair.
        std::vector<std::uint64_t> sorted;
        std::vector<std::uint32_t> placed = radixOrder(std::move(keys), &sorted);
        for (std::uint32_t &p : placed)
            p = order[p];
        std::copy(placed.begin(), placed.end(), order);
        std::vector<std::uint32_t>().swap(placed);
        // Ordered by prefix, ids are strictly ordered unless they share it: order each run
        // of one prefix by the full ids.
        for (std::size_t k = 1; k < count; ++k) {
            if (sorted[k - 1] != sorted[k] || idOf(order[k - 1]) < idOf(order[k]))
                continue;
            std::size_t run = k - 1;
            while (run > 0 && sorted[run - 1] == sorted[k])
                --run;
            std::size_t next = k + 1;
            while (next < count && sorted[next] == sorted[k])
                ++next;
            if (!sortRun(order + run, next - run))
                return false;
            k = next - 1;
        }
        return true;
    }

    const Trace &m_trace;
    std::size_t m_direct;
};

} // namespace

bool orderSpansById(const Trace &trace, std::vector<std::uint32_t> &order)
{
    order.resize(trace.spans.size());
    std::iota(order.begin(), order.end(), 0U);
    return IdOrder(trace).sort(order.data(), order.size(), 64 - kDigitBits);
}

} // namespace TraceInspector
