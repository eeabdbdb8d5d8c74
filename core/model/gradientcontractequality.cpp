// SPDX-License-Identifier: MIT
#include "core/model/gradientcontractequality.h"

namespace TraceInspector {

bool sameGradientContract(const std::optional<GradientContract> &a, const std::optional<GradientContract> &b)
{
    if (a.has_value() != b.has_value())
        return false;
    if (!a)
        return true;
    if (a->manifestSha256 != b->manifestSha256 || a->expected.size() != b->expected.size()
        || a->families.size() != b->families.size())
        return false;
    for (std::size_t i = 0; i < a->expected.size(); ++i) {
        const ExpectedGradient &x = a->expected[i], &y = b->expected[i];
        if (x.root != y.root || x.key != y.key || x.family != y.family)
            return false;
    }
    for (std::size_t i = 0; i < a->families.size(); ++i) {
        const GradientFamilyContract &x = a->families[i], &y = b->families[i];
        if (x.family != y.family || x.expectation != y.expectation || x.minPresent != y.minPresent)
            return false;
    }
    return true;
}

} // namespace TraceInspector
