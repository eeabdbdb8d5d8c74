// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/listpool.h"
#include "core/model/records.h"
#include "core/model/shapetable.h"
#include "core/model/stringtable.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

/// The assembled document (TRACE_FORMAT.md §6): everything a trace file said that could be
/// decoded and accepted. Immutable once loading finished; shared as
/// std::shared_ptr<const Trace>.
///
/// Arrays keep stream order, except `spans`, which is sorted by id in byte-wise order
/// (the §7.2 span records). In a tolerant load a record that broke a rule is left out
/// (duplicate span_start, unknown span_end, invalid tensor_stats, a second meta or
/// terminal); everything else is kept.
struct Trace {
    std::string path; // as given by the caller
    std::uint64_t fileBytes = 0;
    std::uint64_t lineCount = 0;   // physical lines
    std::uint64_t recordCount = 0; // decoded non-blank lines

    std::optional<TraceMeta> meta;
    std::uint32_t metaLine = 0;
    std::optional<Terminal> terminal;

    StringTable strings;
    ShapeTable shapes;
    ListPool<StringId> idLists; // op inputs

    std::vector<Span> spans; // sorted by id, byte-wise
    std::vector<Op> ops;
    std::vector<Tensor> tensors;
    std::vector<TensorStats> tensorStats;
    std::vector<MemoryEvent> memory;
    std::vector<DeviceMemorySample> deviceMemory;
    std::vector<DeviceInterval> deviceIntervals;
    std::vector<Gradient> gradients;
    std::vector<Edge> edges;

    std::string_view str(StringId id) const { return strings.view(id); }
    /// Index into `spans` of the span with id \a id, or -1. Binary search over the sorted ids.
    std::int64_t findSpan(StringId id) const;
    std::int64_t findSpan(std::string_view id) const;
    std::size_t memoryUsage() const;
};

} // namespace TraceInspector
