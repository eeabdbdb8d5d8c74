// SPDX-License-Identifier: MIT
#include "core/output/prettyjsonwriter.h"

#include "core/compat/floatformat.h"
#include "core/compat/jsonstring.h"

namespace TraceInspector {

void PrettyJsonWriter::newlineIndent()
{
    m_out.push_back('\n');
    m_out.append(2 * m_hasValue.size(), ' ');
}

void PrettyJsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_hasValue.empty())
        return; // the top-level value
    // An array element: a separator, then its own line.
    if (m_hasValue.back())
        m_out.push_back(',');
    m_hasValue.back() = true;
    newlineIndent();
}

PrettyJsonWriter &PrettyJsonWriter::key(std::string_view name)
{
    if (m_hasValue.back())
        m_out.push_back(',');
    m_hasValue.back() = true;
    newlineIndent();
    appendJsonString(m_out, name);
    m_out.append(": ");
    m_afterKey = true;
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::beginObject()
{
    beforeValue();
    m_out.push_back('{');
    m_hasValue.push_back(false);
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::endObject()
{
    const bool had = m_hasValue.back();
    m_hasValue.pop_back();
    if (had)
        newlineIndent();
    m_out.push_back('}');
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::beginArray()
{
    beforeValue();
    m_out.push_back('[');
    m_hasValue.push_back(false);
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::endArray()
{
    const bool had = m_hasValue.back();
    m_hasValue.pop_back();
    if (had)
        newlineIndent();
    m_out.push_back(']');
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::string(std::string_view value)
{
    beforeValue();
    appendJsonString(m_out, value);
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::u64(std::uint64_t value)
{
    beforeValue();
    appendJsonU64(m_out, value);
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::f64(double value)
{
    beforeValue();
    appendJsonFloat(m_out, value);
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::boolean(bool value)
{
    beforeValue();
    m_out.append(value ? "true" : "false");
    return *this;
}

PrettyJsonWriter &PrettyJsonWriter::null()
{
    beforeValue();
    m_out.append("null");
    return *this;
}

} // namespace TraceInspector
