// SPDX-License-Identifier: MIT
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

#include "tests/testutils/generator.h"
#include "core/analysis/devicetime.h"
#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/health.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spantree.h"
#include "core/analysis/summary.h"
#include "core/loading/loadedtrace.h"
#include "core/loading/traceloader.h"
#include "core/loading/workerpool.h"
#include "core/timeline/timelinelayout.h"

using namespace TraceInspector;

namespace {

QString example(const char *name)
{
    return QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1StringView(name);
}

quint64 generationOf(const QList<QVariant> &args)
{
    return args.at(0).toULongLong();
}

LoadedTracePtr snapshotOf(const QList<QVariant> &args)
{
    return args.at(1).value<LoadedTracePtr>();
}

} // namespace

class TestTraceLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void deliversStagesInOrder();
    void eachStageCarriesItsOwnResults();
    void evidenceFindsTheTensorsStorage();
    void healthWaitsForTheReadTraceShown_data();
    void healthWaitsForTheReadTraceShown();
    void rejectedTraceIsStillShown();
    void failsWithReason_data();
    void failsWithReason();
    void unreadableFile();
    void progressIsMonotonic();
    void newerLoadSupersedes_data();
    void newerLoadSupersedes();
    void cancelStopsBigLoad();
    void destroyWhileLoading();
    void loadLeavesQtsPoolFree();
    void memoryChartStage_data();
    void memoryChartStage();
    void progressFollowsStages();
    void memoryChartStageDropped_data();
    void memoryChartStageDropped();

private:
    QString writeFile(const QString &name, const QByteArray &content);

    QTemporaryDir m_dir;
    QString m_bigTrace;
};

void TestTraceLoader::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(example("01_valid_trace10_forward.jsonl")), "spec examples not found");
    m_bigTrace = m_dir.filePath(QStringLiteral("big.jsonl"));
    TI_GENERATE({QStringLiteral("--events"), QStringLiteral("1000000"), QStringLiteral("--seed"), QStringLiteral("11"),
                 QStringLiteral("--quiet"), QStringLiteral("--out"), m_bigTrace});
    QVERIFY(QFileInfo(m_bigTrace).size() > 100'000'000);
}

void TestTraceLoader::cleanupTestCase()
{
    workerPool()->waitForDone();
}

QString TestTraceLoader::writeFile(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(content);
    return path;
}

void TestTraceLoader::deliversStagesInOrder()
{
    TraceLoader loader;
    QSignalSpy started(&loader, &TraceLoader::started);
    QSignalSpy read(&loader, &TraceLoader::traceRead);
    QSignalSpy analysis(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    QSignalSpy failed(&loader, &TraceLoader::failed);

    const quint64 generation = loader.load(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(generation > 0);
    QCOMPARE(started.count(), 1);
    QVERIFY(loader.isLoading());
    QVERIFY(finished.wait(20000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!loader.isLoading());

    QCOMPARE(read.count(), 1);
    QCOMPARE(generationOf(read.at(0)), generation);
    const LoadedTracePtr first = snapshotOf(read.at(0));
    QVERIFY(first && first->trace);
    QVERIFY(first->opStatistics);
    QCOMPARE(first->opStatistics->opCount(), std::size_t(1));
    // The views' extents come with the read, the trace's own.
    QVERIFY(first->extents);
    const RecordExtents extents = RecordExtents::compute(*first->trace);
    QCOMPARE(first->extents->opMaxDurationNs, extents.opMaxDurationNs);
    QVERIFY(first->extents->opMaxDurationNs > 0);
    QCOMPARE(first->extents->runBeginNs, extents.runBeginNs);
    QCOMPARE(first->extents->runEndNs, extents.runEndNs);
    QCOMPARE(first->extents->measuredSpans, extents.measuredSpans);
    QCOMPARE(first->extents->longestIdSpan, extents.longestIdSpan);
    QCOMPARE(first->stage, LoadStage::Read);
    QVERIFY(!first->spanTree && !first->health && !first->memory);
    QVERIFY(!first->isRejected());

    QCOMPARE(analysis.count(), 4);
    const LoadStage expected[] = {LoadStage::SpanTree, LoadStage::Health, LoadStage::Memory, LoadStage::MemoryChart};
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(generationOf(analysis.at(i)), generation);
        const LoadedTracePtr s = snapshotOf(analysis.at(i));
        QCOMPARE(s->stage, expected[i]);
        // Later stages extend the snapshot and never replace what was delivered.
        QCOMPARE(s->trace.get(), first->trace.get());
        QCOMPARE(s->readProblems.get(), first->readProblems.get());
    }

    const LoadedTracePtr done = snapshotOf(finished.at(0));
    QVERIFY(done->isComplete());
    QVERIFY(done->spanTree && done->health && done->memory && done->summary && done->memorySeries);
    QCOMPARE(done->trace->ops.size(), std::size_t(1));
    QCOMPARE(done->summary->opCount, quint64(1));
    QCOMPARE(done->summary->totalNs, quint64(50000));
    QCOMPARE(done->summary->logicalPeakBytes, std::optional<std::uint64_t>(393216));
    QVERIFY(done->health->findings.empty());
    QVERIFY(done->timings.readDoneMs >= 0 && done->timings.memoryDoneMs >= done->timings.readDoneMs);
    QCOMPARE(loader.current(), done);
}

// Device time is computed beside health and memory (issue #13); each snapshot must still hold
// exactly its own stage's results and those before it, the same objects from stage to stage.
void TestTraceLoader::healthWaitsForTheReadTraceShown_data()
{
    QTest::addColumn<int>("showMs");  // how long the window's slot for the read trace takes
    QTest::addColumn<int>("leastMs"); // health done at least this long after the read
    QTest::addColumn<int>("mostMs");  // and at most this long (the gate's bound, with room)
    QTest::newRow("shown at once") << 0 << 0 << 5000;
    QTest::newRow("shown in 150 ms") << 150 << 150 << 5000;
    // A window busy for longer than the bound holds health back no longer than that.
    QTest::newRow("shown in 2 s") << 2000 << 200 << 1500;
}

void TestTraceLoader::healthWaitsForTheReadTraceShown()
{
    // Health runs beside the span tree, but only once the window has filled its first panel
    // (issue #13): on a small trace the span tree is done at once, so the health stage's time
    // says when health could start.
    QFETCH(int, showMs);
    QFETCH(int, leastMs);
    QFETCH(int, mostMs);
    TraceLoader loader;
    connect(&loader, &TraceLoader::traceRead, this, [showMs] { QThread::msleep(static_cast<unsigned long>(showMs)); });
    QSignalSpy analysis(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(finished.wait(20000));
    const LoadTimings &t = loader.current()->timings;
    const qint64 waited = t.healthDoneMs - t.readDoneMs;
    QVERIFY2(waited >= leastMs && waited <= mostMs,
             qPrintable(QStringLiteral("health done %1 ms after the read").arg(waited)));
}

void TestTraceLoader::eachStageCarriesItsOwnResults()
{
    TraceLoader loader;
    QSignalSpy analysis(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(example("01_valid_trace10_forward.jsonl")); // has device intervals
    QVERIFY(finished.wait(20000));
    QCOMPARE(analysis.count(), 4);
    const LoadedTracePtr tree = snapshotOf(analysis.at(0));
    const LoadedTracePtr health = snapshotOf(analysis.at(1));
    const LoadedTracePtr memory = snapshotOf(analysis.at(2));
    const LoadedTracePtr chart = snapshotOf(analysis.at(3));

    QCOMPARE(tree->stage, LoadStage::SpanTree);
    QVERIFY(tree->spanTree && tree->deviceTime && tree->opStatisticsByShape && tree->extents);
    QVERIFY(!tree->deviceTime->isEmpty());
    // The timeline's layout comes with the span tree, as the view would have built it.
    QVERIFY(tree->timelineLayout && !tree->timelineLayout->isCancelled());
    const TimelineLayout expectedLayout = TimelineLayout::build(*tree->trace, *tree->spanTree);
    QCOMPARE(tree->timelineLayout->hostLevels().size(), expectedLayout.hostLevels().size());
    QCOMPARE(tree->timelineLayout->deviceLanes().size(), expectedLayout.deviceLanes().size());
    QCOMPARE(tree->timelineLayout->memoryUsage(), expectedLayout.memoryUsage());
    QVERIFY(!tree->health && !tree->memory && !tree->summary && !tree->evidence && !tree->memorySeries);
    QVERIFY(health->health && !health->memory && !health->summary && !health->evidence && !health->memorySeries);
    QVERIFY(memory->memory && memory->summary && memory->evidence && !memory->memorySeries);
    QVERIFY(chart->memorySeries);
    for (const LoadedTracePtr &later : {health, memory, chart}) {
        QCOMPARE(later->spanTree.get(), tree->spanTree.get());
        QCOMPARE(later->deviceTime.get(), tree->deviceTime.get());
        QCOMPARE(later->opStatisticsByShape.get(), tree->opStatisticsByShape.get());
        QCOMPARE(later->extents.get(), tree->extents.get());
        QCOMPARE(later->timelineLayout.get(), tree->timelineLayout.get());
    }
    QCOMPARE(memory->health.get(), health->health.get());
    QCOMPARE(chart->health.get(), health->health.get());
    QCOMPARE(chart->memory.get(), memory->memory.get());
    QCOMPARE(chart->evidence.get(), memory->evidence.get());

    const LoadTimings &t = chart->timings;
    QVERIFY(t.deviceTimeMs >= 0 && t.opRegroupMs >= 0 && t.evidenceMs >= 0);
    QVERIFY(t.readDoneMs >= 0);
    QVERIFY(t.spanTreeDoneMs >= t.readDoneMs);
    QVERIFY(t.healthDoneMs >= t.spanTreeDoneMs);
    QVERIFY(t.memoryDoneMs >= t.healthDoneMs);
    QVERIFY(t.memoryChartDoneMs >= t.memoryDoneMs);
}

void TestTraceLoader::evidenceFindsTheTensorsStorage()
{
    // The loader analyses the evidence in two steps (most of it while memory is analysed):
    // the result is the one-step analysis's. Example 01 with a tensor record for the matmul's
    // output, whose storage the memory records name.
    QFile f(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    const qsizetype terminal = text.indexOf(R"({"kind":"terminal")");
    QVERIFY(terminal > 0);
    text.insert(terminal, R"({"kind":"tensor","span_id":"span-matmul","tensor_id":"t:q","label":"q",)"
                          R"("shape":[2,128,768],"dtype":"bf16","device":"cuda:0","category":"activation"})"
                          "\n");
    TraceLoader loader;
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(writeFile(QStringLiteral("storage.jsonl"), text));
    QVERIFY(finished.wait(20000));
    const LoadedTracePtr done = snapshotOf(finished.at(0));
    QVERIFY(done->evidence && done->health && done->memory);
    const Trace &trace = *done->trace;
    QCOMPARE(trace.tensors.size(), std::size_t(2));
    const TensorEvidence &got = done->evidence->tensors;
    QCOMPARE(trace.str(got.storageId[1]), std::string_view("cuda:0/storage-17"));
    QCOMPARE(got.allocNs[1], std::uint64_t(13600));
    QCOMPARE(got.freeNs[1], std::uint64_t(50500));
    QCOMPARE(got.producingOp[1], std::uint32_t(0));
    QVERIFY(!got.hasStorage(0)); // the weight has no memory record

    const EvidenceAnalysis want = analyzeEvidence(trace, done->health.get(), done->memory.get());
    QCOMPARE(got.producingOp, want.tensors.producingOp);
    QCOMPARE(got.storageId, want.tensors.storageId);
    QCOMPARE(got.allocNs, want.tensors.allocNs);
    QCOMPARE(got.freeNs, want.tensors.freeNs);
    QCOMPARE(got.spanIndex, want.tensors.spanIndex);
    QCOMPARE(got.idRank, want.tensors.idRank);
    QCOMPARE(got.labelRank, want.tensors.labelRank);
    QCOMPARE(got.storageRank, want.tensors.storageRank);
    QCOMPARE(got.peakNs, want.tensors.peakNs);
    QCOMPARE(got.statsTensor, want.tensors.statsTensor);
    QCOMPARE(got.statsOp, want.tensors.statsOp);
    QCOMPARE(got.statsOpByShape, want.tensors.statsOpByShape);
    QCOMPARE(done->evidence->tensorStats.size(), want.tensorStats.size());
    QCOMPARE(done->evidence->gradients.keys.size(), want.gradients.keys.size());
}

void TestTraceLoader::rejectedTraceIsStillShown()
{
    TraceLoader loader;
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(example("03_meta_not_first.jsonl"));
    QVERIFY(finished.wait(20000));
    const LoadedTracePtr done = snapshotOf(finished.at(0));
    QVERIFY(done->isRejected());
    QCOMPARE(QString::fromStdString(done->strictError->message),
             QStringLiteral("meta event must be the first non-empty trace record, found at index 1"));
    QVERIFY(done->hasHardErrors());
    QVERIFY(done->trace);
    QVERIFY(done->trace->meta.has_value());
}

void TestTraceLoader::failsWithReason_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("reason");

    QTest::newRow("empty") << QByteArray() << QStringLiteral("the file is empty");
    QTest::newRow("blank lines only") << QByteArray("\n  \n\t\n") << QStringLiteral("the file is empty");
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << QStringLiteral("binary data");
    QTest::newRow("csv") << QByteArray("name,duration\nmatmul,12\n") << QStringLiteral("line 1 is not JSON");
    QTest::newRow("json array") << QByteArray("[1,2,3]\n") << QStringLiteral("line 1 is JSON but not an object");
    QTest::newRow("object without kind") << QByteArray("{\"name\":\"x\"}\n{\"a\":1}\n")
                                         << QStringLiteral("line 1 is a JSON object without a \"kind\" member");
    QTest::newRow("foreign kind") << QByteArray("\n{\"kind\":\"sample\",\"v\":1}\n")
                                  << QStringLiteral("line 2 has no trace record kind");
}

void TestTraceLoader::failsWithReason()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, reason);
    const QString path =
        writeFile(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_') + QStringLiteral(".jsonl"), content);
    QVERIFY(!path.isEmpty());

    TraceLoader loader;
    QSignalSpy failed(&loader, &TraceLoader::failed);
    QSignalSpy read(&loader, &TraceLoader::traceRead);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    const quint64 generation = loader.load(path);
    QVERIFY(failed.wait(20000));
    QCOMPARE(generationOf(failed.at(0)), generation);
    const QString message = failed.at(0).at(1).toString();
    QVERIFY2(message.startsWith(QStringLiteral("Not a candle-graph trace: ")), qPrintable(message));
    QVERIFY2(message.contains(reason), qPrintable(message));
    QTRY_VERIFY(!loader.isLoading());
    QCOMPARE(read.count(), 0);
    QCOMPARE(finished.count(), 0);
    QVERIFY(!loader.current());
}

void TestTraceLoader::unreadableFile()
{
    TraceLoader loader;
    QSignalSpy failed(&loader, &TraceLoader::failed);
    const QString missing = m_dir.filePath(QStringLiteral("does-not-exist.jsonl"));
    loader.load(missing);
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("Cannot open %1: No such file or directory").arg(missing));

    loader.load(m_dir.path());
    QVERIFY(failed.wait(20000));
    QVERIFY(failed.at(1).at(1).toString().contains(QStringLiteral("it is a folder")));
}

void TestTraceLoader::progressIsMonotonic()
{
    TraceLoader loader;
    QSignalSpy progress(&loader, &TraceLoader::progressChanged);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(m_bigTrace);
    QVERIFY(finished.wait(120000));
    QVERIFY(progress.count() >= 5);
    int last = -1;
    bool sawReading = false;
    for (const QList<QVariant> &args : std::as_const(progress)) {
        const int permille = args.at(1).toInt();
        const QString phase = args.at(2).toString();
        QVERIFY2(permille >= last, qPrintable(QStringLiteral("%1 after %2").arg(permille).arg(last)));
        QVERIFY(permille <= 1000);
        QVERIFY(!phase.isEmpty());
        sawReading =
            sawReading || (phase.startsWith(QStringLiteral("Reading ")) && phase.contains(QStringLiteral(" of ")));
        last = permille;
    }
    QVERIFY(sawReading);
    QCOMPARE(last, 1000);
}

void TestTraceLoader::newerLoadSupersedes_data()
{
    QTest::addColumn<bool>("bigFirst");
    QTest::newRow("big then small") << true;
    QTest::newRow("small then small") << false;
}

void TestTraceLoader::newerLoadSupersedes()
{
    QFETCH(bool, bigFirst);
    TraceLoader loader;
    QSignalSpy read(&loader, &TraceLoader::traceRead);
    QSignalSpy analysis(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    QSignalSpy progress(&loader, &TraceLoader::progressChanged);
    QSignalSpy cancelled(&loader, &TraceLoader::cancelled);

    const quint64 first = loader.load(bigFirst ? m_bigTrace : example("02_valid_trace9_train.jsonl"));
    const quint64 second = loader.load(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(second > first);
    QCOMPARE(loader.currentGeneration(), second);
    QVERIFY(finished.wait(60000));

    // Let the superseded job run out, then make sure none of its results got through.
    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 60000);
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(read.count(), 1);
    QCOMPARE(analysis.count(), 4);
    for (const QSignalSpy *spy : {&read, &analysis, &finished, &progress}) {
        for (const QList<QVariant> &args : *spy)
            QCOMPARE(generationOf(args), second);
    }
    QCOMPARE(snapshotOf(finished.at(0))->trace->path, example("01_valid_trace10_forward.jsonl").toStdString());
    QCOMPARE(cancelled.count(), 0); // superseding is not a user cancel
}

void TestTraceLoader::cancelStopsBigLoad()
{
    TraceLoader loader;
    QSignalSpy progress(&loader, &TraceLoader::progressChanged);
    QSignalSpy read(&loader, &TraceLoader::traceRead);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    QSignalSpy cancelled(&loader, &TraceLoader::cancelled);

    const quint64 generation = loader.load(m_bigTrace);
    // Wait until the reader is inside the file, then cancel.
    QTRY_VERIFY_WITH_TIMEOUT(
        !progress.isEmpty() && progress.last().at(2).toString().startsWith(QStringLiteral("Reading ")), 60000);
    loader.cancel();
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(generationOf(cancelled.at(0)), generation);
    QVERIFY(!loader.isLoading());

    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 60000);
    QCoreApplication::processEvents();
    QCOMPARE(read.count(), 0);
    QCOMPARE(finished.count(), 0);
    QVERIFY(!loader.current());

    // A new load after a cancel works normally.
    loader.load(example("01_valid_trace10_forward.jsonl"));
    QVERIFY(finished.wait(20000));
    QCOMPARE(cancelled.count(), 1);
}

void TestTraceLoader::destroyWhileLoading()
{
    auto loader = std::make_unique<TraceLoader>();
    QSignalSpy progress(loader.get(), &TraceLoader::progressChanged);
    loader->load(m_bigTrace);
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 60000);
    QElapsedTimer clock;
    clock.start();
    loader.reset(); // cancels and waits for the job instead of leaving it running
    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 5000);
}

// Qt 6.4's raster engine splits fills over QThreadPool::globalInstance() and waits for them on
// the GUI thread: a load holding the global workers made every repaint wait for it.
void TestTraceLoader::loadLeavesQtsPoolFree()
{
    TraceLoader loader;
    int mostGlobalWorkers = 0;
    int mostInspectorWorkers = 0;
    connect(&loader, &TraceLoader::progressChanged, this, [&] {
        mostGlobalWorkers = std::max(mostGlobalWorkers, QThreadPool::globalInstance()->activeThreadCount());
        mostInspectorWorkers = std::max(mostInspectorWorkers, workerPool()->activeThreadCount());
    });
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(m_bigTrace);
    QVERIFY(finished.wait(120000));
    QVERIFY(mostInspectorWorkers > 0);
    QCOMPARE(mostGlobalWorkers, 0);
}

void TestTraceLoader::memoryChartStage_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("logical");
    QTest::addColumn<bool>("physical");
    QTest::newRow("memory records and samples") << example("01_valid_trace10_forward.jsonl") << true << true;
    QTest::newRow("device samples only") << example("02_valid_trace9_train.jsonl") << false << true;
    QTest::newRow("no memory events") << example("04_span_end_unknown.jsonl") << false << false;
}

void TestTraceLoader::memoryChartStage()
{
    QFETCH(QString, file);
    QFETCH(bool, logical);
    QFETCH(bool, physical);
    TraceLoader loader;
    QSignalSpy analysis(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    QSignalSpy steps(&loader, &TraceLoader::stepProgress);
    loader.load(file);
    QVERIFY(finished.wait(20000));

    // The Memory snapshot has no series yet; the MemoryChart one, the last, has them.
    QCOMPARE(analysis.count(), 4);
    const LoadedTracePtr memory = snapshotOf(analysis.at(2));
    QCOMPARE(memory->stage, LoadStage::Memory);
    QVERIFY(memory->memory && !memory->memorySeries);
    QVERIFY(!memory->isComplete());
    const LoadedTracePtr chart = snapshotOf(analysis.at(3));
    QCOMPARE(chart->stage, LoadStage::MemoryChart);
    QCOMPARE(snapshotOf(finished.at(0)), chart);
    QVERIFY(chart->isComplete());
    QCOMPARE(chart->memory.get(), memory->memory.get()); // earlier members stay as delivered
    QVERIFY(chart->memorySeries);
    QVERIFY(chart->timings.memoryChartDoneMs >= chart->timings.memoryDoneMs);

    // The series are those of the profile delivered: unknown stays unknown, never zero.
    const MemorySeries &series = *chart->memorySeries;
    QCOMPARE(series.hasLogical(), logical);
    QCOMPARE(series.hasPhysical(), physical);
    const MemorySeries reference(*chart->trace, *chart->memory);
    QCOMPARE(series.devices(), reference.devices());
    QCOMPARE(series.runRange(), reference.runRange());
    QCOMPARE(series.changeCount(), reference.changeCount());
    const LogicalChartData peak = series.logical(MemorySeries::kAllDevices, {}, 0);
    QCOMPARE(peak.peakBytes, chart->summary->logicalPeakBytes);

    // Progress names the step like the others: the fifth of five, when the series were still
    // being prepared once the memory stage was out (a step whose work is done is skipped).
    for (const QList<QVariant> &args : std::as_const(steps)) {
        const auto p = args.at(1).value<LoadProgress>();
        QCOMPARE(p.stepCount, 5);
        if (p.step == 5)
            QCOMPARE(p.stepName, QStringLiteral("Preparing the memory chart"));
    }
}

// The steps follow the work: each is announced before the stage it leads to is published
// and after the step before it, in step order; health's and the chart's steps are left
// out when their work was done before the loader came to wait for it.
void TestTraceLoader::progressFollowsStages()
{
    TraceLoader loader;
    QStringList log; // "step N" and "stage N", in emission order
    QStringList names;
    connect(&loader, &TraceLoader::stepProgress, this, [&](quint64, const LoadProgress &p) {
        const QString entry = QStringLiteral("step %1").arg(p.step);
        if (log.isEmpty() || log.last() != entry) {
            log << entry;
            names << p.stepName;
        }
    });
    connect(&loader, &TraceLoader::traceRead, this, [&] { log << QStringLiteral("stage 0"); });
    connect(&loader, &TraceLoader::analysisReady, this,
            [&](quint64, const LoadedTracePtr &s) { log << QStringLiteral("stage %1").arg(int(s->stage)); });
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(m_bigTrace);
    QVERIFY(finished.wait(120000));

    const QStringList expectedNames{QStringLiteral("Reading big.jsonl"), QStringLiteral("Building the span tree"),
                                    QStringLiteral("Checking health"), QStringLiteral("Analysing memory"),
                                    QStringLiteral("Preparing the memory chart")};
    QStringList steps = log.filter(QStringLiteral("step"));
    for (int i = 0; i < steps.size(); ++i)
        QCOMPARE(names.at(i), expectedNames.at(steps.at(i).mid(5).toInt() - 1));
    // Step k (k >= 2) comes after the read (stage 0) and the steps before it, and before
    // stage k - 1 (stages count from 0: Read); the chart's step after the memory stage.
    const auto at = [&log](const QString &entry) { return log.indexOf(entry); };
    qsizetype previous = at(QStringLiteral("stage 0"));
    for (int k = 2; k <= 5; ++k) {
        const qsizetype step = at(QStringLiteral("step %1").arg(k));
        if (step < 0) {
            QVERIFY2(k == 3 || k == 5, qPrintable(log.join(u',')));
            continue;
        }
        QVERIFY2(previous < step, qPrintable(log.join(u',')));
        QVERIFY2(step < at(QStringLiteral("stage %1").arg(k - 1)), qPrintable(log.join(u',')));
        previous = step;
    }
    if (const qsizetype chartStep = at(QStringLiteral("step 5")); chartStep >= 0)
        QVERIFY2(at(QStringLiteral("stage 3")) < chartStep, qPrintable(log.join(u',')));
    QCOMPARE(log.filter(QStringLiteral("stage")),
             (QStringList{QStringLiteral("stage 0"), QStringLiteral("stage 1"), QStringLiteral("stage 2"),
                          QStringLiteral("stage 3"), QStringLiteral("stage 4")}));
}

void TestTraceLoader::memoryChartStageDropped_data()
{
    QTest::addColumn<bool>("supersede");
    QTest::newRow("cancelled") << false;
    QTest::newRow("superseded") << true;
}

void TestTraceLoader::memoryChartStageDropped()
{
    QFETCH(bool, supersede);
    TraceLoader loader;
    QSignalSpy analysis(&loader, &TraceLoader::analysisReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
    const QString next = example("02_valid_trace9_train.jsonl");
    // Stopped as soon as the Memory stage arrives: the worker may have the series already
    // (a small trace), but they belong to a load nobody wants any more.
    quint64 second = 0;
    const quint64 first = loader.load(example("01_valid_trace10_forward.jsonl"));
    connect(&loader, &TraceLoader::analysisReady, this, [&](quint64 generation, const LoadedTracePtr &snapshot) {
        if (generation != first || snapshot->stage != LoadStage::Memory)
            return;
        if (supersede)
            second = loader.load(next);
        else
            loader.cancel();
    });
    if (supersede)
        QVERIFY(finished.wait(20000));
    else
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(workerPool()->activeThreadCount(), 0, 20000);
    QCoreApplication::processEvents();

    for (const QList<QVariant> &args : std::as_const(analysis)) {
        if (generationOf(args) == first)
            QVERIFY(snapshotOf(args)->stage != LoadStage::MemoryChart);
    }
    if (!supersede) {
        QCOMPARE(finished.count(), 0);
        QVERIFY(!loader.current() || !loader.current()->memorySeries);
        return;
    }
    QCOMPARE(finished.count(), 1);
    QCOMPARE(generationOf(finished.at(0)), second);
    const LoadedTracePtr done = snapshotOf(finished.at(0));
    QCOMPARE(done->trace->path, next.toStdString());
    QVERIFY(done->memorySeries);
    QVERIFY(!done->memorySeries->hasLogical()); // the second trace's series, not the first's
    QCOMPARE(loader.current(), done);
}

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
