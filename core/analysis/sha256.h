// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace TraceInspector {

/// Incremental SHA-256 for the gradient manifest digest (§9.4), on OpenSSL's libcrypto: a
/// maintained implementation that keeps the engine free of Qt (QCryptographicHash would
/// pull Qt Core into the CLI).
class Sha256
{
public:
    using Digest = std::array<std::uint8_t, 32>;

    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void update(const void *data, std::size_t length);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    /// Returns the digest; the object must not be updated afterwards.
    Digest finish();

    /// Lowercase hex of a digest (64 chars).
    static std::string toHex(const Digest &digest);
    /// Digest of \a bytes as lowercase hex.
    static std::string hexOf(std::string_view bytes);

private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

} // namespace TraceInspector
