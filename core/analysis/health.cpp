// SPDX-License-Identifier: MIT
#include "core/analysis/health.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/analysis/healthcontext.h"
#include "core/analysis/metavalidation.h"
#include "core/analysis/recordextents.h"
#include "core/compat/rustformat.h"
#include "core/model/sparsereservation.h"

namespace TraceInspector {

namespace HealthDetail {

void HealthContext::emit(Severity severity, std::string_view ruleId, std::string_view code, FindingText message,
                         std::uint64_t line, RelatedKind kind, std::string_view relatedId, std::uint64_t relatedIndex)
{
    Problem p;
    p.line = line;
    p.severity = severity;
    p.ruleId = ruleId;
    p.code = code;
    p.message = std::move(message.text);
    p.relatedKind = kind;
    if (ProblemLimiter::keepsRelatedId(relatedId)) // no copy of a 200 MB id the limiter drops
        p.relatedId = relatedId;
    p.relatedIndex = relatedIndex;
    if (message.shortened)
        limiter.storeShortened(std::move(p), findings);
    else
        limiter.store(std::move(p), findings);
}

FindingText concat(std::initializer_list<std::string_view> parts)
{
    FindingText out(ProblemLimiter::shortJoin(parts));
    out.shortened = true;
    return out;
}

} // namespace HealthDetail

namespace {

using namespace HealthDetail;

constexpr std::int32_t kNone = -1;

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    const std::uint64_t sum = a + b;
    return sum < a ? std::numeric_limits<std::uint64_t>::max() : sum;
}

std::uint64_t spanEnd(const Span &s)
{
    return saturatingAdd(s.startNs, s.durationNs);
}

/// The latest host evidence (§6.3). RecordExtents holds it too: the window's loader has them
/// (four walks less while it builds the span tree and layout); `check --all` has not, and
/// RecordExtents::compute() would find more than this needs.
std::uint64_t latestHostEvidence(const Trace &trace, const RecordExtents *extents)
{
    if (extents)
        return extents->latestHostEvidenceNs();
    std::uint64_t latest = 0;
    for (const Span &s : trace.spans)
        latest = std::max(latest, s.closed ? spanEnd(s) : s.startNs);
    for (const Op &op : trace.ops)
        latest = std::max(latest, saturatingAdd(op.timestampNs, op.durationNs));
    for (const MemoryEvent &m : trace.memory)
        latest = std::max(latest, m.timestampNs.value());
    for (const DeviceMemorySample &d : trace.deviceMemory)
        latest = std::max(latest, d.timestampNs);
    return latest;
}

void terminalFindings(HealthContext &ctx, const RecordExtents *extents)
{
    const Trace &trace = ctx.trace;
    if (!trace.terminal)
        return;
    const Terminal &terminal = *trace.terminal;
    const auto emitTerminal = [&](Severity severity, std::string_view ruleId, std::string_view code,
                                  FindingText message) {
        ctx.emit(severity, ruleId, code, std::move(message), terminal.line, RelatedKind::Terminal);
    };
    if (terminal.outcome == RunOutcome::Complete && terminal.reason) {
        emitTerminal(Severity::Error, "H-TERMINAL-COMPLETE-REASON", "complete_with_failure_reason",
                     "complete terminal outcome cannot contain a failure reason");
    } else if (terminal.outcome == RunOutcome::Failed && (!terminal.reason || isRustBlank(*terminal.reason))) {
        emitTerminal(Severity::Error, "H-TERMINAL-FAILED-NO-REASON", "failed_without_reason",
                     "failed terminal outcome requires a non-empty reason");
    }

    if (const std::uint64_t latest = latestHostEvidence(trace, extents); terminal.timestampNs < latest)
        emitTerminal(Severity::Error, "H-TERMINAL-EARLY", "terminal_precedes_evidence",
                     concat({"terminal timestamp ", std::to_string(terminal.timestampNs),
                             " precedes host evidence ending at ", std::to_string(latest)}));

    if (terminal.outcome == RunOutcome::Failed)
        emitTerminal(Severity::Warning, "W-CAPTURE-FAILED", "capture_failed",
                     terminal.reason ? *terminal.reason : std::string("capture ended with a failed outcome"));
}

/// For every span: does walking parent links from it revisit an id? Each span is visited
/// once: a walk stops at a span already decided and hands its answer down the path.
std::vector<std::uint8_t> spansReachingCycle(const std::vector<std::int32_t> &parent)
{
    enum : std::uint8_t { Unvisited, OnPath, NoCycle, Cycle };
    std::vector<std::uint8_t> state(parent.size(), Unvisited);
    std::vector<std::int32_t> path;
    for (std::size_t start = 0; start < parent.size(); ++start) {
        if (state[start] != Unvisited)
            continue;
        path.clear();
        std::int32_t cur = static_cast<std::int32_t>(start);
        std::uint8_t verdict = NoCycle;
        while (true) {
            if (cur == kNone) {
                verdict = NoCycle;
                break;
            }
            const std::uint8_t st = state[static_cast<std::size_t>(cur)];
            if (st == OnPath) {
                verdict = Cycle;
                break;
            }
            if (st != Unvisited) {
                verdict = st;
                break;
            }
            state[static_cast<std::size_t>(cur)] = OnPath;
            path.push_back(cur);
            cur = parent[static_cast<std::size_t>(cur)];
        }
        for (std::int32_t i : path)
            state[static_cast<std::size_t>(i)] = verdict;
    }
    for (std::uint8_t &st : state)
        st = st == Cycle ? 1 : 0;
    return state;
}

void spanFindings(HealthContext &ctx, const std::vector<std::int32_t> &spanOf, CoverageCounts &coverage)
{
    const Trace &trace = ctx.trace;
    const auto &spans = trace.spans;

    for (std::size_t i = 1; i < spans.size(); ++i) {
        if (spans[i].id == spans[i - 1].id) {
            ctx.emit(Severity::Error, "H-SPAN-ID-DUP", "duplicate_span_id", "span IDs must be unique",
                     spans[i].startLine, RelatedKind::Span, trace.str(spans[i].id), i);
            break;
        }
    }
    if (coverage.rootSpans != 1)
        ctx.emit(Severity::Error, "H-ROOT-COUNT", "root_count",
                 concat({"expected exactly one root span, found ", std::to_string(coverage.rootSpans)}), 0);
    if (coverage.measuredSpans != 1 && !ctx.failed)
        ctx.emit(Severity::Error, "H-MEASURED-COUNT", "measurement_count",
                 concat({"expected exactly one measured region, found ", std::to_string(coverage.measuredSpans)}), 0);

    std::vector<std::int32_t> parent(spans.size(), kNone);
    for (std::size_t i = 0; i < spans.size(); ++i)
        if (spans[i].parentId != kNoString)
            parent[i] = spanOf[spans[i].parentId];
    const std::vector<std::uint8_t> cyclic = spansReachingCycle(parent);

    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Span &s = spans[i];
        const std::string_view id = trace.str(s.id);
        const auto emitSpan = [&](Severity severity, std::string_view ruleId, std::string_view code,
                                  FindingText message) {
            ctx.emit(severity, ruleId, code, std::move(message), s.startLine, RelatedKind::Span, id, i);
        };
        if (!s.closed) {
            if (ctx.failed)
                emitSpan(Severity::Warning, "W-SPAN-INTERRUPTED", "open_span",
                         concat({"span `", id, "` was interrupted"}));
            else
                emitSpan(Severity::Error, "H-SPAN-UNCLOSED", "open_span", concat({"span `", id, "` was not closed"}));
        }
        if (s.parentId != kNoString) {
            const std::string_view parentName = trace.str(s.parentId);
            if (parent[i] == kNone) {
                emitSpan(Severity::Error, "H-SPAN-PARENT-UNKNOWN", "unknown_parent",
                         concat({"span `", id, "` refers to missing parent `", parentName, "`"}));
            } else {
                const Span &p = spans[static_cast<std::size_t>(parent[i])];
                if (s.closed && p.closed && (s.startNs < p.startNs || spanEnd(s) > spanEnd(p)))
                    emitSpan(Severity::Error, "H-SPAN-OUTSIDE-PARENT", "child_outside_parent",
                             concat({"span `", id, "` lies outside parent `", parentName, "`"}));
            }
        }
        if (cyclic[i])
            emitSpan(Severity::Error, "H-SPAN-CYCLE", "span_cycle",
                     concat({"span `", id, "` participates in a parent cycle"}));
    }
}

void evidenceFindings(HealthContext &ctx, const std::vector<std::int32_t> &spanOf)
{
    const Trace &trace = ctx.trace;
    const auto known = [&](StringId span) { return spanOf[span] != kNone; };
    const auto unknownSpan = [&](std::string_view kind, StringId span, std::uint32_t line, RelatedKind relatedKind,
                                 std::string_view relatedId, std::size_t index) {
        ctx.emit(Severity::Error, "H-UNKNOWN-SPAN", "unknown_span",
                 concat({kind, " evidence refers to missing span `", trace.str(span), "`"}), line, relatedKind,
                 relatedId, index);
    };
    // Whether the ops, memory records and device intervals have any of these findings, each
    // array walked once for all its rules: the usual trace has none, and a walk per rule in
    // the §10 order was most of this function. Only arrays that have one are walked again,
    // rule by rule, in that order.
    const auto outside = [&](std::uint64_t start, std::uint64_t end, const Span &s) {
        return s.closed && (start < s.startNs || end > spanEnd(s));
    };
    const auto opFinding = [&](const Op &op) {
        const std::int32_t si = spanOf[op.spanId];
        return si == kNone
               || outside(op.timestampNs, saturatingAdd(op.timestampNs, op.durationNs),
                          trace.spans[static_cast<std::size_t>(si)]);
    };
    const auto memoryFinding = [&](const MemoryEvent &m) {
        const std::int32_t si = spanOf[m.spanId];
        return si == kNone || outside(m.timestampNs, m.timestampNs, trace.spans[static_cast<std::size_t>(si)]);
    };
    const auto intervalFinding = [&](const DeviceInterval &d) { return !known(d.spanId) || d.durationNs == 0; };
    const bool opFindings = std::any_of(trace.ops.begin(), trace.ops.end(), opFinding);
    const bool memoryFindings = std::any_of(trace.memory.begin(), trace.memory.end(), memoryFinding);
    const bool intervalFindings =
        std::any_of(trace.deviceIntervals.begin(), trace.deviceIntervals.end(), intervalFinding);

    for (std::size_t i = 0; opFindings && i < trace.ops.size(); ++i) {
        const Op &op = trace.ops[i];
        if (!known(op.spanId))
            unknownSpan("operation", op.spanId, op.line, RelatedKind::Op, trace.str(op.spanId), i);
    }
    for (std::size_t i = 0; i < trace.tensors.size(); ++i) {
        const Tensor &t = trace.tensors[i];
        if (!known(t.spanId))
            unknownSpan("tensor", t.spanId, t.line, RelatedKind::Tensor, trace.str(t.tensorId), i);
    }
    // RelatedKind has no tensor_stats member; the finding still carries the line.
    for (std::size_t i = 0; i < trace.tensorStats.size(); ++i) {
        const TensorStats &t = trace.tensorStats[i];
        if (!known(t.spanId))
            unknownSpan("tensor stats", t.spanId, t.line, RelatedKind::TensorStats, trace.str(t.spanId), i);
    }
    for (std::size_t i = 0; memoryFindings && i < trace.memory.size(); ++i) {
        const MemoryEvent &m = trace.memory[i];
        if (!known(m.spanId))
            unknownSpan("memory", m.spanId, m.line, RelatedKind::Storage, trace.str(m.storageId), i);
    }
    for (std::size_t i = 0; intervalFindings && i < trace.deviceIntervals.size(); ++i) {
        const DeviceInterval &d = trace.deviceIntervals[i];
        if (!known(d.spanId))
            unknownSpan("device interval", d.spanId, d.line, RelatedKind::DeviceInterval, trace.str(d.spanId), i);
    }
    for (std::size_t i = 0; intervalFindings && i < trace.deviceIntervals.size(); ++i) {
        const DeviceInterval &d = trace.deviceIntervals[i];
        if (d.durationNs == 0)
            ctx.emit(Severity::Error, "H-DEVICE-INTERVAL-EMPTY", "empty_device_interval",
                     concat({"device interval for `", trace.str(d.spanId), "` has zero duration"}), d.line,
                     RelatedKind::DeviceInterval, trace.str(d.spanId), i);
    }
    for (std::size_t i = 0; opFindings && i < trace.ops.size(); ++i) {
        const Op &op = trace.ops[i];
        const std::int32_t si = spanOf[op.spanId];
        if (si == kNone)
            continue;
        if (outside(op.timestampNs, saturatingAdd(op.timestampNs, op.durationNs),
                    trace.spans[static_cast<std::size_t>(si)]))
            ctx.emit(Severity::Error, "H-OP-OUTSIDE-SPAN", "operation_outside_span",
                     concat({"operation `", trace.str(op.opName), "` lies outside span `", trace.str(op.spanId), "`"}),
                     op.line, RelatedKind::Op, trace.str(op.spanId), i);
    }
    for (std::size_t i = 0; memoryFindings && i < trace.memory.size(); ++i) {
        const MemoryEvent &m = trace.memory[i];
        const std::int32_t si = spanOf[m.spanId];
        if (si == kNone)
            continue;
        if (outside(m.timestampNs, m.timestampNs, trace.spans[static_cast<std::size_t>(si)]))
            ctx.emit(Severity::Error, "H-MEMORY-OUTSIDE-SPAN", "memory_outside_span",
                     concat({"memory event for storage `", trace.str(m.storageId), "` lies outside span `",
                             trace.str(m.spanId), "`"}),
                     m.line, RelatedKind::Storage, trace.str(m.storageId), i);
    }
    for (std::size_t i = 0; i < trace.deviceMemory.size(); ++i) {
        const DeviceMemorySample &d = trace.deviceMemory[i];
        if (d.present == 0)
            ctx.emit(Severity::Error, "H-DEVICE-MEMORY-EMPTY", "empty_device_memory_sample",
                     concat({"device-memory sample for `", trace.str(d.device), "` contains no measurements"}), d.line,
                     RelatedKind::DeviceMemory, trace.str(d.device), i);
    }
}

void edgeFindings(HealthContext &ctx, const std::vector<std::int32_t> &spanOf)
{
    const Trace &trace = ctx.trace;
    auto &scratch = ctx.scratch;
    for (const Tensor &t : trace.tensors)
        scratch[t.tensorId] |= KnownTensor;
    for (const Op &op : trace.ops) {
        for (StringId input : trace.idLists.view(op.inputs))
            scratch[input] |= KnownTensor;
        if (op.output != kNoString)
            scratch[op.output] |= KnownTensor;
    }

    for (std::size_t i = 0; i < trace.edges.size(); ++i) {
        const Edge &e = trace.edges[i];
        const std::string_view from = trace.str(e.from);
        const std::string_view to = trace.str(e.to);
        const auto emitEdge = [&](std::string_view ruleId, std::string_view code, FindingText message) {
            ctx.emit(Severity::Error, ruleId, code, std::move(message), e.line, RelatedKind::Edge, from, i);
        };
        if (e.kind == EdgeKind::Call) {
            const std::int32_t fromIndex = spanOf[e.from];
            const std::int32_t toIndex = spanOf[e.to];
            if (fromIndex == kNone || toIndex == kNone) {
                emitEdge("H-CALL-EDGE-SPAN-UNKNOWN", "unknown_call_edge_span",
                         concat({"call edge `", from, "` -> `", to, "` refers to a missing span"}));
                continue;
            }
            const Span &target = trace.spans[static_cast<std::size_t>(toIndex)];
            if (target.parentId != e.from)
                emitEdge("H-CALL-EDGE-HIERARCHY", "call_edge_hierarchy_mismatch",
                         concat({"call edge `", from, "` -> `", to, "` does not match the span hierarchy"}));
            if (target.closed && e.hostDurationNs != target.durationNs)
                emitEdge("H-CALL-EDGE-DURATION", "call_edge_duration_mismatch",
                         concat({"call edge `", from, "` -> `", to, "` reports ", std::to_string(e.hostDurationNs),
                                 " ns but the span reports ", std::to_string(target.durationNs), " ns"}));
        } else {
            if (from.empty() || to.empty()) {
                emitEdge("H-DATA-EDGE-EMPTY", "empty_data_edge_endpoint", "data-edge tensor IDs cannot be empty");
            } else if (!(scratch[e.from] & KnownTensor) || !(scratch[e.to] & KnownTensor)) {
                emitEdge("H-DATA-EDGE-UNKNOWN", "unknown_data_edge_tensor",
                         concat({"data edge `", from, "` -> `", to, "` refers to unknown tensor evidence"}));
            }
        }
    }
}

/// \a buffer is another pass's array of the string table's size, given on so that its pages
/// are not mapped and zeroed afresh: it holds the storage index.
void memoryPairingFindings(HealthContext &ctx, std::vector<std::int32_t> buffer)
{
    const Trace &trace = ctx.trace;
    const auto &memory = trace.memory;
    if (memory.empty())
        return;

    // Records already in time order (the usual case) are walked in place, without an order array.
    const bool inTimeOrder =
        std::is_sorted(memory.begin(), memory.end(),
                       [](const MemoryEvent &a, const MemoryEvent &b) { return a.timestampNs < b.timestampNs; });
    std::vector<std::uint32_t> order;
    if (!inTimeOrder) {
        order.resize(memory.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return memory[a].timestampNs < memory[b].timestampNs;
        });
    }

    // Live state per (device, storage) key. Keys are found through their interned storage
    // id; the few storages seen on several devices chain their keys.
    constexpr std::uint32_t kEnd = std::numeric_limits<std::uint32_t>::max();
    // 16 bytes a key: a live key names the record that made it live, whose size and tensor
    // it compares against, instead of copying them in (28 bytes). A 1 GB trace has 0.63
    // million keys, alive beside the other analyses at the window's peak.
    struct KeyState {
        StringId device = kNoString;
        std::uint32_t liveRecord = kEnd;  // the allocation that made it live, kEnd = not live
        std::uint32_t moreTensors = kEnd; // aliases beyond the allocation's tensor
        std::uint32_t sameStorage = kEnd; // next key with this storage id
    };
    static_assert(sizeof(KeyState) == 16);
    struct AliasNode {
        StringId tensor;
        std::uint32_t next;
    };
    // Key indices are kept as their two's complement bits (modular conversion, C++20).
    std::vector<std::int32_t> &storageKeys = buffer;
    storageKeys.assign(trace.strings.size(), static_cast<std::int32_t>(kEnd));
    const auto keyOfStorage = [&storageKeys](StringId storage) {
        return static_cast<std::uint32_t>(storageKeys[storage]);
    };
    std::vector<KeyState> states;
    {
        const SparseReservation bound;
        states.reserve(memory.size()); // at most one key a record: no copy at each doubling
    }
    std::vector<AliasNode> aliases;
    std::uint64_t liveCount = 0;

    for (std::size_t position = 0; position < memory.size(); ++position) {
        const auto index = static_cast<std::uint32_t>(inTimeOrder ? position : order[position]);
        const MemoryEvent &m = memory[index];
        std::uint32_t k = keyOfStorage(m.storageId);
        while (k != kEnd && states[k].device != m.device)
            k = states[k].sameStorage;
        if (k == kEnd) {
            k = static_cast<std::uint32_t>(states.size());
            KeyState &created = states.emplace_back();
            created.device = m.device;
            created.sameStorage = keyOfStorage(m.storageId);
            storageKeys[m.storageId] = static_cast<std::int32_t>(k);
        }
        KeyState &st = states[k];
        const std::string_view storage = trace.str(m.storageId);
        const std::string_view device = trace.str(m.device);
        const auto emitMemory = [&](std::string_view ruleId, std::string_view code, FindingText message) {
            ctx.emit(Severity::Error, ruleId, code, std::move(message), m.line, RelatedKind::Storage, storage, index);
        };
        if (m.action == MemoryAction::Alloc) {
            if (st.liveRecord == kEnd) {
                st.liveRecord = index;
                st.moreTensors = kEnd;
                ++liveCount;
                continue;
            }
            const MemoryEvent &allocation = memory[st.liveRecord];
            if (allocation.bytes != m.bytes) {
                emitMemory("H-ALLOC-SIZE-CONFLICT", "allocation_size_mismatch",
                           concat({"storage `", storage, "` on `", device, "` has conflicting allocation sizes"}));
            } else {
                bool attached = allocation.tensorId == m.tensorId;
                for (std::uint32_t n = st.moreTensors; !attached && n != kEnd; n = aliases[n].next)
                    attached = aliases[n].tensor == m.tensorId;
                if (attached) {
                    emitMemory("H-ALLOC-DUP", "duplicate_allocation",
                               concat({"tensor `", trace.str(m.tensorId), "` repeated an allocation for storage `",
                                       storage, "` on `", device, "`"}));
                } else {
                    aliases.push_back({m.tensorId, st.moreTensors});
                    st.moreTensors = static_cast<std::uint32_t>(aliases.size() - 1);
                }
            }
        } else {
            if (st.liveRecord == kEnd) {
                emitMemory("H-FREE-UNPAIRED", "unpaired_free",
                           concat({"storage `", storage, "` on `", device, "` was freed while not live"}));
            } else {
                const std::uint64_t allocated = memory[st.liveRecord].bytes;
                st.liveRecord = kEnd;
                --liveCount;
                if (allocated != m.bytes)
                    emitMemory("H-FREE-SIZE-MISMATCH", "allocation_size_mismatch",
                               concat({"storage `", storage, "` allocated ", std::to_string(allocated),
                                       " bytes but freed ", std::to_string(m.bytes)}));
            }
        }
    }
    if (liveCount > 0)
        ctx.emit(Severity::Warning, "W-RETAINED-ALLOCATIONS", "retained_allocations",
                 concat({std::to_string(liveCount), " storages remained live at capture end"}), 0);
}

void coverageFindings(HealthContext &ctx, const CoverageCounts &c)
{
    const bool train = ctx.trace.meta && ctx.trace.meta->phase == ExecutionPhase::Train;
    const bool hasMeta = ctx.trace.meta.has_value();
    struct Check {
        bool absent;
        std::string_view ruleId;
        std::string_view code;
        std::string_view message;
    };
    const Check checks[] = {
        {c.operations == 0, "W-OPS-ABSENT", "operations_absent", "no operation evidence was captured"},
        {c.tensors == 0, "W-TENSORS-ABSENT", "tensors_absent", "no tensor checkpoints were captured"},
        {c.memoryEvents == 0, "W-LOGICAL-MEMORY-ABSENT", "logical_memory_absent",
         "no logical storage events were captured"},
        {c.deviceMemorySamples == 0, "W-PHYSICAL-MEMORY-ABSENT", "physical_memory_absent",
         "no physical device-memory samples were captured"},
        {c.deviceIntervals == 0, "W-DEVICE-TIMING-ABSENT", "device_timing_absent",
         "no device timing intervals were captured"},
        {hasMeta && train && c.gradients == 0, "W-GRADIENTS-ABSENT", "gradients_absent",
         "no gradient facts were captured for this training run"},
        {hasMeta && train && c.forwardSpans == 0, "W-FORWARD-ABSENT", "forward_absent", "no forward span was tagged"},
        {hasMeta && train && c.backwardSpans == 0, "W-BACKWARD-ABSENT", "backward_absent",
         "no backward span was tagged"},
        {hasMeta && train && c.optimizerSpans == 0, "W-OPTIMIZER-ABSENT", "optimizer_absent",
         "no optimizer span was tagged"},
    };
    for (const Check &check : checks)
        if (check.absent)
            ctx.emit(Severity::Warning, check.ruleId, check.code, std::string(check.message), 0);
}

CoverageCounts countCoverage(const Trace &trace)
{
    CoverageCounts c;
    c.spans = trace.spans.size();
    for (const Span &s : trace.spans) {
        c.closedSpans += s.closed;
        c.rootSpans += s.parentId == kNoString;
        c.measuredSpans += s.measured;
        c.forwardSpans += s.step == ExecutionStep::Forward;
        c.backwardSpans += s.step == ExecutionStep::Backward;
        c.optimizerSpans += s.step == ExecutionStep::Optimizer;
    }
    c.operations = trace.ops.size();
    c.tensors = trace.tensors.size();
    c.memoryEvents = trace.memory.size();
    c.deviceMemorySamples = trace.deviceMemory.size();
    c.deviceIntervals = trace.deviceIntervals.size();
    c.gradients = trace.gradients.size();
    for (const Edge &e : trace.edges)
        (e.kind == EdgeKind::Call ? c.callEdges : c.dataEdges) += 1;
    return c;
}

} // namespace

HealthReport analyzeHealth(const Trace &trace, const RecordExtents *extents)
{
    HealthReport report;
    HealthContext ctx{trace, trace.terminal && trace.terminal->outcome == RunOutcome::Failed, report.findings, {}};
    ctx.scratch.assign(trace.strings.size(), 0);
    report.coverage = countCoverage(trace);

    // Span index by StringId: ids are interned, so equal ids are equal strings.
    std::vector<std::int32_t> spanOf(trace.strings.size(), kNone);
    for (std::size_t i = 0; i < trace.spans.size(); ++i)
        spanOf[trace.spans[i].id] = static_cast<std::int32_t>(i);
    spanOf[kNoString] = kNone;

    if (trace.meta) {
        if (auto message = validateRunMeta(*trace.meta))
            ctx.emitMeta(Severity::Error, "H-RUN-PROVENANCE", "run_provenance_invalid", std::move(*message));
    }
    terminalFindings(ctx, extents);
    spanFindings(ctx, spanOf, report.coverage);
    evidenceFindings(ctx, spanOf);
    edgeFindings(ctx, spanOf);
    // The span index is not needed past here; its buffer becomes the storage index.
    memoryPairingFindings(ctx, std::move(spanOf));
    gradientFindings(ctx);
    coverageFindings(ctx, report.coverage);
    labelFindings(ctx);

    report.structurallyValid = std::none_of(report.findings.begin(), report.findings.end(),
                                            [](const Problem &p) { return p.severity == Severity::Error; });
    report.captureComplete = trace.terminal && trace.terminal->outcome == RunOutcome::Complete;
    report.omittedFindings = ctx.limiter.omitted();
    return report;
}

} // namespace TraceInspector
