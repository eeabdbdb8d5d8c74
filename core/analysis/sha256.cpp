// SPDX-License-Identifier: MIT
#include "core/analysis/sha256.h"

// The low-level SHA256_* functions, deprecated in OpenSSL 3 in favour of EVP, on purpose:
// libcrypto is linked statically (CMakeLists.txt), and EVP_sha256() pulls in the whole
// provider framework: ~17,000 relocations the dynamic loader applies at every start of the
// CLI, ~1.5 ms of a 10 KB check (issue 13). SHA256_* links only the SHA-256 code, with the
// same SHA-NI/AVX2 assembly.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

namespace TraceInspector {

struct Sha256::Context {
    SHA256_CTX ctx;
};

Sha256::Sha256()
    : m_context(std::make_unique<Context>())
{
    SHA256_Init(&m_context->ctx); // cannot fail: it only sets the initial state
}

Sha256::~Sha256() = default;

void Sha256::update(const void *data, std::size_t length)
{
    SHA256_Update(&m_context->ctx, data, length);
}

Sha256::Digest Sha256::finish()
{
    Digest digest{};
    SHA256_Final(digest.data(), &m_context->ctx);
    return digest;
}

std::string Sha256::toHex(const Digest &digest)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(digest.size() * 2);
    for (const std::uint8_t b : digest) {
        out.push_back(kHex[b >> 4]);
        out.push_back(kHex[b & 0xF]);
    }
    return out;
}

std::string Sha256::hexOf(std::string_view bytes)
{
    Sha256 hash;
    hash.update(bytes);
    return toHex(hash.finish());
}

} // namespace TraceInspector
