// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace TraceInspector {

/// JSON text laid out as serde_json's `to_string_pretty` does (PrettyFormatter): two-space
/// indentation, `"key": value`, one member or element per line, `{}` and `[]` when empty.
/// Strings, integers and floats use upstream's exact text (core/compat). The caller nests
/// begin/end correctly and gives a key before each member value.
class PrettyJsonWriter
{
public:
    PrettyJsonWriter &beginObject();
    PrettyJsonWriter &endObject();
    PrettyJsonWriter &beginArray();
    PrettyJsonWriter &endArray();
    PrettyJsonWriter &key(std::string_view name);
    PrettyJsonWriter &string(std::string_view value);
    PrettyJsonWriter &u64(std::uint64_t value);
    /// serde_json's f64 text; NaN and infinities as `null`.
    PrettyJsonWriter &f64(double value);
    PrettyJsonWriter &boolean(bool value);
    PrettyJsonWriter &null();

    const std::string &text() const { return m_out; }
    std::string take() { return std::move(m_out); }

private:
    void beforeValue();
    void newlineIndent();

    std::string m_out;
    /// Per open container: whether it holds a value yet.
    std::vector<bool> m_hasValue;
    bool m_afterKey = false;
};

} // namespace TraceInspector
