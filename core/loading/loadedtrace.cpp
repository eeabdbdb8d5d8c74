// SPDX-License-Identifier: MIT
#include "core/loading/loadedtrace.h"

#include <algorithm>

namespace TraceInspector {

std::size_t LoadedTrace::decodeFailureCount() const
{
    if (!readProblems)
        return 0;
    return std::size_t(std::count_if(readProblems->begin(), readProblems->end(), [](const Problem &p) {
        return p.ruleId.starts_with("E-LINE-") || p.ruleId == "E-FILE-OPEN";
    }));
}

bool LoadedTrace::hasHardErrors() const
{
    return strictError.has_value() || decodeFailureCount() > 0;
}

} // namespace TraceInspector
