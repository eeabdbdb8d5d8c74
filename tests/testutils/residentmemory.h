// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <thread>

#include <unistd.h>

// The process's resident memory, for the tests and benchmarks that measure what a step
// keeps or gives back (plain C++: the benchmarks of the engine link no Qt).
namespace ResidentMemory {

/// The process's resident bytes now (the second field of /proc/self/statm); 0 when unknown.
inline std::size_t residentBytes()
{
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long pages = 0;
    unsigned long resident = 0;
    const int fields = std::fscanf(f, "%lu %lu", &pages, &resident);
    std::fclose(f);
    return fields == 2 ? std::size_t(resident) * std::size_t(sysconf(_SC_PAGESIZE)) : 0;
}

/// Samples residentBytes() on a thread of its own, from construction until stop(), and keeps
/// the highest value and when it was seen: the peak alone (getrusage's) cannot tell which
/// step's scratch made it.
class PeakSampler
{
public:
    explicit PeakSampler(std::chrono::milliseconds interval)
        : m_start(std::chrono::steady_clock::now())
        , m_thread([this, interval] {
            while (m_running.load(std::memory_order_relaxed)) {
                note();
                std::this_thread::sleep_for(interval);
            }
        })
    {
    }
    PeakSampler(const PeakSampler &) = delete;
    PeakSampler &operator=(const PeakSampler &) = delete;
    ~PeakSampler() { stop(); }

    /// Ends the sampling, with one last sample; peakBytes() and peakMs() are final from here.
    void stop()
    {
        if (!m_thread.joinable())
            return;
        m_running = false;
        m_thread.join();
        note();
    }
    /// Call after stop().
    std::size_t peakBytes() const { return m_peak; }
    /// Milliseconds from construction to the peak's sample; call after stop().
    double peakMs() const { return m_peakMs; }

private:
    void note()
    {
        const std::size_t now = residentBytes();
        if (now > m_peak) {
            m_peak = now;
            m_peakMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
        }
    }

    const std::chrono::steady_clock::time_point m_start;
    std::atomic<bool> m_running{true};
    std::size_t m_peak = 0;
    double m_peakMs = 0;
    std::thread m_thread;
};

} // namespace ResidentMemory
