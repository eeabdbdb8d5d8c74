// SPDX-License-Identifier: MIT
// upstream's replicated comparison in the window (issue #15 item 7): several baseline and
// candidate inputs compared on a worker thread, the verdict and every reason with upstream's
// text, both distributions as strips, the median delta and its interval; a failing input
// shows upstream's error chain.
#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "core/analysis/sha256.h"
#include "ui/compare/replicatedcomparedialog.h"
#include "ui/compare/samplestripplot.h"
#include "ui/mainwindow.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_ReplicatedCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rawTraces();
    void verifiedBundles();
    void traceWithoutRawFlag();
    void intervalText_data();
    void intervalText();
    void menuOpensDialog();

private:
    /// A trace of one run whose measured region took \a durationNs.
    static std::string traceText(const std::string &runId, std::uint64_t durationNs, const char *implementation);
    QString writeTrace(const QString &name, std::uint64_t durationNs, const char *implementation);
    QString writeBundle(const QString &name, std::uint64_t durationNs, const char *implementation);

    QTemporaryDir m_dir;
};

std::string tst_ReplicatedCompare::traceText(const std::string &runId, std::uint64_t durationNs,
                                             const char *implementation)
{
    return "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/10\",\"run_id\":\"" + runId
           + "\",\"correlation_id\":\"c\",\"entrypoint\":\"demo::infer\",\"phase\":\"infer\",\"timestamp\":\"t\","
             "\"capture_step\":6,\"warmup_steps\":5,\"device\":\"cpu\",\"timing_mode\":\"host\",\"capture_contract\":"
             "{\"measurement_scope\":\"production_equivalent\",\"operations\":\"none\",\"logical_memory\":\"none\","
             "\"physical_memory\":\"none\",\"device_timing\":\"none\"},\"comparison_identity\":{\"implementation_id\":\""
           + implementation
           + "\",\"workload_id\":\"w\",\"model_id\":\"m\",\"config_id\":\"c\",\"data_id\":\"d\",\"seed_policy\":\"fixed\","
             "\"physical_batch\":8,\"accumulation_steps\":1,\"precision\":\"f32\",\"device_state\":\"exclusive\"},\"tags\":{}}\n"
             "{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"infer\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}\n"
             "{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":"
           + std::to_string(durationNs) + "}\n{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":"
           + std::to_string(durationNs) + "}\n";
}

QString tst_ReplicatedCompare::writeTrace(const QString &name, std::uint64_t durationNs, const char *implementation)
{
    const QString path = m_dir.filePath(name);
    return TestFixtures::writeFile(
        path, QByteArray::fromStdString(traceText(name.toStdString(), durationNs, implementation)));
}

QString tst_ReplicatedCompare::writeBundle(const QString &name, std::uint64_t durationNs, const char *implementation)
{
    // upstream's manifest for a bundle holding only trace.jsonl (docs/COMPARISON.md §2).
    const QString root = m_dir.filePath(name);
    if (::mkdir(root.toLocal8Bit().constData(), 0777) != 0)
        qFatal("cannot create %s", qPrintable(root));
    const std::string trace = traceText(name.toStdString(), durationNs, implementation);
    QFile t(root + QStringLiteral("/trace.jsonl"));
    if (!t.open(QIODevice::WriteOnly) || t.write(trace.data(), qint64(trace.size())) != qint64(trace.size()))
        qFatal("cannot write the trace of %s", qPrintable(root));
    t.close();
    const std::string manifest = "{\n  \"schema\": \"candle-graph/bundle/1\",\n  \"run_id\": \"" + name.toStdString()
                                 + "\",\n  \"files\": [\n    {\n      \"path\": \"trace.jsonl\",\n      \"bytes\": "
                                 + std::to_string(trace.size()) + ",\n      \"sha256\": \"" + Sha256::hexOf(trace)
                                 + "\"\n    }\n  ]\n}\n";
    QFile m(root + QStringLiteral("/bundle.json"));
    if (!m.open(QIODevice::WriteOnly) || m.write(manifest.data(), qint64(manifest.size())) != qint64(manifest.size()))
        qFatal("cannot write the manifest of %s", qPrintable(root));
    return root;
}

void tst_ReplicatedCompare::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_ReplicatedCompare::rawTraces()
{
    QStringList base, cand;
    for (int i = 0; i < 5; ++i) {
        base << writeTrace(QStringLiteral("raw-b%1.jsonl").arg(i), 100 + 10 * i, "a");
        cand << writeTrace(QStringLiteral("raw-c%1.jsonl").arg(i), 200 + 10 * i, "b");
    }
    ReplicatedCompareDialog dialog;
    dialog.show();
    dialog.setInputs(base, cand, true);
    QSignalSpy finished(&dialog, &ReplicatedCompareDialog::finished);
    QVERIFY(dialog.compareButton()->isEnabled());
    dialog.compareButton()->click();
    QVERIFY(dialog.isRunning());
    QVERIFY(!dialog.compareButton()->isEnabled()); // one comparison at a time
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QCOMPARE(dialog.verdictLabel()->text(), QStringLiteral("Ineligible: no verdict"));
    QCOMPARE(dialog.reasonsLabel()->text(),
             QStringLiteral("• unverified raw trace inputs are diagnostic only; finalized verified bundles are "
                            "required for an eligible comparison"));
    QVERIFY2(dialog.statisticsLabel()->text().contains(
                 QStringLiteral("Baseline: 5 runs, median 120 ns, p95 138 ns, MAD 10 ns")),
             qPrintable(dialog.statisticsLabel()->text()));
    QVERIFY(dialog.intervalLabel()->text().startsWith(
        QStringLiteral("Median delta (candidate − baseline): +100 ns (+83.33 %)")));
    QVERIFY(dialog.intervalLabel()->text().contains(QStringLiteral("No interval")));
    QVERIFY(!dialog.plot()->isEmpty());
    QCOMPARE(dialog.plot()->axisRange().first < 100.0, true);
    QCOMPARE(dialog.plot()->axisRange().second > 240.0, true);
    QVERIFY(!dialog.errorLabel()->isVisible());
}

void tst_ReplicatedCompare::verifiedBundles()
{
    QStringList base, cand;
    for (int i = 0; i < 5; ++i) {
        base << writeBundle(QStringLiteral("bundle-b%1").arg(i), 100 + 10 * i, "a");
        cand << writeBundle(QStringLiteral("bundle-c%1").arg(i), 200 + 10 * i, "b");
    }
    ReplicatedCompareDialog dialog;
    dialog.show();
    dialog.setInputs(base, cand, false);
    QSignalSpy finished(&dialog, &ReplicatedCompareDialog::finished);
    dialog.run();
    QVERIFY(finished.wait(20000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(dialog.errorLabel()->text()));
    QCOMPARE(dialog.reasonsLabel()->text(), QStringLiteral("Eligible: every upstream check passed."));
    QCOMPARE(dialog.verdictLabel()->text(), QStringLiteral("Candidate slower"));
    QVERIFY2(dialog.intervalLabel()->text().contains(QStringLiteral("95 % interval of the median delta: [+")),
             qPrintable(dialog.intervalLabel()->text()));
    QVERIFY(dialog.intervalLabel()->text().contains(QStringLiteral("unpaired bootstrap, 5 runs per side")));
    QVERIFY(dialog.statisticsLabel()->text().contains(QStringLiteral("implementation a")));
}

void tst_ReplicatedCompare::traceWithoutRawFlag()
{
    // upstream's CLI rule: without --unverified-traces every input is a bundle directory.
    const QString trace = writeTrace(QStringLiteral("plain.jsonl"), 100, "a");
    ReplicatedCompareDialog dialog;
    dialog.show();
    dialog.setInputs({trace}, {trace}, false);
    QSignalSpy finished(&dialog, &ReplicatedCompareDialog::finished);
    dialog.run();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(dialog.errorLabel()->isVisible());
    QCOMPARE(dialog.errorLabel()->text(), QStringLiteral("error: verify baseline bundle 1 at %1: bundle directory does "
                                                         "not exist: %1")
                                              .arg(trace));
    QVERIFY(dialog.plot()->isEmpty());
}

void tst_ReplicatedCompare::intervalText_data()
{
    QTest::addColumn<bool>("interval");
    QTest::addColumn<bool>("paired");
    QTest::addColumn<QString>("text");
    QTest::newRow("paired interval") << true << true
                                     << QStringLiteral(
                                            "Median delta (candidate − baseline): −25 ns (−20.00 %)\n95 % interval "
                                            "of the median delta: [−30 ns, −20 ns] (paired bootstrap, 5 runs "
                                            "per side)");
    QTest::newRow("ineligible") << false << false
                                << QStringLiteral(
                                       "Median delta (candidate − baseline): −25 ns (−20.00 %)\nNo interval: the "
                                       "comparison is ineligible (see the reasons).");
}

void tst_ReplicatedCompare::intervalText()
{
    QFETCH(bool, interval);
    QFETCH(bool, paired);
    QFETCH(QString, text);
    ReplicatedComparison r;
    r.baseline.samplesNs = {120, 125, 125, 130, 140};
    r.candidate.samplesNs = {95, 100, 100, 105, 110};
    r.medianDeltaNs = -25;
    r.medianDeltaPercent = -20;
    r.paired = paired;
    if (interval)
        r.confidenceInterval = ConfidenceInterval{0.95, -30, -20};
    QCOMPARE(ReplicatedCompareDialog::intervalText(r), text);
}

void tst_ReplicatedCompare::menuOpensDialog()
{
    MainWindow window;
    window.show();
    auto *action = window.findChild<QAction *>(QStringLiteral("compareReplicatedAction"));
    QVERIFY(action);
    action->trigger();
    auto *dialog = window.findChild<ReplicatedCompareDialog *>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    action->trigger(); // the same dialog again
    QCOMPARE(window.findChildren<ReplicatedCompareDialog *>().size(), 1);
}

QTEST_MAIN(tst_ReplicatedCompare)
#include "tst_replicatedcompare.moc"
