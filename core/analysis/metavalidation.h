// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include "core/analysis/gradientmanifest.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

// Run-metadata validity rules (TRACE_FORMAT.md §9). Each returns the first failing message,
// exactly as upstream words it, or nullopt when the value is valid. "Blank" means empty after
// Rust str::trim (Unicode White_Space).

/// TraceRunMeta::validate (§9.1), including the comparison identity (§9.2). The capture
/// contract is not checked here (upstream doesn't either).
std::optional<std::string> validateRunMeta(const TraceMeta &meta);
/// ComparisonIdentity::validate (§9.2).
std::optional<std::string> validateComparisonIdentity(const ComparisonIdentity &identity);
/// CaptureContract::validate (§9.3): the producer-side lint of semantic labels, label classes
/// and the gradient coverage/contract pairing. Neither load nor health calls it upstream.
std::optional<std::string> validateCaptureContract(const CaptureContract &contract);
/// GradientContract::validate (§9.4), including the manifest digest check.
std::optional<std::string> validateGradientContract(const GradientContract &contract);

} // namespace TraceInspector
