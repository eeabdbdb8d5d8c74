// SPDX-License-Identifier: MIT
// The CPU time of each analysis the loader and the views run after the read (issue #13's
// "window fully drawn" budget), measured one at a time on one thread, with the size of what
// each keeps. Usage: bench_stages TRACE [REPEATS]; prints one line per analysis (ms, MiB).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>

#include <sys/resource.h>

#include "core/analysis/callgraph.h"
#include "core/analysis/devicetime.h"
#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/health.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/spanidindex.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/analysis/summary.h"
#include "core/io/tracereader.h"
#include "core/model/malloctuning.h"
#include "core/timeline/timelinelayout.h"
#include "tests/testutils/residentmemory.h"

using namespace TraceInspector;

namespace {

double cpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

long minorFaults()
{
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

/// The most the resident set grew by while \a run ran, sampled every millisecond: what an
/// analysis keeps plus its scratch, the figure that adds to the window's peak when the
/// analyses run side by side.
std::size_t peakGrowth(const std::function<void()> &run)
{
    const std::size_t before = ResidentMemory::residentBytes();
    ResidentMemory::PeakSampler sampler(std::chrono::milliseconds(1));
    run();
    sampler.stop();
    return std::max(sampler.peakBytes(), before) - before;
}

void measure(const char *name, int repeats, const std::function<std::size_t()> &run)
{
    // The first run pays the page faults of fresh memory, as the loader's single run does.
    // Its page faults are counted too: on a virtual machine with shadow page tables each
    // costs several microseconds more than the guest's CPU time shows, and unlike the times
    // the count does not depend on what else the machine runs.
    double first = 0;
    double best = 1e300;
    long firstFaults = 0;
    std::size_t bytes = 0;
    std::size_t peak = 0;
    for (int i = 0; i < repeats; ++i) {
        const long faults = minorFaults();
        const double start = cpuMs();
        double took = 0;
        // The peak of the first run only: later runs may reuse memory the heap kept.
        if (i == 0) {
            peak = peakGrowth([&] {
                bytes = run();
                took = cpuMs() - start;
            });
        } else {
            bytes = run();
            took = cpuMs() - start;
        }
        if (i == 0) {
            first = took;
            firstFaults = minorFaults() - faults;
        }
        best = std::min(best, took);
    }
    std::printf("%-16s first %6.0f ms CPU, %6ld page faults; best of %d %6.0f ms; keeps %6.1f MiB, peaks +%6.1f MiB\n",
                name, first, firstFaults, repeats, best, double(bytes) / (1024 * 1024), double(peak) / (1024 * 1024));
}

} // namespace

int main(int argc, char **argv)
{
    // As the window does: it decides where blocks of a few MiB come from. With glibc's dynamic
    // mmap threshold the arrays came from the heap, reusing memory an earlier run had faulted
    // in, and the figures were not the window's: on the 1 GB trace the timeline layout took
    // 65-118 ms here against 315-405 ms in bench_guiopen.
    tuneMallocForBigTraces(kWindowArenas);
    relaunchWithHugePageHeap(argv); // as the window does
    if (argc < 2) {
        std::printf("SKIP: give a trace\n");
        return 77;
    }
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    ReadResult read = TraceReader::readFile(argv[1]);
    if (!read.trace) {
        std::printf("the trace did not load\n");
        return 1;
    }
    const Trace &trace = *read.trace;
    // As the loader makes them before the window's first panel, with no span tree yet: the
    // span id index, then the op table's statistics through it.
    measure("span id index", repeats, [&] { return SpanIdIndex::build(trace).memoryUsage(); });
    const SpanIdIndex spanIds = SpanIdIndex::build(trace);
    measure("op statistics", repeats, [&] {
        OpStatistics::compute(trace, spanIds);
        return std::size_t(0);
    });
    // Beside them, on another thread of the loader's pool: the views' record extents.
    measure("record extents", repeats, [&] {
        RecordExtents::compute(trace);
        return std::size_t(0);
    });
    const SpanTree tree = SpanTree::build(trace);
    // Given the index, as the loader builds it (its own figure is above).
    measure("span tree", repeats, [&] { return SpanTree::build(trace, nullptr, SpanIdIndex(spanIds)).memoryUsage(); });
    measure("device time", repeats, [&] { return DeviceTime::compute(trace, tree).memoryUsage(); });
    measure("op regrouping", repeats, [&] {
        OpStatistics::compute(trace, OpGrouping::NameShapeDtypeDevice, &tree);
        return std::size_t(0);
    });
    // The analyses below as the loader runs them: with the record extents it computed after
    // the read, and the span tree's id index.
    const RecordExtents extents = RecordExtents::compute(trace);
    measure("health", repeats, [&] {
        analyzeHealth(trace, &extents);
        return std::size_t(0);
    });
    const MemoryProfile memory = analyzeMemory(trace);
    measure("memory", repeats, [&] { return analyzeMemory(trace).memoryUsage(); });
    // The window computes it on the loader's thread while memory is analysed.
    measure("summary", repeats, [&] {
        computeSummary(trace, memory.logicalPeakBytes(), &tree.spanIds());
        return std::size_t(0);
    });
    const HealthReport health = analyzeHealth(trace, &extents);
    // In two steps: most of it while memory is analysed, the tensors' storage after.
    measure("evidence", repeats, [&] { return analyzeEvidenceBeforeMemory(trace, &health).memoryUsage(); });
    const EvidenceAnalysis evidence = analyzeEvidenceBeforeMemory(trace, &health);
    measure("tensor storage", repeats, [&] {
        EvidenceAnalysis joined = evidence;
        attachMemoryEvidence(trace, memory, joined);
        return joined.memoryUsage();
    });
    measure("memory series", repeats, [&] { return MemorySeries(trace, memory, &extents).memoryUsage(); });
    // The chart's first buckets: the whole run, every device, a 1500-pixel plot.
    const MemorySeries series(trace, memory, &extents);
    measure("chart buckets", repeats, [&] {
        const LogicalChartData logical = series.logical(MemorySeries::kAllDevices, series.runRange(), 1500);
        const PhysicalChartData physical = series.physical(MemorySeries::kAllDevices, series.runRange(), 1500);
        return logical.columns.capacity() * sizeof(StackedColumn) + physical.devices.capacity();
    });
    // With the record extents, as the loader builds it (it also hands over the span tree's
    // order by start, which this sorts again).
    measure("timeline layout", repeats,
            [&] { return TimelineLayout::build(trace, tree, nullptr, {}, &extents).memoryUsage(); });
    // The graph panel's first graph: the whole trace at the default cap.
    measure("call graph", repeats, [&] {
        const CallGraph graph = buildCallGraph(trace, tree, CallGraphOptions{});
        return graph.nodes.capacity() * sizeof(CallGraphNode) + graph.edges.capacity() * sizeof(CallGraphEdge)
               + graph.spanNode.capacity() * sizeof(std::uint32_t);
    });
    return 0;
}
