// SPDX-License-Identifier: MIT
#include "core/analysis/tensorevidence.h"

#include <algorithm>

#include "core/analysis/logicalmemory.h"
#include "core/analysis/logicalmemorykeys.h"
#include "core/model/trace.h"

namespace TraceInspector {

std::optional<std::uint64_t> TensorEvidence::ageAtPeakNs(std::size_t i) const
{
    if (!peakNs || !hasStorage(i) || allocNs[i] > *peakNs)
        return std::nullopt;
    if (freeNs[i] != kNoTime && freeNs[i] < *peakNs)
        return std::nullopt;
    return *peakNs - allocNs[i];
}

std::size_t TensorEvidence::memoryUsage() const
{
    return (producingOp.capacity() + spanIndex.capacity() + idRank.capacity() + labelRank.capacity()
            + storageRank.capacity() + statsTensor.capacity() + statsOp.capacity())
               * sizeof(std::uint32_t)
           + storageId.capacity() * sizeof(StringId) + (allocNs.capacity() + freeNs.capacity()) * sizeof(std::uint64_t);
}

namespace {

// DenseKeyIndex(expected) leaves room for twice its expected keys: four times the keys as
// "expected" keep the tables looked up once per op or memory record at most 1/8 full.
constexpr std::size_t kSparse = 4;
constexpr std::uint32_t kAbsent = UINT32_MAX; // DenseKeyIndex::find() of a key not inserted

std::uint64_t pack(StringId a, StringId b)
{
    return (std::uint64_t(a) << 32) | b;
}

// Runs before the tensor joins: it needs only the producing op of the matched tensors,
// which it finds itself.
void linkTensorStats(const Trace &trace, TensorEvidence &out)
{
    const std::size_t n = trace.tensorStats.size();
    out.statsTensor.assign(n, TensorEvidence::kNone);
    out.statsOp.assign(n, TensorEvidence::kNone);
    out.statsOpByShape.assign(n, 0);
    if (n == 0)
        return;
    {
        // The first tensor record of each (span, label) of a record; dropped before the tables
        // below are made, as this runs beside the memory analysis and its peak.
        DenseKeyIndex spanLabels(n);
        for (const TensorStats &s : trace.tensorStats)
            spanLabels.insert(pack(s.spanId, s.label));
        std::vector<std::uint32_t> tensorOf(spanLabels.size(), TensorEvidence::kNone);
        for (std::size_t t = 0; t < trace.tensors.size(); ++t) {
            const Tensor &tensor = trace.tensors[t];
            if (tensor.label == kNoString)
                continue;
            const std::uint32_t k = spanLabels.find(pack(tensor.spanId, tensor.label));
            if (k != kAbsent && tensorOf[k] == TensorEvidence::kNone)
                tensorOf[k] = std::uint32_t(t);
        }
        for (std::size_t i = 0; i < n; ++i)
            out.statsTensor[i] =
                tensorOf[spanLabels.find(pack(trace.tensorStats[i].spanId, trace.tensorStats[i].label))];
    }
    // Wanted: the output ids of matched tensors, and (span, dtype) of the rest, indexed
    // densely. Every op is looked up in both: open addressing over the few keys (a table that
    // stays in cache) instead of std::unordered_map/set, whose lookups divide by the bucket
    // count, and nothing sized by the string count. Room for kSparse times the keys, as for
    // the tensor ids below: most lookups miss.
    DenseKeyIndex outputs(kSparse * std::min(n, trace.tensors.size()));
    std::vector<std::uint32_t> opOfOutput; // by outputs index
    DenseKeyIndex spanDtypes(kSparse * n);
    for (std::size_t i = 0; i < n; ++i) {
        const TensorStats &s = trace.tensorStats[i];
        const std::uint32_t t = out.statsTensor[i];
        if (t != TensorEvidence::kNone && outputs.insert(trace.tensors[t].tensorId) == opOfOutput.size())
            opOfOutput.push_back(TensorEvidence::kNone);
        spanDtypes.insert(pack(s.spanId, s.dtype));
    }
    std::vector<std::vector<std::uint32_t>> opsBySpanDtype(spanDtypes.size());
    for (std::size_t o = 0; o < trace.ops.size(); ++o) {
        const Op &op = trace.ops[o];
        if (op.output != kNoString) {
            const std::uint32_t k = outputs.find(op.output);
            if (k != kAbsent && opOfOutput[k] == TensorEvidence::kNone)
                opOfOutput[k] = std::uint32_t(o);
        }
        if (const std::uint32_t k = spanDtypes.find(pack(op.spanId, op.dtype)); k != kAbsent)
            opsBySpanDtype[k].push_back(std::uint32_t(o));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const TensorStats &s = trace.tensorStats[i];
        if (out.statsTensor[i] != TensorEvidence::kNone) {
            out.statsOp[i] = opOfOutput[outputs.find(trace.tensors[out.statsTensor[i]].tensorId)];
            if (out.statsOp[i] != TensorEvidence::kNone)
                continue;
        }
        const std::vector<std::uint32_t> &candidates = opsBySpanDtype[spanDtypes.find(pack(s.spanId, s.dtype))];
        if (candidates.empty())
            continue;
        const auto dims = trace.shapes.view(s.shape);
        for (auto o = candidates.rbegin(); o != candidates.rend(); ++o) {
            const auto opDims = trace.shapes.view(trace.ops[*o].shape);
            if (std::equal(dims.begin(), dims.end(), opDims.begin(), opDims.end())) {
                out.statsOp[i] = *o;
                out.statsOpByShape[i] = 1;
                break;
            }
        }
    }
}

// Rank of each of \a ids (kNoString = absent -> kNone) in byte-wise text order. The distinct
// ids are sorted, not marked in a table of every interned string: that table (4 bytes per
// string, 9 MB on the 1 GB trace) was most of the evidence analysis's memory.
std::vector<std::uint32_t> textRanks(const Trace &trace, const std::vector<StringId> &ids)
{
    const std::size_t stringCount = trace.strings.size();
    std::vector<StringId> distinct;
    distinct.reserve(ids.size());
    for (const StringId id : ids) {
        if (id != kNoString && id < stringCount)
            distinct.push_back(id);
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<std::uint32_t> byText(distinct.size());
    for (std::uint32_t i = 0; i < byText.size(); ++i)
        byText[i] = i;
    std::sort(byText.begin(), byText.end(),
              [&](std::uint32_t a, std::uint32_t b) { return trace.strings.less(distinct[a], distinct[b]); });
    std::vector<std::uint32_t> rankOf(distinct.size());
    for (std::uint32_t r = 0; r < byText.size(); ++r)
        rankOf[byText[r]] = r;
    std::vector<std::uint32_t> ranks(ids.size(), TensorEvidence::kNone);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] == kNoString || ids[i] >= stringCount)
            continue;
        ranks[i] = rankOf[std::size_t(std::lower_bound(distinct.begin(), distinct.end(), ids[i]) - distinct.begin())];
    }
    return ranks;
}

void rankTensors(const Trace &trace, TensorEvidence &out)
{
    const std::size_t n = trace.tensors.size();
    std::vector<StringId> ids(n);
    for (std::size_t i = 0; i < n; ++i)
        ids[i] = trace.tensors[i].tensorId;
    out.idRank = textRanks(trace, ids);
    for (std::size_t i = 0; i < n; ++i)
        ids[i] = trace.tensors[i].label;
    out.labelRank = textRanks(trace, ids);
    // Span ids: Trace::spans is sorted by id, so a sorted pass over the distinct ids would
    // do; a binary search per distinct span id is simpler and there are few of them.
    out.spanIndex.assign(n, TensorEvidence::kNone);
    DenseKeyIndex spanIds(n);
    std::vector<std::uint32_t> spanOf; // by spanIds index
    for (std::size_t i = 0; i < n; ++i) {
        const StringId id = trace.tensors[i].spanId;
        if (id >= trace.strings.size())
            continue;
        const std::uint32_t k = spanIds.insert(id);
        if (k == spanOf.size()) {
            const std::int64_t span = trace.findSpan(id);
            spanOf.push_back(span < 0 ? TensorEvidence::kNone : std::uint32_t(span));
        }
        out.spanIndex[i] = spanOf[k];
    }
}

/// The tensor ids of \a trace's tensor records, indexed densely: only those are looked up in
/// the (much larger) op and memory arrays. Tables over every interned string (9 bytes per
/// string, ~20 MB on the 1 GB trace, for its 7 thousand tensors) were the evidence analysis's
/// peak, while the memory chart's series was prepared beside it.
/// Sized for a load of at most 1/8 (kSparse): nearly every op output and memory record looked
/// up is no tensor's id, and in a half-full table a miss often meets an occupied slot,
/// compares a key and mispredicts (1 GB trace: 49 -> 29 ms for the whole analysis, best of
/// 11; ~1.3 MB for the three tables).
DenseKeyIndex indexTensorIds(const Trace &trace)
{
    DenseKeyIndex tensorIds(kSparse * trace.tensors.size());
    for (const Tensor &t : trace.tensors) {
        if (t.tensorId < trace.strings.size())
            tensorIds.insert(t.tensorId);
    }
    return tensorIds;
}

} // namespace

TensorEvidence analyzeTensorEvidence(const Trace &trace)
{
    TensorEvidence result;
    const std::size_t n = trace.tensors.size();
    result.producingOp.assign(n, TensorEvidence::kNone);
    result.storageId.assign(n, kNoString);
    result.allocNs.assign(n, TensorEvidence::kNoTime);
    result.freeNs.assign(n, TensorEvidence::kNoTime);
    result.storageRank.assign(n, TensorEvidence::kNone);
    linkTensorStats(trace, result);
    if (n > 0) {
        const DenseKeyIndex tensorIds = indexTensorIds(trace);
        std::vector<std::uint32_t> opOf(tensorIds.size(), TensorEvidence::kNone);
        for (std::size_t i = 0; i < trace.ops.size(); ++i) {
            const std::uint32_t k = tensorIds.find(trace.ops[i].output);
            if (k != kAbsent && opOf[k] == TensorEvidence::kNone)
                opOf[k] = std::uint32_t(i);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const StringId id = trace.tensors[i].tensorId;
            if (id < trace.strings.size())
                result.producingOp[i] = opOf[tensorIds.find(id)];
        }
    }
    rankTensors(trace, result);
    return result;
}

void attachTensorStorage(const Trace &trace, const LogicalMemoryProfile &logical, TensorEvidence &evidence)
{
    if (logical.peak())
        evidence.peakNs = logical.peak()->timestampNs;
    const std::size_t n = trace.tensors.size();
    if (n == 0)
        return;
    const std::size_t stringCount = trace.strings.size();
    const DenseKeyIndex tensorIds = indexTensorIds(trace);
    std::vector<std::uint32_t> lifetimeOf(tensorIds.size(), TensorEvidence::kNone);
    // Lifetimes come by start, their frees anywhere after: each record read is a cache miss
    // (~half of the storage join on the 1 GB trace) unless fetched ahead.
    constexpr std::size_t kAhead = 8;
    const std::size_t lifetimes = logical.lifetimeCount();
    for (std::size_t l = 0; l < lifetimes; ++l) {
        if (l + kAhead < lifetimes) {
            for (const std::uint32_t record : logical.lifetimeRecords(l + kAhead))
                __builtin_prefetch(&trace.memory[record]);
        }
        for (const std::uint32_t record : logical.lifetimeRecords(l)) {
            const MemoryEvent &m = trace.memory[record];
            if (m.action != MemoryAction::Alloc)
                continue;
            const std::uint32_t k = tensorIds.find(m.tensorId);
            if (k != kAbsent && lifetimeOf[k] == TensorEvidence::kNone)
                lifetimeOf[k] = std::uint32_t(l);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const StringId id = trace.tensors[i].tensorId;
        if (id >= stringCount)
            continue;
        const std::uint32_t l = lifetimeOf[tensorIds.find(id)];
        if (l == TensorEvidence::kNone)
            continue;
        const MemoryEvent &alloc = trace.memory[logical.lifetimeAllocRecord(l)];
        evidence.storageId[i] = alloc.storageId;
        evidence.allocNs[i] = alloc.timestampNs;
        if (const std::optional<std::uint32_t> free = logical.lifetimeFreeRecord(trace, l))
            evidence.freeNs[i] = trace.memory[*free].timestampNs;
    }
    evidence.storageRank = textRanks(trace, evidence.storageId);
}

TensorEvidence analyzeTensorEvidence(const Trace &trace, const LogicalMemoryProfile *logical)
{
    TensorEvidence result = analyzeTensorEvidence(trace);
    if (logical)
        attachTensorStorage(trace, *logical, result);
    return result;
}

} // namespace TraceInspector
