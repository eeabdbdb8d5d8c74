// SPDX-License-Identifier: MIT
#include "core/loading/loadedtrace.h"

#include <algorithm>

namespace TraceInspector {

std::size_t LoadedTrace::decodeFailureCount() const
{
    if (!readProblems)
        return 0;
    const auto isDecodeFailure = [](const std::string &rule) {
        return rule.starts_with("E-LINE-") || rule == "E-FILE-OPEN";
    };
    auto n = std::size_t(std::count_if(readProblems->begin(), readProblems->end(),
                                       [&](const Problem &p) { return isDecodeFailure(p.ruleId); }));
    for (const OmittedProblems &o : readOmitted) {
        if (isDecodeFailure(o.ruleId))
            n += std::size_t(o.count);
    }
    return n;
}

bool LoadedTrace::hasHardErrors() const
{
    return strictError.has_value() || decodeFailureCount() > 0;
}

} // namespace TraceInspector
