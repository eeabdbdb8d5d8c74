// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

#include <string_view>

#include "core/io/inputerror.h"

namespace TraceInspector {

/// Quick look at the head of a file, done before a full read, so an unreadable file or a
/// file that is no trace at all (a binary, a JSON document, a CSV, a compressed trace)
/// gets a clear reason instead of a million decode errors.
///
/// The head is judged the way the reader reads: line by line, each line with the reader's
/// own decoder. One bad line (a NUL byte in an otherwise good trace) is one bad line for
/// the reader too, so it does not make the file "not a trace".
class TraceSniffer
{
    Q_DECLARE_TR_FUNCTIONS(TraceSniffer)

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

    /// Judges \a head, the first bytes of a file; \a wholeFile says that it is all of it.
    static Result inspect(std::string_view head, bool wholeFile);
    /// Opens \a path without blocking (TraceSource), reads up to \a headBytes and inspects
    /// them. For a stream this consumes data: the loader peeks through its own source.
    static Result check(const QString &path, qint64 headBytes = qint64(1) << 20);
    /// "Cannot open PATH: ..." for an input failure, saying what the file is (a symbolic
    /// link loop, a folder, a device, a file that changed while it was read).
    static QString unreadableMessage(const QString &path, const InputError &error);
};

} // namespace TraceInspector
