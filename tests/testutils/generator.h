// SPDX-License-Identifier: MIT
#pragma once

// Runs the repository's trace generator (tools/gen_trace.py) for tests. python3 is found once,
// at configure time; a test that needs it and has none is skipped with a message saying so.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace TraceInspector::TestFixtures {

inline bool havePython()
{
    return !QStringLiteral(TI_PYTHON).isEmpty();
}

/// Runs tools/gen_trace.py with `args` (the caller passes --out and the rest). Returns an
/// empty string on success, else what went wrong.
inline QString runGenerator(const QStringList &args, int timeoutMs = 300000)
{
    QProcess gen;
    gen.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    gen.start(QStringLiteral(TI_PYTHON), QStringList{QStringLiteral(TI_GENERATOR)} + args);
    if (!gen.waitForStarted())
        return QStringLiteral("cannot start %1: %2").arg(QStringLiteral(TI_PYTHON), gen.errorString());
    if (!gen.waitForFinished(timeoutMs))
        return QStringLiteral("gen_trace.py did not finish within %1 s").arg(timeoutMs / 1000);
    if (gen.exitStatus() != QProcess::NormalExit || gen.exitCode() != 0)
        return QStringLiteral("gen_trace.py failed with exit code %1").arg(gen.exitCode());
    return {};
}

} // namespace TraceInspector::TestFixtures

/// Skips the calling test, with the reason, when python3 was not found at configure time.
#define TI_REQUIRE_PYTHON()                                                                                            \
    do {                                                                                                               \
        if (!TraceInspector::TestFixtures::havePython())                                                               \
            QSKIP("python3 was not found when the build was configured; this test needs it to "                        \
                  "run tools/gen_trace.py");                                                                           \
    } while (false)

/// Runs the generator and fails the calling test with the reason when it does not succeed.
#define TI_GENERATE(...)                                                                                               \
    do {                                                                                                               \
        TI_REQUIRE_PYTHON();                                                                                           \
        const QString tiGenError = TraceInspector::TestFixtures::runGenerator(__VA_ARGS__);                            \
        QVERIFY2(tiGenError.isEmpty(), qPrintable(tiGenError));                                                        \
    } while (false)
