// SPDX-License-Identifier: MIT
#include "core/analysis/sha256.h"

#include <algorithm>
#include <cstring>

namespace TraceInspector {
namespace {

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
// first 64 primes.
constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

} // namespace

// In-house rather than libcrypto's: the digest is needed only for a gradient manifest,
// while loading libcrypto cost every run of the CLI ~3.5 ms of relocations (issue 13:
// a small trace checks in under 5 ms).
struct Sha256::Context {
    std::uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}; // FIPS 180-4 §5.3.3
    std::uint8_t block[64] = {};
    std::size_t filled = 0;   // bytes pending in block
    std::uint64_t length = 0; // message bytes so far

    void compress(const std::uint8_t *p)
    {
        std::uint32_t w[64];
        for (int t = 0; t < 16; ++t)
            w[t] = (std::uint32_t(p[4 * t]) << 24) | (std::uint32_t(p[4 * t + 1]) << 16)
                   | (std::uint32_t(p[4 * t + 2]) << 8) | std::uint32_t(p[4 * t + 3]);
        for (int t = 16; t < 64; ++t) {
            const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; ++t) {
            const std::uint32_t t1 =
                h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
            const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
};

Sha256::Sha256()
    : m_context(std::make_unique<Context>())
{
}

Sha256::~Sha256() = default;

void Sha256::update(const void *data, std::size_t length)
{
    Context &c = *m_context;
    auto p = static_cast<const std::uint8_t *>(data);
    c.length += length;
    if (c.filled) {
        const std::size_t take = std::min(length, sizeof c.block - c.filled);
        std::memcpy(c.block + c.filled, p, take);
        c.filled += take;
        p += take;
        length -= take;
        if (c.filled < sizeof c.block)
            return;
        c.compress(c.block);
        c.filled = 0;
    }
    for (; length >= sizeof c.block; p += sizeof c.block, length -= sizeof c.block)
        c.compress(p);
    if (length) {
        std::memcpy(c.block, p, length);
        c.filled = length;
    }
}

Sha256::Digest Sha256::finish()
{
    Context &c = *m_context;
    // §5.1.1: a 1 bit, zeros up to 56 bytes into a block, the bit length big-endian.
    const std::uint64_t bits = c.length * 8;
    c.block[c.filled++] = 0x80;
    if (c.filled > 56) {
        std::memset(c.block + c.filled, 0, sizeof c.block - c.filled);
        c.compress(c.block);
        c.filled = 0;
    }
    std::memset(c.block + c.filled, 0, 56 - c.filled);
    for (int i = 0; i < 8; ++i)
        c.block[56 + i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
    c.compress(c.block);
    Digest digest{};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 4; ++j)
            digest[static_cast<std::size_t>(4 * i + j)] = static_cast<std::uint8_t>(c.state[i] >> (24 - 8 * j));
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
