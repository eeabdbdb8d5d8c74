// SPDX-License-Identifier: MIT
#include "core/analysis/gradientmanifest.h"

#include <cstdint>

#include "core/analysis/sha256.h"

namespace TraceInspector {

std::string gradientManifestDigest(const std::vector<ExpectedGradient> &expected)
{
    Sha256 hash;
    hash.update(kGradientManifestSchema);
    const std::uint8_t separator = 0;
    hash.update(&separator, 1);
    for (const ExpectedGradient &entry : expected) {
        for (const std::string *value : {&entry.root, &entry.key, &entry.family}) {
            std::uint8_t length[8];
            const auto n = static_cast<std::uint64_t>(value->size());
            for (int i = 0; i < 8; ++i)
                length[i] = static_cast<std::uint8_t>(n >> (8 * i));
            hash.update(length, sizeof length);
            hash.update(*value);
        }
    }
    return "sha256:" + Sha256::toHex(hash.finish());
}

} // namespace TraceInspector
