// SPDX-License-Identifier: MIT
// A line-structured mutator for libFuzzer: a trace is a list of records, and the
// interesting bugs sit between records (order, duplicates, references between ids) as much
// as inside one. Besides libFuzzer's own byte mutations of one line, it duplicates, drops,
// swaps and splices lines, inserts records from templates (both the object and the array
// form of §5.2, with ids from a small pool so that they refer to each other), and swaps a
// value for one from a list of edge cases.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t *data, std::size_t size, std::size_t maxSize);

namespace {

const char *const kTemplates[] = {
    R"({"kind":"span_start","id":"a","name":"root","start_ns":0,"span_kind":"function","measured":true})",
    R"({"kind":"span_start","id":"b","parent_id":"a","name":"model::forward","start_ns":10,"span_kind":"module","step":"forward"})",
    R"({"kind":"span_end","id":"a","duration_ns":100})",
    R"({"kind":"span_end","id":"b","duration_ns":50})",
    R"(["span_start","c","a","c",20,"op",false,"backward"])",
    R"(["span_end","c",5])",
    R"({"kind":"op","span_id":"b","op_name":"matmul","inputs":["t1","t2"],"output":"t3","shape":[2,3],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":20,"input_dense_bytes":48})",
    R"(["op","a","add",[],null,[4],"bf16","cuda:0",1,30,null,16])",
    R"({"kind":"tensor","span_id":"b","tensor_id":"t3","label":"h","shape":[2,3],"dtype":"f32","device":"cpu","requires_grad":true,"category":"activation"})",
    R"({"kind":"tensor_stats","span_id":"b","label":"h","shape":[2,3],"dtype":"f32","elements":6,"non_finite":0,"rms":0.5,"abs_max":1.25,"mean":-0.0078125})",
    R"({"kind":"memory","timestamp_ns":15,"storage_id":"m1","tensor_id":"t3","span_id":"b","op_name":"matmul","device":"cpu","bytes":24,"action":"alloc","shape":[2,3],"dtype":"f32","category":"activation"})",
    R"({"kind":"memory","timestamp_ns":90,"storage_id":"m1","tensor_id":"t3","span_id":"b","device":"cpu","bytes":24,"action":"free","dtype":"f32"})",
    R"({"kind":"device_memory","timestamp_ns":40,"device":"cuda:0","used_bytes":1024,"free_bytes":2048,"reserved_bytes":4096,"capacity_bytes":8192})",
    R"({"kind":"device_interval","span_id":"b","device":"cuda:0","stream_id":"s0","clock_id":"c0","backend":"cuda","start_ns":12,"duration_ns":30})",
    R"({"kind":"gradient","event_id":"g1","root":"train_vb","key":"w","state":"present","norm":1.5e-7})",
    R"({"kind":"gradient","event_id":"g2","root":"train_vb","key":"b","state":"zero","norm":0.0})",
    R"({"kind":"edge","edge_kind":"call","from_span":"a","to_span":"b","host_duration_ns":50})",
    R"({"kind":"edge","edge_kind":"data","from_tensor":"t1","to_tensor":"t3"})",
    R"(["edge",1,"t3","t1"])",
    R"({"kind":"terminal","outcome":"complete","timestamp_ns":1000})",
    R"({"kind":"terminal","outcome":"failed","timestamp_ns":1000,"reason":"oom"})",
};

const char *const kValues[] = {
    "0",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "1e999999",
    "-0.0",
    "4.911899340741448e161",
    "0.30000000000000004",
    "1.5e-300",
    "5e200",
    "null",
    "true",
    "[]",
    "{}",
    "\"\"",
    "\" \"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"\\u00e9\"",
    "\"a\"",
    "\"b\"",
    "\"t3\"",
    "[1,2,3]",
    "{\"value\":null}",
    "{\"function\":{}}",
    "\"cuda:0\"",
    "\"f32\"",
    "\"bf16\"",
    "\"u8\"",
    "[18446744073709551615,2]",
};

std::vector<std::string> splitLines(const std::uint8_t *data, std::size_t size)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') {
            lines.emplace_back(reinterpret_cast<const char *>(data) + start, i - start);
            start = i + 1;
        }
    }
    if (start < size)
        lines.emplace_back(reinterpret_cast<const char *>(data) + start, size - start);
    return lines;
}

std::size_t joinLines(const std::vector<std::string> &lines, std::uint8_t *out, std::size_t maxSize)
{
    std::size_t n = 0;
    for (const std::string &l : lines) {
        if (n + l.size() + 1 > maxSize)
            break;
        std::memcpy(out + n, l.data(), l.size());
        n += l.size();
        out[n++] = '\n';
    }
    return n;
}

/// Replaces one value (the text after a ':' or ',' up to the next ',' ']' or '}').
void replaceValue(std::string &line, std::mt19937 &rng)
{
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == ':' || line[i] == ',' || line[i] == '[')
            starts.push_back(i + 1);
    }
    if (starts.empty())
        return;
    const std::size_t from = starts[rng() % starts.size()];
    std::size_t to = from;
    int depth = 0;
    bool inString = false;
    for (; to < line.size(); ++to) {
        const char c = line[to];
        if (inString) {
            if (c == '\\')
                ++to;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{')
            ++depth;
        else if ((c == ']' || c == '}') && depth-- == 0)
            break;
        else if (c == ',' && depth == 0)
            break;
    }
    const char *value = kValues[rng() % (sizeof kValues / sizeof *kValues)];
    line.replace(from, to - from, value);
}

} // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t *data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed)
{
    std::mt19937 rng(seed);
    std::vector<std::string> lines = splitLines(data, size);
    const unsigned op = rng() % 8;
    if (lines.empty() || op == 7)
        return LLVMFuzzerMutate(data, size, maxSize);
    const std::size_t i = rng() % lines.size();
    switch (op) {
    case 0: { // libFuzzer's byte mutations, on one line
        std::string &line = lines[i];
        const std::size_t room = std::min<std::size_t>(maxSize, line.size() * 2 + 64);
        std::vector<std::uint8_t> buf(line.begin(), line.end());
        buf.resize(room);
        const std::size_t n = LLVMFuzzerMutate(buf.data(), line.size(), room);
        line.assign(reinterpret_cast<const char *>(buf.data()), n);
        break;
    }
    case 1: lines.insert(lines.begin() + std::ptrdiff_t(i), lines[i]); break;
    case 2: lines.erase(lines.begin() + std::ptrdiff_t(i)); break;
    case 3: std::swap(lines[i], lines[rng() % lines.size()]); break;
    case 4:
        lines.insert(lines.begin() + std::ptrdiff_t(i), kTemplates[rng() % (sizeof kTemplates / sizeof *kTemplates)]);
        break;
    case 5: replaceValue(lines[i], rng); break;
    case 6: // a blank line, CRLF or trailing whitespace: framing (§2)
        lines[i] += (rng() % 2) ? "\r" : " \t";
        if (rng() % 2)
            lines.insert(lines.begin() + std::ptrdiff_t(i), std::string());
        break;
    default: break;
    }
    return joinLines(lines, data, maxSize);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t *data1, std::size_t size1,
                                                 const std::uint8_t *data2, std::size_t size2, std::uint8_t *out,
                                                 std::size_t maxOutSize, unsigned int seed)
{
    // Splice: a prefix of one trace's lines, then a suffix of the other's.
    std::mt19937 rng(seed);
    const std::vector<std::string> a = splitLines(data1, size1);
    const std::vector<std::string> b = splitLines(data2, size2);
    std::vector<std::string> lines(a.begin(), a.begin() + std::ptrdiff_t(a.empty() ? 0 : rng() % (a.size() + 1)));
    if (!b.empty())
        lines.insert(lines.end(), b.begin() + std::ptrdiff_t(rng() % b.size()), b.end());
    return joinLines(lines, out, maxOutSize);
}
