// SPDX-License-Identifier: MIT
#include <QAbstractGraphicsShapeItem>
#include <QBrush>
#include <QComboBox>
#include <QFile>
#include <QGraphicsScene>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphview.h"
#include "ui/mainwindow.h"
#include "ui/selection/selectionmodel.h"

using namespace TraceInspector;

class tst_GraphPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void clickSelectsSpan();
    void followsSelection();
    void heatSwitchRecolours();
    void capIsStated();
    void capSpinBoxSetsCap_data();
    void capSpinBoxSetsCap();
    void spanPathsMerge();
    void exportsSvg();
    void mainWindowClickSelectsInTree();
    void hiddenGraphFollowsWhenShown();
    void hiddenSelectionOutsideGraphMovesRoot();
    void hiddenSelectionInGraphIsCentred();
};

namespace {

using Loaded = TestFixtures::Analysed;

QByteArray memoryAlloc(const QByteArray &span, const QByteArray &storage, int bytes)
{
    return "{\"kind\":\"memory\",\"timestamp_ns\":1,\"storage_id\":\"" + storage
           + "\",\"tensor_id\":\"t\",\"span_id\":\"" + span + "\",\"device\":\"cpu\",\"bytes\":"
           + QByteArray::number(bytes) + ",\"action\":\"alloc\",\"dtype\":\"f32\"}\n";
}

Loaded load(const QByteArray &spans, const QByteArray &records = {})
{
    return TestFixtures::analysed(TestFixtures::withRecords(TestFixtures::spansJsonl(spans), records),
                                  TestFixtures::SpanTreeAnalysis, QStringLiteral("graph.jsonl"));
}

// r (self 250) has the slowest child `a` (self 600), `b` that allocates in some tests (self 50)
// and two micro-batches with the same names.
const QByteArray kSpans = "r:-:0:1100 a:r:0:600 b:r:650:50 mb1=mb:r:700:100 mb2=mb:r:900:100 f1=fwd:mb1:700:10 "
                          "f2=fwd:mb2:900:10";

bool waitForGraph(GraphPanel &panel)
{
    QSignalSpy ready(&panel, &GraphPanel::graphReady);
    if (!panel.isBusy())
        return panel.drawing() != nullptr;
    return ready.wait(20000) && !panel.isBusy();
}

QPoint viewPosOfNode(GraphPanel &panel, int node)
{
    for (QGraphicsItem *item : panel.scene()->items()) {
        if (item->data(GraphView::kNodeIndexKey).isValid() && item->data(GraphView::kNodeIndexKey).toInt() == node)
            return panel.view()->mapFromScene(item->sceneBoundingRect().center());
    }
    return {-1, -1};
}

QColor fillOf(GraphPanel &panel, int node)
{
    for (QGraphicsItem *item : panel.scene()->items()) {
        if (item->data(GraphView::kNodeIndexKey).isValid() && item->data(GraphView::kNodeIndexKey).toInt() == node)
            return static_cast<QAbstractGraphicsShapeItem *>(item)->brush().color();
    }
    return {};
}

} // namespace

void tst_GraphPanel::clickSelectsSpan()
{
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(7));

    const qint64 b = loaded.trace->findSpan(std::string_view("b"));
    const int node = panel.nodeOfSpan(b);
    QVERIFY(node >= 0);
    const QPoint pos = viewPosOfNode(panel, node);
    QVERIFY(panel.view()->viewport()->rect().contains(pos));
    QCOMPARE(panel.view()->nodeAt(pos), node);
    QSignalSpy activated(&panel, &GraphPanel::spanActivated);
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, pos);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), b);
    QCOMPARE(panel.highlightedNode(), node);

    // A click on empty space selects nothing.
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(activated.count(), 1);
}

void tst_GraphPanel::followsSelection()
{
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    panel.resize(900, 600);
    panel.show(); // a hidden panel lays nothing out
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.rootSpan(), qint64(-1));

    // Drawn already: only highlighted, no new layout.
    const qint64 a = loaded.trace->findSpan(std::string_view("a"));
    panel.setSelectedSpan(a);
    QVERIFY(!panel.isBusy());
    QCOMPARE(panel.highlightedNode(), panel.nodeOfSpan(a));
    QCOMPARE(panel.rootSpan(), qint64(-1));

    // Not drawn (capped away): the graph moves to its subtree.
    panel.setNodeCap(2);
    QVERIFY(waitForGraph(panel));
    const qint64 f2 = loaded.trace->findSpan(std::string_view("f2"));
    QCOMPARE(panel.nodeOfSpan(f2), -1);
    panel.setSelectedSpan(f2);
    QVERIFY(panel.isBusy());
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.rootSpan(), f2);
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(1));
    QCOMPARE(panel.highlightedNode(), 0);
    QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("fwd")));

    panel.showWholeTrace();
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.rootSpan(), qint64(-1));
}

void tst_GraphPanel::heatSwitchRecolours()
{
    const Loaded loaded = load(kSpans, memoryAlloc("b", "s1", 1 << 20));
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    panel.show(); // a hidden panel lays nothing out
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    const int a = panel.nodeOfSpan(loaded.trace->findSpan(std::string_view("a")));
    const int b = panel.nodeOfSpan(loaded.trace->findSpan(std::string_view("b")));
    const GraphDrawing *before = panel.drawing();
    // By self time `a` is the hottest span, by memory `b` is.
    const double selfA = nodeHeat(before->graph, std::size_t(a), GraphHeat::SelfTime);
    QCOMPARE(selfA, 1.0);
    const QColor aSelf = fillOf(panel, a);
    const QColor bSelf = fillOf(panel, b);
    panel.heatBox()->setCurrentIndex(panel.heatBox()->findData(int(GraphHeat::Memory)));
    QCOMPARE(panel.heat(), GraphHeat::Memory);
    QVERIFY(!panel.isBusy()); // recoloured, not laid out again
    QCOMPARE(panel.drawing(), before);
    QVERIFY(fillOf(panel, a) != aSelf);
    QVERIFY(fillOf(panel, b) != bSelf);
    QCOMPARE(nodeHeat(before->graph, std::size_t(b), GraphHeat::Memory), 1.0);
}

void tst_GraphPanel::capIsStated()
{
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    panel.setNodeCap(3);
    panel.show(); // a hidden panel lays nothing out
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(3));
    QVERIFY2(panel.messageLabel()->text().contains(QStringLiteral("Capped at 3 nodes")),
             qPrintable(panel.messageLabel()->text()));
    QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("4 of 7")));
    panel.setNodeCap(100);
    QVERIFY(waitForGraph(panel));
    QVERIFY(!panel.messageLabel()->text().contains(QStringLiteral("Capped")));
}

void tst_GraphPanel::capSpinBoxSetsCap_data()
{
    QTest::addColumn<int>("typed");
    QTest::addColumn<int>("cap");
    QTest::addColumn<bool>("capped");
    QTest::newRow("below the span count") << 4 << 4 << true;
    QTest::newRow("one node") << 1 << 1 << true;
    QTest::newRow("above the span count") << 50 << 50 << false;
}

void tst_GraphPanel::capSpinBoxSetsCap()
{
    QFETCH(int, typed);
    QFETCH(int, cap);
    QFETCH(bool, capped);
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    QSpinBox *box = panel.nodeCapBox();
    QVERIFY(box);
    QCOMPARE(box->objectName(), QStringLiteral("graphNodeCap"));
    QCOMPARE(box->value(), int(GraphPanel::kDefaultNodeCap));
    QCOMPARE(panel.nodeCap(), GraphPanel::kDefaultNodeCap);
    panel.show(); // a hidden panel lays nothing out
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(7));

    box->setValue(typed);
    QCOMPARE(panel.nodeCap(), std::size_t(cap));
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::min<std::size_t>(std::size_t(cap), 7));
    const QString message = panel.messageLabel()->text();
    QCOMPARE(message.contains(QStringLiteral("Capped at %1 nodes").arg(cap)), capped);

    // The programmatic setter keeps the box in step and clamps to the offered range.
    panel.setNodeCap(GraphPanel::kMaxNodeCap * 10);
    QCOMPARE(panel.nodeCap(), GraphPanel::kMaxNodeCap);
    QCOMPARE(box->value(), int(GraphPanel::kMaxNodeCap));
    panel.setNodeCap(0);
    QCOMPARE(panel.nodeCap(), std::size_t(1));
    QCOMPARE(box->value(), 1);
}

void tst_GraphPanel::spanPathsMerge()
{
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    QCOMPARE(panel.scope(), CallGraphScope::SpanPath); // the default: readable at any size
    panel.setScope(CallGraphScope::Subtree);
    QCOMPARE(panel.scopeBox()->currentData().toInt(), int(CallGraphScope::Subtree));
    panel.show(); // a hidden panel lays nothing out
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(7));
    panel.scopeBox()->setCurrentIndex(panel.scopeBox()->findData(int(CallGraphScope::SpanPath)));
    QCOMPARE(panel.scope(), CallGraphScope::SpanPath);
    QVERIFY(waitForGraph(panel));
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(5)); // r a b mb fwd
    // Both micro-batches map to the one merged node.
    QCOMPARE(panel.nodeOfSpan(loaded.trace->findSpan(std::string_view("mb1"))),
             panel.nodeOfSpan(loaded.trace->findSpan(std::string_view("mb2"))));
    QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("span paths")));
}

void tst_GraphPanel::exportsSvg()
{
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    QString error;
    QTemporaryDir dir;
    QVERIFY(!panel.exportSvg(dir.filePath(QStringLiteral("none.svg")), &error));
    QVERIFY(!error.isEmpty());
    panel.show(); // a hidden panel lays nothing out
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(waitForGraph(panel));
    const QString path = dir.filePath(QStringLiteral("graph.svg"));
    QVERIFY(panel.exportSvg(path, &error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray svg = file.readAll();
    QVERIFY(svg.contains("<svg"));
    QVERIFY(svg.contains("fwd")); // node text is exported as text
}

void tst_GraphPanel::mainWindowClickSelectsInTree()
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(QStringLiteral(TI_EXAMPLES_DIR "/01_valid_trace10_forward.jsonl"));
    QVERIFY(finished.wait(30000));
    QVERIFY(window.showTab(QStringLiteral("Graph")));
    GraphPanel *panel = window.graphPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isBusy() && panel->drawing(), 20000);
    panel->view()->fitAll();

    const qint64 matmul = window.loadedTrace()->trace->findSpan(std::string_view("span-matmul"));
    const int node = panel->nodeOfSpan(matmul);
    QVERIFY(node >= 0);
    QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, viewPosOfNode(*panel, node));
    QCOMPARE(window.selectedSpanIndex(), matmul);
    // The tree's selection comes back to the graph without a new layout.
    QVERIFY(!panel->isBusy());
    QCOMPARE(panel->highlightedNode(), node);
}

void tst_GraphPanel::hiddenGraphFollowsWhenShown()
{
    // A hidden graph is not laid out at the load (on a big trace a worker's ~100 ms while the
    // other analyses still need the cores) and does not follow the selection: both catch up
    // when its tab comes to the front, as if the graph had been drawn all along.
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(QStringLiteral(TI_EXAMPLES_DIR "/01_valid_trace10_forward.jsonl"));
    QVERIFY(finished.wait(30000));
    GraphPanel *panel = window.graphPanel();
    QVERIFY(!panel->isVisible());
    QVERIFY(panel->isDeferred());
    QVERIFY(!panel->isBusy());
    QVERIFY(!panel->drawing());
    QVERIFY(!window.isViewWorkPending());
    const qint64 matmul = window.loadedTrace()->trace->findSpan(std::string_view("span-matmul"));
    window.selectionModel()->select(Selection::span(matmul));
    QCOMPARE(window.selectedSpanIndex(), matmul);
    QVERIFY(!panel->drawing());
    QVERIFY(window.showTab(QStringLiteral("Graph")));
    QVERIFY(panel->isVisible());
    QVERIFY(!panel->isDeferred());
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isBusy() && panel->drawing(), 20000);
    // The whole trace, with the selection highlighted in it (it is drawn there).
    QCOMPARE(panel->rootSpan(), qint64(-1));
    const int node = panel->nodeOfSpan(matmul);
    QVERIFY(node >= 0);
    QCOMPARE(panel->highlightedNode(), node);
}

void tst_GraphPanel::hiddenSelectionOutsideGraphMovesRoot()
{
    // Selected while hidden, a span that the drawn graph would leave out (capped away) moves
    // the graph to its subtree once shown, as a drawn graph does at once.
    const Loaded loaded = load(kSpans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    panel.setNodeCap(2);
    panel.resize(900, 600);
    panel.setTrace(loaded.trace, loaded.tree);
    QVERIFY(panel.isDeferred());
    QVERIFY(!panel.isBusy());
    const qint64 f2 = loaded.trace->findSpan(std::string_view("f2"));
    panel.setSelectedSpan(f2);
    QVERIFY(!panel.isBusy());
    QVERIFY(!panel.drawing());
    panel.show();
    QVERIFY(!panel.isDeferred());
    QVERIFY(panel.isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy() && panel.drawing(), 20000);
    QCOMPARE(panel.rootSpan(), f2);
    QCOMPARE(panel.drawing()->graph.nodes.size(), std::size_t(1));
    QCOMPARE(panel.highlightedNode(), 0);
}

void tst_GraphPanel::hiddenSelectionInGraphIsCentred()
{
    // Selected while hidden, a span that the graph has is highlighted and scrolled to once the
    // graph is drawn, as a drawn graph does at once: in a tall graph (shown at a readable zoom
    // on its root) the last of many children is far off screen otherwise.
    QByteArray spans = "r:-:0:100000";
    for (int i = 0; i < 120; ++i)
        spans += " c" + QByteArray::number(i) + ":r:" + QByteArray::number(i * 100) + ":50";
    const Loaded loaded = load(spans);
    QVERIFY(loaded.trace);
    GraphPanel panel;
    panel.setScope(CallGraphScope::Subtree);
    panel.resize(600, 400);
    panel.setTrace(loaded.trace, loaded.tree);
    const qint64 last = loaded.trace->findSpan(std::string_view("c119"));
    panel.setSelectedSpan(last);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy() && panel.drawing(), 20000);
    QCOMPARE(panel.rootSpan(), qint64(-1));
    const int node = panel.nodeOfSpan(last);
    QVERIFY(node >= 0);
    QCOMPARE(panel.highlightedNode(), node);
    QVERIFY(panel.view()->viewport()->rect().contains(viewPosOfNode(panel, node)));
}

QTEST_MAIN(tst_GraphPanel)
#include "tst_graphpanel.moc"
