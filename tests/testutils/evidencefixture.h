// SPDX-License-Identifier: MIT
#pragma once

// A small hand-written training trace with every evidence plane the evidence views show:
// tensors (one produced by an op and held by a storage, one never allocated, one in an
// unknown span), tensor_stats (one non-finite), gradients against a manifest with a family,
// and logical memory. Shared by the model tests and the panel tests.

#include <QByteArray>

#include <memory>
#include <string>

#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/gradientmanifest.h"
#include "core/analysis/health.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/io/tracereader.h"
#include "core/loading/loadedtrace.h"
#include "core/model/trace.h"

namespace TraceInspector::TestFixtures {

/// \a digest "" = the correct manifest digest.
inline QByteArray evidenceTrace(const std::string &digestOverride = {})
{
    const std::vector<ExpectedGradient> manifest = {
        {"vb", "w1", "core"}, {"vb", "w2", "core"}, {"vb", "w3", "core"}, {"vb", "w4", "core"}};
    const std::string digest = digestOverride.empty() ? gradientManifestDigest(manifest) : digestOverride;
    QByteArray t;
    t += "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\","
         "\"entrypoint\":\"e\",\"phase\":\"train\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,"
         "\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"profiled_work\","
         "\"operations\":\"complete\",\"tensors\":\"partial\",\"gradients\":\"complete\",\"gradient_contract\":{"
         "\"manifest_sha256\":\"";
    t += QByteArray::fromStdString(digest);
    t +=
        "\",\"expected\":[{\"root\":\"vb\",\"key\":\"w1\",\"family\":\"core\"},{\"root\":\"vb\",\"key\":\"w2\",\"family\":\"core\"},"
        "{\"root\":\"vb\",\"key\":\"w3\",\"family\":\"core\"},{\"root\":\"vb\",\"key\":\"w4\",\"family\":\"core\"}],"
        "\"families\":[{\"family\":\"core\",\"expectation\":\"active\",\"min_present\":1}]},"
        "\"logical_memory\":\"complete\",\"physical_memory\":\"none\",\"device_timing\":\"partial\"},\"tags\":{}}\n";
    // line 2..4
    t +=
        "{\"kind\":\"span_start\",\"id\":\"s-root\",\"name\":\"step\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true,\"step\":\"forward\"}\n";
    t +=
        "{\"kind\":\"span_start\",\"id\":\"s-a\",\"parent_id\":\"s-root\",\"name\":\"attention\",\"start_ns\":10,\"span_kind\":\"module\",\"step\":\"backward\"}\n";
    t +=
        "{\"kind\":\"span_start\",\"id\":\"s-b\",\"parent_id\":\"s-root\",\"name\":\"mlp\",\"start_ns\":500,\"span_kind\":\"module\",\"step\":\"optimizer\"}\n";
    // ops: matmul -> t1 in s-a, add -> t2 in s-b
    t +=
        "{\"kind\":\"op\",\"span_id\":\"s-a\",\"op_name\":\"matmul\",\"output\":\"t1\",\"shape\":[2,3],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":50,\"timestamp_ns\":20,\"input_dense_bytes\":48}\n";
    t +=
        "{\"kind\":\"op\",\"span_id\":\"s-b\",\"op_name\":\"add\",\"output\":\"t2\",\"shape\":[4],\"dtype\":\"bf16\",\"device\":\"cpu\",\"duration_ns\":10,\"timestamp_ns\":600,\"input_dense_bytes\":16}\n";
    // tensors
    t +=
        "{\"kind\":\"tensor\",\"span_id\":\"s-a\",\"tensor_id\":\"t1\",\"label\":\"attn.out\",\"shape\":[2,3],\"dtype\":\"f32\",\"device\":\"cpu\",\"category\":\"activation\"}\n";
    t +=
        "{\"kind\":\"tensor\",\"span_id\":\"s-b\",\"tensor_id\":\"t2\",\"label\":\"mlp.out\",\"shape\":[4],\"dtype\":\"bf16\",\"device\":\"cpu\",\"requires_grad\":true,\"category\":\"parameter\"}\n";
    t +=
        "{\"kind\":\"tensor\",\"span_id\":\"s-b\",\"tensor_id\":\"t3\",\"label\":\"scratch\",\"shape\":[8],\"dtype\":\"u8\",\"device\":\"cpu\"}\n";
    // memory: t1 in st1 [30, 700], t2 in st2 from 650 (never freed); peak at 650 (24 + 8 bytes)
    t +=
        "{\"kind\":\"memory\",\"timestamp_ns\":30,\"storage_id\":\"st1\",\"tensor_id\":\"t1\",\"span_id\":\"s-a\",\"device\":\"cpu\",\"bytes\":24,\"action\":\"alloc\",\"dtype\":\"f32\",\"category\":\"activation\"}\n";
    t +=
        "{\"kind\":\"memory\",\"timestamp_ns\":650,\"storage_id\":\"st2\",\"tensor_id\":\"t2\",\"span_id\":\"s-b\",\"device\":\"cpu\",\"bytes\":8,\"action\":\"alloc\",\"dtype\":\"bf16\",\"category\":\"parameter\"}\n";
    t +=
        "{\"kind\":\"memory\",\"timestamp_ns\":700,\"storage_id\":\"st1\",\"tensor_id\":\"t1\",\"span_id\":\"s-b\",\"device\":\"cpu\",\"bytes\":24,\"action\":\"free\",\"dtype\":\"f32\"}\n";
    // tensor_stats: attn.out (matches t1 -> matmul), mlp.out non-finite (t2 -> add), loose (by shape -> add)
    t +=
        "{\"kind\":\"tensor_stats\",\"span_id\":\"s-a\",\"label\":\"attn.out\",\"shape\":[2,3],\"dtype\":\"f32\",\"elements\":6,\"non_finite\":0,\"rms\":1.5,\"abs_max\":3.0,\"mean\":0.25}\n";
    t +=
        "{\"kind\":\"tensor_stats\",\"span_id\":\"s-b\",\"label\":\"mlp.out\",\"shape\":[4],\"dtype\":\"bf16\",\"elements\":4,\"non_finite\":2,\"rms\":0.5,\"abs_max\":1.0,\"mean\":0.0}\n";
    t +=
        "{\"kind\":\"tensor_stats\",\"span_id\":\"s-b\",\"label\":\"loose\",\"shape\":[4],\"dtype\":\"bf16\",\"elements\":4,\"non_finite\":0,\"rms\":0.7,\"abs_max\":40000,\"mean\":0.1}\n";
    // gradients: w1 present, w2 zero, w3 non-finite, w9 undeclared; w4 never captured
    t +=
        "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"vb\",\"key\":\"w1\",\"state\":\"present\",\"norm\":0.5}\n";
    t += "{\"kind\":\"gradient\",\"event_id\":\"g2\",\"root\":\"vb\",\"key\":\"w2\",\"state\":\"zero\",\"norm\":0.0}\n";
    t += "{\"kind\":\"gradient\",\"event_id\":\"g3\",\"root\":\"vb\",\"key\":\"w3\",\"state\":\"non_finite\"}\n";
    t +=
        "{\"kind\":\"gradient\",\"event_id\":\"g4\",\"root\":\"vb\",\"key\":\"w9\",\"state\":\"present\",\"norm\":1200.0}\n";
    t += "{\"kind\":\"span_end\",\"id\":\"s-a\",\"duration_ns\":400}\n";
    t += "{\"kind\":\"span_end\",\"id\":\"s-b\",\"duration_ns\":400}\n";
    t += "{\"kind\":\"span_end\",\"id\":\"s-root\",\"duration_ns\":1000}\n";
    t += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2000}\n";
    return t;
}

/// A complete snapshot of \a trace as the loader would deliver it after its last stage.
inline LoadedTracePtr loadedSnapshot(std::shared_ptr<const Trace> trace)
{
    if (!trace)
        return nullptr;
    auto loaded = std::make_shared<LoadedTrace>();
    loaded->path = QString::fromStdString(trace->path);
    loaded->trace = std::move(trace);
    loaded->health = std::make_shared<const HealthReport>(analyzeHealth(*loaded->trace));
    loaded->memory = std::make_shared<const MemoryProfile>(analyzeMemory(*loaded->trace));
    loaded->evidence = std::make_shared<const EvidenceAnalysis>(
        analyzeEvidence(*loaded->trace, loaded->health.get(), loaded->memory.get()));
    loaded->memorySeries = std::make_shared<const MemorySeries>(*loaded->trace, *loaded->memory);
    loaded->stage = LoadStage::MemoryChart;
    return loaded;
}

/// The same for a small in-memory JSONL text.
inline LoadedTracePtr loadedSnapshot(const QByteArray &jsonl)
{
    return loadedSnapshot(
        TraceReader::readBytes(std::string_view(jsonl.constData(), std::size_t(jsonl.size())), "evidence.jsonl").trace);
}

} // namespace TraceInspector::TestFixtures
