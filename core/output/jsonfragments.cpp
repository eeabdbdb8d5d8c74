// SPDX-License-Identifier: MIT
#include "core/output/jsonfragments.h"

#include "core/compat/floatformat.h"
#include "core/compat/jsonstring.h"

namespace TraceInspector {

void JsonFragments::str(StringId id)
{
    appendJsonString(m_buf, m_trace.str(id));
}

void JsonFragments::u64(std::uint64_t v)
{
    appendJsonU64(m_buf, v);
}

void JsonFragments::f64(double v)
{
    appendJsonFloat(m_buf, v);
}

void JsonFragments::enumName(std::string_view name)
{
    m_buf.push_back('"');
    m_buf.append(name);
    m_buf.push_back('"');
}

void JsonFragments::shape(ShapeId id)
{
    const std::span<const std::uint64_t> dims = m_trace.shapes.view(id);
    m_buf.push_back('[');
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i)
            m_buf.push_back(',');
        appendJsonU64(m_buf, dims[i]);
    }
    m_buf.push_back(']');
}

void JsonFragments::stringList(std::span<const StringId> ids)
{
    m_buf.push_back('[');
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            m_buf.push_back(',');
        str(ids[i]);
    }
    m_buf.push_back(']');
}

} // namespace TraceInspector
