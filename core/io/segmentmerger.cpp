// SPDX-License-Identifier: MIT
#include "core/io/segmentmerger.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "core/model/hugepagearray.h"
#include "core/model/pagemove.h"
#include "core/model/sidebyside.h"

namespace TraceInspector {
namespace {

class Remapper
{
public:
    Remapper(Trace &dst, Trace &src, std::uint64_t lineOffset)
        : m_dst(dst)
        , m_src(src)
        , m_lineOffset(lineOffset)
    {
        m_strings = dst.strings.internAllOf(src.strings);
        m_shapes.resize(src.shapes.size());
        for (ShapeId id = 0; id < src.shapes.size(); ++id)
            m_shapes[id] = dst.shapes.intern(src.shapes.view(id));
    }

    void s(StringId &id) const { id = m_strings[id]; }
    void shape(ShapeId &id) const { id = m_shapes[id]; }
    void line(std::uint32_t &l) const
    {
        if (l)
            l = static_cast<std::uint32_t>(std::min<std::uint64_t>(l + m_lineOffset, UINT32_MAX));
    }
    ListRef ids(ListRef ref)
    {
        m_scratch.assign(m_src.idLists.view(ref).begin(), m_src.idLists.view(ref).end());
        for (StringId &id : m_scratch)
            s(id);
        return m_dst.idLists.append(m_scratch);
    }
    std::uint64_t lineOffset() const { return m_lineOffset; }

private:
    Trace &m_dst;
    const Trace &m_src;
    std::uint64_t m_lineOffset;
    HugePageArray<StringId> m_strings;
    std::vector<ShapeId> m_shapes;
    std::vector<StringId> m_scratch;
};

/// A segment's records after the first's. Their pages move (appendMovingPages()): copied,
/// they were ~130 MB of fresh pages for the kernel to fault in and zero at 1 GB, a tenth of
/// the read's CPU time, while the source's pages were given back as the copy went. The pages
/// of every array move first, while the strings are remapped (StagedArrays); the records are
/// fixed afterwards.
template<typename T, typename Fn>
void appendAll(std::vector<T> &dst, std::vector<T> &src, const StagedMove &staged, Fn &&fix)
{
    finishMovingPages(dst, src, staged, fix);
}

/// The arrays of a segment merge, their pages moved to the first segment's arrays ahead of
/// the string remap they wait for: on a thread that is otherwise idle then, ~25 ms of page
/// moves and up to ~500 first-touch faults per array at 1 GB.
struct StagedArrays {
    StagedMove ops, tensors, tensorStats, deviceMemory, deviceIntervals, gradients, duplicateStarts, spanEnds,
        invalidTensorStatsLines, spans, memory, edges, order;

    StagedArrays(DecodedSegment &dstSeg, DecodedSegment &srcSeg)
    {
        Trace &dst = *dstSeg.trace;
        Trace &src = *srcSeg.trace;
        ops = stageMovingPages(dst.ops, src.ops);
        tensors = stageMovingPages(dst.tensors, src.tensors);
        tensorStats = stageMovingPages(dst.tensorStats, src.tensorStats);
        deviceMemory = stageMovingPages(dst.deviceMemory, src.deviceMemory);
        deviceIntervals = stageMovingPages(dst.deviceIntervals, src.deviceIntervals);
        gradients = stageMovingPages(dst.gradients, src.gradients);
        duplicateStarts = stageMovingPages(dstSeg.duplicateStarts, srcSeg.duplicateStarts);
        spanEnds = stageMovingPages(dstSeg.spanEnds, srcSeg.spanEnds);
        invalidTensorStatsLines = stageMovingPages(dstSeg.invalidTensorStatsLines, srcSeg.invalidTensorStatsLines);
        spans = stageMovingPages(dst.spans, src.spans);
        memory = stageMovingPages(dst.memory, src.memory);
        edges = stageMovingPages(dst.edges, src.edges);
        order = stageMovingPages(dstSeg.order, srcSeg.order);
    }
    /// The moved pages' first-touch faults, until \a stop is set.
    void touch(const std::atomic<bool> &stop) const
    {
        for (const StagedMove *m : {&spans, &memory, &edges, &ops, &tensors, &deviceIntervals, &spanEnds, &tensorStats,
                                    &deviceMemory, &gradients, &duplicateStarts, &invalidTensorStatsLines, &order}) {
            if (!touchMovedPages(*m, stop))
                return;
        }
    }
};

/// The span ends of \a srcSeg after \a dstSeg's, each end's id remapped or, when its id was
/// new in its segment, looked up in the merged table.
void appendSpanEnds(DecodedSegment &dstSeg, DecodedSegment &srcSeg, const StagedMove &staged, const Remapper &m)
{
    const StringTable &strings = dstSeg.trace->strings;
    std::uint64_t unresolved = 0;
    appendAll(dstSeg.spanEnds, srcSeg.spanEnds, staged, [&](SpanEndRecord &r) {
        m.line(r.line);
        if (r.id != kNoString) {
            m.s(r.id);
            return;
        }
        // Its id was new in its segment; an earlier segment may have named it. (The
        // segment's own strings are in dst too by now, but only lines after this one can
        // have added it there, and a span started after its end is unknown here as well.)
        const std::uint64_t k = unresolved++;
        r.id = strings.find(srcSeg.unresolvedEnds.at(k));
        if (r.id == kNoString)
            dstSeg.unresolvedEnds.addFrom(srcSeg.unresolvedEnds, k, dstSeg.unresolvedEnds.keepsMore());
    });
}

} // namespace

void appendSegment(DecodedSegment &dstSeg, DecodedSegment &srcSeg)
{
    Trace &dst = *dstSeg.trace;
    Trace &src = *srcSeg.trace;
    // The remap reads and writes only the two string and shape tables, the staging only the
    // record arrays.
    std::optional<Remapper> remapper;
    std::optional<StagedArrays> staged;
    std::atomic<bool> remapped{false};
    runSideBySide(
        [&] {
            remapper.emplace(dst, src, dstSeg.lines);
            remapped.store(true, std::memory_order_relaxed);
        },
        [&] {
            staged.emplace(dstSeg, srcSeg);
            staged->touch(remapped);
        });
    Remapper &m = *remapper;
    const StagedArrays &a = *staged;

    // Once the strings are remapped, the arrays are independent of each other: half of them
    // on a helper thread (the fix loops touch every moved page, a serial ~90 ms at 1 GB).
    // The helper's arrays read only the remap tables; the ops' id lists and the span ends'
    // lookups stay on this thread.
    runSideBySide(
        [&] {
            appendAll(dst.ops, src.ops, a.ops, [&](Op &r) {
                m.s(r.spanId), m.s(r.opName), m.s(r.output), m.s(r.dtype), m.s(r.device), m.shape(r.shape),
                    m.line(r.line);
                r.inputs = m.ids(r.inputs);
            });
            appendAll(dst.tensors, src.tensors, a.tensors, [&](Tensor &r) {
                m.s(r.spanId), m.s(r.tensorId), m.s(r.label), m.s(r.dtype), m.s(r.device), m.shape(r.shape),
                    m.line(r.line);
            });
            appendAll(dst.tensorStats, src.tensorStats, a.tensorStats, [&](TensorStats &r) {
                m.s(r.spanId), m.s(r.label), m.s(r.dtype), m.shape(r.shape), m.line(r.line);
            });
            appendAll(dst.deviceMemory, src.deviceMemory, a.deviceMemory,
                      [&](DeviceMemorySample &r) { m.s(r.device), m.line(r.line); });
            appendAll(dst.deviceIntervals, src.deviceIntervals, a.deviceIntervals, [&](DeviceInterval &r) {
                m.s(r.spanId), m.s(r.device), m.s(r.streamId), m.s(r.clockId), m.s(r.backend), m.line(r.line);
            });
            appendAll(dst.gradients, src.gradients, a.gradients,
                      [&](Gradient &r) { m.s(r.eventId), m.s(r.root), m.s(r.key), m.line(r.line); });
            appendAll(dstSeg.duplicateStarts, srcSeg.duplicateStarts, a.duplicateStarts,
                      [&](DuplicateSpanStart &r) { m.s(r.id), m.line(r.line); });
            appendSpanEnds(dstSeg, srcSeg, a.spanEnds, m);
            appendAll(dstSeg.invalidTensorStatsLines, srcSeg.invalidTensorStatsLines, a.invalidTensorStatsLines,
                      [&](std::uint32_t &l) { m.line(l); });
        },
        [&] {
            appendAll(dst.spans, src.spans, a.spans,
                      [&](Span &r) { m.s(r.id), m.s(r.parentId), m.s(r.name), m.line(r.startLine); });
            appendAll(dst.memory, src.memory, a.memory, [&](MemoryEvent &r) {
                m.s(r.storageId), m.s(r.tensorId), m.s(r.spanId), m.s(r.opName), m.s(r.device), m.s(r.dtype),
                    m.shape(r.shape), m.line(r.line);
            });
            appendAll(dst.edges, src.edges, a.edges, [&](Edge &r) { m.s(r.from), m.s(r.to), m.line(r.line); });
            appendAll(dstSeg.order, srcSeg.order, a.order, [](std::uint8_t &) {});
        });
    for (auto &meta : srcSeg.metas) {
        m.line(meta.second);
        dstSeg.metas.push_back(std::move(meta));
    }
    for (Terminal &t : srcSeg.terminals) {
        m.line(t.line);
        dstSeg.terminals.push_back(std::move(t));
    }
    // Re-offering the stored problems in file order keeps what one sequential pass would
    // have kept (ProblemLimiter).
    for (Problem &p : srcSeg.decodeProblems) {
        p.line += m.lineOffset();
        dstSeg.decodeLimiter.store(std::move(p), dstSeg.decodeProblems);
    }
    for (const OmittedProblems &o : srcSeg.decodeLimiter.omitted())
        dstSeg.decodeLimiter.addOmitted(o.ruleId, o.severity, o.count);
    if (!dstSeg.firstDecodeProblem && srcSeg.firstDecodeProblem) {
        dstSeg.firstDecodeProblem = std::move(srcSeg.firstDecodeProblem);
        dstSeg.firstDecodeProblem->line += m.lineOffset();
    }
    dstSeg.lines += srcSeg.lines;
    dstSeg.latestHostEvidence = std::max(dstSeg.latestHostEvidence, srcSeg.latestHostEvidence);
    srcSeg = DecodedSegment{};
}

} // namespace TraceInspector
