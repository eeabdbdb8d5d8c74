// SPDX-License-Identifier: MIT
#include "core/loading/traceloader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QLoggingCategory>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <chrono>

#include "core/analysis/devicetime.h"
#include "core/analysis/evidenceanalysis.h"
#include "core/analysis/health.h"
#include "core/analysis/memoryprofile.h"
#include "core/analysis/memoryseries.h"
#include "core/analysis/opstatistics.h"
#include "core/analysis/recordextents.h"
#include "core/analysis/spanidindex.h"
#include "core/analysis/spantree.h"
#include "core/analysis/summary.h"
#include "core/timeline/timelinelayout.h"
#include "core/io/tracereader.h"
#include "core/io/tracesource.h"
#include "core/loading/analysisjob.h"
#include "core/loading/stagegate.h"
#include "core/loading/tracesniffer.h"
#include "core/loading/workerpool.h"

Q_LOGGING_CATEGORY(lcLoading, "traceinspector.loading", QtWarningMsg)

namespace TraceInspector {

namespace {

// Progress budget (permille) of each phase; reading dominates the wall time.
constexpr int kReadEnd = 850;
constexpr int kSpanTreeEnd = 880;
constexpr int kHealthEnd = 920;
constexpr int kMemoryEnd = 960;
constexpr int kProgressIntervalMs = 40;
constexpr int kStepCount = 5; // reading, span tree, health, memory, memory chart

struct LoadEvent {
    enum class Type : quint8 { Progress, Stage, Failure };
    Type type = Type::Progress;
    int permille = 0;
    QString text; // phase text or failure message
    LoadedTracePtr snapshot;
    LoadProgress progress;
    TraceLoader::FailureKind failure = TraceLoader::FailureKind::Unreadable;
};

using CancelFlag = std::shared_ptr<std::atomic<bool>>;
using Gate = std::shared_ptr<StageGate>;

// How long health waits for the window to show the read trace before it starts anyway.
constexpr std::chrono::milliseconds kReadShownWait(250);

QString formatFileSize(std::uint64_t bytes)
{
    return QLocale::system().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeSIFormat);
}

/// Throttles progress: a new value is sent only when it changed and not more often than
/// every kProgressIntervalMs, except that a new phase is always announced.
class ProgressReporter
{
public:
    explicit ProgressReporter(QPromise<LoadEvent> &promise)
        : m_promise(promise)
    {
        m_clock.start();
    }

    /// A new step: always announced.
    void step(int step, int permille, const QString &name, const QString &text)
    {
        m_step = step;
        m_stepName = name;
        send(permille, text, step == 1 ? 0 : -1, {});
    }
    /// Progress inside the reading step.
    void update(int permille, int stepPermille, const QString &text, const QString &detail)
    {
        // A stream's progress is a growing byte count with no permille to go with it.
        if ((permille == m_last && text == m_lastText) || m_clock.elapsed() - m_lastMs < kProgressIntervalMs)
            return;
        send(permille, text, stepPermille, detail);
    }
    void done() { send(1000, TraceLoader::tr("Done"), 1000, {}); }

private:
    void send(int permille, const QString &text, int stepPermille, const QString &detail)
    {
        m_last = permille;
        m_lastText = text;
        m_lastMs = m_clock.elapsed();
        LoadEvent event{LoadEvent::Type::Progress, permille, text, {}, {}};
        event.progress = LoadProgress{m_step, kStepCount, m_stepName, stepPermille, detail, permille};
        m_promise.addResult(std::move(event));
    }

    QPromise<LoadEvent> &m_promise;
    QElapsedTimer m_clock;
    qint64 m_lastMs = -1000;
    int m_last = -1;
    int m_step = 0;
    QString m_stepName;
    QString m_lastText;
};

void fail(QPromise<LoadEvent> &promise, const QString &message, TraceLoader::FailureKind kind)
{
    promise.addResult(LoadEvent{LoadEvent::Type::Failure, 0, message, {}, {}, kind});
}

void publish(QPromise<LoadEvent> &promise, const std::shared_ptr<LoadedTrace> &snapshot)
{
    promise.addResult(LoadEvent{LoadEvent::Type::Stage, 0, {}, snapshot, {}});
}

void runStages(QPromise<LoadEvent> &promise, const QString &path, quint64 generation, const CancelFlag &cancel,
               const Gate &readShown)
{
    QElapsedTimer clock;
    clock.start();
    ProgressReporter progress(promise);
    const QString fileName = QFileInfo(path).fileName();
    progress.step(1, 0, TraceLoader::tr("Reading %1").arg(fileName), TraceLoader::tr("Opening %1").arg(fileName));

    // One open, without blocking, for the sniff and the read: a pipe can be read only once,
    // and a FIFO without a writer would block a plain open() for good.
    TraceSource source = TraceSource::open(QFile::encodeName(path).toStdString());
    if (!source.isOpen()) {
        fail(promise, TraceSniffer::unreadableMessage(path, source.error()), TraceLoader::FailureKind::Unreadable);
        return;
    }
    const bool stream = source.kind() == TraceSource::Kind::Stream;
    const WaitSink waiting = [&](std::uint64_t waitedMs, std::uint64_t bytesSoFar) {
        if (waitedMs >= 500) {
            const QString text = bytesSoFar == 0 ? TraceLoader::tr("Waiting for data from %1 (%2)")
                                                       .arg(fileName, source.isFifo() ? TraceLoader::tr("a FIFO")
                                                                                      : TraceLoader::tr("a pipe"))
                                                 : TraceLoader::tr("Waiting for more data from %1").arg(fileName);
            progress.update(1, 0, text, text);
        }
    };
    std::string head;
    if (!source.peek(std::size_t(1) << 20, head, WaitControl{cancel.get(), waiting})) {
        if (!source.error())
            return; // cancelled while waiting for data
        fail(promise, TraceSniffer::unreadableMessage(path, source.error()), TraceLoader::FailureKind::Unreadable);
        return;
    }
    const TraceSniffer::Result sniff = TraceSniffer::inspect(head, source.peekedAll());
    std::string().swap(head);
    if (sniff.verdict != TraceSniffer::Verdict::Trace) {
        fail(promise, sniff.message,
             sniff.verdict == TraceSniffer::Verdict::NotATrace ? TraceLoader::FailureKind::NotATrace
                                                               : TraceLoader::FailureKind::Unreadable);
        return;
    }

    const ProgressSink sink = [&](std::uint64_t done, std::uint64_t total) {
        if (promise.isCanceled())
            cancel->store(true, std::memory_order_relaxed);
        if (total == 0) {
            const QString detail = TraceLoader::tr("%1 so far").arg(formatFileSize(done));
            progress.update(1, 0, TraceLoader::tr("Reading %1: %2").arg(fileName, detail), detail);
            return;
        }
        const double fraction = double(done) / double(total);
        const QString detail = TraceLoader::tr("%1 of %2").arg(formatFileSize(done), formatFileSize(total));
        progress.update(int(fraction * kReadEnd), int(fraction * 1000), TraceLoader::tr("Reading %1").arg(detail),
                        detail);
    };
    const QString readingText =
        stream ? TraceLoader::tr("Reading %1 (a stream)").arg(fileName) : TraceLoader::tr("Reading %1").arg(fileName);
    progress.step(1, 1, TraceLoader::tr("Reading %1").arg(fileName), readingText);
    ReadOptions options;
    options.waiting = waiting;
    ReadResult read = TraceReader::read(source, options, sink, cancel.get());
    if (promise.isCanceled() || read.cancelled || cancel->load())
        return;
    if (read.inputError || !read.trace) {
        fail(promise, TraceSniffer::unreadableMessage(path, read.inputError),
             read.inputError.kind == InputError::Kind::Changed ? TraceLoader::FailureKind::ChangedWhileRead
                                                               : TraceLoader::FailureKind::Unreadable);
        return;
    }

    auto snapshot = std::make_shared<LoadedTrace>();
    snapshot->generation = generation;
    snapshot->path = path;
    snapshot->stage = LoadStage::Read;
    snapshot->trace = std::move(read.trace);
    snapshot->readProblems = std::make_shared<const std::vector<Problem>>(std::move(read.problems));
    snapshot->readOmitted = std::move(read.omittedProblems);
    snapshot->strictError = std::move(read.strictError);
    // The views' record extents on the pool meanwhile (issue #13, 1 GB trace: ~5-9 ms there,
    // where the window's thread spent ~18 ms on the same walks, spread over its views).
    AnalysisJob<RecordExtents> extentsJob(
        [keep = snapshot->trace] { return std::make_shared<const RecordExtents>(RecordExtents::compute(*keep)); });
    // The span id index the first op table needs, handed on to the span tree, which would
    // otherwise build it again (issue #13, 1 GB trace: the index takes ~4 ms; the first op
    // table's scratch went from 17.3 MiB of per-string tables to the index's 4.4 MiB).
    SpanIdIndex spanIds = SpanIdIndex::build(*snapshot->trace);
    snapshot->opStatistics = std::make_shared<const OpStatistics>(OpStatistics::compute(*snapshot->trace, spanIds));
    snapshot->extents = extentsJob.take();
    snapshot->timings.readDoneMs = clock.elapsed();
    publish(promise, snapshot);
    const Trace &trace = *snapshot->trace;

    if (promise.isCanceled())
        return;
    // The analyses after the read form a small graph: health and the memory profile need only
    // the trace, device time and the timeline's layout need the span tree, the evidence needs
    // health (and memory for the tensors' storage), the chart's series needs memory. This
    // thread builds the span tree, the layout (the longest chain) and the evidence, the others
    // run as jobs on the analysis pool, and the stages go out in order. Health starts on the
    // pool as soon as the window has filled its first panel (readShown), while this thread
    // builds the span tree: the pool's workers are idle then (issue #13, 1 GB trace, two
    // cores: the window fully drawn ~50 ms sooner than with health after the span tree,
    // medians of 24 alternating runs). Started with the read, it delayed the window's first
    // panel by ~30 ms. Memory starts later than it could, on purpose: after the layout, whose
    // scratch it would otherwise add to (peak RSS at most 474 MiB in 20 runs, against 482).
    // The memory stages come ~50 ms later for it, the span tree stage ~60 ms sooner.
    const std::shared_ptr<const Trace> keep = snapshot->trace;
    AnalysisJob<HealthReport> healthJob([keep, readShown, extents = snapshot->extents] {
        readShown->waitFor(kReadShownWait);
        return std::make_shared<const HealthReport>(analyzeHealth(*keep, extents.get()));
    });

    // Each step is announced when this thread starts to wait for its work, and only when that
    // work is still running: the jobs run ahead of the published stages, and a step whose
    // work is done already would be text about the past (the step number then jumps).
    progress.step(2, kReadEnd, TraceLoader::tr("Building the span tree"), TraceLoader::tr("Building the span tree"));
    qint64 cpuStart = threadCpuMs();
    std::vector<std::uint32_t> spansByStart; // the span tree's sort, for the layout below
    auto tree = std::make_shared<const SpanTree>(SpanTree::build(trace, &spansByStart, std::move(spanIds)));
    const qint64 spanTreeCpuMs = threadCpuMs() - cpuStart;
    if (promise.isCanceled() || cancel->load())
        return;
    AnalysisJob<DeviceTime> deviceTimeJob(
        [keep, tree] { return std::make_shared<const DeviceTime>(DeviceTime::compute(*keep, *tree)); });
    {
        QElapsedTimer part;
        part.start();
        cpuStart = threadCpuMs();
        snapshot = std::make_shared<LoadedTrace>(*snapshot);
        snapshot->timings.cpu.spanTree = spanTreeCpuMs;
        snapshot->opStatisticsByShape = std::make_shared<const OpStatistics>(
            OpStatistics::compute(trace, OpGrouping::NameShapeDtypeDevice, tree.get()));
        snapshot->timings.opRegroupMs = part.elapsed();
        snapshot->timings.cpu.opRegroup = threadCpuMs() - cpuStart;
        snapshot->spanTree = std::move(tree);
    }

    // The timeline's layout, which the view would otherwise start only once the span tree
    // stage is shown, on this thread: it is the longest of the analyses, and as a job it
    // queued behind the other analyses on the pool's two workers while this thread waited.
    cpuStart = threadCpuMs();
    snapshot->timelineLayout = std::make_shared<const TimelineLayout>(TimelineLayout::build(
        trace, *snapshot->spanTree, cancel.get(), std::move(spansByStart), snapshot->extents.get()));
    snapshot->timings.cpu.timelineLayout = threadCpuMs() - cpuStart;
    if (promise.isCanceled() || cancel->load() || snapshot->timelineLayout->isCancelled())
        return;
    AnalysisJob<MemoryProfile> memoryJob(
        [keep] { return std::make_shared<const MemoryProfile>(analyzeMemory(*keep)); });

    // The span tree stage goes out as soon as it is complete, so the window builds its views
    // (span tree, timeline, call graph) while memory is analysed.
    snapshot->deviceTime = deviceTimeJob.take(&snapshot->timings.deviceTimeMs, &snapshot->timings.cpu.deviceTime);
    snapshot->stage = LoadStage::SpanTree;
    snapshot->timings.spanTreeDoneMs = clock.elapsed();
    publish(promise, snapshot);
    if (promise.isCanceled() || cancel->load())
        return;

    // The summary on this thread, which would otherwise wait idle for memory: of the memory
    // figures it needs only the logical peak, filled in below (issue #13, 1 GB trace: ~12 ms
    // off the memory job, which is on the window's critical path).
    cpuStart = threadCpuMs();
    TraceSummary summary = computeSummary(trace, std::nullopt, &snapshot->spanTree->spanIds());
    const qint64 summaryCpuMs = threadCpuMs() - cpuStart;

    if (!healthJob.isFinished())
        progress.step(3, kSpanTreeEnd, TraceLoader::tr("Checking health"), TraceLoader::tr("Checking health"));
    qint64 healthCpuMs = -1;
    const std::shared_ptr<const HealthReport> health = healthJob.take(nullptr, &healthCpuMs);
    if (promise.isCanceled() || cancel->load())
        return;
    // Health's stage goes out at once: the window fills its views while memory is analysed on
    // the pool, when a core would otherwise be idle, not after it beside the chart's series.
    snapshot = std::make_shared<LoadedTrace>(*snapshot);
    snapshot->health = health;
    snapshot->timings.cpu.health = healthCpuMs;
    snapshot->stage = LoadStage::Health;
    snapshot->timings.healthDoneMs = clock.elapsed();
    publish(promise, snapshot);
    if (promise.isCanceled() || cancel->load())
        return;

    // The evidence but the tensors' storage while memory is analysed on the pool, and only
    // the storage once memory is there, beside the chart's series (issue #13, 1 GB trace:
    // ~20 of the evidence's ~35 ms off the window's critical path).
    progress.step(4, kHealthEnd, TraceLoader::tr("Analysing memory"), TraceLoader::tr("Analysing memory"));
    qint64 evidenceStart = clock.elapsed();
    cpuStart = threadCpuMs();
    EvidenceAnalysis evidence = analyzeEvidenceBeforeMemory(trace, health.get());
    qint64 evidenceCpuMs = threadCpuMs() - cpuStart;
    qint64 evidenceMs = clock.elapsed() - evidenceStart;
    if (promise.isCanceled() || cancel->load())
        return;
    qint64 memoryCpuMs = -1;
    const std::shared_ptr<const MemoryProfile> memory = memoryJob.take(nullptr, &memoryCpuMs);
    if (promise.isCanceled() || cancel->load())
        return;
    summary.logicalPeakBytes = memory->logicalPeakBytes();
    // The chart's series from the memory profile, while the tensors' storage is found here.
    AnalysisJob<MemorySeries> seriesJob([keep, memory, extents = snapshot->extents] {
        return std::make_shared<const MemorySeries>(*keep, *memory, extents.get());
    });
    evidenceStart = clock.elapsed();
    cpuStart = threadCpuMs();
    attachMemoryEvidence(trace, *memory, evidence);
    evidenceCpuMs += threadCpuMs() - cpuStart;
    evidenceMs += clock.elapsed() - evidenceStart;
    if (promise.isCanceled() || cancel->load())
        return;

    snapshot = std::make_shared<LoadedTrace>(*snapshot);
    snapshot->memory = memory;
    snapshot->summary = std::make_shared<const TraceSummary>(summary);
    snapshot->evidence = std::make_shared<const EvidenceAnalysis>(std::move(evidence));
    snapshot->timings.evidenceMs = evidenceMs;
    snapshot->timings.cpu.memory = memoryCpuMs + summaryCpuMs;
    snapshot->timings.cpu.evidence = evidenceCpuMs;
    snapshot->stage = LoadStage::Memory;
    snapshot->timings.memoryDoneMs = clock.elapsed();
    publish(promise, snapshot);

    if (promise.isCanceled() || cancel->load())
        return;
    if (!seriesJob.isFinished())
        progress.step(5, kMemoryEnd, TraceLoader::tr("Preparing the memory chart"),
                      TraceLoader::tr("Preparing the memory chart"));
    snapshot = std::make_shared<LoadedTrace>(*snapshot);
    snapshot->memorySeries = seriesJob.take(nullptr, &snapshot->timings.cpu.memorySeries);
    if (promise.isCanceled() || cancel->load())
        return;
    snapshot->stage = LoadStage::MemoryChart;
    snapshot->timings.memoryChartDoneMs = clock.elapsed();
    progress.done();
    publish(promise, snapshot);
}

void runLoad(QPromise<LoadEvent> &promise, const QString &path, quint64 generation, const CancelFlag &cancel,
             const Gate &readShown)
{
    try {
        runStages(promise, path, generation, cancel, readShown);
    } catch (const std::bad_alloc &) {
        fail(promise, TraceLoader::tr("Cannot load %1: not enough memory").arg(path),
             TraceLoader::FailureKind::OutOfMemory);
    } catch (const std::exception &e) {
        fail(promise, TraceLoader::tr("Cannot load %1: %2").arg(path, QString::fromUtf8(e.what())),
             TraceLoader::FailureKind::Unreadable);
    }
}

} // namespace

TraceLoader::TraceLoader(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<LoadedTracePtr>();
    qRegisterMetaType<LoadProgress>();
}

TraceLoader::~TraceLoader()
{
    // Jobs must not outlive the loader's thread pool users; wait for them to notice.
    // Tell every job at once, so that none of them keeps the others waiting.
    for (const CancelFlag &flag : std::as_const(m_cancelFlags))
        flag->store(true);
    for (const Gate &gate : std::as_const(m_readShownGates))
        gate->open();
    const auto watchers = findChildren<QFutureWatcher<LoadEvent> *>(Qt::FindDirectChildrenOnly);
    for (QFutureWatcher<LoadEvent> *w : watchers) {
        w->disconnect(this);
        w->cancel();
        w->waitForFinished();
    }
}

quint64 TraceLoader::load(const QString &path)
{
    retireCurrentJob();
    const quint64 generation = ++m_generation;
    m_current.reset();
    m_cancelReported = false;

    auto *watcher = new QFutureWatcher<LoadEvent>(this);
    m_watcher = watcher;
    const CancelFlag cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancelFlags.insert(watcher, cancel);
    const Gate readShown = std::make_shared<StageGate>();
    m_readShownGates.insert(watcher, readShown);
    connect(watcher, &QFutureWatcherBase::resultsReadyAt, this, [this, watcher, generation](int begin, int end) {
        for (int i = begin; i < end; ++i)
            onResult(watcher, generation, i);
    });
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, generation] { onJobFinished(watcher, generation); });
    qCInfo(lcLoading) << "generation" << generation << "loading" << path;
    Q_EMIT started(generation, path);
    watcher->setFuture(QtConcurrent::run(workerPool(), &runLoad, path, generation, cancel, readShown));
    return generation;
}

void TraceLoader::cancel()
{
    if (!m_watcher)
        return;
    const quint64 generation = m_generation;
    retireCurrentJob();
    if (!m_cancelReported) {
        m_cancelReported = true;
        Q_EMIT cancelled(generation);
    }
}

bool TraceLoader::isLoading() const
{
    return m_watcher != nullptr;
}

void TraceLoader::retireCurrentJob()
{
    QFutureWatcherBase *watcher = m_watcher;
    if (!watcher)
        return;
    m_watcher = nullptr;
    if (const CancelFlag flag = m_cancelFlags.take(watcher))
        flag->store(true); // a retired job has nothing left to hear
    if (const Gate gate = m_readShownGates.take(watcher))
        gate->open(); // nor anything to wait for
    watcher->disconnect(this);
    watcher->cancel();
    if (watcher->isFinished())
        watcher->deleteLater();
    else
        connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
}

void TraceLoader::onResult(QFutureWatcherBase *watcher, quint64 generation, int index)
{
    if (generation != m_generation || watcher != m_watcher)
        return; // stale: a newer load superseded this one
    const LoadEvent event = static_cast<QFutureWatcher<LoadEvent> *>(watcher)->resultAt(index);
    switch (event.type) {
    case LoadEvent::Type::Progress:
        Q_EMIT progressChanged(generation, event.permille, event.text);
        Q_EMIT stepProgress(generation, event.progress);
        break;
    case LoadEvent::Type::Failure:
        qCInfo(lcLoading) << "generation" << generation << "failed:" << event.text;
        m_current.reset();
        Q_EMIT failed(generation, event.text, event.failure);
        break;
    case LoadEvent::Type::Stage: {
        m_current = event.snapshot;
        const LoadTimings &t = m_current->timings;
        if (m_current->stage == LoadStage::Read) {
            qCInfo(lcLoading) << "generation" << generation << "read in" << t.readDoneMs << "ms";
            Q_EMIT traceRead(generation, m_current);
            // The window has filled its first panel (its slots ran): the analyses it held
            // back may have the cores.
            if (const Gate gate = m_readShownGates.value(watcher))
                gate->open();
        } else {
            qCInfo(lcLoading) << "generation" << generation << "stage" << int(m_current->stage) << "at"
                              << (m_current->stage == LoadStage::SpanTree ? t.spanTreeDoneMs
                                  : m_current->stage == LoadStage::Health ? t.healthDoneMs
                                  : m_current->stage == LoadStage::Memory ? t.memoryDoneMs
                                                                          : t.memoryChartDoneMs)
                              << "ms";
            if (m_current->stage == LoadStage::SpanTree)
                qCInfo(lcLoading) << "generation" << generation << "device time in" << t.deviceTimeMs
                                  << "ms, op regrouping in" << t.opRegroupMs << "ms";
            if (m_current->stage == LoadStage::Memory)
                qCInfo(lcLoading) << "generation" << generation << "evidence analysis took" << t.evidenceMs << "ms";
            Q_EMIT analysisReady(generation, m_current);
        }
        break;
    }
    }
}

void TraceLoader::onJobFinished(QFutureWatcherBase *watcher, quint64 generation)
{
    if (watcher != m_watcher)
        return;
    m_watcher = nullptr;
    m_cancelFlags.remove(watcher);
    m_readShownGates.remove(watcher);
    watcher->deleteLater();
    if (generation != m_generation)
        return;
    if (m_current && m_current->isComplete())
        Q_EMIT finished(generation, m_current);
}

} // namespace TraceInspector
