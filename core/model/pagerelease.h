// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace TraceInspector {

/// Gives the whole pages of [begin, end) back to the kernel. Only for memory that is never
/// read again: the pages read as zeros afterwards. The allocator's own bytes lie outside
/// an allocation's elements, and only pages wholly inside them are given back.
void releasePages(const void *begin, const void *end);

/// Appends \a from to \a out, giving the pages of \a from back (releasePages()) behind the
/// copy as it goes: a 200 MB value quoted from a line that is never read again is then not
/// held twice while it is copied. \a from must lie in writable memory nothing reads again.
void appendReleasing(std::string &out, std::string_view from);
/// appendReleasing() of what \a append makes of \a from (an escaping such as
/// appendRustDebugChars()), called piece by piece, each piece of whole UTF-8 characters.
void appendReleasing(std::string &out, std::string_view from, void (*append)(std::string &, std::string_view));

} // namespace TraceInspector
