// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace TraceInspector {

/// Incremental SHA-256 (FIPS 180-4). Used for the gradient manifest digest (§9.4); no
/// crypto library is linked for this one small need.
class Sha256
{
public:
    using Digest = std::array<std::uint8_t, 32>;

    Sha256();
    void update(const void *data, std::size_t length);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    /// Pads and returns the digest; the object must not be updated afterwards.
    Digest finish();

    /// Lowercase hex of a digest (64 chars).
    static std::string toHex(const Digest &digest);
    /// Digest of \a bytes as lowercase hex.
    static std::string hexOf(std::string_view bytes);

private:
    void compress(const std::uint8_t *block);

    std::array<std::uint32_t, 8> m_state;
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_buffered = 0;
    std::uint64_t m_totalBytes = 0;
};

} // namespace TraceInspector
