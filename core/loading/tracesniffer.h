// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace TraceInspector {

/// Quick look at the head of a file, done before a full read, so an unreadable file or a
/// file that is no trace at all (a binary, a JSON document, a CSV) gets a clear reason
/// instead of a million decode errors.
class TraceSniffer
{
public:
    enum class Verdict {
        Trace,      ///< plausibly a trace (it may still be rejected by the strict rules)
        Unreadable, ///< the file cannot be opened or read
        NotATrace,  ///< readable, but not candle-graph JSONL
    };
    struct Result {
        Verdict verdict = Verdict::Trace;
        QString message; ///< why, for Unreadable and NotATrace; empty for Trace
    };

    /// Looks at up to \a headBytes of \a path. A file is a trace when one of its first
    /// non-blank lines is a JSON object whose `kind` names a trace record.
    static Result check(const QString &path, qint64 headBytes = qint64(1) << 20);
};

} // namespace TraceInspector
