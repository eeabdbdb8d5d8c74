// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/comparison/bundlemanifest.h"

namespace TraceInspector {

/// What verifying a bundle proved (upstream's BundleVerificationReceipt).
struct BundleReceipt {
    std::string runId;
    std::string manifestSha256; ///< of bundle.json's bytes, lowercase hex
    std::uint64_t filesVerified = 0;
    std::uint64_t bytesVerified = 0;
    BundleManifest manifest; ///< as read, for the post-read check
};

/// A verification result: the receipt, or upstream's message chain (`context: cause`).
struct BundleCheck {
    std::optional<BundleReceipt> receipt;
    std::string error;
};

/// upstream's `verify_bundle` (src/artifact.rs; docs/COMPARISON.md §2): \a root is a
/// directory holding a regular `bundle.json` (schema candle-graph/bundle/1) that declares
/// every other regular file below the root, each with a safe relative path, its size and its
/// SHA-256; no symbolic link or special file anywhere. Messages are upstream's, in its order.
BundleCheck verifyBundle(const std::string &root);

/// The check after a consumed file was read (upstream's `verify_consumed_bundle_files`,
/// whose body is not in the stored sources: see docs/COMPARISON.md §2.3): the manifest's
/// bytes still hash to the receipt's digest, and each of \a files is still a declared regular
/// file with the declared size and SHA-256. Returns the error message, empty when it holds.
std::string verifyConsumedBundleFiles(const std::string &root, const BundleReceipt &receipt,
                                      const std::vector<std::string> &files);

/// `root.join(relative)` as Rust's Path::join displays it.
std::string joinBundlePath(const std::string &root, const std::string &relative);

/// upstream's `is_safe_relative_path`: not empty, no backslash, not absolute, and only normal
/// components (Rust's Path::components drops inner `.` and empty components; a leading `.`
/// or any `..` is not normal).
bool isSafeBundlePath(const std::string &path);

} // namespace TraceInspector
