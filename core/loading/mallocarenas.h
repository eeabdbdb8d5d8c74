// SPDX-License-Identifier: MIT
#pragma once

namespace TraceInspector {

/// Caps glibc's malloc at two arenas for the process (no effect elsewhere). Call first thing
/// in main(), before any thread starts.
///
/// glibc gives each thread that allocates concurrently an arena of its own, up to eight per
/// core, and memory freed in one arena is not reused by another: the loader's stages, the
/// sorts and the layouts each ran on a pool thread, so a 1 GB trace peaked at 719 MiB with
/// the default and at 673 MiB with two arenas (issue 9's 0.7x the file), without loading slower.
void limitMallocArenas();

} // namespace TraceInspector
