// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "tests/testutils/generator.h"
#include "core/analysis/format.h"
#include "core/analysis/memoryprofile.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"
#include "ui/memorychartpanel.h"
#include "ui/peakallocationsmodel.h"

using namespace TraceInspector;

namespace {

struct Loaded {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const MemoryProfile> profile;
};

Loaded loadBytes(const QByteArray &bytes, const QString &name)
{
    ReadResult r = TraceReader::readBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())), name.toStdString());
    if (!r.trace)
        return {};
    Loaded l;
    l.trace = r.trace;
    l.profile = std::make_shared<const MemoryProfile>(analyzeMemory(*r.trace));
    return l;
}

Loaded loadFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return loadBytes(f.readAll(), path);
}

Loaded example(const char *name)
{
    return loadFile(QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1String(name));
}

bool showTrace(MemoryChartPanel &panel, const Loaded &l)
{
    QSignalSpy ready(&panel, &MemoryChartPanel::chartReady);
    panel.setTrace(l.trace, l.profile);
    return ready.wait(20000);
}

QStringList comboItems(const MemoryChartPanel &panel)
{
    auto *box = panel.findChild<QComboBox *>(QStringLiteral("memoryDeviceSelector"));
    QStringList items;
    if (box)
        for (int i = 0; i < box->count(); ++i)
            items << box->itemText(i);
    return items;
}

QAbstractItemModel *peakTableModel(const MemoryChartPanel &panel)
{
    auto *table = panel.findChild<QTableView *>(QStringLiteral("peakAllocationsTable"));
    return table ? table->model() : nullptr;
}

} // namespace

class TstMemoryChartPanel : public QObject
{
    Q_OBJECT
private slots:
    void example01()
    {
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        QVERIFY(l.trace);
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        const MemoryChartPanel::DrawnState s = panel.drawnState();
        QVERIFY(s.ready);
        QVERIFY(s.logicalKnown);
        QVERIFY(s.physicalKnown);
        QVERIFY(s.logicalNote.isEmpty());
        QVERIFY(s.physicalNote.isEmpty());
        QCOMPARE(s.layers, QStringList{QStringLiteral("activation")});
        // Alloc at 13600, free at 50500, window closed at the last sample (51000 + 1): a step.
        QCOMPARE(s.layerPointCounts, QList<int>{4});
        QVERIFY(!s.downsampled);
        QCOMPARE(s.physicalLines, (QStringList{QStringLiteral("used cuda:0"), QStringLiteral("reserved cuda:0")}));
        QCOMPARE(s.physicalPointCounts, (QList<int>{2, 2}));
        QCOMPARE(s.peakTimeNs, std::optional<std::uint64_t>(13600));
        QCOMPARE(s.peakBytes, std::optional<std::uint64_t>(393216));
        QCOMPARE(s.window, (TimeWindow{1000, 51001}));
        QCOMPARE(panel.deviceNames(), QStringList{QStringLiteral("cuda:0")});
        QCOMPARE(comboItems(panel), (QStringList{QStringLiteral("All devices"), QStringLiteral("cuda:0")}));

        QAbstractItemModel *model = peakTableModel(panel);
        QVERIFY(model);
        QCOMPARE(model->rowCount(), 1);
        const auto cell = [&](int column) { return model->index(0, column).data().toString(); };
        QCOMPARE(cell(PeakAllocationsModel::StorageColumn), QStringLiteral("cuda:0/storage-17"));
        QCOMPARE(cell(PeakAllocationsModel::DeviceColumn), QStringLiteral("cuda:0"));
        QCOMPARE(cell(PeakAllocationsModel::BytesColumn), formatBytes(393216));
        QCOMPARE(cell(PeakAllocationsModel::CategoryColumn), QStringLiteral("activation"));
        QCOMPARE(cell(PeakAllocationsModel::TensorIdsColumn), QStringLiteral("t:q"));
        QCOMPARE(cell(PeakAllocationsModel::SpanColumn), QStringLiteral("span-matmul"));
        QCOMPARE(cell(PeakAllocationsModel::OpColumn), QStringLiteral("matmul"));
        QCOMPARE(cell(PeakAllocationsModel::StartColumn), formatTimestamp(13600));

        QSignalSpy activated(&panel, &MemoryChartPanel::spanActivated);
        auto *table = panel.findChild<QTableView *>(QStringLiteral("peakAllocationsTable"));
        emit table->activated(model->index(0, PeakAllocationsModel::OpColumn));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QStringLiteral("span-matmul"));

        // Zooming away from the peak hides its marker; Reset zoom brings it back.
        panel.setWindow({20000, 40000});
        QTRY_COMPARE(panel.drawnState().window, (TimeWindow{20000, 40000}));
        QVERIFY(!panel.drawnState().peakTimeNs);
        QCOMPARE(panel.drawnState().layerPointCounts, QList<int>{2}); // the value held across the window
        panel.resetZoom();
        QTRY_COMPARE(panel.drawnState().window, (TimeWindow{1000, 51001}));
        QCOMPARE(panel.drawnState().peakBytes, std::optional<std::uint64_t>(393216));
    }

    void example02UnknownLogical()
    {
        const Loaded l = example("02_valid_trace9_train.jsonl");
        QVERIFY(l.trace);
        MemoryChartPanel panel;
        panel.resize(1000, 600);
        panel.show();
        QVERIFY(showTrace(panel, l));
        const MemoryChartPanel::DrawnState s = panel.drawnState();
        QVERIFY(!s.logicalKnown);
        QCOMPARE(s.logicalNote, QStringLiteral("Logical memory: unknown (no memory records in this trace)"));
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("logicalMemoryNote"))->isVisible());
        QVERIFY(s.layers.isEmpty()); // never a zero line
        QVERIFY(!s.peakTimeNs);
        QVERIFY(s.physicalKnown);
        QCOMPARE(s.physicalLines, (QStringList{QStringLiteral("used cuda:0"), QStringLiteral("reserved cuda:0")}));
        QCOMPARE(s.physicalPointCounts, (QList<int>{1, 1}));
        QCOMPARE(peakTableModel(panel)->rowCount(), 0);
    }

    void noMemoryAtAll()
    {
        const QByteArray text =
            R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e",)"
            R"("phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host",)"
            R"("capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none",)"
            R"("physical_memory":"none","device_timing":"none"},"tags":{}})"
            "\n"
            R"({"kind":"terminal","outcome":"complete","timestamp_ns":5})"
            "\n";
        const Loaded l = loadBytes(text, QStringLiteral("empty.jsonl"));
        QVERIFY(l.trace);
        MemoryChartPanel panel;
        panel.show();
        QVERIFY(showTrace(panel, l));
        const MemoryChartPanel::DrawnState s = panel.drawnState();
        QVERIFY(!s.logicalKnown);
        QVERIFY(!s.physicalKnown);
        QCOMPARE(s.logicalNote, QStringLiteral("Logical memory: unknown (no memory records in this trace)"));
        QCOMPARE(s.physicalNote, QStringLiteral("Physical memory: unknown (no device_memory samples in this trace)"));
        QVERIFY(s.layers.isEmpty());
        QVERIFY(s.physicalLines.isEmpty());
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("memoryPlaceholder"))->isVisible());
        QCOMPARE(comboItems(panel), QStringList{QStringLiteral("All devices")});
    }

    void generatedTrace()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("gen.jsonl"));
        TI_GENERATE({QStringLiteral("--events"), QStringLiteral("30000"), QStringLiteral("--seed"), QStringLiteral("3"),
                     QStringLiteral("--out"), path, QStringLiteral("--quiet")});
        const Loaded l = loadFile(path);
        QVERIFY(l.trace);
        QVERIFY(l.profile->logical && l.profile->logical->peak());
        const LogicalMemoryPeak &peak = *l.profile->logical->peak();

        MemoryChartPanel panel;
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        MemoryChartPanel::DrawnState s = panel.drawnState();

        QStringList devices;
        for (const StringId d : l.profile->logical->devices())
            devices << QString::fromUtf8(l.trace->str(d).data(), qsizetype(l.trace->str(d).size()));
        QCOMPARE(panel.deviceNames(), devices); // the generator samples device memory on the same devices
        QCOMPARE(comboItems(panel), QStringList{QStringLiteral("All devices")} + devices);

        QVERIFY(s.downsampled);
        QVERIFY(!s.layers.isEmpty());
        for (const int count : s.layerPointCounts) {
            QVERIFY(count > 0);
            QVERIFY(count <= 2 * s.buckets + 1);
        }
        QVERIFY(!s.physicalLines.isEmpty());
        for (const int count : s.physicalPointCounts)
            QVERIFY(count <= 2 * s.buckets + 2);
        QCOMPARE(s.peakTimeNs, std::optional<std::uint64_t>(peak.timestampNs));
        QCOMPARE(s.peakBytes, std::optional<std::uint64_t>(peak.liveBytes));

        // The peak stays marked at any zoom around it.
        TimeWindow w = s.window;
        for (int i = 0; i < 6; ++i) {
            w = zoomWindow(w, peak.timestampNs, 0.1, s.window);
            panel.setWindow(w);
            QTRY_COMPARE(panel.drawnState().window, w);
            QCOMPARE(panel.drawnState().peakBytes, std::optional<std::uint64_t>(peak.liveBytes));
        }
        panel.resetZoom();
        QTRY_COMPARE(panel.drawnState().window, s.window);

        QAbstractItemModel *model = peakTableModel(panel);
        QCOMPARE(model->rowCount(), int(peak.liveAllocations.size()));

        // One device: its own peak, the table filtered to it.
        const int pick = int(devices.size()) - 1;
        panel.setSelectedDevice(pick);
        QCOMPARE(panel.selectedDevice(), pick);
        s = panel.drawnState();
        const LogicalDeviceMemoryStats &stats = l.profile->logical->byDevice()[std::size_t(pick)];
        QCOMPARE(s.peakBytes, stats.peakLiveBytes);
        QCOMPARE(s.peakTimeNs, stats.peakTimestampNs);
        for (const QString &line : s.physicalLines)
            QVERIFY(line.endsWith(devices[pick]));
        for (int r = 0; r < model->rowCount(); ++r)
            QCOMPARE(model->index(r, PeakAllocationsModel::DeviceColumn).data().toString(), devices[pick]);
        panel.setSelectedDevice(-1);
        QCOMPARE(model->rowCount(), int(peak.liveAllocations.size()));

        panel.clear();
        QVERIFY(!panel.drawnState().ready);
        QCOMPARE(model->rowCount(), 0);
    }

    void peakModelTester()
    {
        PeakAllocationsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Loaded one = example("01_valid_trace10_forward.jsonl");
        model.setProfile(one.trace, one.profile);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(PeakAllocationsModel::ColumnCount));
        QCOMPARE(model.index(0, PeakAllocationsModel::BytesColumn).data(SortRole).toULongLong(), 393216ull);
        QCOMPARE(model.index(0, 0).data(SpanIdRole).toString(), QStringLiteral("span-matmul"));
        QCOMPARE(model.headerData(PeakAllocationsModel::TensorIdsColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Tensor ids"));
        const Loaded two = example("02_valid_trace9_train.jsonl");
        model.setProfile(two.trace, two.profile);
        QCOMPARE(model.rowCount(), 0);
        model.setProfile(one.trace, one.profile);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TstMemoryChartPanel)
#include "tst_memorychartpanel.moc"
