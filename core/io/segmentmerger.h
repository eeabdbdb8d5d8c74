// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/io/decodedsegment.h"

namespace TraceInspector {

/// Appends \a src (the segment that followed \a dst in the file) to \a dst: re-interns its
/// strings and shapes into dst's tables, rewrites ids and line numbers, and concatenates
/// every array. \a src is left empty.
void appendSegment(DecodedSegment &dst, DecodedSegment &src);

} // namespace TraceInspector
