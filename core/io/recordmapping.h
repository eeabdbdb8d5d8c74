// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/pagerelease.h"
#include "core/model/records.h"
#include "core/model/trace.h"
#include "core/model/tracemeta.h"

namespace TraceInspector {

// Which C++ member receives each wire field. The field index is the position in the
// corresponding eventschema.h table; the tables say what each field must look like, these
// mappings only store what the decoder has already checked.

/// One decoded field value; only the part matching the field's WireType is meaningful.
struct FieldValue {
    bool present = true;                               // false: an optional member given as `null`
    bool disposable = false;                           // text lies in a line never read again (JsonLexer::disposable())
    std::string_view text;                             // String (valid until the next string is read)
    std::uint64_t u = 0;                               // U64, Usize
    double f = 0;                                      // F64
    bool b = false;                                    // Bool
    int index = 0;                                     // Enum: the C++ enumerator value
    ShapeId shape = 0;                                 // Shape
    ListRef list;                                      // StringIds
    std::vector<std::string> *strings = nullptr;       // Strings (the decoder's buffer)
    std::map<std::string, std::string> *map = nullptr; // StringMap (the decoder's buffer)
};

namespace RecordMapping {

inline StringId internOptional(Trace &t, const FieldValue &v)
{
    return v.present ? t.strings.intern(v.text) : kNoString;
}

inline std::optional<std::string> optionalText(const FieldValue &v)
{
    return v.present ? std::optional<std::string>(std::string(v.text)) : std::nullopt;
}

struct SpanStart {
    Trace &t;
    Span &s;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: s.id = t.strings.intern(v.text); break;
        case 1: s.parentId = internOptional(t, v); break;
        case 2: s.name = t.strings.intern(v.text); break;
        case 3: s.startNs = v.u; break;
        case 4: s.kind = static_cast<SpanKind>(v.index); break;
        case 5: s.measured = v.b; break;
        default: s.step = v.present ? static_cast<ExecutionStep>(v.index) : ExecutionStep::None; break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct SpanEnd {
    Trace &t;
    StringId &id;
    std::uint64_t &durationNs;
    void set(int idx, const FieldValue &v)
    {
        if (idx == 0)
            id = t.strings.intern(v.text);
        else
            durationNs = v.u;
    }
    void *nested(int) { return nullptr; }
};

struct OpRecord {
    Trace &t;
    Op &o;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: o.spanId = t.strings.intern(v.text); break;
        case 1: o.opName = t.strings.intern(v.text); break;
        case 2: o.inputs = v.list; break;
        case 3: o.output = internOptional(t, v); break;
        case 4: o.shape = v.shape; break;
        case 5: o.dtype = t.strings.intern(v.text); break;
        case 6: o.device = t.strings.intern(v.text); break;
        case 7: o.durationNs = v.u; break;
        case 8: o.timestampNs = v.u; break;
        case 9:
            o.hasOutputDenseBytes = v.present;
            o.outputDenseBytes = v.present ? v.u : 0;
            break;
        default: o.inputDenseBytes = v.u; break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct TensorRecord {
    Trace &t;
    Tensor &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.spanId = t.strings.intern(v.text); break;
        case 1: r.tensorId = t.strings.intern(v.text); break;
        case 2: r.label = internOptional(t, v); break;
        case 3: r.shape = v.shape; break;
        case 4: r.dtype = t.strings.intern(v.text); break;
        case 5: r.device = t.strings.intern(v.text); break;
        case 6: r.requiresGrad = v.b; break;
        case 7:
            r.hasDenseBytes = v.present;
            r.denseBytes = v.present ? v.u : 0;
            break;
        default: r.category = static_cast<MemoryCategory>(v.index); break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct TensorStatsRecord {
    Trace &t;
    TensorStats &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.spanId = t.strings.intern(v.text); break;
        case 1: r.label = t.strings.intern(v.text); break;
        case 2: r.shape = v.shape; break;
        case 3: r.dtype = t.strings.intern(v.text); break;
        case 4: r.elements = v.u; break;
        case 5: r.nonFinite = v.u; break;
        case 6: r.rms = v.f; break;
        case 7: r.absMax = v.f; break;
        default: r.mean = v.f; break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct MemoryRecord {
    Trace &t;
    MemoryEvent &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.timestampNs = v.u; break;
        case 1: r.storageId = t.strings.intern(v.text); break;
        case 2: r.tensorId = t.strings.intern(v.text); break;
        case 3: r.spanId = t.strings.intern(v.text); break;
        case 4: r.opName = internOptional(t, v); break;
        case 5: r.device = t.strings.intern(v.text); break;
        case 6: r.bytes = v.u; break;
        case 7: r.action = static_cast<MemoryAction>(v.index); break;
        case 8: r.shape = v.shape; break;
        case 9: r.dtype = t.strings.intern(v.text); break;
        default: r.category = static_cast<MemoryCategory>(v.index); break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct DeviceMemoryRecord {
    Trace &t;
    DeviceMemorySample &r;
    void set(int idx, const FieldValue &v)
    {
        static constexpr DeviceMemorySample::Field kFlags[] = {DeviceMemorySample::Used, DeviceMemorySample::Free,
                                                               DeviceMemorySample::Reserved,
                                                               DeviceMemorySample::Capacity};
        switch (idx) {
        case 0: r.timestampNs = v.u; break;
        case 1: r.device = t.strings.intern(v.text); break;
        default: {
            std::uint64_t *slots[] = {&r.usedBytes, &r.freeBytes, &r.reservedBytes, &r.capacityBytes};
            const auto flag = static_cast<std::uint8_t>(kFlags[idx - 2]);
            *slots[idx - 2] = v.present ? v.u : 0;
            r.present = static_cast<std::uint8_t>(v.present ? (r.present | flag) : (r.present & ~flag));
            break;
        }
        }
    }
    void *nested(int) { return nullptr; }
};

struct DeviceIntervalRecord {
    Trace &t;
    DeviceInterval &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.spanId = t.strings.intern(v.text); break;
        case 1: r.device = t.strings.intern(v.text); break;
        case 2: r.streamId = t.strings.intern(v.text); break;
        case 3: r.clockId = t.strings.intern(v.text); break;
        case 4: r.backend = t.strings.intern(v.text); break;
        case 5: r.startNs = v.u; break;
        default: r.durationNs = v.u; break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct GradientRecord {
    Trace &t;
    Gradient &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.eventId = t.strings.intern(v.text); break;
        case 1: r.root = t.strings.intern(v.text); break;
        case 2: r.key = t.strings.intern(v.text); break;
        case 3: r.state = static_cast<GradientState>(v.index); break;
        default:
            r.hasNorm = v.present;
            r.norm = v.present ? v.f : 0;
            break;
        }
    }
    void *nested(int) { return nullptr; }
};

/// Both edge variants: from/to are span ids (call) or tensor ids (data).
struct EdgeRecord {
    Trace &t;
    Edge &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.from = t.strings.intern(v.text); break;
        case 1: r.to = t.strings.intern(v.text); break;
        default: r.hostDurationNs = v.u; break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct TerminalRecord {
    Terminal &r;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: r.outcome = static_cast<RunOutcome>(v.index); break;
        case 1: r.timestampNs = v.u; break;
        default: r.reason = optionalText(v); break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct MetaRecord {
    TraceMeta &m;
    /// The run header's strings are not interned: a 200 MB one (a hostile schema) is copied
    /// out of its line, whose pages are given back behind the copy, so it is held once.
    static void assign(std::string &to, const FieldValue &v)
    {
        if (!v.disposable) {
            to.assign(v.text);
            return;
        }
        to.clear();
        to.reserve(v.text.size());
        appendReleasing(to, v.text);
    }
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: assign(m.schema, v); break;
        case 1: assign(m.runId, v); break;
        case 2: assign(m.correlationId, v); break;
        case 3: assign(m.entrypoint, v); break;
        case 4: m.phase = static_cast<ExecutionPhase>(v.index); break;
        case 5: assign(m.timestamp, v); break;
        case 6: m.captureStep = v.u; break;
        case 7: m.warmupSteps = v.u; break;
        case 8: assign(m.device, v); break;
        case 9: m.measuredRegionDeviceSynchronized = v.b; break;
        case 10: m.timingMode = static_cast<TimingMode>(v.index); break;
        case 12: m.comparisonIdentity.reset(); break; // null; a value goes through nested()
        case 13: m.tags.swap(*v.map); break;
        case 14: m.candleVersion = optionalText(v); break;
        default: break;
        }
    }
    void *nested(int idx)
    {
        if (idx == 11)
            return &m.captureContract;
        return &m.comparisonIdentity.emplace();
    }
};

struct CaptureContractRecord {
    CaptureContract &c;
    void set(int idx, const FieldValue &v)
    {
        const auto level = static_cast<CoverageLevel>(v.index);
        switch (idx) {
        case 0: c.measurementScope = static_cast<MeasurementScope>(v.index); break;
        case 1: c.operations = level; break;
        case 2: c.tensors = level; break;
        case 3: c.gradients = level; break;
        case 4: c.gradientContract.reset(); break; // null; a value goes through nested()
        case 5: c.logicalMemory = level; break;
        case 6: c.physicalMemory = level; break;
        case 7: c.deviceTiming = level; break;
        case 8: c.requiredSemanticLabels.swap(*v.strings); break;
        case 9: c.gpuExpectedSemanticLabels.swap(*v.strings); break;
        default: c.cpuOnlySemanticLabels.swap(*v.strings); break;
        }
    }
    void *nested(int) { return &c.gradientContract.emplace(); }
};

struct ComparisonIdentityRecord {
    ComparisonIdentity &c;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: c.implementationId = optionalText(v); break;
        case 1: c.workloadId.assign(v.text); break;
        case 2: c.modelId.assign(v.text); break;
        case 3: c.configId.assign(v.text); break;
        case 4: c.dataId.assign(v.text); break;
        case 5: c.seedPolicy.assign(v.text); break;
        case 6: c.physicalBatch = v.u; break;
        case 7: c.accumulationSteps = v.u; break;
        case 8: c.precision.assign(v.text); break;
        case 9: c.deviceState.assign(v.text); break;
        default: c.pairId = optionalText(v); break;
        }
    }
    void *nested(int) { return nullptr; }
};

struct GradientContractRecord {
    GradientContract &g;
    void set(int idx, const FieldValue &v)
    {
        if (idx == 0)
            g.manifestSha256.assign(v.text);
    }
    /// The element vectors of `expected` and `families`.
    void *nested(int idx)
    {
        if (idx == 1)
            return &g.expected;
        return &g.families;
    }
};

struct ExpectedGradientRecord {
    ExpectedGradient &e;
    void set(int idx, const FieldValue &v) { (idx == 0 ? e.root : idx == 1 ? e.key : e.family).assign(v.text); }
    void *nested(int) { return nullptr; }
};

struct FamilyContractRecord {
    GradientFamilyContract &f;
    void set(int idx, const FieldValue &v)
    {
        switch (idx) {
        case 0: f.family.assign(v.text); break;
        case 1: f.expectation = static_cast<GradientFamilyExpectation>(v.index); break;
        default: f.minPresent = v.u; break;
        }
    }
    void *nested(int) { return nullptr; }
};

} // namespace RecordMapping

} // namespace TraceInspector
