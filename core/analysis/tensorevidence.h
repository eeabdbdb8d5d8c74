// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/stringtable.h"

namespace TraceInspector {

struct Trace;
class LogicalMemoryProfile;

/// What the rest of a trace says about each `tensor` record: the op that produced it and
/// the logical storage that held it. Flat arrays indexed like Trace::tensors, so a table of
/// a million tensors needs no per-row objects.
struct TensorEvidence {
    static constexpr std::uint32_t kNone = UINT32_MAX;
    static constexpr std::uint64_t kNoTime = UINT64_MAX;

    /// Index into Trace::ops of the first op whose `output` is the tensor id, or kNone.
    std::vector<std::uint32_t> producingOp;
    /// Storage id of the first logical lifetime (§8.1) that recorded the tensor id, or
    /// kNoString when no memory record names the tensor.
    std::vector<StringId> storageId;
    /// That lifetime's alloc timestamp, or kNoTime.
    std::vector<std::uint64_t> allocNs;
    /// The matching free's timestamp; kNoTime when never freed or no storage.
    std::vector<std::uint64_t> freeNs;
    /// Index into Trace::spans of the tensor's span, or kNone (joined here once, so a table
    /// of a million rows never binary-searches span ids on the GUI thread).
    std::vector<std::uint32_t> spanIndex;
    /// Byte-wise rank of the tensor id, label and storage id among those of all tensors
    /// (kNone when absent): sort keys computed off the GUI thread, where sorting a million
    /// distinct strings would take half a second.
    std::vector<std::uint32_t> idRank;
    std::vector<std::uint32_t> labelRank;
    std::vector<std::uint32_t> storageRank;
    /// Timestamp of the logical memory peak, when the trace has memory records.
    std::optional<std::uint64_t> peakNs;

    /// Per Trace::tensorStats record: the tensor record with the same span and label
    /// (kNone when none), and the op it came from — that tensor's producing op, or else the
    /// last op of the span with the record's shape and dtype (statsOpByShape set), or kNone.
    std::vector<std::uint32_t> statsTensor;
    std::vector<std::uint32_t> statsOp;
    std::vector<std::uint8_t> statsOpByShape;

    std::size_t size() const { return producingOp.size(); }
    bool hasStorage(std::size_t i) const { return allocNs[i] != kNoTime; }
    /// Age of tensor \a i's storage at the logical peak (peak - alloc) when it was live then
    /// (allocated at or before the peak and not freed before it); none otherwise.
    std::optional<std::uint64_t> ageAtPeakNs(std::size_t i) const;
    std::size_t memoryUsage() const;
};

/// Joins every tensor record with op outputs and the lifetimes of \a logical (null when the
/// trace has no memory records), and every tensor_stats record with its tensor and op.
/// Linear in tensors + ops + memory records.
TensorEvidence analyzeTensorEvidence(const Trace &trace, const LogicalMemoryProfile *logical);
/// The same in two steps, so that the first can run while memory is analysed: everything but
/// the storage (none yet), then the storage of the lifetimes of \a logical.
TensorEvidence analyzeTensorEvidence(const Trace &trace);
void attachTensorStorage(const Trace &trace, const LogicalMemoryProfile &logical, TensorEvidence &evidence);

} // namespace TraceInspector
