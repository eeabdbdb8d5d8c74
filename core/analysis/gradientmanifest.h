// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/tracemeta.h"

namespace TraceInspector {

/// Domain separator of the ordered gradient-manifest digest (TRACE_FORMAT.md §9.4).
inline constexpr std::string_view kGradientManifestSchema = "candle-graph/gradient-manifest/1";

/// The manifest digest of §9.4: SHA-256 over the schema string, one 0x00 byte, then for each
/// entry in order its root, key and family, each as a little-endian u64 byte length followed
/// by the bytes. Returns `sha256:` + 64 lowercase hex digits.
std::string gradientManifestDigest(const std::vector<ExpectedGradient> &expected);

} // namespace TraceInspector
