// SPDX-License-Identifier: MIT
// The cost of writing a loaded trace's normalized form (issue #13: normalize within 1.5x of
// check --all), apart from the read: wall and process CPU time (all formatting threads) and
// page faults of writeNormalized() into a sink that drops the text, and, given an output
// path, into that file. Usage: bench_normalize TRACE [REPEATS] [OUT]; one line per run.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <sys/resource.h>

#include "core/io/tracereader.h"
#include "core/output/jsonwriter.h"
#include "core/output/normalizedwriter.h"

using namespace TraceInspector;

namespace {

struct Usage {
    double cpuMs = 0;
    long minorFaults = 0;
};

Usage processUsage()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto ms = [](const timeval &t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return {ms(u.ru_utime) + ms(u.ru_stime), u.ru_minflt};
}

template<typename Run>
void measure(const char *name, int repeats, const Run &run)
{
    for (int i = 0; i < repeats; ++i) {
        const Usage before = processUsage();
        const auto start = std::chrono::steady_clock::now();
        const std::uint64_t bytes = run();
        const double wallMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        const Usage after = processUsage();
        std::printf("%-10s %7.0f ms wall %7.0f ms CPU %8ld faults %10.1f MiB\n", name, wallMs,
                    after.cpuMs - before.cpuMs, after.minorFaults - before.minorFaults, double(bytes) / (1024 * 1024));
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::printf("SKIP: give a trace\n");
        return 77;
    }
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    const ReadResult read = TraceReader::readFile(argv[1]);
    if (!read.trace) {
        std::printf("the trace did not load\n");
        return 1;
    }
    const Trace &trace = *read.trace;
    measure("discard", repeats, [&] {
        JsonWriter w([](std::string_view) { return true; });
        writeNormalized(trace, w);
        return w.bytesWritten();
    });
    if (argc > 3) {
        measure("file", repeats, [&] {
            std::FILE *f = std::fopen(argv[3], "wb");
            if (!f)
                return std::uint64_t(0);
            JsonWriter w(f);
            writeNormalized(trace, w);
            w.flush();
            std::fclose(f);
            return w.bytesWritten();
        });
    }
    return 0;
}
