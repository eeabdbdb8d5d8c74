// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>
#include <QString>

namespace TraceInspector {

/// Where a load is, as values (a view never parses the phase text): which of the named
/// steps runs, how far that step is when it can tell, and a detail line such as the bytes
/// read so far.
struct LoadProgress {
    int step = 0; ///< 1-based; 0 before the first step
    int stepCount = 4;
    QString stepName;      ///< "Reading run.jsonl", "Building the span tree", …
    int stepPermille = -1; ///< progress of this step 0..1000, -1 when it cannot tell
    QString detail;        ///< e.g. "545 MB of 1.0 GB"; may be empty
    int permille = 0;      ///< the whole load, 0..1000
};

} // namespace TraceInspector

Q_DECLARE_METATYPE(TraceInspector::LoadProgress)
