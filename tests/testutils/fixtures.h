// SPDX-License-Identifier: MIT
#pragma once

// Shared pieces of the small JSONL fixtures the model and panel tests build traces from.

namespace TraceInspector::TestFixtures {

/// A minimal valid trace/10 meta line (with its newline) for the first line of a fixture.
inline constexpr char kMeta[] =
    "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\","
    "\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,"
    "\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"profiled_work\","
    "\"operations\":\"complete\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},"
    "\"tags\":{}}\n";

} // namespace TraceInspector::TestFixtures
