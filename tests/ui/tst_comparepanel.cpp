// SPDX-License-Identifier: MIT
// The A/B comparison in the window (issue #15 items 1–4): Compare with… loads a baseline in
// the background and diffs it off the GUI thread; the diff columns sort by Δ with faster /
// slower colours from the palette; the fairness banner says exactly what differs; a single
// pair is labelled indicative.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QHeaderView>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <sys/stat.h>

#include "core/itemmodels/backgroundsort.h"
#include "core/itemmodels/modelroles.h"
#include "core/itemmodels/onlyinrunmodel.h"
#include "core/itemmodels/opgroupdiffmodel.h"
#include "core/itemmodels/spandiffmodel.h"
#include "ui/compare/comparecontroller.h"
#include "ui/compare/comparepanel.h"
#include "ui/compare/deltadelegate.h"
#include "ui/compare/memorydiffchart.h"
#include "ui/mainwindow.h"
#include "ui/style/deltapalette.h"
#include "ui/style/palettes.h"
#include "ui/widgets/messagebanner.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_ComparePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void diffColumns_data();
    void diffColumns();
    void fairnessBanner_data();
    void fairnessBanner();
    void invalidIdentityBanner();
    void opGroupsAndOnlyIn();
    void backgroundSort_data();
    void backgroundSort();
    void shiftDropCompares();
    void unreadableBaseline();
    void cancelBaselineLoad();
    void deltaColoursReadable_data();
    void deltaColoursReadable();

private:
    QString write(const QString &name, const QByteArray &content);
    /// Opens \a candidate, compares it with \a baseline and waits for the result.
    bool compare(MainWindow &window, const QString &baseline, const QString &candidate);

    QTemporaryDir m_dir;
};

namespace {

/// Exposes the delegate's style option, which carries the colour it paints with.
class ProbeDelegate : public DeltaDelegate
{
public:
    using DeltaDelegate::initStyleOption;
};

QByteArray withMeta(const QByteArray &spec, const QByteArray &from = {}, const QByteArray &to = {},
                    const QByteArray &extra = {})
{
    QByteArray text = TestFixtures::spansJsonl(spec);
    if (!from.isEmpty())
        text.replace(from, to);
    if (!extra.isEmpty())
        text.insert(text.lastIndexOf("{\"kind\":\"terminal\""), extra);
    return text;
}

QByteArray op(const char *span, const char *name, int duration, int bytes)
{
    return QByteArray("{\"kind\":\"op\",\"span_id\":\"") + span + "\",\"op_name\":\"" + name
           + "\",\"inputs\":[],\"output\":\"t\",\"shape\":[4],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":"
           + QByteArray::number(duration)
           + ",\"timestamp_ns\":1,\"input_dense_bytes\":0,\"output_dense_bytes\":" + QByteArray::number(bytes) + "}\n";
}

QString cell(const QAbstractItemModel *model, int row, int column, int role = Qt::DisplayRole)
{
    return model->index(row, column).data(role).toString();
}

} // namespace

QString tst_ComparePanel::write(const QString &name, const QByteArray &content)
{
    return TestFixtures::writeFile(m_dir.filePath(name), content);
}

bool tst_ComparePanel::compare(MainWindow &window, const QString &baseline, const QString &candidate)
{
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    window.openFile(candidate);
    window.compareWith(baseline);
    if (!compared.wait(20000))
        return false;
    return compared.at(0).at(0).toBool();
}

void tst_ComparePanel::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void tst_ComparePanel::diffColumns_data()
{
    QTest::addColumn<QByteArray>("baseline");
    QTest::addColumn<QByteArray>("candidate");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<QString>("topPath"); // sorted by Δ self, largest slowdown first
    QTest::addColumn<QString>("topDelta");
    QTest::addColumn<QString>("topPercent");
    QTest::addColumn<QString>("bottomPath");
    QTest::addColumn<QString>("bottomDelta");

    // Self times: step 0 -> 10, fwd 50 -> 40, bwd 50 -> 110.
    QTest::newRow("backward slower") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50 b=bwd:r:50:50")
                                     << QByteArray("r=step*:-:0:160 a=fwd:r:0:40 b=bwd:r:50:110")
                                     << QStringLiteral("3 of 3 spans matched") << QStringLiteral("step/bwd")
                                     << QStringLiteral("+60 ns") << QStringLiteral("+120 %")
                                     << QStringLiteral("step/fwd") << QStringLiteral("−10 ns");
    // Repeated siblings match by occurrence; the second microbatch got faster, so the step's
    // own time grew (self 90 -> 160).
    QTest::newRow("second microbatch faster")
        << QByteArray("r=step*:-:0:300 a=mb:r:0:100 b=mb:r:100:100 c=new:r:250:10")
        << QByteArray("r=step*:-:0:300 a=mb:r:0:100 b=mb:r:100:40")
        << QStringLiteral("3 of 3 spans matched; 1 only in baseline") << QStringLiteral("step")
        << QStringLiteral("+70 ns") << QStringLiteral("+78 %") << QStringLiteral("step/mb[1]")
        << QStringLiteral("−60 ns");
}

void tst_ComparePanel::diffColumns()
{
    QFETCH(QByteArray, baseline);
    QFETCH(QByteArray, candidate);
    QFETCH(QString, summary);
    QFETCH(QString, topPath);
    QFETCH(QString, topDelta);
    QFETCH(QString, topPercent);
    QFETCH(QString, bottomPath);
    QFETCH(QString, bottomDelta);

    MainWindow window;
    window.show();
    QVERIFY(compare(window, write(QStringLiteral("base.jsonl"), withMeta(baseline)),
                    write(QStringLiteral("cand.jsonl"), withMeta(candidate))));
    ComparePanel *panel = window.comparePanel();
    QVERIFY(panel->isVisible()); // the Compare tab came to the front
    QVERIFY2(panel->summaryLabel()->text().startsWith(summary), qPrintable(panel->summaryLabel()->text()));

    QTableView *view = panel->spanView();
    const QAbstractItemModel *m = view->model();
    QAbstractItemModelTester tester(panel->spanModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), int(SpanDiffModel::DeltaSelfColumn));
    QCOMPARE(cell(m, 0, SpanDiffModel::PathColumn), topPath);
    QCOMPARE(cell(m, 0, SpanDiffModel::DeltaSelfColumn), topDelta);
    QCOMPARE(cell(m, 0, SpanDiffModel::DeltaSelfPercentColumn), topPercent);
    const int last = m->rowCount() - 1;
    QCOMPARE(cell(m, last, SpanDiffModel::PathColumn), bottomPath);
    QCOMPARE(cell(m, last, SpanDiffModel::DeltaSelfColumn), bottomDelta);

    // The delegate colours by the sign of DeltaRole: slower on top, faster below.
    ProbeDelegate probe;
    const auto textColor = [&](int row) {
        QStyleOptionViewItem o;
        o.initFrom(view);
        probe.initStyleOption(&o, m->index(row, SpanDiffModel::DeltaSelfColumn));
        return o.palette.color(QPalette::Text);
    };
    QVERIFY(m->index(0, SpanDiffModel::DeltaSelfColumn).data(DeltaRole).toLongLong() > 0);
    QCOMPARE(textColor(0), DeltaPalette::slower(view->palette()));
    QCOMPARE(textColor(last), bottomDelta.startsWith(QChar(0x2212)) ? DeltaPalette::faster(view->palette())
                                                                    : view->palette().color(QPalette::Text));

    // Sorting by Δ the other way puts the largest improvement first.
    view->sortByColumn(SpanDiffModel::DeltaSelfColumn, Qt::AscendingOrder);
    QCOMPARE(cell(m, 0, SpanDiffModel::PathColumn), bottomPath);

    // One run each: always labelled indicative.
    QVERIFY(panel->indicativeLabel()->isVisible());
    QVERIFY(panel->indicativeLabel()->text().startsWith(QStringLiteral("Indicative — one run each")));
}

void tst_ComparePanel::fairnessBanner_data()
{
    QTest::addColumn<QByteArray>("from"); // replaced in the candidate's meta line
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<bool>("differs");
    QTest::addColumn<QStringList>("lines");

    const QString semantics = QStringLiteral("Upstream's comparison: “%1”").arg(QLatin1String(kCaptureSemanticsReason));
    const QString missing = QStringLiteral("Upstream's comparison: “%1”").arg(QLatin1String(kIdentityMissingReason));
    QTest::newRow("same run facts") << QByteArray() << QByteArray() << false << QStringList{missing};
    QTest::newRow("device") << QByteArray("\"device\":\"cpu\"") << QByteArray("\"device\":\"cuda:0\"") << true
                            << QStringList{QStringLiteral("device: baseline cpu, candidate cuda:0"), semantics,
                                           missing};
    QTest::newRow("phase") << QByteArray("\"phase\":\"infer\"") << QByteArray("\"phase\":\"train\"") << true
                           << QStringList{QStringLiteral("phase: baseline infer, candidate train"), semantics, missing};
    QTest::newRow("timing mode")
        << QByteArray("\"timing_mode\":\"host\"") << QByteArray("\"timing_mode\":\"device_synchronized\"") << true
        << QStringList{QStringLiteral("timing_mode: baseline host, candidate device_synchronized"), semantics, missing};
    QTest::newRow("warm-up and capture step")
        << QByteArray("\"capture_step\":1,\"warmup_steps\":0") << QByteArray("\"capture_step\":3,\"warmup_steps\":2")
        << true
        << QStringList{QStringLiteral("warmup_steps: baseline 0, candidate 2"),
                       QStringLiteral("capture_step: baseline 1, candidate 3"), semantics, missing};
    QTest::newRow("capture contract") << QByteArray("\"measurement_scope\":\"profiled_work\"")
                                      << QByteArray("\"measurement_scope\":\"production_equivalent\"") << true
                                      << QStringList{QStringLiteral("capture_contract.measurement_scope: baseline "
                                                                    "profiled_work, candidate production_equivalent"),
                                                     semantics, missing};
    QTest::newRow("entrypoint") << QByteArray("\"entrypoint\":\"e\"") << QByteArray("\"entrypoint\":\"model::train\"")
                                << true
                                << QStringList{QStringLiteral("entrypoint: baseline e, candidate model::train"),
                                               semantics, missing};
}

void tst_ComparePanel::fairnessBanner()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(bool, differs);
    QFETCH(QStringList, lines);

    const QByteArray spec("r=step*:-:0:100 a=fwd:r:0:50");
    MainWindow window;
    window.show();
    QVERIFY(compare(window, write(QStringLiteral("fair-base.jsonl"), withMeta(spec)),
                    write(QStringLiteral("fair-cand.jsonl"), withMeta(spec, from, to))));
    MessageBanner *banner = window.comparePanel()->fairnessBanner();
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->tone(), differs ? MessageBanner::Tone::Warning : MessageBanner::Tone::Information);
    QCOMPARE(banner->text().split(u'\n'), lines);
}

void tst_ComparePanel::invalidIdentityBanner()
{
    // Both runs declare the same identity, whose physical batch is 0: upstream's reason, and
    // no "differs" line, as nothing differs.
    const QByteArray identity(
        "\"comparison_identity\":{\"workload_id\":\"w\",\"model_id\":\"m\",\"config_id\":\"c\",\"data_id\":\"d\","
        "\"seed_policy\":\"fixed\",\"physical_batch\":0,\"accumulation_steps\":1,\"precision\":\"f32\","
        "\"device_state\":\"exclusive\"},\"tags\":{}");
    const QByteArray spec("r=step*:-:0:100 a=fwd:r:0:50");
    const QByteArray text = withMeta(spec, "\"tags\":{}", identity);
    MainWindow window;
    window.show();
    QVERIFY(compare(window, write(QStringLiteral("invalid-base.jsonl"), text),
                    write(QStringLiteral("invalid-cand.jsonl"), text)));
    MessageBanner *banner = window.comparePanel()->fairnessBanner();
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->tone(), MessageBanner::Tone::Information);
    QCOMPARE(banner->text().split(u'\n'),
             QStringList{QStringLiteral("Upstream's comparison: “comparison identity is invalid: comparison identity "
                                        "physical_batch must be greater than zero”")});
}

void tst_ComparePanel::opGroupsAndOnlyIn()
{
    // softmax 3x slower; gelu only in the candidate; a subtree only in the baseline.
    const QByteArray baseOps = op("a", "softmax", 100, 16) + op("a", "matmul", 50, 32);
    const QByteArray candOps = op("a", "softmax", 300, 16) + op("a", "matmul", 50, 32) + op("a", "gelu", 7, 16);
    MainWindow window;
    window.show();
    QVERIFY(
        compare(window,
                write(QStringLiteral("ops-base.jsonl"),
                      withMeta("r=step*:-:0:1000 a=fwd:r:0:500 x=extra:r:600:100 y=inner:x:600:10", {}, {}, baseOps)),
                write(QStringLiteral("ops-cand.jsonl"), withMeta("r=step*:-:0:1000 a=fwd:r:0:500", {}, {}, candOps))));
    ComparePanel *panel = window.comparePanel();
    QAbstractItemModelTester opTester(panel->opGroupModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester onlyTester(panel->onlyInModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QAbstractItemModel *ops = panel->opGroupView()->model();
    QCOMPARE(ops->rowCount(), 3);
    QCOMPARE(cell(ops, 0, OpGroupDiffModel::NameColumn), QStringLiteral("softmax"));
    QCOMPARE(cell(ops, 0, OpGroupDiffModel::DeltaTotalColumn), QStringLiteral("+200 ns"));
    QCOMPARE(cell(ops, 0, OpGroupDiffModel::DeltaTotalPercentColumn), QStringLiteral("+200 %"));
    QCOMPARE(cell(ops, 1, OpGroupDiffModel::NameColumn), QStringLiteral("gelu"));
    QCOMPARE(cell(ops, 1, OpGroupDiffModel::BaselineTotalColumn), QStringLiteral("—"));
    QCOMPARE(cell(ops, 1, OpGroupDiffModel::DeltaTotalPercentColumn), QStringLiteral("new"));
    QCOMPARE(cell(ops, 1, OpGroupDiffModel::DeltaBytesColumn), QStringLiteral("+16 B"));

    const OnlyInRunModel *only = panel->onlyInModel();
    QCOMPARE(only->rowCount(), 2);
    QCOMPARE(only->countOf(OnlyInRunModel::Side::Baseline, OnlyInRunModel::Kind::SpanSubtree), 1);
    QCOMPARE(only->countOf(OnlyInRunModel::Side::Candidate, OnlyInRunModel::Kind::OpGroup), 1);
    QCOMPARE(cell(only, 0, OnlyInRunModel::WhatColumn), QStringLiteral("step/extra"));
    QCOMPARE(cell(only, 0, OnlyInRunModel::CountColumn), QStringLiteral("2"));
    QCOMPARE(cell(only, 1, OnlyInRunModel::WhatColumn), QStringLiteral("gelu [4] f32 cpu"));

    // Neither fixture has memory records: both sides say so instead of drawing zeros.
    QVERIFY(!panel->memoryChart()->memoryDiff().baseline);
    QCOMPARE(panel->peakCategoryTable()->item(0, 3)->text(), QStringLiteral("—"));
}

void tst_ComparePanel::backgroundSort_data()
{
    QTest::addColumn<bool>("spans"); // the span table, else the op group table
    QTest::addColumn<int>("column");
    QTest::addColumn<Qt::SortOrder>("order");
    QTest::newRow("spans by Δ total, descending")
        << true << int(SpanDiffModel::DeltaTotalColumn) << Qt::DescendingOrder;
    QTest::newRow("spans by Δ total, ascending") << true << int(SpanDiffModel::DeltaTotalColumn) << Qt::AscendingOrder;
    QTest::newRow("spans by Δ self, ascending") << true << int(SpanDiffModel::DeltaSelfColumn) << Qt::AscendingOrder;
    QTest::newRow("spans by Δ% self, descending")
        << true << int(SpanDiffModel::DeltaSelfPercentColumn) << Qt::DescendingOrder;
    QTest::newRow("spans by path") << true << int(SpanDiffModel::PathColumn) << Qt::AscendingOrder;
    QTest::newRow("op groups by Δ total, ascending")
        << false << int(OpGroupDiffModel::DeltaTotalColumn) << Qt::AscendingOrder;
    QTest::newRow("op groups by name") << false << int(OpGroupDiffModel::NameColumn) << Qt::AscendingOrder;
}

void tst_ComparePanel::backgroundSort()
{
    // Sorting a big diff table runs on a worker thread with a busy state, and lands in the
    // order the synchronous sort gives (every row table of a trace this small sorts the same).
    QFETCH(bool, spans);
    QFETCH(int, column);
    QFETCH(Qt::SortOrder, order);
    const QByteArray baseOps = op("a", "softmax", 100, 16) + op("a", "matmul", 50, 32) + op("b", "add", 9, 8);
    const QByteArray candOps =
        op("a", "softmax", 300, 16) + op("a", "matmul", 40, 32) + op("b", "add", 9, 8) + op("b", "gelu", 7, 16);
    MainWindow window;
    window.show();
    QVERIFY(compare(
        window,
        write(QStringLiteral("bg-base.jsonl"),
              withMeta("r=step*:-:0:1000 a=fwd:r:0:500 b=bwd:r:500:300 c=mb:a:0:100 d=mb:a:100:100", {}, {}, baseOps)),
        write(QStringLiteral("bg-cand.jsonl"),
              withMeta("r=step*:-:0:900 a=fwd:r:0:450 b=bwd:r:500:350 c=mb:a:0:60 d=mb:a:100:120", {}, {}, candOps))));
    ComparePanel *panel = window.comparePanel();
    QTableView *view = spans ? panel->spanView() : panel->opGroupView();
    FlatTableModel *model = spans ? static_cast<FlatTableModel *>(panel->spanModel())
                                  : static_cast<FlatTableModel *>(panel->opGroupModel());
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model->rowCount() > 1);

    // The order of the synchronous sort, from a model of the same comparison.
    std::vector<std::int64_t> expected;
    {
        const TraceComparisonPtr comparison = window.compareController()->comparison();
        SpanDiffModel spanModel;
        OpGroupDiffModel opModel;
        spanModel.setComparison(comparison);
        opModel.setComparison(comparison);
        FlatTableModel *sync =
            spans ? static_cast<FlatTableModel *>(&spanModel) : static_cast<FlatTableModel *>(&opModel);
        sync->sort(column, order);
        for (int row = 0; row < sync->rowCount(); ++row)
            expected.push_back(sync->recordAt(row));
    }
    const std::size_t rowsBefore = BackgroundSort::backgroundRows();
    BackgroundSort::setBackgroundRows(1);
    const auto restore = qScopeGuard([rowsBefore] { BackgroundSort::setBackgroundRows(rowsBefore); });
    QSignalSpy sorting(panel, &ComparePanel::sortingChanged);
    view->sortByColumn(column, order);
    QVERIFY(panel->isSorting());
    QCOMPARE(sorting.count(), 1);
    QVERIFY(panel->views()->tabText(spans ? 0 : 1).contains(QStringLiteral("sorting")));
    QCOMPARE(view->viewport()->cursor().shape(), Qt::BusyCursor);
    QTRY_VERIFY(!panel->isSorting());
    QCOMPARE(sorting.last().at(0).toBool(), false);
    QVERIFY(!panel->views()->tabText(spans ? 0 : 1).contains(QStringLiteral("sorting")));
    QVERIFY(!view->viewport()->testAttribute(Qt::WA_SetCursor));
    QCOMPARE(model->sortColumn(), column);
    std::vector<std::int64_t> shown;
    for (int row = 0; row < model->rowCount(); ++row)
        shown.push_back(model->recordAt(row));
    QCOMPARE(shown, expected);
}

void tst_ComparePanel::shiftDropCompares()
{
    const QString base = write(QStringLiteral("drop-base.jsonl"), withMeta("r=step*:-:0:100"));
    const QString cand = write(QStringLiteral("drop-cand.jsonl"), withMeta("r=step*:-:0:150"));
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(cand);
    QVERIFY(loaded.wait(20000));

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(base)});
    const QPoint pos = window.rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(window.compareController()->isBusy());
    QVERIFY(compared.wait(20000));
    QVERIFY(compared.at(0).at(0).toBool());
    // The window's own trace stays: the dropped file is the baseline.
    QCOMPARE(window.loadedTrace()->path, cand);
    QCOMPARE(window.compareController()->comparison()->baseline->path, base);
}

void tst_ComparePanel::unreadableBaseline()
{
    MainWindow window;
    window.show();
    QVERIFY(!compare(window, m_dir.filePath(QStringLiteral("missing.jsonl")),
                     write(QStringLiteral("ok.jsonl"), withMeta("r=step*:-:0:100"))));
    auto *banner = window.comparePanel()->findChild<MessageBanner *>(QStringLiteral("compareErrorBanner"));
    QVERIFY(banner);
    // A missing baseline fails before the window's own load of the candidate ends; the views
    // (and with them the Compare tab) appear only when that load does.
    QTRY_VERIFY(banner->isVisible());
    QCOMPARE(banner->tone(), MessageBanner::Tone::Error);
    QCOMPARE(banner->title(), QStringLiteral("The baseline cannot be read"));
    QVERIFY(window.compareController()->state() == CompareController::State::Failed);
}

void tst_ComparePanel::cancelBaselineLoad()
{
    // A FIFO without a writer: the baseline load waits until Cancel.
    const QString fifo = m_dir.filePath(QStringLiteral("never.fifo"));
    if (::mkfifo(QFile::encodeName(fifo).constData(), 0600) != 0)
        QSKIP("cannot make a FIFO here");
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(write(QStringLiteral("cancel-cand.jsonl"), withMeta("r=step*:-:0:100")));
    QVERIFY(loaded.wait(20000));
    QSignalSpy compared(&window, &MainWindow::comparisonFinished);
    window.compareWith(fifo);
    QCOMPARE(window.compareController()->state(), CompareController::State::LoadingBaseline);
    auto *cancel = window.comparePanel()->findChild<QPushButton *>(QStringLiteral("compareCancel"));
    QVERIFY(cancel && cancel->isVisible() && cancel->isEnabled());
    cancel->click();
    QTRY_COMPARE(compared.count(), 1);
    QCOMPARE(compared.at(0).at(0).toBool(), false);
    QCOMPARE(window.compareController()->state(), CompareController::State::Idle);
    QVERIFY(!window.compareController()->comparison());
    // The window's own trace is untouched.
    QVERIFY(window.loadedTrace());
}

void tst_ComparePanel::deltaColoursReadable_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void tst_ComparePanel::deltaColoursReadable()
{
    QFETCH(bool, dark);
    QPalette palette = dark ? darkPalette() : QPalette(Qt::white);
    palette.setColor(QPalette::Base, dark ? palette.color(QPalette::Base) : QColor(Qt::white));
    palette.setColor(QPalette::Text, dark ? palette.color(QPalette::Text) : QColor(Qt::black));
    QCOMPARE(DeltaPalette::isDark(palette), dark);
    const int base = palette.color(QPalette::Base).lightness();
    for (const QColor &c : {DeltaPalette::faster(palette), DeltaPalette::slower(palette)}) {
        // Clearly away from the background, on the Text side of it.
        QVERIFY2(std::abs(c.lightness() - base) >= 80, qPrintable(c.name()));
        QVERIFY((c.lightness() > base) == dark);
    }
    QVERIFY(DeltaPalette::faster(palette) != DeltaPalette::slower(palette));
    QCOMPARE(DeltaPalette::forDelta(0, palette), palette.color(QPalette::Text));
}

QTEST_MAIN(tst_ComparePanel)
#include "tst_comparepanel.moc"
