// SPDX-License-Identifier: MIT
#pragma once

#include <fstream>
#include <string>

namespace TraceInspector::TestFixtures {

/// Whether this machine gives no transparent huge pages at all (the setting reads
/// "always madvise [never]"), or does not say: tests of huge-page placement skip then.
inline bool transparentHugePagesOff()
{
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(f, modes);
    return !f || modes.find("[never]") != std::string::npos;
}

} // namespace TraceInspector::TestFixtures
