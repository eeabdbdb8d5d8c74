// SPDX-License-Identifier: MIT
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/model/records.h"
#include "core/model/trace.h"

namespace TraceInspector {

/// Appends JSON text to a block's buffer from fixed member-name fragments and the trace's
/// values: the layout of the summary's memory elements. There are millions of them, and one
/// append per fragment instead of a JsonWriter call per member (key escaping, comma
/// bookkeeping) keeps writing them cheap. The text is the one JsonWriter would write. (The
/// normalized records, ten times as many, go through a pointer instead: LaidOutText.)
class JsonFragments
{
public:
    JsonFragments(const Trace &trace, std::string &out)
        : m_trace(trace)
        , m_buf(out)
    {
    }

    void lit(std::string_view fragment) { m_buf.append(fragment); }
    void str(StringId id);
    void u64(std::uint64_t v);
    void f64(double v);
    void boolean(bool v) { m_buf.append(v ? std::string_view("true") : std::string_view("false")); }
    /// A name that needs no escaping (enumeration values), quoted.
    void enumName(std::string_view name);
    void shape(ShapeId id);
    void stringList(std::span<const StringId> ids);
    void stringList(ListRef ref) { stringList(m_trace.idLists.view(ref)); }

protected:
    const Trace &m_trace;
    std::string &m_buf;
};

} // namespace TraceInspector
