// SPDX-License-Identifier: MIT
// Matching and diffing two runs (issue #15): spans by path with occurrence indices, ops by
// (span, op name, ordinal), op groups by (op, shape, dtype, device).
#include <QTest>

#include <algorithm>

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
    void semanticLabels_data();
    void semanticLabels();
    void labelMatchedSubtreeNotOnlyIn();
};

namespace {

struct Run {
    std::shared_ptr<const Trace> trace;
    SpanTree tree;
};

/// The capture contract's required_semantic_labels member for \a labels ("a,b"), or nothing.
QByteArray withLabels(QByteArray text, const QByteArray &labels)
{
    if (labels.isEmpty())
        return text;
    QByteArray list;
    for (const QByteArray &l : labels.split(','))
        list += (list.isEmpty() ? "\"" : ",\"") + l + "\"";
    text.replace(QByteArray("\"device_timing\":\"none\"}"),
                 QByteArray("\"device_timing\":\"none\",\"required_semantic_labels\":[" + list + "]}"));
    return text;
}

Run load(const QByteArray &spec, const QByteArray &ops = {}, const QByteArray &labels = {})
{
    Run run;
    run.trace = TestFixtures::acceptedTraceFrom(
        TestFixtures::withRecords(withLabels(TestFixtures::spansJsonl(spec), labels), ops), QStringLiteral("t.jsonl"));
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
                                       << QByteArray("r=step*:-:0:100 x=mb:r:0:10 y=mb:r:20:10") << 3ull << 1ull
                                       << 0ull;
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
    const Run b =
        load("r=step*:-:0:100 a=fwd:r:0:50", op("a", "matmul", 10) + op("a", "matmul", 10) + op("a", "add", 5, "[3]"));
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

void tst_TraceDiff::semanticLabels_data()
{
    QTest::addColumn<QByteArray>("baseline");
    QTest::addColumn<QByteArray>("baselineLabels");
    QTest::addColumn<QByteArray>("candidate");
    QTest::addColumn<QByteArray>("candidateLabels");
    QTest::addColumn<quint64>("matched");
    QTest::addColumn<quint64>("byLabel");
    QTest::addColumn<quint64>("baselineOnly");
    QTest::addColumn<quint64>("candidateOnly");
    QTest::addColumn<QByteArray>("pairs"); // baseline id>candidate id, space-separated

    // `fwd` (with its child) moved under a new wrapper `mb` in the candidate.
    const QByteArray base("r=step*:-:0:100 a=fwd:r:0:50 k=kernel:a:0:10");
    const QByteArray moved("r=step*:-:0:100 w=mb:r:0:60 a=fwd:w:0:50 k=kernel:a:0:10");
    QTest::newRow("no labels: moved span unmatched")
        << base << QByteArray() << moved << QByteArray() << 1ull << 0ull << 2ull << 3ull << QByteArray("r>r");
    QTest::newRow("candidate declares the label") << base << QByteArray() << moved << QByteArray("fwd") << 3ull << 1ull
                                                  << 0ull << 1ull << QByteArray("r>r a>a k>k");
    QTest::newRow("baseline declares the label") << base << QByteArray("fwd") << moved << QByteArray() << 3ull << 1ull
                                                 << 0ull << 1ull << QByteArray("r>r a>a k>k");
    // The same label declared by both runs is tried once.
    QTest::newRow("both declare it") << base << QByteArray("fwd,step") << moved << QByteArray("step,fwd") << 3ull
                                     << 1ull << 0ull << 1ull << QByteArray("r>r a>a k>k");
    // Path matching wins: a span already matched by path is not re-paired by its label.
    QTest::newRow("path match first") << QByteArray("r=step*:-:0:100 a=fwd:r:0:50") << QByteArray("fwd")
                                      << QByteArray("r=step*:-:0:100 a=fwd:r:0:50") << QByteArray("fwd") << 2ull << 0ull
                                      << 0ull << 0ull << QByteArray("r>r a>a");
    // A label must name exactly one span in each run: two `fwd` in the candidate, no fallback.
    QTest::newRow("label not unique") << base << QByteArray("fwd")
                                      << QByteArray("r=step*:-:0:100 w=mb:r:0:60 a=fwd:w:0:50 b=fwd:w:50:5")
                                      << QByteArray("fwd") << 1ull << 0ull << 2ull << 3ull << QByteArray("r>r");
    // A renamed root matches nothing by path; the label pairs the moved inner span.
    QTest::newRow("renamed root, labelled child")
        << QByteArray("r=step*:-:0:100 a=fwd:r:0:50") << QByteArray() << QByteArray("r=train*:-:0:100 a=fwd:r:0:50")
        << QByteArray("fwd") << 1ull << 1ull << 1ull << 1ull << QByteArray("a>a");
    // Under the label pair, repeated children pair by occurrence again.
    QTest::newRow("repeated children under a labelled span")
        << QByteArray("r=step*:-:0:100 a=fwd:r:0:50 x=mm:a:0:5 y=mm:a:10:5") << QByteArray()
        << QByteArray("r=step*:-:0:100 w=mb:r:0:60 a=fwd:w:0:50 x=mm:a:0:5 y=mm:a:10:5 z=mm:a:20:5")
        << QByteArray("fwd") << 4ull << 1ull << 0ull << 2ull << QByteArray("r>r a>a x>x y>y");
}

void tst_TraceDiff::semanticLabels()
{
    QFETCH(QByteArray, baseline);
    QFETCH(QByteArray, baselineLabels);
    QFETCH(QByteArray, candidate);
    QFETCH(QByteArray, candidateLabels);
    QFETCH(quint64, matched);
    QFETCH(quint64, byLabel);
    QFETCH(quint64, baselineOnly);
    QFETCH(quint64, candidateOnly);
    QFETCH(QByteArray, pairs);

    const Run b = load(baseline, {}, baselineLabels);
    const Run c = load(candidate, {}, candidateLabels);
    const SpanMatch m = SpanMatch::compute(*b.trace, b.tree, *c.trace, c.tree);
    QCOMPARE(quint64(m.matched), matched);
    QCOMPARE(quint64(m.matchedByLabel), byLabel);
    QCOMPARE(quint64(m.baselineOnly), baselineOnly);
    QCOMPARE(quint64(m.candidateOnly), candidateOnly);
    QByteArrayList got;
    for (std::uint32_t i = 0; i < m.candidateOf.size(); ++i) {
        const std::uint32_t partner = m.candidateOf[i];
        if (partner == SpanMatch::kNone)
            continue;
        QCOMPARE(m.baselineOf[partner], i);
        got << QByteArray::fromStdString(std::string(b.trace->str(b.trace->spans[i].id)) + '>'
                                         + std::string(c.trace->str(c.trace->spans[partner].id)));
    }
    std::sort(got.begin(), got.end());
    QByteArrayList want = pairs.split(' ');
    std::sort(want.begin(), want.end());
    QCOMPARE(got, want);
}

void tst_TraceDiff::labelMatchedSubtreeNotOnlyIn()
{
    // The candidate's new wrapper is the only unmatched top; the labelled `fwd` below it is
    // matched, so the wrapper's "only in" subtree is the wrapper alone.
    const Run b = load("r=step*:-:0:100 a=fwd:r:0:50 k=kernel:a:0:10");
    const Run c = load("r=step*:-:0:100 w=mb:r:0:60 a=fwd:w:0:50 k=kernel:a:0:10", {}, "fwd");
    const TraceDiff d = TraceDiff::compute(*b.trace, b.tree, *c.trace, c.tree);
    QCOMPARE(d.spans.matchedByLabel, 1ull);
    QCOMPARE(d.matched.size(), std::size_t(3));
    QVERIFY(d.onlyInBaseline.empty());
    QCOMPARE(d.onlyInCandidate.size(), std::size_t(1));
    QCOMPARE(c.trace->str(c.trace->spans[d.onlyInCandidate[0].index].name), std::string_view("mb"));
    QCOMPARE(d.onlyInCandidate[0].spans, 1ull);
}
