// SPDX-License-Identifier: MIT
#pragma once

// Traces with ops, tensors and device intervals for the timeline, search and details tests:
// the span fixture format of fixtures.h plus extra record lines.

#include <QByteArray>
#include <QList>

#include <memory>
#include <string_view>

#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"

namespace TraceInspector::TestFixtures {

/// `span:name:start:duration` (duration 0 allowed), space-separated: op lines.
inline QByteArray opsJsonl(const QByteArray &spec)
{
    QByteArray out;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        out += "{\"kind\":\"op\",\"span_id\":\"" + f[0] + "\",\"op_name\":\"" + f[1]
               + "\",\"inputs\":[],\"shape\":[2,3],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":" + f[3]
               + ",\"timestamp_ns\":" + f[2] + ",\"input_dense_bytes\":64}\n";
    }
    return out;
}

/// `span,device,stream,clock,start,duration`, space-separated: device_interval lines (commas,
/// as device and clock names contain colons).
inline QByteArray intervalsJsonl(const QByteArray &spec)
{
    QByteArray out;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(',');
        out += "{\"kind\":\"device_interval\",\"span_id\":\"" + f[0] + "\",\"device\":\"" + f[1] + "\",\"stream_id\":\""
               + f[2] + "\",\"clock_id\":\"" + f[3] + "\",\"backend\":\"cuda\",\"start_ns\":" + f[4]
               + ",\"duration_ns\":" + f[5] + "}\n";
    }
    return out;
}

/// `span:tensor_id`, space-separated: tensor lines.
inline QByteArray tensorsJsonl(const QByteArray &spec)
{
    QByteArray out;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        out += "{\"kind\":\"tensor\",\"span_id\":\"" + f[0] + "\",\"tensor_id\":\"" + f[1]
               + "\",\"shape\":[4],\"dtype\":\"f32\",\"device\":\"cpu\",\"category\":\"activation\"}\n";
    }
    return out;
}

/// spansJsonl(\a spans) with \a extra lines inserted before the terminal line.
inline QByteArray traceJsonl(const QByteArray &spans, const QByteArray &extra)
{
    QByteArray text = spansJsonl(spans);
    const qsizetype terminal = text.lastIndexOf("{\"kind\":\"terminal\"");
    text.insert(terminal, extra);
    return text;
}

struct LoadedFixture {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const SpanTree> tree;
};

inline LoadedFixture loadFixture(const QByteArray &jsonl, const char *name = "fixture.jsonl")
{
    ReadResult result = TraceReader::readBytes(std::string_view(jsonl.constData(), std::size_t(jsonl.size())), name);
    LoadedFixture out;
    if (!result.trace)
        return out;
    out.tree = std::make_shared<const SpanTree>(SpanTree::build(*result.trace));
    out.trace = std::move(result.trace);
    return out;
}

} // namespace TraceInspector::TestFixtures
