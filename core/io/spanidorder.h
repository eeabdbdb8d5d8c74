// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/trace.h"

namespace TraceInspector {

/// Fills \a order with the indices of \a trace's spans in byte-wise id order (§7.2). Returns
/// false when two spans share an id: then \a order is not meaningful and a comparison sort
/// must decide.
///
/// An 8-byte big-endian prefix of each id orders nearly all of them, and a radix sort on it
/// is linear. The prefixes are not all held at once: the spans are first split by the top
/// 16 bits of their prefix (recursively, for a split too large), and each part is radix
/// sorted with its own keys. A file of ten million unclosed spans is nearly all spans, and
/// keys plus radix buffers for all of them (24 bytes a span) were the peak of its read.
bool orderSpansById(const Trace &trace, std::vector<std::uint32_t> &order);

} // namespace TraceInspector
