// SPDX-License-Identifier: MIT
#pragma once

// Reading fixture traces for tests: one way to turn JSONL bytes, a spec example or a file
// into a Trace and the analyses a test needs (ti_testsupport).

#include <QByteArray>
#include <QString>

#include <memory>

#include "core/io/tracereader.h"

namespace TraceInspector {
struct Trace;
class SpanTree;
class OpStatistics;
struct MemoryProfile;
} // namespace TraceInspector

namespace TraceInspector::TestFixtures {

/// Reads \a jsonl as the file \a name (messages name it).
ReadResult readJsonl(const QByteArray &jsonl, const QString &name = QStringLiteral("fixture.jsonl"));
/// The tolerant trace of \a jsonl; null when nothing could be read.
std::shared_ptr<const Trace> traceFrom(const QByteArray &jsonl, const QString &name = QStringLiteral("fixture.jsonl"));

/// The trace of \a jsonl when the strict rules accept it; else null, with the reason logged.
std::shared_ptr<const Trace> acceptedTraceFrom(const QByteArray &jsonl,
                                               const QString &name = QStringLiteral("fixture.jsonl"));
/// \a trace (a fixture ending in its terminal line) with \a records inserted before the terminal.
QByteArray withRecords(QByteArray trace, const QByteArray &records);

/// The bytes of a file; empty when it cannot be read.
QByteArray fileBytes(const QString &path);
/// Writes \a content to \a path and returns the path; a fixture that cannot be written ends
/// the test run (qFatal), as nothing after it would mean anything.
QString writeFile(const QString &path, const QByteArray &content);
/// A spec example under tests/data/examples, e.g. "03-nested-spans.jsonl".
QString examplePath(const QString &name);
std::shared_ptr<const Trace> exampleTrace(const QString &name);

/// A trace with the analyses a view is given by the loader.
struct Analysed {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const SpanTree> tree;
    std::shared_ptr<const OpStatistics> stats;
    std::shared_ptr<const MemoryProfile> profile;
};
enum Analysis { SpanTreeAnalysis = 1, OpStatisticsAnalysis = 2, MemoryAnalysis = 4 };
/// Reads \a jsonl and runs the analyses in \a analyses (an OR of Analysis); fields of the
/// analyses not asked for, and all of them when nothing could be read, stay null.
Analysed analysed(const QByteArray &jsonl, int analyses, const QString &name = QStringLiteral("fixture.jsonl"));

} // namespace TraceInspector::TestFixtures
