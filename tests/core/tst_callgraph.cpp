// SPDX-License-Identifier: MIT
#include <QTest>

#include "core/analysis/callgraph.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_CallGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void graph_data();
    void graph();
    void capKeepsUpperLayers();
    void capHoldsOnlyTheDrawnNodes();
    void tensorsRespectTheCap();
    void heatReferences();
    void unknownRoot();
};

namespace {

QByteArray callEdge(const QByteArray &from, const QByteArray &to, int ns)
{
    return "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"" + from + "\",\"to_span\":\"" + to
           + "\",\"host_duration_ns\":" + QByteArray::number(ns) + "}\n";
}

QByteArray dataEdge(const QByteArray &from, const QByteArray &to)
{
    return "{\"kind\":\"edge\",\"edge_kind\":\"data\",\"from_tensor\":\"" + from + "\",\"to_tensor\":\"" + to + "\"}\n";
}

QByteArray op(const QByteArray &span, const QByteArray &output, const QByteArray &inputs)
{
    return "{\"kind\":\"op\",\"span_id\":\"" + span + "\",\"op_name\":\"x\",\"inputs\":[" + inputs + "],\"output\":\""
           + output
           + "\",\"shape\":[4],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":5,\"input_dense_bytes\":16}\n";
}

QByteArray memoryAlloc(const QByteArray &span, int bytes)
{
    static int storage = 0;
    return "{\"kind\":\"memory\",\"timestamp_ns\":1,\"storage_id\":\"st-" + QByteArray::number(++storage)
           + "\",\"tensor_id\":\"t\",\"span_id\":\"" + span + "\",\"device\":\"cpu\",\"bytes\":"
           + QByteArray::number(bytes) + ",\"action\":\"alloc\",\"dtype\":\"f32\"}\n";
}

std::shared_ptr<const Trace> load(const QByteArray &spans, const QByteArray &records)
{
    return TestFixtures::traceFrom(TestFixtures::withRecords(TestFixtures::spansJsonl(spans), records));
}

QString sv(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString nodeName(const Trace &trace, const CallGraphNode &n)
{
    QString name = n.kind == CallGraphNode::Kind::Tensor ? u'(' + sv(trace.str(n.name)) + u')' : sv(trace.str(n.name));
    if (n.count > 1)
        name += QStringLiteral("x%1").arg(n.count);
    return name;
}

/// Nodes in order, then edges as `from>to` (call, with `@ns`), `from-to` (nesting),
/// `from~to` (data), `from.to` (produces).
QString describe(const Trace &trace, const CallGraph &g)
{
    QStringList nodes;
    for (const CallGraphNode &n : g.nodes)
        nodes << nodeName(trace, n);
    QStringList edges;
    for (const CallGraphEdge &e : g.edges) {
        const QString from = nodeName(trace, g.nodes[e.from]);
        const QString to = nodeName(trace, g.nodes[e.to]);
        switch (e.kind) {
        case CallGraphEdge::Kind::Call:
            edges << from + u'>' + to + u'@' + QString::number(e.hostDurationNs)
                         + (e.count > 1 ? QStringLiteral("x%1").arg(e.count) : QString());
            break;
        case CallGraphEdge::Kind::Nesting: edges << from + u'-' + to; break;
        case CallGraphEdge::Kind::Data: edges << from + u'~' + to; break;
        case CallGraphEdge::Kind::Produces: edges << from + u'.' + to; break;
        }
    }
    return nodes.join(u' ') + QStringLiteral(" | ") + edges.join(u' ');
}

} // namespace

void tst_CallGraph::graph_data()
{
    QTest::addColumn<QByteArray>("spans");
    QTest::addColumn<QByteArray>("records");
    QTest::addColumn<QString>("root"); // empty = whole trace
    QTest::addColumn<bool>("paths");
    QTest::addColumn<QString>("expected");

    const QByteArray tree = "r:-:0:100 a:r:0:50 b:a:0:10 c:a:20:10 d:r:60:30";
    const QByteArray calls = callEdge("r", "a", 50) + callEdge("a", "b", 10) + callEdge("r", "d", 30);
    QTest::newRow("whole trace, call edges and nesting")
        << tree << calls << QString() << false << "r a d b c | r>a@50 a>b@10 r>d@30 a-c";
    QTest::newRow("subtree of a") << tree << calls << "a" << false << "a b c | a>b@10 a-c";
    QTest::newRow("leaf subtree") << tree << calls << "b" << false << "b | ";
    QTest::newRow("call edge leaving the subtree is dropped")
        << tree << calls + callEdge("b", "d", 3) << "a" << false << "a b c | a>b@10 a-c";
    // Two micro-batches with the same names merge by path; their edges add up.
    const QByteArray batches =
        "step:-:0:100 mb1=mb:step:0:40 mb2=mb:step:50:40 f1=fwd:mb1:0:20 f2=fwd:mb2:50:20 x=opt:step:95:5";
    const QByteArray batchCalls = callEdge("step", "mb1", 40) + callEdge("step", "mb2", 41) + callEdge("mb1", "f1", 20)
                                  + callEdge("mb2", "f2", 21);
    QTest::newRow("span paths merge micro-batches") << batches << batchCalls << QString() << true
                                                    << "step mbx2 opt fwdx2 | step>mbx2@81x2 mbx2>fwdx2@41x2 step-opt";
    QTest::newRow("same batches, one node per span")
        << batches << batchCalls << QString() << false
        << "step mb mb opt fwd fwd | step>mb@40 step>mb@41 mb>fwd@20 mb>fwd@21 step-opt";
    const QByteArray numbered =
        "step:-:0:100 m0=microbatch.0:step:0:40 m1=microbatch.1:step:50:40 m12=microbatch.12:step:60:4 "
        "f0=fwd:m0:0:20 f1=fwd:m1:50:20";
    QTest::newRow("numbered micro-batches merge by path")
        << numbered << QByteArray() << QString() << true
        << "step microbatch.0x3 fwdx2 | step-microbatch.0x3 microbatch.0x3-fwdx2";
    QTest::newRow("numbered micro-batches, one node per span")
        << numbered << QByteArray() << QString() << false
        << "step microbatch.0 microbatch.1 microbatch.12 fwd fwd | "
           "step-microbatch.0 step-microbatch.1 step-microbatch.12 "
           "microbatch.0-fwd microbatch.1-fwd";
    QTest::newRow("digits are not letters") << QByteArray("r:-:0:100 a=layer1a:r:0:1 b=layer1b:r:2:1") << QByteArray()
                                            << QString() << true << "r layer1a layer1b | r-layer1a r-layer1b";
    QTest::newRow("span paths of a subtree") << batches << batchCalls << "mb2" << true << "mb fwd | mb>fwd@21";
    // Same name under different parents: two paths.
    QTest::newRow("same name, different path") << QByteArray("r:-:0:100 a:r:0:10 b:r:20:10 x1=x:a:0:1 x2=x:b:20:1")
                                               << QByteArray() << QString() << true << "r a b x x | r-a r-b a-x b-x";
    // Tensors: t1 written in a, t2 in b from t1 and a parameter w.
    const QByteArray flow =
        op("a", "t1", "") + op("b", "t2", "\"t1\",\"w\"") + dataEdge("t1", "t2") + dataEdge("w", "t2");
    QTest::newRow("data edges tensor to tensor")
        << QByteArray("r:-:0:100 a:r:0:10 b:r:20:10") << flow << QString() << false
        << "r a b (t2) (t1) (w) | r-a r-b b.(t2) a.(t1) (t1)~(t2) (w)~(t2)";
    QTest::newRow("data edges outside the subtree are dropped")
        << QByteArray("r:-:0:100 a:r:0:10 b:r:20:10") << flow << "a" << false << "a | ";
    // Path mode merges the tensors written by one path; the shared parameter keeps its id.
    const QByteArray batchFlow =
        op("f1", "y1", "\"w\"") + op("f2", "y2", "\"w\"") + dataEdge("w", "y1") + dataEdge("w", "y2");
    QTest::newRow("span paths merge tensors of a path")
        << batches << batchFlow << QString() << true
        << "step mbx2 opt fwdx2 (y1)x2 (w) | step-mbx2 step-opt mbx2-fwdx2 "
           "fwdx2.(y1)x2 (w)~(y1)x2";
}

void tst_CallGraph::graph()
{
    QFETCH(QByteArray, spans);
    QFETCH(QByteArray, records);
    QFETCH(QString, root);
    QFETCH(bool, paths);
    QFETCH(QString, expected);

    const auto trace = load(spans, records);
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    CallGraphOptions options;
    options.scope = paths ? CallGraphScope::SpanPath : CallGraphScope::Subtree;
    if (!root.isEmpty()) {
        const std::int64_t index = trace->findSpan(std::string_view(root.toStdString()));
        QVERIFY(index >= 0);
        options.rootSpan = std::uint32_t(index);
    }
    const CallGraph g = buildCallGraph(*trace, tree, options);
    QCOMPARE(describe(*trace, g), expected);
    QVERIFY(!g.isCapped());
    // Every drawn span maps to a node that names it (or, merged by path, a name alike).
    for (std::size_t span = 0; span < g.spanNode.size(); ++span) {
        if (g.spanNode[span] == UINT32_MAX)
            continue;
        const CallGraphNode &n = g.nodes[g.spanNode[span]];
        QVERIFY(n.name == trace->spans[span].name || n.namesDiffer);
    }
}

void tst_CallGraph::capKeepsUpperLayers()
{
    QByteArray spans = "r:-:0:1000";
    QByteArray calls;
    for (int i = 0; i < 10; ++i) {
        const QByteArray id = "c" + QByteArray::number(i);
        spans += ' ' + id + ":r:" + QByteArray::number(i * 10) + ":5";
        spans += " g" + QByteArray::number(i) + ':' + id + ':' + QByteArray::number(i * 10) + ":1";
        calls += callEdge("r", id, 5);
    }
    const auto trace = load(spans, calls);
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    CallGraphOptions options;
    options.nodeCap = 4;
    const CallGraph g = buildCallGraph(*trace, tree, options);
    QVERIFY(g.isCapped());
    QCOMPARE(g.nodes.size(), std::size_t(4));
    QCOMPARE(g.candidateNodes, std::uint64_t(21));
    QCOMPARE(g.omittedSpanNodes, std::uint64_t(17));
    QCOMPARE(describe(*trace, g), QStringLiteral("r c0 c1 c2 | r>c0@5 r>c1@5 r>c2@5"));
    QCOMPARE(g.omittedEdges, std::uint64_t(7)); // r > c3..c9
    // The grandchildren are all left out: breadth first keeps whole upper layers.
    for (const CallGraphNode &n : g.nodes)
        QVERIFY(n.depth <= 1);
    QCOMPARE(g.spanNode[std::size_t(trace->findSpan(std::string_view("g0")))], UINT32_MAX);

    // A cap equal to the node count leaves nothing out.
    options.nodeCap = 21;
    QVERIFY(!buildCallGraph(*trace, tree, options).isCapped());
}

void tst_CallGraph::capHoldsOnlyTheDrawnNodes()
{
    // r > c0..c9 > g0..g9: 21 spans, or 3 span paths (the digits do not count).
    QByteArray spans = "r:-:0:1000";
    for (int i = 0; i < 10; ++i) {
        spans += " c" + QByteArray::number(i) + ":r:" + QByteArray::number(i * 10) + ":5";
        spans += " g" + QByteArray::number(i) + ":c" + QByteArray::number(i) + ':' + QByteArray::number(i * 10) + ":1";
    }
    const auto trace = load(spans, {});
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    CallGraphOptions options;
    options.nodeCap = 4;
    // A whole 1 GB trace has a million candidates: the graph must not hold them all.
    const CallGraph bySpan = buildCallGraph(*trace, tree, options);
    QCOMPARE(bySpan.nodes.size(), std::size_t(4));
    QVERIFY(bySpan.nodes.capacity() <= options.nodeCap);
    QCOMPARE(bySpan.candidateNodes, std::uint64_t(21));

    // By path: the kept path node still merges all ten spans; the left-out one is counted.
    options.scope = CallGraphScope::SpanPath;
    options.nodeCap = 2;
    const CallGraph byPath = buildCallGraph(*trace, tree, options);
    QCOMPARE(byPath.nodes.size(), std::size_t(2));
    QVERIFY(byPath.nodes.capacity() <= options.nodeCap);
    QCOMPARE(byPath.candidateNodes, std::uint64_t(3));
    QCOMPARE(byPath.omittedSpanNodes, std::uint64_t(1));
    QCOMPARE(byPath.nodes[1].count, std::uint64_t(10));
    QCOMPARE(byPath.nodes[1].totalNs, std::uint64_t(50));
    QVERIFY(byPath.nodes[1].namesDiffer);
    QCOMPARE(byPath.spanNode[std::size_t(trace->findSpan(std::string_view("g3")))], UINT32_MAX);
}

void tst_CallGraph::tensorsRespectTheCap()
{
    const QByteArray flow =
        op("a", "t1", "") + op("b", "t2", "\"t1\",\"w\"") + dataEdge("t1", "t2") + dataEdge("w", "t2");
    const auto trace = load("r:-:0:100 a:r:0:10 b:r:20:10", flow);
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    CallGraphOptions options;
    options.nodeCap = 4; // three spans, room for one tensor
    const CallGraph g = buildCallGraph(*trace, tree, options);
    QCOMPARE(g.nodes.size(), std::size_t(4));
    QCOMPARE(g.omittedTensorNodes, std::uint64_t(2));
    QCOMPARE(g.omittedEdges, std::uint64_t(2)); // both data edges lose an end
    QVERIFY(g.isCapped());

    options.includeTensors = false;
    options.nodeCap = 300;
    QCOMPARE(describe(*trace, buildCallGraph(*trace, tree, options)), QStringLiteral("r a b | r-a r-b"));
}

void tst_CallGraph::heatReferences()
{
    const auto trace =
        load("r:-:0:100 a:r:0:60 b:r:70:10", memoryAlloc("a", 4096) + memoryAlloc("a", 4096) + memoryAlloc("b", 100));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const CallGraph g = buildCallGraph(*trace, tree, {});
    QCOMPARE(g.nodes.size(), std::size_t(3));
    QCOMPARE(g.nodes[0].selfNs, std::uint64_t(30)); // r: 100 - 60 - 10
    QCOMPARE(g.nodes[1].selfNs, std::uint64_t(60));
    QCOMPARE(g.maxSelfNs, std::uint64_t(60));
    QCOMPARE(g.nodes[1].allocatedBytes, std::uint64_t(8192));
    QCOMPARE(g.nodes[2].allocatedBytes, std::uint64_t(100));
    QCOMPARE(g.maxAllocatedBytes, std::uint64_t(8192));
    QCOMPARE(g.nodes[1].totalNs, std::uint64_t(60));
}

void tst_CallGraph::unknownRoot()
{
    const auto trace = load("r:-:0:100", {});
    QVERIFY(trace);
    CallGraphOptions options;
    options.rootSpan = 7; // no such span: nothing, not a crash
    const CallGraph g = buildCallGraph(*trace, SpanTree::build(*trace), options);
    QVERIFY(g.nodes.empty());
    QVERIFY(g.edges.empty());
}

QTEST_GUILESS_MAIN(tst_CallGraph)
#include "tst_callgraph.moc"
