// SPDX-License-Identifier: MIT
// Matching and diffing two runs (issue #15): spans by path with occurrence indices, ops by
// (span, op name, ordinal), op groups by (op, shape, dtype, device).
#include <QTest>

#include "core/analysis/spantree.h"
#include "core/diff/tracediff.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"
#include "tests/testutils/fixtures.h"
#include "tests/testutils/traceloading.h"

using namespace TraceInspector;

class tst_TraceDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matching_data();
    void matching();
    void paths();
    void deltas();
    void opGroups();
    void unmatchedSubtrees();
};

namespace {

struct Run {
    std::shared_ptr<const Trace> trace;
    SpanTree tree;
};

Run load(const QByteArray &spec, const QByteArray &ops = {})
{
    Run run;
    run.trace = TestFixtures::acceptedTraceFrom(TestFixtures::withRecords(TestFixtures::spansJsonl(spec), ops),
                                                QStringLiteral("t.jsonl"));
    if (!run.trace)
        qFatal("fixture rejected");
    run.tree = SpanTree::build(*run.trace);
    return run;
}

QByteArray op(const char *span, const char *name, int duration, const char *shape = "[2]", const char *device = "cpu")
{
    return QByteArray("{\"kind\":\"op\",\"span_id\":\"") + span + "\",\"op_name\":\"" + name
        + "\",\"inputs\":[],\"output\":\"t\",\"shape\":" + shape + ",\"dtype\":\"f32\",\"device\":\"" + device
        + "\",\"duration_ns\":" + QByteArray::number(duration) + ",\"timestamp_ns\":1,\"input_dense_bytes\":0}\n";
}

} // namespace

void tst_TraceDiff::matching_data()
{
    QTest::addColumn<QByteArray>("baseline");
    QTest::addColumn<QByteArray>("candidate");
    QTest::addColumn<quint64>("matched");
    QTest::addColumn<quint64>("baselineOnly");
    QTest::addColumn<quint64>("candidateOnly");

    // id=name:parent:start:duration
    QTest::newRow("identical") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50 b=bwd:r:50:50")
                               << QByteArray("r=step*:-:0:120 a=fwd:r:0:60 b=bwd:r:60:60") << 3ull << 0ull << 0ull;
    QTest::newRow("ids differ, names match") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50")
                                             << QByteArray("x=step*:-:0:100 y=fwd:x:0:50") << 2ull << 0ull << 0ull;
    QTest::newRow("renamed child") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50")
                                   << QByteArray("r=step*:-:0:100 a=forward:r:0:50") << 1ull << 1ull << 1ull;
    QTest::newRow("inserted child") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50")
                                    << QByteArray("r=step*:-:0:100 a=fwd:r:0:50 n=new:r:60:10") << 2ull << 0ull << 1ull;
    QTest::newRow("removed subtree") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50 b=inner:a:0:10 c=inner2:b:0:5")
                                     << QByteArray("r=step*:-:0:100") << 1ull << 3ull << 0ull;
    // Repeated names pair by occurrence in start order: the third mb has no partner.
    QTest::newRow("repeated siblings") << QByteArray("r=step*:-:0:100 a=mb:r:0:10 b=mb:r:20:10 c=mb:r:40:10")
                                       << QByteArray("r=step*:-:0:100 x=mb:r:0:10 y=mb:r:20:10") << 3ull << 1ull << 0ull;
    QTest::newRow("renamed root") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50")
                                  << QByteArray("r=train*:-:0:100 a=fwd:r:0:50") << 0ull << 2ull << 2ull;
}

void tst_TraceDiff::matching()
{
    QFETCH(QByteArray, baseline);
    QFETCH(QByteArray, candidate);
    const Run b = load(baseline);
    const Run c = load(candidate);
    const SpanMatch m = SpanMatch::compute(*b.trace, b.tree, *c.trace, c.tree);
    QFETCH(quint64, matched);
    QFETCH(quint64, baselineOnly);
    QFETCH(quint64, candidateOnly);
    QCOMPARE(quint64(m.matched), matched);
    QCOMPARE(quint64(m.baselineOnly), baselineOnly);
    QCOMPARE(quint64(m.candidateOnly), candidateOnly);
    // The maps agree with each other.
    for (std::size_t i = 0; i < m.candidateOf.size(); ++i) {
        if (m.candidateOf[i] != SpanMatch::kNone)
            QCOMPARE(m.baselineOf[m.candidateOf[i]], std::uint32_t(i));
    }
}

void tst_TraceDiff::paths()
{
    const Run r = load("r=step*:-:0:100 a=mb:r:0:10 b=mb:r:20:10 c=fwd:b:20:5");
    const Trace &t = *r.trace;
    QCOMPARE(spanPath(t, r.tree, std::uint32_t(t.findSpan(t.strings.find("a")))), std::string("step/mb"));
    QCOMPARE(spanPath(t, r.tree, std::uint32_t(t.findSpan(t.strings.find("b")))), std::string("step/mb[1]"));
    QCOMPARE(spanPath(t, r.tree, std::uint32_t(t.findSpan(t.strings.find("c")))), std::string("step/mb[1]/fwd"));
}

void tst_TraceDiff::deltas()
{
    const Run b = load("r=step*:-:0:100 a=fwd:r:0:40 o=open:r:50:open");
    const Run c = load("r=step*:-:0:130 a=fwd:r:0:70 o=open:r:50:open");
    const TraceDiff d = TraceDiff::compute(*b.trace, b.tree, *c.trace, c.tree);
    QCOMPARE(d.matched.size(), std::size_t(3));
    QCOMPARE(d.baselineMeasuredNs, 100ull);
    QCOMPARE(d.candidateMeasuredNs, 130ull);
    for (const SpanDelta &s : d.matched) {
        const std::string_view name = b.trace->str(b.trace->spans[s.baseline].name);
        if (name == "fwd") {
            QCOMPARE(*s.selfDeltaNs(), 30ll);
            QCOMPARE(*s.totalDeltaNs(), 30ll);
        } else if (name == "step") {
            QCOMPARE(*s.totalDeltaNs(), 30ll);
            QCOMPARE(*s.selfDeltaNs(), 0ll); // 100 - 40 = 60 and 130 - 70 = 60
        } else {
            QVERIFY(!s.selfDeltaNs()); // open in both: unknown, never 0
            QVERIFY(!s.totalDeltaNs());
        }
    }
}

void tst_TraceDiff::opGroups()
{
    const Run b = load("r=step*:-:0:100 a=fwd:r:0:50",
                       op("a", "matmul", 10) + op("a", "matmul", 10) + op("a", "add", 5, "[3]"));
    const Run c = load("r=step*:-:0:100 a=fwd:r:0:50",
                       op("a", "matmul", 30) + op("a", "add", 5, "[3]") + op("a", "relu", 7, "[3]", "cuda:0"));
    const TraceDiff d = TraceDiff::compute(*b.trace, b.tree, *c.trace, c.tree);
    QCOMPARE(d.matchedOps, 2ull); // one matmul and the add
    QCOMPARE(d.opGroups.size(), std::size_t(3));
    // Sorted by (name, shape, dtype, device).
    QCOMPARE(d.opGroups[0].name, std::string("add"));
    QCOMPARE(d.opGroups[0].deltaNs(), 0ll);
    QCOMPARE(d.opGroups[1].name, std::string("matmul"));
    QCOMPARE(d.opGroups[1].shape, std::string("[2]"));
    QCOMPARE(d.opGroups[1].baselineCount, 2ull);
    QCOMPARE(d.opGroups[1].candidateCount, 1ull);
    QCOMPARE(d.opGroups[1].deltaNs(), 10ll);
    QCOMPARE(d.opGroups[2].name, std::string("relu"));
    QCOMPARE(d.opGroups[2].device, std::string("cuda:0"));
    QCOMPARE(d.opGroups[2].baselineCount, 0ull);
    QCOMPARE(d.opGroups[2].deltaNs(), 7ll);
}

void tst_TraceDiff::unmatchedSubtrees()
{
    const Run b = load("r=step*:-:0:100 a=old:r:0:40 x=inner:a:0:10");
    const Run c = load("r=step*:-:0:100 n=new1:r:0:10 m=new2:r:20:30");
    const TraceDiff d = TraceDiff::compute(*b.trace, b.tree, *c.trace, c.tree);
    QCOMPARE(d.onlyInBaseline.size(), std::size_t(1)); // the top of the subtree only
    QCOMPARE(d.onlyInBaseline[0].spans, 2ull);
    QCOMPARE(d.onlyInCandidate.size(), std::size_t(2));
    QCOMPARE(*d.onlyInCandidate[0].totalNs, 30ull); // longest first
    QCOMPARE(d.spans.baselineOnly, 2ull);
    QCOMPARE(d.spans.candidateOnly, 2ull);
}

QTEST_GUILESS_MAIN(tst_TraceDiff)
#include "tst_tracediff.moc"
