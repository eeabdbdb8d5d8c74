// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include "core/model/tracemeta.h"

namespace TraceInspector {

/// Whether two runs declare the same gradient contract (manifest digest, every expected
/// gradient and every family rule, in order); two absent contracts are the same. Both the
/// two-trace fairness check and the replicated comparison ask this.
bool sameGradientContract(const std::optional<GradientContract> &a, const std::optional<GradientContract> &b);

} // namespace TraceInspector
