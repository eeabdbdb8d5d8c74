// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace TraceInspector {

inline constexpr std::string_view kBundleSchema = "candle-graph/bundle/1";

/// One file a bundle declares.
struct BundleFile {
    std::string path; ///< relative, '/'-separated
    std::uint64_t bytes = 0;
    std::string sha256; ///< hex, either case
};

/// `bundle.json` of an evidence bundle (docs/COMPARISON.md §2).
struct BundleManifest {
    std::string schema;
    std::string runId;
    std::vector<BundleFile> files;

    /// Reads the manifest as upstream's serde_json does (`serde_json::from_slice`): any JSON
    /// whitespace, the manifest as an object (unknown members ignored) or as an array of its
    /// members in declaration order. On failure returns nullopt and sets \a error to serde's
    /// text with its line and column ("missing field `run_id` at line 4 column 1").
    static std::optional<BundleManifest> parse(std::string_view json, std::string &error);
};

} // namespace TraceInspector
