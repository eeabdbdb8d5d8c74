// SPDX-License-Identifier: MIT
#include "core/io/usablecores.h"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

namespace TraceInspector {

namespace {

std::optional<std::uint64_t> number(std::string_view text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::string firstLine(const std::string &path)
{
    std::ifstream file(path);
    std::string line;
    std::getline(file, line);
    return line;
}

/// The process's cgroup as cgroup v2 names it ("0::/a/b") and as v1's cpu controller does
/// ("4:cpu,cpuacct:/a/b").
struct CgroupPaths {
    std::optional<std::string> v2;
    std::optional<std::string> v1Cpu;
};

CgroupPaths cgroupPaths(std::string_view selfCgroup)
{
    CgroupPaths paths;
    while (!selfCgroup.empty()) {
        const std::size_t newline = std::min(selfCgroup.find('\n'), selfCgroup.size());
        const std::string_view line = selfCgroup.substr(0, newline);
        selfCgroup.remove_prefix(std::min(newline + 1, selfCgroup.size()));
        const std::size_t first = line.find(':');
        const std::size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos)
            continue;
        const std::string_view controllers = line.substr(first + 1, second - first - 1);
        const std::string path(line.substr(second + 1));
        if (controllers.empty()) {
            paths.v2 = path;
            continue;
        }
        for (std::size_t at = 0; at <= controllers.size();) {
            const std::size_t comma = std::min(controllers.find(',', at), controllers.size());
            if (controllers.substr(at, comma - at) == "cpu")
                paths.v1Cpu = path;
            at = comma + 1;
        }
    }
    return paths;
}

/// Lowers \a tightest to \a cpus, a quota found, if that is tighter.
void tighten(std::optional<unsigned> &tightest, std::optional<unsigned> cpus)
{
    if (cpus)
        tightest = tightest ? std::min(*tightest, *cpus) : *cpus;
}

/// Lowers \a tightest to the quota of the cgroup at \a path under \a root and of every cgroup
/// above it: a parent's cap holds for its children.
void tightenByQuotas(std::optional<unsigned> &tightest, const std::string &root, std::string path,
                     const std::function<std::optional<unsigned>(const std::string &dir)> &quotaOf)
{
    for (;;) {
        tighten(tightest, quotaOf(root + path));
        const std::size_t slash = path.find_last_of('/');
        if (path.empty() || slash == std::string::npos)
            return;
        path.resize(slash); // "/a/b" -> "/a" -> "" (the root)
    }
}

} // namespace

std::optional<unsigned> cpusOfQuota(std::string_view quota, std::string_view period)
{
    const std::optional<std::uint64_t> q = number(quota);
    const std::optional<std::uint64_t> p = number(period);
    if (!q || !p || *p == 0)
        return std::nullopt; // "max", "-1", or not numbers
    return static_cast<unsigned>(std::clamp<std::uint64_t>((*q + *p - 1) / *p, 1, UINT32_MAX));
}

std::optional<unsigned> cgroupCpuLimit(const CgroupView &view)
{
    const CgroupPaths paths = cgroupPaths(view.selfCgroup);
    std::optional<unsigned> quota;
    if (paths.v2)
        tightenByQuotas(quota, view.v2Root, *paths.v2, [](const std::string &dir) {
            const std::string line = firstLine(dir + "/cpu.max");
            const std::size_t space = line.find(' ');
            return space == std::string::npos
                       ? std::nullopt
                       : cpusOfQuota(std::string_view(line).substr(0, space), std::string_view(line).substr(space + 1));
        });
    if (paths.v1Cpu) {
        for (const std::string &root : view.v1CpuRoots)
            tightenByQuotas(quota, root, *paths.v1Cpu, [](const std::string &dir) {
                return cpusOfQuota(firstLine(dir + "/cpu.cfs_quota_us"), firstLine(dir + "/cpu.cfs_period_us"));
            });
    }
    return quota;
}

unsigned usableCores()
{
    unsigned cores = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) // fails only past 1024 CPUs
        cores = static_cast<unsigned>(CPU_COUNT(&set));
    if (cores == 0)
        cores = std::thread::hardware_concurrency();
    cores = std::max(1u, cores);

    std::ifstream file("/proc/self/cgroup");
    CgroupView view;
    view.selfCgroup.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    const std::optional<unsigned> quota = cgroupCpuLimit(view);
    return quota ? std::min(cores, *quota) : cores;
}

} // namespace TraceInspector
