// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/io/decodedevent.h"
#include "core/io/eventschema.h"

namespace TraceInspector {

/// The fast path of the line decoder (issue 13): recognises lines of the usual shape and
/// reads them without the exact decoder's bookkeeping. The usual shape is what writers
/// produce: compact JSON, `{"kind":"<name>"` first (then `"edge_kind"` for an edge), every
/// other key a member of the record exactly once, values of the member's type without
/// escapes, integers as plain digits, nothing after the closing brace.
///
/// Such a line decodes without any error under §5, so reading it is a matter of picking up
/// the values. Anything else - whitespace, an escape, an unknown or repeated key, a missing
/// required member, a meta or terminal record, an array record, a value of another type -
/// makes scan() decline, and the exact (serde-compatible) decoder reads the line from the
/// start. scan() has no side effects on the trace: it only collects views of the values,
/// and the decoder files them afterwards in member order, interning exactly as the exact
/// path would. tst_fastpath proves the two paths agree.
class FastLineScanner
{
public:
    /// One member of the line, in input order.
    struct Member {
        std::uint8_t field = 0;  // index into the record's StructSpec
        bool null = false;       // an optional member given as `null`
        std::string_view text;   // String
        std::uint64_t u = 0;     // U64, Usize
        double f = 0;            // F64
        bool b = false;          // Bool
        int index = 0;           // Enum
        std::uint32_t first = 0; // Shape: into dims(); StringIds: into ids()
        std::uint32_t count = 0;
    };

    /// Reads the trimmed, UTF-8-valid line [begin, end); kDecoderPadding bytes past \a end
    /// must be readable (numbers are read 8 bytes at a time). False: not the usual shape (the
    /// exact decoder must read it); nothing is known about the line then.
    bool scan(const char *begin, const char *end);

    EventKind kind() const { return m_kind; }
    EdgeKind edgeKind() const { return m_edgeKind; }
    /// The members' schema: the record's, or the edge variant's.
    const StructSpec &spec() const { return *m_spec; }
    const Member *begin() const { return m_members.data(); }
    const Member *end() const { return m_members.data() + m_count; }
    const std::vector<std::uint64_t> &dims() const { return m_dims; }
    const std::vector<std::string_view> &ids() const { return m_ids; }

private:
    bool members(const char *p, const char *end);
    bool value(const FieldSpec &field, Member &m, const char *&p, const char *end);

    static constexpr std::size_t kMaxMembers = 32; // StructSpec masks are 32 bits
    EventKind m_kind = EventKind::Meta;
    EdgeKind m_edgeKind = EdgeKind::Call;
    const StructSpec *m_spec = nullptr;
    std::array<Member, kMaxMembers> m_members;
    std::size_t m_count = 0;
    std::vector<std::uint64_t> m_dims;
    std::vector<std::string_view> m_ids;
};

} // namespace TraceInspector
