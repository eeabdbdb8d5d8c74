// SPDX-License-Identifier: MIT
#include "core/analysis/sha256.h"

#include <new>

#include <openssl/evp.h>

namespace TraceInspector {

struct Sha256::Context {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256()
    : m_context(std::make_unique<Context>())
{
    // The only failure modes are allocation failures inside libcrypto.
    if (!m_context->ctx || EVP_DigestInit_ex(m_context->ctx, EVP_sha256(), nullptr) != 1)
        throw std::bad_alloc();
}

Sha256::~Sha256() = default;

void Sha256::update(const void *data, std::size_t length)
{
    if (length != 0)
        EVP_DigestUpdate(m_context->ctx, data, length);
}

Sha256::Digest Sha256::finish()
{
    Digest digest{};
    unsigned int size = 0;
    EVP_DigestFinal_ex(m_context->ctx, digest.data(), &size);
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
