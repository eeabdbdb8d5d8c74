// SPDX-License-Identifier: MIT
#include <QAbstractItemModelTester>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "tests/testutils/fixtures.h"
#include "tests/testutils/generator.h"
#include "tests/testutils/traceloading.h"
#include "core/display/format.h"
#include "core/analysis/memoryprofile.h"
#include "core/io/tracereader.h"
#include "core/itemmodels/modelroles.h"
#include "core/model/trace.h"
#include "ui/memorychart/memorychartpanel.h"
#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/liveallocationsmodel.h"
#include "core/analysis/memoryseries.h"
#include "ui/widgets/tableactions.h"

using namespace TraceInspector;

namespace {

using Loaded = TestFixtures::Analysed;

Loaded loadBytes(const QByteArray &bytes, const QString &name)
{
    return TestFixtures::analysed(bytes, TestFixtures::MemoryAnalysis, name);
}

Loaded loadFile(const QString &path)
{
    return loadBytes(TestFixtures::fileBytes(path), path);
}

Loaded example(const char *name)
{
    return loadFile(QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1String(name));
}

bool showTrace(MemoryChartPanel &panel, const Loaded &l)
{
    QSignalSpy ready(&panel, &MemoryChartPanel::chartReady);
    panel.setTrace(l.trace, l.profile, std::make_shared<const MemorySeries>(*l.trace, *l.profile));
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
private Q_SLOTS:
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
        // Alloc at 13600, free at 50500, window closed at the run's end (terminal 51200 + 1): a step.
        QCOMPARE(s.layerPointCounts, QList<int>{4});
        QVERIFY(!s.downsampled);
        QCOMPARE(s.physicalLines, (QStringList{QStringLiteral("used cuda:0"), QStringLiteral("reserved cuda:0"),
                                               QStringLiteral("capacity cuda:0")}));
        QCOMPARE(s.physicalPointCounts, (QList<int>{2, 2, 2}));
        QCOMPARE(s.markersShown, 0);
        QCOMPARE(s.peakTimeNs, std::optional<std::uint64_t>(13600));
        QCOMPARE(s.peakBytes, std::optional<std::uint64_t>(393216));
        // The whole run, from its start to the terminal record.
        QCOMPARE(s.window, (TimeWindow{0, 51201}));
        QCOMPARE(panel.deviceNames(), QStringList{QStringLiteral("cuda:0")});
        QCOMPARE(comboItems(panel), (QStringList{QStringLiteral("All devices"), QStringLiteral("cuda:0")}));

        QAbstractItemModel *model = peakTableModel(panel);
        QVERIFY(model);
        QCOMPARE(model->rowCount(), 1);
        const auto cell = [&](int column) { return model->index(0, column).data().toString(); };
        QCOMPARE(cell(LiveAllocationsModel::StorageColumn), QStringLiteral("cuda:0/storage-17"));
        QCOMPARE(cell(LiveAllocationsModel::DeviceColumn), QStringLiteral("cuda:0"));
        QCOMPARE(cell(LiveAllocationsModel::BytesColumn), formatBytes(393216));
        QCOMPARE(cell(LiveAllocationsModel::CategoryColumn), QStringLiteral("activation"));
        QCOMPARE(cell(LiveAllocationsModel::TensorIdsColumn), QStringLiteral("t:q"));
        QCOMPARE(cell(LiveAllocationsModel::SpanColumn), QStringLiteral("span-matmul"));
        QCOMPARE(cell(LiveAllocationsModel::OpColumn), QStringLiteral("matmul"));
        QCOMPARE(cell(LiveAllocationsModel::StartColumn), QStringLiteral("13.600 \u00B5s"));

        QSignalSpy activated(&panel, &MemoryChartPanel::spanActivated);
        auto *table = panel.findChild<QTableView *>(QStringLiteral("peakAllocationsTable"));
        Q_EMIT table->activated(model->index(0, LiveAllocationsModel::OpColumn));
        QCOMPARE(activated.count(), 1);
        QVERIFY(l.trace->findSpan(std::string_view("span-matmul")) >= 0);
        QCOMPARE(activated.at(0).at(0).toLongLong(), qint64(l.trace->findSpan(std::string_view("span-matmul"))));

        // Zooming away from the peak hides its marker; Reset zoom brings it back.
        panel.setWindow({20000, 40000});
        QTRY_COMPARE(panel.drawnState().window, (TimeWindow{20000, 40000}));
        QVERIFY(!panel.drawnState().peakTimeNs);
        QCOMPARE(panel.drawnState().layerPointCounts, QList<int>{2}); // the value held across the window
        panel.resetZoom();
        QTRY_COMPARE(panel.drawnState().window, (TimeWindow{0, 51201}));
        QCOMPARE(panel.drawnState().peakBytes, std::optional<std::uint64_t>(393216));
    }

    void runRangeOfExample07()
    {
        // A 0–51.5 µs run whose only memory record, a device sample, comes at 52 µs: the time
        // axis spans the run, not a 1 µs window around the sample.
        const Loaded l = example("07_terminal_too_early.jsonl");
        QVERIFY(l.trace);
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        const MemoryChartPanel::DrawnState s = panel.drawnState();
        QCOMPARE(s.window, (TimeWindow{0, 52001}));
        QCOMPARE(s.timeAxisMin, 0.0);
        QCOMPARE(s.timeAxisMax, 52.001);
        QCOMPARE(s.timeAxisTitle, QStringLiteral("Time since run start (\u00B5s)"));
        // Logical memory is unknown: said once, in place of its plot, and no empty table below.
        QCOMPARE(s.logicalNote, QStringLiteral("Logical memory: unknown (no memory records in this trace)"));
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("logicalMemoryNote"))->isVisible());
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("memoryPlaceholder"))->isVisible());
        QVERIFY(!panel.allocationsView()->isVisible());
        QCOMPARE(s.physicalLines, QStringList{QStringLiteral("used cuda:0")});
        QCOMPARE(s.physicalPointCounts, QList<int>{1});
        QCOMPARE(s.markersShown, 0); // a lone sample is a dot, not a marker on every sample
    }

    void twoHonestAxes()
    {
        // Logical bytes (384 KiB) and device bytes (2 GiB) in two plots, each in its own unit,
        // over one time axis: the plots line up to the pixel.
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        QTRY_VERIFY(panel.drawnState().logicalPlot.width() > 100);
        MemoryChartPanel::DrawnState s = panel.drawnState();
        QCOMPARE(s.logicalAxisTitle, QStringLiteral("Logical"));
        QCOMPARE(s.physicalAxisTitle, QStringLiteral("Device"));
        QVERIFY2(s.logicalAxisMax >= 384 && s.logicalAxisMax <= 1024,
                 qPrintable(QString::number(s.logicalAxisMax))); // KiB
        // Aligned to the pixel (the margins that align them are whole pixels).
        QVERIFY2(std::abs(s.logicalPlot.left() - s.physicalPlot.left()) < 1.0,
                 qPrintable(QStringLiteral("%1 %2").arg(s.logicalPlot.left()).arg(s.physicalPlot.left())));
        QVERIFY(std::abs(s.logicalPlot.right() - s.physicalPlot.right()) < 1.0);
        auto *logicalView = panel.findChild<QWidget *>(QStringLiteral("logicalChartView"));
        auto *physicalView = panel.findChild<QWidget *>(QStringLiteral("physicalChartView"));
        QVERIFY(logicalView->mapTo(&panel, QPoint(0, logicalView->height())).y()
                <= physicalView->mapTo(&panel, QPoint(0, 0)).y());
        QCOMPARE(logicalView->mapTo(&panel, QPoint(0, 0)).x(), physicalView->mapTo(&panel, QPoint(0, 0)).x());
        // Capacity (140 GiB) starts hidden so used and reserved (2 GiB) fill the plot; shown,
        // the axis grows to hold it.
        QCOMPARE(s.hiddenSeries, QStringList{QStringLiteral("cuda:0 capacity")});
        QVERIFY2(s.physicalAxisMax >= 2.25 && s.physicalAxisMax <= 4,
                 qPrintable(QString::number(s.physicalAxisMax))); // GiB
        QVERIFY(panel.setSeriesVisible(QStringLiteral("cuda:0 capacity"), true));
        s = panel.drawnState();
        QVERIFY(s.hiddenSeries.isEmpty());
        QVERIFY2(s.physicalAxisMax >= 140, qPrintable(QString::number(s.physicalAxisMax)));
        // Zooming in on the first sample only: the physical axis follows the window.
        QVERIFY(panel.setSeriesVisible(QStringLiteral("cuda:0 capacity"), false));
        QVERIFY(!panel.setSeriesVisible(QStringLiteral("no such series"), false));
    }

    void legendTogglesSeries()
    {
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        MemoryChartPanel::DrawnState s = panel.drawnState();
        QCOMPARE(s.legend, (QStringList{QStringLiteral("activation"), QStringLiteral("cuda:0 used"),
                                        QStringLiteral("cuda:0 reserved"), QStringLiteral("cuda:0 capacity")}));
        QVERIFY(panel.setSeriesVisible(QStringLiteral("activation"), false));
        s = panel.drawnState();
        QCOMPARE(s.hiddenSeries, (QStringList{QStringLiteral("activation"), QStringLiteral("cuda:0 capacity")}));
        QCOMPARE(s.legend.size(), 4); // a hidden series keeps its entry, to switch it back on
        panel.resetView();
        QCOMPARE(panel.drawnState().hiddenSeries, QStringList{QStringLiteral("cuda:0 capacity")});
    }

    void peakLabelClearOfLines()
    {
        TI_REQUIRE_PYTHON();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gen.jsonl"));
        TI_GENERATE({QStringLiteral("--events"), QStringLiteral("30000"), QStringLiteral("--seed"), QStringLiteral("4"),
                     QStringLiteral("--out"), path, QStringLiteral("--quiet")});
        const Loaded l = loadFile(path);
        QVERIFY(l.trace);
        for (const QSize size : {QSize(1400, 800), QSize(700, 420)}) {
            MemoryChartPanel panel;
            panel.resize(size);
            panel.show();
            QVERIFY(showTrace(panel, l));
            QTRY_VERIFY(panel.drawnState().buckets > 0);
            QTRY_VERIFY(!panel.drawnState().peakLabelRect.isEmpty());
            const MemoryChartPanel::DrawnState s = panel.drawnState();
            QVERIFY(s.peakLabelClear);
            QVERIFY(s.logicalPlot.contains(s.peakLabelRect.center()));
        }
    }

    void hoverReadout()
    {
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        // Every series: the logical total with its categories, each device metric (hidden ones too).
        QCOMPARE(panel.readoutAt(20000),
                 QStringLiteral(
                     "At 20.000 \u00B5s:  \u00B7  logical 384 KiB (activation 384 KiB)  \u00B7  cuda:0 used 2.00 GiB, "
                     "reserved 2.25 GiB, capacity 140 GiB"));
        QCOMPARE(panel.readoutAt(500), QStringLiteral("At 500 ns:  \u00B7  logical: nothing allocated yet"));
        auto *view = panel.findChild<QWidget *>(QStringLiteral("logicalChartView"));
        QVERIFY(view);
        const QRectF plot = panel.drawnState().logicalPlot;
        QTest::mouseMove(view, plot.center().toPoint());
        auto *readout = panel.findChild<QLabel *>(QStringLiteral("memoryReadout"));
        QTRY_VERIFY(readout->text().startsWith(QStringLiteral("At ")));
        QVERIFY(readout->text().contains(QStringLiteral("cuda:0 used")));
    }

    void clickListsAllocationsLiveThen()
    {
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        QTRY_VERIFY(panel.drawnState().logicalPlot.width() > 100);
        QAbstractItemModel *model = peakTableModel(panel);
        QCOMPARE(panel.tableInstant(), std::optional<std::uint64_t>(13600));
        QVERIFY(panel.tableTitle().startsWith(
            QStringLiteral("Allocations live at the logical peak (384 KiB at 13.600 \u00B5s)")));

        // Before the alloc nothing is live; after the free neither.
        QSignalSpy shown(&panel, &MemoryChartPanel::allocationsShown);
        panel.selectInstant(5000);
        QTRY_COMPARE(panel.tableInstant(), std::optional<std::uint64_t>(5000));
        QCOMPARE(model->rowCount(), 0);
        panel.selectInstant(30000);
        QTRY_COMPARE(panel.tableInstant(), std::optional<std::uint64_t>(30000));
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->columnCount(), int(LiveAllocationsModel::ColumnCount)); // the peak table's columns
        QVERIFY(panel.tableTitle().startsWith(QStringLiteral("Allocations live at 30.000 \u00B5s (clicked)")));
        panel.selectInstant(50500);
        QTRY_COMPARE(panel.tableInstant(), std::optional<std::uint64_t>(50500));
        QCOMPARE(model->rowCount(), 0);

        // A real click on the plot picks the time under the mouse.
        auto *view = panel.findChild<QWidget *>(QStringLiteral("logicalChartView"));
        const QRectF plot = panel.drawnState().logicalPlot;
        const QPoint at(int(plot.left() + plot.width() * 0.5), int(plot.center().y()));
        panel.showPeak();
        QVERIFY(!panel.selectedInstant());
        QTest::mouseClick(static_cast<QAbstractScrollArea *>(view)->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY(panel.selectedInstant().has_value());
        const std::uint64_t expected = xToTime(panel.drawnState().window, plot.width(), at.x() - plot.left());
        QVERIFY(*panel.selectedInstant() + 200 >= expected && *panel.selectedInstant() <= expected + 200);
        QTRY_COMPARE(model->rowCount(), 1); // 25.6 µs: the storage is live
        // The keyboard moves the instant; P goes back to the peak.
        const std::uint64_t before = *panel.selectedInstant();
        QTest::keyClick(view, Qt::Key_Right);
        QVERIFY(*panel.selectedInstant() > before);
        QTest::keyClick(view, Qt::Key_P);
        QVERIFY(!panel.selectedInstant());
        QTRY_COMPARE(panel.tableInstant(), std::optional<std::uint64_t>(13600));
    }

    void denseSamplesAreBands()
    {
        // 20,000 device samples in 1000 px: a min/max band per pixel, no marker per sample,
        // and the spike survives.
        QByteArray text = QByteArray(TestFixtures::kMeta);
        for (int i = 0; i < 20000; ++i)
            text += QByteArrayLiteral("{\"kind\":\"device_memory\",\"timestamp_ns\":") + QByteArray::number(i * 100)
                    + QByteArrayLiteral(",\"device\":\"cuda:0\",\"used_bytes\":")
                    + QByteArray::number(i == 12345 ? 1 << 30 : 1000 + i % 13) + QByteArrayLiteral("}\n");
        text += "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2000000}\n";
        const Loaded l = loadBytes(text, QStringLiteral("dense.jsonl"));
        QVERIFY(l.trace);
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        const MemoryChartPanel::DrawnState s = panel.drawnState();
        QCOMPARE(s.physicalLines, QStringList{QStringLiteral("used cuda:0")});
        QCOMPARE(s.physicalBands, QList<bool>{true});
        QVERIFY(s.physicalPointCounts.at(0) <= s.buckets + 2);
        QCOMPARE(s.markersShown, 0);
        QVERIFY(s.physicalAxisMax >= 1.0); // GiB: the spike sets the scale
        // Zoomed far in, the samples are few again and drawn as a line.
        panel.setWindow({1234000, 1235000});
        QTRY_COMPARE(panel.drawnState().window, (TimeWindow{1234000, 1235000}));
        QCOMPARE(panel.drawnState().physicalBands, QList<bool>{false});
        QCOMPARE(panel.drawnState().markersShown, 0);
        QVERIFY(panel.drawnState().physicalAxisMax >= 1.0); // the spike at 1,234,500 is inside
        panel.setWindow({0, 100000});
        QTRY_COMPARE(panel.drawnState().window, (TimeWindow{0, 100000}));
        QVERIFY(panel.drawnState().physicalAxisMax < 2000); // bytes: the axis rescaled with the zoom
    }

    void exportPngAndSvg()
    {
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        MemoryChartPanel panel;
        panel.resize(1000, 600);
        panel.show();
        QVERIFY(showTrace(panel, l));
        QTRY_VERIFY(panel.drawnState().buckets > 0);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("memory.png"));
        const QString svg = dir.filePath(QStringLiteral("memory.svg"));
        QCOMPARE(panel.exportImage(png, MemoryChartPanel::ImageFormat::Png), QString());
        QCOMPARE(panel.exportImage(svg, MemoryChartPanel::ImageFormat::Svg), QString());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 500 && image.height() >= 200);
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("peak 384 KiB"));
        QVERIFY(
            !panel.exportImage(dir.filePath(QStringLiteral("no/such/dir/x.png")), MemoryChartPanel::ImageFormat::Png)
                 .isEmpty());
        MemoryChartPanel empty;
        QVERIFY(!empty.exportImage(png, MemoryChartPanel::ImageFormat::Png).isEmpty());
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
        // Said once: the placeholder, not the per-plot notes nor an empty table's title.
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("logicalMemoryNote"))->isVisible());
        QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("physicalMemoryNote"))->isVisible());
        QVERIFY(!panel.allocationsView()->isVisible());
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
        QCOMPARE(s.markersShown, 0);
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

        // One device: its own peak, and the table lists what was live at *that* peak.
        for (int pick = 0; pick < int(devices.size()); ++pick) {
            QSignalSpy shown(&panel, &MemoryChartPanel::allocationsShown);
            panel.setSelectedDevice(pick);
            QCOMPARE(panel.selectedDevice(), pick);
            s = panel.drawnState();
            const LogicalDeviceMemoryStats &stats = l.profile->logical->byDevice()[std::size_t(pick)];
            QCOMPARE(s.peakBytes, stats.peakLiveBytes);
            QCOMPARE(s.peakTimeNs, stats.peakTimestampNs);
            for (const QString &line : s.physicalLines)
                QVERIFY(line.endsWith(devices[pick]));
            QTRY_COMPARE(panel.tableInstant(), stats.peakTimestampNs);
            const std::vector<std::uint32_t> live = MemorySeries::liveLifetimesAt(
                *l.trace, *l.profile, *stats.peakTimestampNs, devices[pick].toStdString());
            QCOMPARE(model->rowCount(), int(live.size()));
            quint64 sum = 0;
            for (int r = 0; r < model->rowCount(); ++r) {
                QCOMPARE(model->index(r, LiveAllocationsModel::DeviceColumn).data().toString(), devices[pick]);
                sum += model->index(r, LiveAllocationsModel::BytesColumn).data(SortRole).toULongLong();
            }
            QCOMPARE(sum, quint64(*stats.peakLiveBytes)); // the rows add up to the device's peak
            QVERIFY(panel.tableTitle().contains(QStringLiteral("logical peak on ") + devices[pick]));
        }
        panel.setSelectedDevice(-1);
        QTRY_COMPARE(panel.tableInstant(), std::optional<std::uint64_t>(peak.timestampNs));
        QCOMPARE(model->rowCount(), int(peak.liveAllocations.size()));

        panel.clear();
        QVERIFY(!panel.drawnState().ready);
        QCOMPARE(model->rowCount(), 0);
    }

    void allocationsInTimeRange_data()
    {
        QTest::addColumn<quint64>("begin");
        QTest::addColumn<quint64>("end"); // begin == end: no range
        QTest::addColumn<bool>("background");
        QTest::addColumn<int>("rows");
        // Example 01's one storage lives from its alloc at 13600 to its free at 50500.
        for (const bool background : {false, true}) {
            const char *how = background ? "worker" : "at once";
            QTest::addRow("no range, %s", how) << quint64(0) << quint64(0) << background << 1;
            QTest::addRow("ends at the alloc, %s", how) << quint64(0) << quint64(13600) << background << 0;
            QTest::addRow("covers the alloc, %s", how) << quint64(0) << quint64(13601) << background << 1;
            QTest::addRow("inside the lifetime, %s", how) << quint64(20000) << quint64(30000) << background << 1;
            QTest::addRow("the last ns before the free, %s", how)
                << quint64(50499) << quint64(50500) << background << 1;
            QTest::addRow("from the free on, %s", how) << quint64(50500) << quint64(60000) << background << 0;
        }
    }

    void allocationsInTimeRange()
    {
        // The shared time range filters the live allocations like the other lists: only the
        // storages alive in it; a big list is filtered on a worker with a busy state.
        QFETCH(quint64, begin);
        QFETCH(quint64, end);
        QFETCH(bool, background);
        QFETCH(int, rows);
        const Loaded one = example("01_valid_trace10_forward.jsonl");
        QVERIFY(one.trace);
        const std::size_t rowsBefore = BackgroundSort::backgroundRows();
        BackgroundSort::setBackgroundRows(background ? 0 : std::size_t(-1));
        const auto restore = qScopeGuard([rowsBefore] { BackgroundSort::setBackgroundRows(rowsBefore); });
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(showTrace(panel, one));
        LiveAllocationsModel *model = panel.allocationsModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model->rowCount(), 1);
        QSignalSpy filtering(model, &LiveAllocationsModel::filteringChanged);
        panel.setTimeRange({begin, end});
        QCOMPARE(model->isFiltering(), background && begin != end);
        if (model->isFiltering())
            QVERIFY2(panel.tableTitle().contains(QStringLiteral("time range")), qPrintable(panel.tableTitle()));
        QTRY_VERIFY(!model->isFiltering());
        QCOMPARE(model->rowCount(), rows);
        QCOMPARE(peakTableModel(panel)->rowCount(), rows);
        QCOMPARE(model->liveCount(), std::size_t(1));
        QCOMPARE(model->totalBytes(), rows == 1 ? 393216ull : 0ull);
        if (begin != end)
            QVERIFY2(panel.tableTitle().contains(QStringLiteral("of 1 alive in the time range")),
                     qPrintable(panel.tableTitle()));
        // A new instant keeps the range; clearing the range shows every live storage again.
        panel.selectInstant(30000);
        QTRY_COMPARE(panel.tableInstant(), std::optional<std::uint64_t>(30000));
        QTRY_VERIFY(!model->isFiltering());
        QCOMPARE(model->rowCount(), rows);
        panel.setTimeRange({});
        QTRY_VERIFY(!model->isFiltering());
        QCOMPARE(model->rowCount(), 1);
        QVERIFY(!panel.tableTitle().contains(QStringLiteral("time range")));
    }

    void allocationsModelTester()
    {
        LiveAllocationsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Loaded one = example("01_valid_trace10_forward.jsonl");
        model.setPeak(one.trace, one.profile);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(LiveAllocationsModel::ColumnCount));
        QCOMPARE(model.index(0, LiveAllocationsModel::BytesColumn).data(SortRole).toULongLong(), 393216ull);
        QCOMPARE(model.index(0, 0).data(SpanIdRole).toString(), QStringLiteral("span-matmul"));
        QCOMPARE(model.headerData(LiveAllocationsModel::TensorIdsColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Tensor ids"));
        QCOMPARE(model.totalBytes(), 393216ull);
        // Bytes are a cost: the first click sorts them largest first.
        QCOMPARE(model.headerData(LiveAllocationsModel::BytesColumn, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(),
                 int(Qt::DescendingOrder));
        QVERIFY(
            !model.headerData(LiveAllocationsModel::StorageColumn, Qt::Horizontal, Qt::InitialSortOrderRole).isValid());
        // A chosen unit moves from the cells to the header, with every digit.
        model.setTimeUnit(TimeUnit::Milliseconds);
        QCOMPARE(model.headerData(LiveAllocationsModel::StartColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Allocated (ms)"));
        QCOMPARE(model.index(0, LiveAllocationsModel::StartColumn).data().toString(),
                 QString(QStringLiteral("0.013") + QChar(0x202F) + QStringLiteral("600")));
        model.setAllocations(one.trace, one.profile, 30000, {0});
        QCOMPARE(model.timeNs(), 30000ull);
        QCOMPARE(model.rowCount(), 1);
        const Loaded two = example("02_valid_trace9_train.jsonl");
        model.setPeak(two.trace, two.profile);
        QCOMPARE(model.rowCount(), 0);
        model.setPeak(one.trace, one.profile);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // Each state of a load without a chart says what it is, and a drawn chart takes its place.
    void placeholderSaysWhyThereIsNoChart()
    {
        const Loaded l = example("01_valid_trace10_forward.jsonl");
        QVERIFY(l.trace);
        MemoryChartPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QCOMPARE(panel.placeholderText(), QStringLiteral("No trace loaded"));
        panel.showAnalysing();
        QCOMPARE(panel.placeholderText(), QStringLiteral("Analysing memory…"));
        panel.showPreparing();
        QCOMPARE(panel.placeholderText(), QStringLiteral("Preparing the memory chart…"));
        panel.showLoadFailed();
        QVERIFY2(
            panel.placeholderText().startsWith(QStringLiteral("The memory chart was not prepared: loading failed")),
            qPrintable(panel.placeholderText()));
        QVERIFY(showTrace(panel, l));
        QCOMPARE(panel.placeholderText(), QString());
        panel.showLoadCancelled();
        QVERIFY2(panel.placeholderText().startsWith(QStringLiteral("The memory chart was not prepared: loading was "
                                                                   "cancelled")),
                 qPrintable(panel.placeholderText()));
        QVERIFY(!panel.drawnState().ready);
        panel.clear();
        QCOMPARE(panel.placeholderText(), QStringLiteral("No trace loaded"));
    }
};

QTEST_MAIN(TstMemoryChartPanel)
#include "tst_memorychartpanel.moc"
