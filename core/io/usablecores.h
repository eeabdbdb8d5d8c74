// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace TraceInspector {

/// The CPUs this process can keep busy at once: those its affinity mask allows (taskset, a
/// container's cpuset), fewer where a cgroup caps its CPU time (a container started with
/// `--cpus 2`), at least 1. std::thread::hardware_concurrency() counts every online CPU of the
/// host instead: a reader splitting a file one segment a core would then run 8 threads on two
/// CPUs' worth of time (the 1 GB trace in 8 segments on 2 cores: CPU 1.62 -> 2.30 s, peak RSS
/// 336 -> 356 MiB against 2 segments).
unsigned usableCores();

/// Where the CPU quotas of a process's cgroups are: the text of its /proc/self/cgroup and the
/// mount points of cgroup v2 and of v1's cpu controller. usableCores() reads the machine's; a
/// test builds a tree of its own.
struct CgroupView {
    std::string selfCgroup;
    std::string v2Root = "/sys/fs/cgroup";
    std::vector<std::string> v1CpuRoots = {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"};
};

/// The fewest CPUs that the quotas of the process's cgroups and of every cgroup above them
/// allow (a parent's cap holds for its children), v2 and v1 alike; none without a quota.
std::optional<unsigned> cgroupCpuLimit(const CgroupView &view);

/// The CPUs a cgroup's quota of \a quota microseconds a \a period allows, rounded up: cgroup
/// v2's `cpu.max` holds both ("200000 100000", "max 100000"), v1's `cpu.cfs_quota_us` and
/// `cpu.cfs_period_us` one each ("-1": none). None without a quota or for any other text.
std::optional<unsigned> cpusOfQuota(std::string_view quota, std::string_view period);

} // namespace TraceInspector
