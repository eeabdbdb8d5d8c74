// SPDX-License-Identifier: MIT
#include "core/timeline/tracesearch.h"

#include <algorithm>
#include <functional>
#include <regex>
#include <string_view>

#include "core/model/trace.h"

namespace TraceInspector {
namespace {

constexpr std::size_t kCancelStride = std::size_t(1) << 15;

char asciiLower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

/// Tests each distinct string once and remembers the answer.
class MemoMatcher
{
public:
    MemoMatcher(const Trace &trace, std::function<bool(std::string_view)> test)
        : m_trace(trace)
        , m_test(std::move(test))
        , m_memo(trace.strings.size(), Unknown)
    {
    }
    bool operator()(std::uint32_t id)
    {
        if (id == 0 || id >= m_memo.size())
            return false;
        std::uint8_t &slot = m_memo[id];
        if (slot == Unknown)
            slot = m_test(m_trace.str(id)) ? Yes : No;
        return slot == Yes;
    }

private:
    enum : std::uint8_t { Unknown, No, Yes };
    const Trace &m_trace;
    std::function<bool(std::string_view)> m_test;
    std::vector<std::uint8_t> m_memo;
};

} // namespace

SearchResult TraceSearch::run(const Trace &trace, const SearchQuery &query, const std::atomic<bool> *cancel)
{
    SearchResult result;
    if (query.text.empty() || query.scopes == 0)
        return result;

    std::function<bool(std::string_view)> test;
    if (query.regex) {
        auto flags = std::regex::ECMAScript | std::regex::optimize;
        if (!query.caseSensitive)
            flags |= std::regex::icase;
        try {
            auto re = std::make_shared<std::regex>(query.text, flags);
            test = [re](std::string_view s) { return std::regex_search(s.begin(), s.end(), *re); };
        } catch (const std::regex_error &e) {
            result.error = std::string("invalid regular expression: ") + e.what();
            return result;
        }
    } else if (query.caseSensitive) {
        test = [needle = query.text](std::string_view s) { return s.find(needle) != std::string_view::npos; };
    } else {
        std::string needle = query.text;
        std::transform(needle.begin(), needle.end(), needle.begin(), asciiLower);
        test = [needle](std::string_view s) {
            return std::search(s.begin(), s.end(), needle.begin(), needle.end(),
                               [](char a, char b) { return asciiLower(a) == b; })
                   != s.end();
        };
    }
    MemoMatcher matches(trace, std::move(test));
    auto cancelled = [&](std::size_t i) {
        return i % kCancelStride == 0 && cancel && cancel->load(std::memory_order_relaxed);
    };

    if (query.scopes & (SearchQuery::SpanNames | SearchQuery::SpanIds)) {
        for (std::size_t i = 0; i < trace.spans.size(); ++i) {
            if (cancelled(i)) {
                result.cancelled = true;
                return result;
            }
            const Span &s = trace.spans[i];
            std::uint8_t fields = 0;
            if ((query.scopes & SearchQuery::SpanNames) && matches(s.name))
                fields |= SearchQuery::SpanNames;
            if ((query.scopes & SearchQuery::SpanIds) && matches(s.id))
                fields |= SearchQuery::SpanIds;
            if (fields)
                result.matches.push_back({s.startNs, std::uint32_t(i), SearchMatch::Kind::Span, fields});
        }
    }
    if (query.scopes & SearchQuery::OpNames) {
        for (std::size_t i = 0; i < trace.ops.size(); ++i) {
            if (cancelled(i)) {
                result.cancelled = true;
                return result;
            }
            const Op &op = trace.ops[i];
            if (matches(op.opName))
                result.matches.push_back(
                    {op.timestampNs, std::uint32_t(i), SearchMatch::Kind::Op, SearchQuery::OpNames});
        }
    }
    if (query.scopes & SearchQuery::TensorIds) {
        // A tensor is placed at its span's start: span ids are interned, so one slot per
        // string id finds the span without a search per tensor.
        std::vector<std::uint64_t> startOfString;
        for (std::size_t i = 0; i < trace.tensors.size(); ++i) {
            if (cancelled(i)) {
                result.cancelled = true;
                return result;
            }
            const Tensor &t = trace.tensors[i];
            if (!matches(t.tensorId))
                continue;
            if (startOfString.empty()) {
                startOfString.assign(trace.strings.size(), UINT64_MAX);
                for (const Span &s : trace.spans)
                    startOfString[s.id] = s.startNs;
            }
            const std::uint64_t time = t.spanId < startOfString.size() ? startOfString[t.spanId] : UINT64_MAX;
            result.matches.push_back({time, std::uint32_t(i), SearchMatch::Kind::Tensor, SearchQuery::TensorIds});
        }
    }
    std::sort(result.matches.begin(), result.matches.end(), [](const SearchMatch &a, const SearchMatch &b) {
        if (a.timeNs != b.timeNs)
            return a.timeNs < b.timeNs;
        if (a.kind != b.kind)
            return a.kind < b.kind;
        return a.index < b.index;
    });
    return result;
}

} // namespace TraceInspector
