// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

namespace TraceInspector {

/// Drops \a reference on a worker thread. When it is the last one, the object is destroyed
/// there: freeing a loaded trace of a million spans and its layouts takes longer than a GUI
/// pass may (220 ms for the baseline of a 1 GB comparison). The caller lets go of its other
/// references first; any still held elsewhere keep the object alive as usual.
void releaseInBackground(std::shared_ptr<const void> reference);

} // namespace TraceInspector
