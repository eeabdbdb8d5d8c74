// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

namespace TraceInspector {

struct Problem;
struct RawLine;

/// What a finding's message leaves unsaid, for display next to it; the message itself is
/// upstream's exact text (the CLI and the strict verdict print it) and never changes.
///
/// * E-TSTATS-INVALID: which §4.6 rule the record broke and with which values, e.g.
///   "elements is 196600, but the shape [2, 128, 768] has 196608 elements" — worked out from
///   the line itself, \a raw (the record is not kept in the trace).
/// * Rules whose message gives a record index: what that index counts.
struct ProblemExplanation {
    Q_DECLARE_TR_FUNCTIONS(ProblemExplanation)

public:
    QString reason; ///< why it fired, e.g. "elements is 196600, but …"; empty when unknown
    QString note;   ///< how to read the message, e.g. what its record index counts
};
/// Fields are empty when there is nothing to add (or \a raw is needed and missing).
ProblemExplanation explainProblem(const Problem &problem, const RawLine *raw);

/// Whether explainProblem() needs the line's text for \a problem.
bool explanationNeedsLine(const Problem &problem);

} // namespace TraceInspector
