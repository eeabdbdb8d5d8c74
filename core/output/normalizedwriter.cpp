// SPDX-License-Identifier: MIT
#include "core/output/normalizedwriter.h"

#include <span>
#include <string_view>

#include "core/model/trace.h"
#include "core/output/devicememoryamounts.h"
#include "core/output/jsonwriter.h"
#include "core/output/laidouttext.h"
#include "core/output/orderedblocks.h"

namespace TraceInspector {

namespace {

// Bulk records are laid out through a pointer into the block's text (LaidOutText): a 1 GB
// trace has ~7 M records of ~15 pieces each, and one std::string append per piece, a
// function call and a byte-wise escape scan per string, had made most of the writing time.
class RecordEmitter
{
public:
    RecordEmitter(const Trace &trace, std::string &out)
        : m_trace(trace)
        , m_text(out, 0)
    {
    }

    void span(const Span &s)
    {
        begin(R"({"kind":"span_start","id":)");
        str(s.id);
        if (s.parentId != kNoString) {
            lit(R"(,"parent_id":)");
            str(s.parentId);
        }
        lit(R"(,"name":)");
        str(s.name);
        lit(R"(,"start_ns":)");
        u64(s.startNs);
        lit(R"(,"span_kind":)");
        enumName(spanKindName(s.kind));
        lit(R"(,"measured":)");
        boolean(s.measured);
        if (s.step != ExecutionStep::None) {
            lit(R"(,"step":)");
            enumName(stepName(s.step));
        }
        endRecord();
        if (s.closed) {
            begin(R"({"kind":"span_end","id":)");
            str(s.id);
            lit(R"(,"duration_ns":)");
            u64(s.durationNs);
            endRecord();
        }
    }

    void op(const Op &o)
    {
        begin(R"({"kind":"op","span_id":)");
        str(o.spanId);
        lit(R"(,"op_name":)");
        str(o.opName);
        lit(R"(,"inputs":)");
        stringList(m_trace.idLists.view(o.inputs));
        if (o.output != kNoString) {
            lit(R"(,"output":)");
            str(o.output);
        }
        lit(R"(,"shape":)");
        shape(o.shape);
        lit(R"(,"dtype":)");
        str(o.dtype);
        lit(R"(,"device":)");
        str(o.device);
        lit(R"(,"duration_ns":)");
        u64(o.durationNs);
        lit(R"(,"timestamp_ns":)");
        u64(o.timestampNs);
        if (o.hasOutputDenseBytes) {
            lit(R"(,"output_dense_bytes":)");
            u64(o.outputDenseBytes);
        }
        lit(R"(,"input_dense_bytes":)");
        u64(o.inputDenseBytes);
        endRecord();
    }

    void tensor(const Tensor &t)
    {
        begin(R"({"kind":"tensor","span_id":)");
        str(t.spanId);
        lit(R"(,"tensor_id":)");
        str(t.tensorId);
        if (t.label != kNoString) {
            lit(R"(,"label":)");
            str(t.label);
        }
        lit(R"(,"shape":)");
        shape(t.shape);
        lit(R"(,"dtype":)");
        str(t.dtype);
        lit(R"(,"device":)");
        str(t.device);
        lit(R"(,"requires_grad":)");
        boolean(t.requiresGrad);
        if (t.hasDenseBytes) {
            lit(R"(,"dense_bytes":)");
            u64(t.denseBytes);
        }
        lit(R"(,"category":)");
        enumName(memoryCategoryName(t.category));
        endRecord();
    }

    void tensorStats(const TensorStats &t)
    {
        begin(R"({"kind":"tensor_stats","span_id":)");
        str(t.spanId);
        lit(R"(,"label":)");
        str(t.label);
        lit(R"(,"shape":)");
        shape(t.shape);
        lit(R"(,"dtype":)");
        str(t.dtype);
        lit(R"(,"elements":)");
        u64(t.elements);
        lit(R"(,"non_finite":)");
        u64(t.nonFinite);
        lit(R"(,"rms":)");
        f64(t.rms);
        lit(R"(,"abs_max":)");
        f64(t.absMax);
        lit(R"(,"mean":)");
        f64(t.mean);
        endRecord();
    }

    void memory(const MemoryEvent &m)
    {
        begin(R"({"kind":"memory","timestamp_ns":)");
        u64(m.timestampNs);
        lit(R"(,"storage_id":)");
        str(m.storageId);
        lit(R"(,"tensor_id":)");
        str(m.tensorId);
        lit(R"(,"span_id":)");
        str(m.spanId);
        if (m.opName != kNoString) {
            lit(R"(,"op_name":)");
            str(m.opName);
        }
        lit(R"(,"device":)");
        str(m.device);
        lit(R"(,"bytes":)");
        u64(m.bytes);
        lit(R"(,"action":)");
        enumName(memoryActionName(m.action));
        lit(R"(,"shape":)");
        shape(m.shape);
        lit(R"(,"dtype":)");
        str(m.dtype);
        lit(R"(,"category":)");
        enumName(memoryCategoryName(m.category));
        endRecord();
    }

    void deviceMemory(const DeviceMemorySample &d)
    {
        begin(R"({"kind":"device_memory","timestamp_ns":)");
        u64(d.timestampNs);
        lit(R"(,"device":)");
        str(d.device);
        writeDeviceMemoryAmounts(*this, d);
        endRecord();
    }

    void deviceInterval(const DeviceInterval &d)
    {
        begin(R"({"kind":"device_interval","span_id":)");
        str(d.spanId);
        lit(R"(,"device":)");
        str(d.device);
        lit(R"(,"stream_id":)");
        str(d.streamId);
        lit(R"(,"clock_id":)");
        str(d.clockId);
        lit(R"(,"backend":)");
        str(d.backend);
        lit(R"(,"start_ns":)");
        u64(d.startNs);
        lit(R"(,"duration_ns":)");
        u64(d.durationNs);
        endRecord();
    }

    void gradient(const Gradient &g)
    {
        begin(R"({"kind":"gradient","event_id":)");
        str(g.eventId);
        lit(R"(,"root":)");
        str(g.root);
        lit(R"(,"key":)");
        str(g.key);
        lit(R"(,"state":)");
        enumName(gradientStateName(g.state));
        if (g.hasNorm) {
            lit(R"(,"norm":)");
            f64(g.norm);
        }
        endRecord();
    }

    void edge(const Edge &e)
    {
        if (e.kind == EdgeKind::Call) {
            begin(R"({"kind":"edge","edge_kind":"call","from_span":)");
            str(e.from);
            lit(R"(,"to_span":)");
            str(e.to);
            lit(R"(,"host_duration_ns":)");
            u64(e.hostDurationNs);
        } else {
            begin(R"({"kind":"edge","edge_kind":"data","from_tensor":)");
            str(e.from);
            lit(R"(,"to_tensor":)");
            str(e.to);
        }
        endRecord();
    }

private:
    friend void TraceInspector::writeDeviceMemoryAmounts<RecordEmitter>(RecordEmitter &out,
                                                                        const DeviceMemorySample &s);

    // Room for everything of one record but its strings, shape and id list (member names,
    // numbers, floats, enumeration values; the longest record needs about 300 characters):
    // asked for at the start of a record and after each of its pieces of unbounded size,
    // so the fixed pieces between them are written without a check.
    static constexpr std::size_t kRecordRoom = 512;

    void begin(std::string_view fragment)
    {
        m_text.room(kRecordRoom);
        m_text.put(fragment);
    }
    void lit(std::string_view fragment) { m_text.put(fragment); }
    void endRecord() { m_text.put("}\n"); }
    void u64(std::uint64_t v) { m_text.decimal(v); }
    void f64(double v) { m_text.jsonFloat(v); }
    void boolean(bool v) { m_text.put(v ? std::string_view("true") : std::string_view("false")); }
    /// An enumeration value: a name that needs no escaping, quoted.
    void enumName(std::string_view name)
    {
        m_text.put('"');
        m_text.put(name);
        m_text.put('"');
    }
    void str(StringId id)
    {
        const std::string_view text = m_trace.str(id);
        m_text.room(text.size() + 2 + kRecordRoom); // escapes make their own room
        m_text.jsonString(text);
    }
    void shape(ShapeId id)
    {
        const std::span<const std::uint64_t> dims = m_trace.shapes.view(id);
        m_text.room(dims.size() * (1 + LaidOutText::kNumberBound) + 2 + kRecordRoom);
        m_text.put('[');
        for (std::size_t i = 0; i < dims.size(); ++i) {
            if (i)
                m_text.put(',');
            m_text.decimal(dims[i]);
        }
        m_text.put(']');
    }
    void stringList(std::span<const StringId> ids)
    {
        m_text.put('[');
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (i)
                m_text.put(',');
            str(ids[i]);
        }
        m_text.put(']');
    }

    const Trace &m_trace;
    LaidOutText m_text;
};

// Records per block formatted on a worker: ~0.6 MB of text, so a block's reused buffer
// stays in cache and several blocks per thread keep memory small.
constexpr std::size_t kRecordsPerBlock = 4096;

/// Writes every item of \a items with \a emitOne, in order, formatting blocks of them in
/// parallel.
template<typename T>
bool writeSection(const Trace &trace, const std::vector<T> &items, void (RecordEmitter::*emitOne)(const T &),
                  JsonWriter &out)
{
    return OrderedBlockFormatter::run(
        items.size(), kRecordsPerBlock,
        [&](std::size_t begin, std::size_t end, std::string &text) {
            RecordEmitter e(trace, text);
            for (std::size_t i = begin; i < end; ++i)
                (e.*emitOne)(items[i]);
        },
        [&out](std::string_view text) { return out.writeThrough(text); });
}

void writeStringArray(JsonWriter &w, const std::vector<std::string> &items)
{
    w.beginArray();
    for (const std::string &s : items)
        w.string(s);
    w.endArray();
}

void writeCaptureContract(JsonWriter &w, const CaptureContract &c)
{
    w.beginObject();
    w.key("measurement_scope").string(measurementScopeName(c.measurementScope));
    w.key("operations").string(coverageLevelName(c.operations));
    w.key("tensors").string(coverageLevelName(c.tensors));
    w.key("gradients").string(coverageLevelName(c.gradients));
    if (c.gradientContract) {
        const GradientContract &g = *c.gradientContract;
        w.key("gradient_contract").beginObject();
        w.key("manifest_sha256").string(g.manifestSha256);
        w.key("expected").beginArray();
        for (const ExpectedGradient &e : g.expected)
            w.beginObject()
                .key("root")
                .string(e.root)
                .key("key")
                .string(e.key)
                .key("family")
                .string(e.family)
                .endObject();
        w.endArray();
        w.key("families").beginArray();
        for (const GradientFamilyContract &f : g.families) {
            w.beginObject()
                .key("family")
                .string(f.family)
                .key("expectation")
                .string(familyExpectationName(f.expectation))
                .key("min_present")
                .u64(f.minPresent)
                .endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.key("logical_memory").string(coverageLevelName(c.logicalMemory));
    w.key("physical_memory").string(coverageLevelName(c.physicalMemory));
    w.key("device_timing").string(coverageLevelName(c.deviceTiming));
    w.key("required_semantic_labels");
    writeStringArray(w, c.requiredSemanticLabels);
    if (!c.gpuExpectedSemanticLabels.empty()) {
        w.key("gpu_expected_semantic_labels");
        writeStringArray(w, c.gpuExpectedSemanticLabels);
    }
    if (!c.cpuOnlySemanticLabels.empty()) {
        w.key("cpu_only_semantic_labels");
        writeStringArray(w, c.cpuOnlySemanticLabels);
    }
    w.endObject();
}

void writeComparisonIdentity(JsonWriter &w, const ComparisonIdentity &c)
{
    w.beginObject();
    if (c.implementationId)
        w.key("implementation_id").string(*c.implementationId);
    w.key("workload_id").string(c.workloadId);
    w.key("model_id").string(c.modelId);
    w.key("config_id").string(c.configId);
    w.key("data_id").string(c.dataId);
    w.key("seed_policy").string(c.seedPolicy);
    w.key("physical_batch").u64(c.physicalBatch);
    w.key("accumulation_steps").u64(c.accumulationSteps);
    w.key("precision").string(c.precision);
    w.key("device_state").string(c.deviceState);
    if (c.pairId)
        w.key("pair_id").string(*c.pairId);
    w.endObject();
}

void writeMeta(JsonWriter &w, const TraceMeta &m)
{
    w.beginObject();
    w.key("kind").string("meta");
    w.key("schema").string(m.schema);
    w.key("run_id").string(m.runId);
    w.key("correlation_id").string(m.correlationId);
    w.key("entrypoint").string(m.entrypoint);
    w.key("phase").string(phaseName(m.phase));
    w.key("timestamp").string(m.timestamp);
    w.key("capture_step").u64(m.captureStep);
    w.key("warmup_steps").u64(m.warmupSteps);
    w.key("device").string(m.device);
    w.key("measured_region_device_synchronized").boolean(m.measuredRegionDeviceSynchronized);
    w.key("timing_mode").string(timingModeName(m.timingMode));
    w.key("capture_contract");
    writeCaptureContract(w, m.captureContract);
    if (m.comparisonIdentity) {
        w.key("comparison_identity");
        writeComparisonIdentity(w, *m.comparisonIdentity);
    }
    w.key("tags").beginObject();
    for (const auto &[k, v] : m.tags) // std::map: byte-wise key order, as upstream's BTreeMap
        w.key(k).string(v);
    w.endObject();
    if (m.candleVersion)
        w.key("candle_version").string(*m.candleVersion);
    w.endObject().endLine();
}

void writeTerminal(JsonWriter &w, const Terminal &t)
{
    w.beginObject();
    w.key("kind").string("terminal");
    w.key("outcome").string(runOutcomeName(t.outcome));
    w.key("timestamp_ns").u64(t.timestampNs);
    if (t.reason)
        w.key("reason").string(*t.reason);
    w.endObject().endLine();
}

} // namespace

bool writeNormalized(const Trace &trace, JsonWriter &out)
{
    if (trace.meta)
        writeMeta(out, *trace.meta);

    // Stop at the first failed write: the writer drops everything after it anyway.
    writeSection(trace, trace.spans, &RecordEmitter::span, out)
        && writeSection(trace, trace.ops, &RecordEmitter::op, out)
        && writeSection(trace, trace.tensors, &RecordEmitter::tensor, out)
        && writeSection(trace, trace.tensorStats, &RecordEmitter::tensorStats, out)
        && writeSection(trace, trace.memory, &RecordEmitter::memory, out)
        && writeSection(trace, trace.deviceMemory, &RecordEmitter::deviceMemory, out)
        && writeSection(trace, trace.deviceIntervals, &RecordEmitter::deviceInterval, out)
        && writeSection(trace, trace.gradients, &RecordEmitter::gradient, out)
        && writeSection(trace, trace.edges, &RecordEmitter::edge, out);

    if (trace.terminal)
        writeTerminal(out, *trace.terminal);
    return out.flush();
}

std::string normalizedText(const Trace &trace)
{
    JsonWriter w;
    writeNormalized(trace, w);
    return w.takeBuffer();
}

} // namespace TraceInspector
