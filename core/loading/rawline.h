// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

namespace TraceInspector {

/// One physical line of a trace file as it is on disk, for showing where a finding is.
struct RawLine {
    Q_DECLARE_TR_FUNCTIONS(RawLine)

public:
    bool ok = false;
    QString error; ///< why the line could not be read, when !ok
    std::uint64_t line = 0;
    QByteArray bytes; ///< without its line break; at most the byte limit given
    bool truncated = false;
    std::uint64_t length = 0; ///< the whole line's length in bytes

    /// Reads line \a line (1-based, TRACE_FORMAT.md §2 numbering: split on LF, a CR before
    /// the LF dropped) of \a path, keeping at most \a maxBytes of it. Scans the file from its
    /// start (memchr over large blocks): call it off the GUI thread for big files.
    static RawLine read(const QString &path, std::uint64_t line, qsizetype maxBytes = 64 * 1024);
    /// The same for several lines in one pass; the result is in the order of \a lines.
    static std::vector<RawLine> readMany(const QString &path, std::vector<std::uint64_t> lines,
                                         qsizetype maxBytes = 64 * 1024);
};

} // namespace TraceInspector
