// SPDX-License-Identifier: MIT
#pragma once

// Shared pieces of the small JSONL fixtures the model and panel tests build traces from.

#include <QByteArray>
#include <QList>

namespace TraceInspector::TestFixtures {

/// A minimal valid trace/10 meta line (with its newline) for the first line of a fixture.
inline constexpr char kMeta[] =
    "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"r\",\"correlation_id\":\"c\","
    "\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,"
    "\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":{\"measurement_scope\":\"profiled_work\","
    "\"operations\":\"complete\",\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"},"
    "\"tags\":{}}\n";

// Space-separated `id[=name][*]:parent:start:duration` items; parent `-` = none, duration
// `open` = no span_end, `*` = measured, name defaults to the id. An optional fifth field
// gives the step (forward/backward/optimizer), a sixth the kind.
inline QByteArray spansJsonl(const QByteArray &spec)
{
    QByteArray starts;
    QByteArray ends;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        QByteArray id = f[0];
        const bool measured = id.endsWith('*');
        if (measured)
            id.chop(1);
        QByteArray name = id;
        if (const qsizetype eq = id.indexOf('='); eq >= 0) {
            name = id.mid(eq + 1);
            id.truncate(eq);
        }
        starts += "{\"kind\":\"span_start\",\"id\":\"" + id + "\"";
        if (f[1] != "-")
            starts += ",\"parent_id\":\"" + f[1] + "\"";
        if (f.size() > 4 && !f[4].isEmpty())
            starts += ",\"step\":\"" + f[4] + "\"";
        starts += ",\"name\":\"" + name + "\",\"start_ns\":" + f[2] + ",\"span_kind\":\""
                  + (f.size() > 5 ? f[5] : QByteArray("function")) + "\",\"measured\":" + (measured ? "true" : "false")
                  + "}\n";
        if (f[3] != "open")
            ends += "{\"kind\":\"span_end\",\"id\":\"" + id + "\",\"duration_ns\":" + f[3] + "}\n";
    }
    return QByteArray(kMeta) + starts + ends
           + "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000000000}\n";
}

} // namespace TraceInspector::TestFixtures
