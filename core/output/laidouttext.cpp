// SPDX-License-Identifier: MIT
#include "core/output/laidouttext.h"

#include <algorithm>

namespace TraceInspector {

void LaidOutText::grow(std::size_t n)
{
    // Steps of a few pages: zeroed by resize() while in cache, then written over.
    constexpr std::size_t kStep = std::size_t(32) << 10;
    const std::size_t at = std::size_t(m_p - m_out.data());
    m_out.resize(at + std::max(n, kStep));
    m_p = m_out.data() + at;
    m_end = m_out.data() + m_out.size();
}

// Rare: names with quotes, backslashes or control characters. Escaped straight into the
// buffer (a 200 MB name is not held twice), then the room that was left is restored, less
// what the text would have taken unescaped.
void LaidOutText::escaped(std::string_view text)
{
    const std::size_t at = std::size_t(m_p - m_out.data());
    const std::size_t left = std::size_t(m_end - m_p);
    m_out.resize(at);
    appendJsonString(m_out, text);
    const std::size_t written = m_out.size() - at;
    const std::size_t unescaped = text.size() + 2;
    m_out.resize(m_out.size() + (left > unescaped ? left - unescaped : 0));
    m_p = m_out.data() + at + written;
    m_end = m_out.data() + m_out.size();
}

} // namespace TraceInspector
