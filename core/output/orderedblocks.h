// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace TraceInspector {

/// Formats items [0, count) in blocks of \a blockItems, several blocks at a time on worker
/// threads (one per core), and hands each block's text to \a emit in item order, on the
/// calling thread. Text is identical to formatting the blocks one after another.
///
/// Why: re-emitting a gigabyte trace is pure formatting, and formatting disjoint record
/// ranges is independent work, so it scales with cores while the output stays in order.
/// Each block's buffer is reused for later blocks (a few per thread are in flight), so no
/// fresh zero-filled pages are taken per block and memory stays bounded.
///
/// \a format(begin, end, out) appends the text of items [begin, end) to \a out (empty on
/// entry); it runs concurrently with itself on other ranges and must only read shared data.
/// When \a emit returns false, no further block is handed to it and run() returns false.
/// An exception thrown by \a format or \a emit stops the run and is rethrown by run().
/// \a threads = 0 uses one worker per core; 1 formats on the calling thread only.
class OrderedBlockFormatter
{
public:
    using FormatBlock = std::function<void(std::size_t begin, std::size_t end, std::string &out)>;
    using Emit = std::function<bool(std::string_view text)>;

    static bool run(std::size_t count, std::size_t blockItems, const FormatBlock &format, const Emit &emit,
                    unsigned threads = 0);
};

} // namespace TraceInspector
