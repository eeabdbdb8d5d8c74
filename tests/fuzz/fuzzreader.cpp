// SPDX-License-Identifier: MIT
// Checks, for every input:
//  * reading the bytes from memory, from a file split into segments read by several
//    threads in small chunks, and from the same file read front to back as a pipe is, gives
//    exactly the same verdict, problems (stored and omitted), records and normalized bytes,
//    and the same health findings;
//  * an accepted trace's normalized output is accepted again, and normalizing it again
//    gives the same text except for float drift (TRACE_FORMAT.md §11.4: the float reader
//    is not correctly rounded, so a float may move by an ulp per pass);
//  * health (including the gradient-manifest and contract checks), memory, summary, span
//    tree and op statistics run on whatever the tolerant load kept.
#include "tests/fuzz/fuzzreader.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "core/analysis/gradientmanifest.h"
#include "core/analysis/health.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spantree.h"
#include "core/analysis/summary.h"
#include "core/io/tracereader.h"
#include "core/io/tracesource.h"
#include "core/output/jsonwriter.h"
#include "core/output/normalizedwriter.h"

using namespace TraceInspector;

namespace {

constexpr std::size_t kMaxInput = std::size_t(1) << 20;
const std::string kPath = "fuzz.jsonl";

[[noreturn]] void failCheck(const char *what, const std::string &a, const std::string &b)
{
    std::size_t at = 0;
    while (at < a.size() && at < b.size() && a[at] == b[at])
        ++at;
    const std::size_t from = at > 200 ? at - 200 : 0;
    std::fprintf(stderr, "\nfuzz check failed: %s\nfirst difference at byte %zu\n--- expected:\n%s\n--- got:\n%s\n",
                 what, at, a.substr(from, 600).c_str(), b.substr(from, 600).c_str());
    std::abort();
}

void describeProblem(std::string &out, const Problem &p)
{
    out += std::to_string(p.line) + ":" + std::to_string(p.column) + " " + severityName(p.severity) + " " + p.ruleId
           + " [" + p.code + "] " + p.message + " {" + std::to_string(int(p.relatedKind)) + " " + p.relatedId + " "
           + std::to_string(p.relatedIndex) + "}\n";
}

std::string normalized(const Trace &trace)
{
    JsonWriter w;
    writeNormalized(trace, w);
    return w.takeBuffer();
}

/// Everything observable about a read.
std::string fingerprint(const ReadResult &r)
{
    std::string out;
    out += r.accepted() ? "accepted\n" : "rejected\n";
    out += "input error " + std::to_string(int(r.inputError.kind)) + "\n";
    if (r.strictError) {
        out += "strict ";
        describeProblem(out, *r.strictError);
    }
    for (const Problem &p : r.problems)
        describeProblem(out, p);
    for (const OmittedProblems &o : r.omittedProblems)
        out += "omitted " + o.ruleId + " " + std::to_string(o.count) + "\n";
    if (!r.trace)
        return out;
    const Trace &t = *r.trace;
    out += "lines " + std::to_string(t.lineCount) + " records " + std::to_string(t.recordCount) + " bytes "
           + std::to_string(t.fileBytes) + "\n";
    out += "spans " + std::to_string(t.spans.size()) + " ops " + std::to_string(t.ops.size()) + " tensors "
           + std::to_string(t.tensors.size()) + " stats " + std::to_string(t.tensorStats.size()) + " memory "
           + std::to_string(t.memory.size()) + " device " + std::to_string(t.deviceMemory.size()) + " intervals "
           + std::to_string(t.deviceIntervals.size()) + " gradients " + std::to_string(t.gradients.size()) + " edges "
           + std::to_string(t.edges.size()) + "\n";
    for (const Span &s : t.spans) {
        out += std::string(t.str(s.id)) + " " + std::to_string(s.startLine) + "-" + std::to_string(s.endLine) + " "
               + std::to_string(s.durationNs) + "\n";
    }
    if (r.accepted())
        out += normalized(t);
    const HealthReport health = analyzeHealth(t);
    out += health.structurallyValid ? "structurally valid\n" : "not structurally valid\n";
    for (const Problem &p : health.findings)
        describeProblem(out, p);
    for (const OmittedProblems &o : health.omittedFindings)
        out += "omitted finding " + o.ruleId + " " + std::to_string(o.count) + "\n";
    return out;
}

/// The other analyses, on any tolerant trace: they must neither crash nor trip a sanitizer.
void analyse(const Trace &t)
{
    const MemoryProfile memory = analyzeMemory(t);
    const TraceSummary summary = computeSummary(t, memory);
    const SpanTree tree = SpanTree::build(t);
    const OpStatistics stats = OpStatistics::compute(t);
    if (t.meta && t.meta->captureContract.gradientContract) {
        const std::string digest = gradientManifestDigest(t.meta->captureContract.gradientContract->expected);
        if (digest.size() != 71)
            failCheck("manifest digest length", std::string(71, 'x'), digest);
    }
    (void)summary;
    (void)tree;
    (void)stats;
}

/// Splits a JSON line into text outside floats and the floats (numbers with '.', 'e' or 'E').
void splitFloats(std::string_view line, std::string &skeleton, std::vector<double> &floats)
{
    bool inString = false;
    for (std::size_t i = 0; i < line.size();) {
        const char c = line[i];
        if (inString) {
            skeleton += c;
            if (c == '\\' && i + 1 < line.size()) {
                skeleton += line[i + 1];
                i += 2;
                continue;
            }
            inString = c != '"';
            ++i;
            continue;
        }
        if (c == '"') {
            inString = true;
            skeleton += c;
            ++i;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            std::size_t end = i + 1;
            while (end < line.size() && std::strchr("0123456789.eE+-", line[end]))
                ++end;
            const std::string_view token = line.substr(i, end - i);
            if (token.find_first_of(".eE") != std::string_view::npos) {
                skeleton += "<float>";
                floats.push_back(std::strtod(std::string(token).c_str(), nullptr));
            } else {
                skeleton += token;
            }
            i = end;
            continue;
        }
        skeleton += c;
        ++i;
    }
}

/// §11.4: a second normalization may differ from the first only in float digits, by a
/// few units in the last place.
void compareNormalizations(const std::string &first, const std::string &second)
{
    if (first == second)
        return;
    std::string a, b;
    std::vector<double> fa, fb;
    splitFloats(first, a, fa);
    splitFloats(second, b, fb);
    if (a != b || fa.size() != fb.size())
        failCheck("normalizing the normalized output changed more than floats", first, second);
    for (std::size_t i = 0; i < fa.size(); ++i) {
        const double scale = std::max(std::fabs(fa[i]), std::fabs(fb[i]));
        if (!(std::fabs(fa[i] - fb[i]) <= scale * 1e-14))
            failCheck("a float drifted by more than a few ulps", first, second);
    }
}

ReadResult readFromDescriptor(int fd, const ReadOptions &options)
{
    ::lseek(fd, 0, SEEK_SET);
    TraceSource source = TraceSource::fromDescriptor(fd, kPath);
    return TraceReader::read(source, options);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size > kMaxInput)
        return -1; // keep the corpus small and the runs fast
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    const ReadResult whole = TraceReader::readBytes(bytes, kPath);
    const std::string expected = fingerprint(whole);

    // The same bytes as a file: segments on several threads, chunk sizes from the input so
    // that lines straddle chunk ends in every way; then read front to back like a pipe.
    const int fd = ::memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0) {
        std::perror("memfd_create");
        std::abort();
    }
    for (std::size_t at = 0; at < size;) {
        const ssize_t n = ::write(fd, data + at, size - at);
        if (n <= 0) {
            std::perror("write");
            std::abort();
        }
        at += std::size_t(n);
    }
    if (size > 0) {
        ReadOptions split;
        split.maxThreads = 3;
        split.cores = 3;
        split.parallelThresholdBytes = 0;
        split.minSegmentBytes = 0;
        split.minTakeOverBytes = 0;
        split.takeOverFromFileBytes = 0;
        split.chunkBytes = 64 + (size * 7 + data[0]) % 512;
        const std::string segmented = fingerprint(readFromDescriptor(fd, split));
        if (segmented != expected)
            failCheck("a segmented file read differs from the in-memory read", expected, segmented);
        ReadOptions stream;
        stream.readAsStream = true;
        stream.chunkBytes = 64 + (size * 13 + data[size - 1]) % 1024;
        const std::string streamed = fingerprint(readFromDescriptor(fd, stream));
        if (streamed != expected)
            failCheck("a streamed read differs from the in-memory read", expected, streamed);
    }
    ::close(fd);

    if (whole.trace)
        analyse(*whole.trace);

    if (whole.accepted()) {
        const std::string first = normalized(*whole.trace);
        const ReadResult again = TraceReader::readBytes(first, kPath);
        if (!again.accepted()) {
            failCheck("the normalized output of an accepted trace is rejected", first,
                      again.strictError ? again.strictError->message : std::string("(no trace)"));
        }
        compareNormalizations(first, normalized(*again.trace));
    }
    return 0;
}
