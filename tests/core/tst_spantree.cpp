// SPDX-License-Identifier: MIT
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>

#include "core/analysis/bitcount.h"
#include "core/analysis/spanpostorder.h"
#include "core/analysis/spantree.h"
#include "core/io/tracereader.h"
#include "core/model/trace.h"

using namespace TraceInspector;

namespace {

const char kMeta[] =
    R"({"kind":"meta","schema":"candle-graph/trace/10","run_id":"r","correlation_id":"c","entrypoint":"e",)"
    R"("phase":"infer","timestamp":"t","capture_step":1,"warmup_steps":0,"device":"cpu","timing_mode":"host",)"
    R"("capture_contract":{"measurement_scope":"profiled_work","operations":"complete","logical_memory":"none",)"
    R"("physical_memory":"none","device_timing":"none"},"tags":{}})";

// Compact span fixture: space-separated `id:parent:start:duration` items; parent `-` = none,
// duration `open` = no span_end, a `*` after the id marks a measured span. Name = id.
QByteArray spansJsonl(const QByteArray &spec, const QByteArray &extraLines = {})
{
    QByteArray starts;
    QByteArray ends;
    for (const QByteArray &item : spec.split(' ')) {
        if (item.isEmpty())
            continue;
        const QList<QByteArray> f = item.split(':');
        Q_ASSERT(f.size() == 4);
        QByteArray id = f[0];
        const bool measured = id.endsWith('*');
        if (measured)
            id.chop(1);
        starts += "{\"kind\":\"span_start\",\"id\":\"" + id + "\"";
        if (f[1] != "-")
            starts += ",\"parent_id\":\"" + f[1] + "\"";
        starts += ",\"name\":\"" + id + "\",\"start_ns\":" + f[2]
                  + ",\"span_kind\":\"function\",\"measured\":" + (measured ? "true" : "false") + "}\n";
        if (f[3] != "open")
            ends += "{\"kind\":\"span_end\",\"id\":\"" + id + "\",\"duration_ns\":" + f[3] + "}\n";
    }
    return QByteArray(kMeta) + '\n' + starts + extraLines + ends
           + "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000000000}\n";
}

std::shared_ptr<Trace> load(const QByteArray &jsonl)
{
    ReadResult result =
        TraceReader::readBytes(std::string_view(jsonl.constData(), std::size_t(jsonl.size())), "fixture.jsonl");
    return result.trace;
}

std::shared_ptr<Trace> loadExample(const char *name)
{
    QFile file(QStringLiteral(TI_EXAMPLES_DIR "/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return load(file.readAll());
}

// `id[children]` with markers: ! dangling parent, @ cycle break, ~ in a cycle, ? open.
QByteArray dumpNode(const Trace &trace, const SpanTree &tree, std::uint32_t i)
{
    QByteArray out(trace.str(trace.spans[i].id).data(), qsizetype(trace.str(trace.spans[i].id).size()));
    if (tree.isDangling(i))
        out += '!';
    if (tree.isCycleBreak(i))
        out += '@';
    if (tree.isInCycle(i))
        out += '~';
    if (tree.isOpen(i))
        out += '?';
    const auto kids = tree.children(i);
    if (!kids.empty()) {
        out += '[';
        for (std::size_t k = 0; k < kids.size(); ++k)
            out += (k ? " " : "") + dumpNode(trace, tree, kids[k]);
        out += ']';
    }
    return out;
}

QByteArray dump(const Trace &trace, const SpanTree &tree)
{
    QByteArray out;
    for (std::uint32_t r : tree.roots())
        out += (out.isEmpty() ? "" : " ") + dumpNode(trace, tree, r);
    return out;
}

// Structural invariants every tree must satisfy; returns an empty string when they hold.
QByteArray checkInvariants(const Trace &trace, const SpanTree &tree)
{
    const std::size_t n = trace.spans.size();
    if (tree.spanCount() != n)
        return "span count";
    std::vector<int> seen(n, 0);
    std::vector<std::uint32_t> queue(tree.roots().begin(), tree.roots().end());
    for (std::size_t i = 0; i < queue.size(); ++i) {
        if (queue[i] >= n || seen[queue[i]]++)
            return "span visited twice";
    }
    for (std::size_t q = 0; q < queue.size(); ++q) {
        const std::uint32_t u = queue[q];
        const auto siblings = tree.parent(u) == SpanTree::kNoParent ? tree.roots() : tree.children(tree.parent(u));
        if (tree.row(u) >= siblings.size() || siblings[tree.row(u)] != u)
            return "row of " + QByteArray::number(u);
        if (tree.parent(u) == SpanTree::kNoParent ? tree.depth(u) != 0
                                                  : tree.depth(u) != tree.depth(tree.parent(u)) + 1)
            return "depth of " + QByteArray::number(u);
        const auto kids = tree.children(u);
        for (std::size_t k = 0; k < kids.size(); ++k) {
            const std::uint32_t c = kids[k];
            if (c >= n || seen[c]++)
                return "child visited twice";
            if (tree.parent(c) != u)
                return "parent of " + QByteArray::number(c);
            if (k > 0) {
                const Span &a = trace.spans[kids[k - 1]];
                const Span &b = trace.spans[c];
                if (a.startNs > b.startNs || (a.startNs == b.startNs && kids[k - 1] > c))
                    return "child order under " + QByteArray::number(u);
            }
            queue.push_back(c);
        }
    }
    if (queue.size() != n)
        return "not every span is in the tree";

    // SpanPostOrder: every span once, each right after its last child's subtree, the
    // children's subtrees one after another in children() order, the roots' in roots() order.
    std::vector<std::size_t> position(n, n);
    std::size_t at = 0;
    for (const std::uint32_t span : SpanPostOrder(tree)) {
        if (span >= n || position[span] != n)
            return "post-order repeats " + QByteArray::number(span);
        position[span] = at++;
    }
    if (at != n)
        return "post-order misses spans";
    std::vector<std::size_t> subtree(n, 1);
    for (auto q = queue.rbegin(); q != queue.rend(); ++q) {
        const std::uint32_t u = *q;
        std::size_t expected = position[u]; // where the last child's subtree ends, + 1
        const auto kids = tree.children(u);
        for (auto c = kids.rbegin(); c != kids.rend(); ++c) {
            if (position[*c] + 1 != expected)
                return "post-order places " + QByteArray::number(*c);
            expected -= subtree[*c];
            subtree[u] += subtree[*c];
        }
    }
    std::size_t end = 0;
    for (const std::uint32_t r : tree.roots()) {
        end += subtree[r];
        if (position[r] + 1 != end)
            return "post-order places root " + QByteArray::number(r);
    }
    return {};
}

std::size_t indexOf(const Trace &trace, const char *id)
{
    const std::int64_t i = trace.findSpan(std::string_view(id));
    Q_ASSERT(i >= 0);
    return std::size_t(i);
}

} // namespace

class tst_SpanTree : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void examples_data();
    void examples();
    void shape_data();
    void shape();
    void selfTime_data();
    void selfTime();
    void openSpans();
    void measuredTotal_data();
    void measuredTotal();
    void ops();
    void spanOfId();
    void takesOverAGivenIndex();
    void bitCountIsPopcount();
    void emptyTrace();
    void deepChain();
    void wideFanOut();
    void largeTree();
};

void tst_SpanTree::examples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<quint64>("total");
    QTest::addColumn<uint>("maxDepth");
    QTest::newRow("01") << QStringLiteral("01_valid_trace10_forward.jsonl") << QByteArray("span-root[span-matmul]")
                        << quint64(50000) << 1U;
    QTest::newRow("02") << QStringLiteral("02_valid_trace9_train.jsonl") << QByteArray("s0[s1 s2 s3]")
                        << quint64(260500) << 1U;
}

void tst_SpanTree::examples()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, expected);
    QFETCH(quint64, total);
    QFETCH(uint, maxDepth);
    const auto trace = loadExample(file.toUtf8().constData());
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    QCOMPARE(checkInvariants(*trace, tree), QByteArray());
    QCOMPARE(dump(*trace, tree), expected);
    QCOMPARE(tree.measuredTotalNs(), total);
    QCOMPARE(tree.maxDepth(), maxDepth);
    QCOMPARE(tree.danglingCount(), std::size_t(0));
    QCOMPARE(tree.cycleCount(), std::size_t(0));
    QCOMPARE(tree.openCount(), std::size_t(0));
}

void tst_SpanTree::shape_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<int>("dangling");
    QTest::addColumn<int>("cycles");

    QTest::newRow("children by start then id")
        << QByteArray("p:-:0:100 c:p:10:1 b:p:10:1 a:p:20:1 d:p:5:1") << QByteArray("p[d b c a]") << 0 << 0;
    QTest::newRow("roots by start") << QByteArray("z:-:0:1 y:-:5:1 x:-:5:1") << QByteArray("z x y") << 0 << 0;
    QTest::newRow("nested") << QByteArray("r:-:0:100 a:r:1:50 b:a:2:10 c:b:3:1 d:r:60:5") << QByteArray("r[a[b[c]] d]")
                            << 0 << 0;
    QTest::newRow("open spans stay") << QByteArray("r:-:0:open c:r:5:10 d:c:6:open") << QByteArray("r?[c[d?]]") << 0
                                     << 0;
    QTest::newRow("dangling parent is a root") << QByteArray("a:ghost:5:10 r:-:0:100") << QByteArray("r a!") << 1 << 0;
    QTest::newRow("children of a dangling span") << QByteArray("a:ghost:0:10 b:a:1:5") << QByteArray("a![b]") << 1 << 0;
    QTest::newRow("self parent") << QByteArray("x:x:0:10") << QByteArray("x@~") << 0 << 1;
    QTest::newRow("two-cycle") << QByteArray("b:a:5:10 a:b:0:10") << QByteArray("a@~[b~]") << 0 << 1;
    QTest::newRow("three-cycle with subtree") << QByteArray("r:-:0:100 c1:c3:10:5 c2:c1:11:5 c3:c2:12:5 h:c2:13:1")
                                              << QByteArray("r c1@~[c2~[c3~ h]]") << 0 << 1;
    QTest::newRow("cycle reached through a tail")
        << QByteArray("t:m:0:1 m:n:1:1 n:m:2:1") << QByteArray("m@~[t n~]") << 0 << 1;
    QTest::newRow("two cycles and a dangling span")
        << QByteArray("a:b:0:1 b:a:1:1 c:c:2:1 d:nope:3:1 e:-:4:1") << QByteArray("a@~[b~] c@~ d! e") << 1 << 2;
}

void tst_SpanTree::shape()
{
    QFETCH(QByteArray, spec);
    QFETCH(QByteArray, expected);
    QFETCH(int, dangling);
    QFETCH(int, cycles);
    const auto trace = load(spansJsonl(spec));
    QVERIFY(trace);
    std::vector<std::uint32_t> byStart;
    const SpanTree tree = SpanTree::build(*trace, &byStart);
    QCOMPARE(checkInvariants(*trace, tree), QByteArray());
    QCOMPARE(dump(*trace, tree), expected);
    QCOMPARE(tree.danglingCount(), std::size_t(dangling));
    QCOMPARE(tree.cycleCount(), std::size_t(cycles));
    // The order it hands out (for the timeline's layout): every span by start, then index.
    std::vector<std::uint32_t> expectedOrder(trace->spans.size());
    std::iota(expectedOrder.begin(), expectedOrder.end(), 0U);
    std::stable_sort(expectedOrder.begin(), expectedOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
        return trace->spans[a].startNs < trace->spans[b].startNs;
    });
    QCOMPARE(byStart, expectedOrder);
}

void tst_SpanTree::selfTime_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QByteArray>("span");
    QTest::addColumn<quint64>("self");
    QTest::newRow("leaf") << QByteArray("p:-:0:100") << QByteArray("p") << quint64(100);
    QTest::newRow("minus children") << QByteArray("p:-:0:100 a:p:10:30 b:p:50:20") << QByteArray("p") << quint64(50);
    QTest::newRow("only direct children")
        << QByteArray("p:-:0:100 a:p:10:30 b:a:11:20") << QByteArray("p") << quint64(70);
    QTest::newRow("clamped at zero") << QByteArray("p:-:0:10 a:p:0:8 b:p:1:8") << QByteArray("p") << quint64(0);
    QTest::newRow("open child not subtracted")
        << QByteArray("p:-:0:100 a:p:10:open b:p:20:30") << QByteArray("p") << quint64(70);
    QTest::newRow("huge children saturate")
        << QByteArray("p:-:0:100 a:p:1:18446744073709551615 b:p:2:18446744073709551615") << QByteArray("p")
        << quint64(0);
    QTest::newRow("cycle break excludes its old parent")
        << QByteArray("a:b:0:100 b:a:1:40") << QByteArray("a") << quint64(60);
}

void tst_SpanTree::selfTime()
{
    QFETCH(QByteArray, spec);
    QFETCH(QByteArray, span);
    QFETCH(quint64, self);
    const auto trace = load(spansJsonl(spec));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const auto value = tree.selfNs(indexOf(*trace, span.constData()));
    QVERIFY(value.has_value());
    QCOMPARE(*value, self);
}

void tst_SpanTree::openSpans()
{
    const auto trace = load(spansJsonl("r*:-:0:open c:r:5:10"));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    const std::size_t r = indexOf(*trace, "r");
    const std::size_t c = indexOf(*trace, "c");
    QVERIFY(tree.isOpen(r));
    QVERIFY(!tree.durationNs(r).has_value());
    QVERIFY(!tree.selfNs(r).has_value());
    QVERIFY(!tree.fractionOfMeasured(r).has_value());
    QCOMPARE(tree.openCount(), std::size_t(1));
    QVERIFY(!tree.isOpen(c));
    QCOMPARE(tree.durationNs(c).value_or(0), quint64(10));
    // An open measured span adds 0 to the total (§7.3), so there is no reference for %.
    QCOMPARE(tree.measuredTotalNs(), quint64(0));
    QVERIFY(!tree.fractionOfMeasured(c).has_value());
    QCOMPARE(tree.maxDurationNs(), quint64(10));
}

void tst_SpanTree::measuredTotal_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<quint64>("total");
    QTest::addColumn<double>("fractionOfC");
    QTest::newRow("one measured root") << QByteArray("r*:-:0:200 c:r:1:50") << quint64(200) << 0.25;
    QTest::newRow("measured child region") << QByteArray("r:-:0:1000 m*:r:1:400 c:m:2:100") << quint64(400) << 0.25;
    QTest::newRow("two measured spans add") << QByteArray("a*:-:0:100 b*:-:200:300 c:a:1:40") << quint64(400) << 0.1;
    QTest::newRow("nothing measured") << QByteArray("r:-:0:200 c:r:1:50") << quint64(0) << -1.0;
}

void tst_SpanTree::measuredTotal()
{
    QFETCH(QByteArray, spec);
    QFETCH(quint64, total);
    QFETCH(double, fractionOfC);
    const auto trace = load(spansJsonl(spec));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    QCOMPARE(tree.measuredTotalNs(), total);
    const auto fraction = tree.fractionOfMeasured(indexOf(*trace, "c"));
    if (fractionOfC < 0) {
        QVERIFY(!fraction.has_value());
    } else {
        QVERIFY(fraction.has_value());
        QCOMPARE(*fraction, fractionOfC);
    }
}

void tst_SpanTree::ops()
{
    const QByteArray opLines =
        R"({"kind":"op","span_id":"b","op_name":"matmul","shape":[2],"dtype":"f32","device":"cpu","duration_ns":5,"input_dense_bytes":8})"
        "\n"
        R"({"kind":"op","span_id":"ghost","op_name":"add","shape":[2],"dtype":"f32","device":"cpu","duration_ns":5,"input_dense_bytes":8})"
        "\n"
        R"({"kind":"op","span_id":"b","op_name":"relu","shape":[2],"dtype":"f32","device":"cpu","duration_ns":5,"input_dense_bytes":8})"
        "\n"
        R"({"kind":"op","span_id":"a","op_name":"copy","shape":[2],"dtype":"f32","device":"cpu","duration_ns":5,"input_dense_bytes":8})"
        "\n";
    const auto trace = load(spansJsonl("a:-:0:100 b:a:1:50", opLines));
    QVERIFY(trace);
    QCOMPARE(trace->ops.size(), std::size_t(4));
    const SpanTree tree = SpanTree::build(*trace);
    const std::size_t a = indexOf(*trace, "a");
    const std::size_t b = indexOf(*trace, "b");
    QCOMPARE(tree.opCount(), std::size_t(4));
    QCOMPARE(tree.spanOfOp(0), std::uint32_t(b));
    QCOMPARE(tree.spanOfOp(1), SpanTree::kNoParent);
    QCOMPARE(tree.spanOfOp(2), std::uint32_t(b));
    QCOMPARE(tree.spanOfOp(3), std::uint32_t(a));
    const auto ofB = tree.opsOfSpan(b);
    QCOMPARE(std::vector<std::uint32_t>(ofB.begin(), ofB.end()), (std::vector<std::uint32_t>{0, 2}));
    const auto ofA = tree.opsOfSpan(a);
    QCOMPARE(std::vector<std::uint32_t>(ofA.begin(), ofA.end()), (std::vector<std::uint32_t>{3}));
}

// The tree's span_id table, shared by device time, the timeline's layout and the call
// graph: every interned string resolves as the binary search over the id-sorted spans does.
void tst_SpanTree::spanOfId()
{
    const QByteArray extra =
        R"({"kind":"op","span_id":"ghost","op_name":"add","shape":[2],"dtype":"f32","device":"cpu","duration_ns":5,"input_dense_bytes":8})"
        "\n"
        R"({"kind":"span_start","id":"b","name":"again","start_ns":7,"span_kind":"function","measured":false})"
        "\n";
    const auto trace = load(spansJsonl("c:-:0:100 a:c:1:50 b:zz:2:10", extra));
    QVERIFY(trace);
    QCOMPARE(trace->spans.size(), std::size_t(3));
    const SpanTree tree = SpanTree::build(*trace);
    std::size_t resolved = 0;
    for (StringId id = 0; id < trace->strings.size(); ++id) {
        const std::int64_t expected = trace->findSpan(id);
        QCOMPARE(tree.spanOfId(id), expected < 0 ? SpanTree::kNoParent : std::uint32_t(expected));
        resolved += expected >= 0 ? 1 : 0;
    }
    QCOMPARE(resolved, std::size_t(3));
    QCOMPARE(tree.spanOfId(kNoString), SpanTree::kNoParent);
    QCOMPARE(tree.spanOfId(StringId(trace->strings.size())), SpanTree::kNoParent);
    QCOMPARE(tree.spanOfId(UINT32_MAX), SpanTree::kNoParent);
    // Parents and the ghost op's span_id are strings too, but no span's id.
    const auto idOf = [&trace](std::string_view text) {
        for (StringId id = 1; id < trace->strings.size(); ++id) {
            if (trace->str(id) == text)
                return id;
        }
        return kNoString;
    };
    QVERIFY(idOf("ghost") != kNoString && idOf("zz") != kNoString);
    QCOMPARE(tree.spanOfId(idOf("ghost")), SpanTree::kNoParent);
    QCOMPARE(tree.spanOfId(idOf("zz")), SpanTree::kNoParent);
    QCOMPARE(tree.spanOfId(idOf("b")), std::uint32_t(indexOf(*trace, "b")));

    const SpanTree unbuilt;
    QCOMPARE(unbuilt.spanOfId(1), SpanTree::kNoParent);

    // Hundreds of strings, span ids among others (the table's words and ranks): names and
    // parents of their own, and ops naming spans that do not exist.
    QByteArray spec;
    QByteArray ops;
    for (int i = 0; i < 300; ++i) {
        spec += "s" + QByteArray::number(i)
                + (i % 3 == 0 ? QByteArray(":-:") : QByteArray(":p" + QByteArray::number(i) + ":"))
                + QByteArray::number(i) + ":1 ";
        if (i % 2 == 0)
            ops +=
                R"({"kind":"op","span_id":"o)" + QByteArray::number(i)
                + R"(","op_name":"add","shape":[2],"dtype":"f32","device":"cpu","duration_ns":5,"input_dense_bytes":8})"
                  "\n";
    }
    const auto many = load(spansJsonl(spec, ops));
    QVERIFY(many);
    QCOMPARE(many->spans.size(), std::size_t(300));
    QVERIFY(many->strings.size() > 8 * 64); // several words of the table
    const SpanTree manyTree = SpanTree::build(*many);
    std::size_t manyResolved = 0;
    for (StringId id = 0; id < many->strings.size() + 70; ++id) {
        const std::int64_t expected = id < many->strings.size() ? many->findSpan(id) : -1;
        QCOMPARE(manyTree.spanOfId(id), expected < 0 ? SpanTree::kNoParent : std::uint32_t(expected));
        manyResolved += expected >= 0 ? 1 : 0;
    }
    QCOMPARE(manyResolved, std::size_t(300));
}

void tst_SpanTree::takesOverAGivenIndex()
{
    QByteArray spec;
    for (int i = 0; i < 150; ++i)
        spec += "s" + QByteArray::number(i) + (i % 4 == 0 ? QByteArray(":-:") : ":s" + QByteArray::number(i / 2) + ":")
                + QByteArray::number(i) + ":1 ";
    const auto trace = load(spansJsonl(spec));
    const auto other = load(spansJsonl("a:-:0:1 b:a:1:1"));
    QVERIFY(trace && other);
    QCOMPARE(trace->spans.size(), std::size_t(150));

    const SpanIdIndex index = SpanIdIndex::build(*trace);
    QVERIFY(index.covers(*trace));
    QVERIFY(!index.covers(*other));
    QVERIFY(!SpanIdIndex().covers(*trace));
    const SpanTree own = SpanTree::build(*trace);
    // The loader's way: the index built for the first op table, handed over. An index of
    // another trace, or none, is not taken: the tree builds its own.
    const SpanTree given = SpanTree::build(*trace, nullptr, index);
    const SpanTree mismatched = SpanTree::build(*trace, nullptr, SpanIdIndex::build(*other));
    for (const SpanTree *tree : {&given, &mismatched}) {
        QCOMPARE(dump(*trace, *tree), dump(*trace, own));
        for (StringId id = 0; id < trace->strings.size() + 70; ++id) {
            const std::int64_t expected = id < trace->strings.size() ? trace->findSpan(id) : -1;
            QCOMPARE(tree->spanOfId(id), expected < 0 ? SpanTree::kNoParent : std::uint32_t(expected));
            QCOMPARE(index.spanOf(id), tree->spanOfId(id));
        }
    }
}

void tst_SpanTree::emptyTrace()
{
    const auto trace = load(spansJsonl(""));
    QVERIFY(trace);
    const SpanTree tree = SpanTree::build(*trace);
    QCOMPARE(tree.spanCount(), std::size_t(0));
    QVERIFY(tree.roots().empty());
    QCOMPARE(tree.maxDepth(), 0U);

    const SpanTree unbuilt;
    QVERIFY(unbuilt.roots().empty());
    QCOMPARE(unbuilt.opCount(), std::size_t(0));
}

// A chain far deeper than any call stack would allow for recursive code.
void tst_SpanTree::deepChain()
{
    constexpr std::uint32_t kDepth = 200000;
    Trace trace;
    std::vector<Span> spans(kDepth);
    for (std::uint32_t i = 0; i < kDepth; ++i) {
        const std::string id = "s" + std::to_string(i);
        spans[i].id = trace.strings.intern(id);
        spans[i].name = trace.strings.intern("level");
        if (i > 0)
            spans[i].parentId = spans[i - 1].id;
        spans[i].startNs = i;
        spans[i].durationNs = kDepth - i;
        spans[i].closed = true;
    }
    std::sort(spans.begin(), spans.end(),
              [&trace](const Span &x, const Span &y) { return trace.strings.less(x.id, y.id); });
    trace.spans = std::move(spans);
    const SpanTree tree = SpanTree::build(trace);
    QCOMPARE(tree.maxDepth(), kDepth - 1);
    QCOMPARE(tree.roots().size(), std::size_t(1));
    QCOMPARE(checkInvariants(trace, tree), QByteArray());
    QCOMPARE(tree.selfNs(indexOf(trace, "s0")).value_or(99), quint64(1));
}

// More children under one span than a 16-bit row can count: rows are kept whole then.
void tst_SpanTree::wideFanOut()
{
    constexpr std::uint32_t kChildren = 70000;
    Trace trace;
    std::vector<Span> spans(kChildren + 1);
    for (std::uint32_t i = 0; i <= kChildren; ++i) {
        spans[i].id = trace.strings.intern("s" + std::to_string(i));
        spans[i].name = trace.strings.intern("op");
        if (i > 0)
            spans[i].parentId = spans[0].id;
        spans[i].startNs = i;
        spans[i].durationNs = 1;
        spans[i].closed = true;
    }
    std::sort(spans.begin(), spans.end(),
              [&trace](const Span &x, const Span &y) { return trace.strings.less(x.id, y.id); });
    trace.spans = std::move(spans);
    const SpanTree tree = SpanTree::build(trace);
    QCOMPARE(checkInvariants(trace, tree), QByteArray());
    const std::size_t root = indexOf(trace, "s0");
    QCOMPARE(tree.children(root).size(), std::size_t(kChildren));
    QCOMPARE(tree.row(indexOf(trace, "s70000")), kChildren - 1);
    QCOMPARE(tree.depth(indexOf(trace, "s69999")), 1u);
}

// ~1 M spans with a realistic fan-out, a few dangling parents, a cycle and open spans.
void tst_SpanTree::largeTree()
{
    constexpr std::uint32_t kSpans = 1000000;
    Trace trace;
    std::vector<Span> spans(kSpans);
    std::mt19937_64 rng(7);
    const StringId names[] = {trace.strings.intern("matmul"), trace.strings.intern("layer"),
                              trace.strings.intern("softmax")};
    for (std::uint32_t i = 0; i < kSpans; ++i) {
        spans[i].id = trace.strings.intern("s" + std::to_string(i));
        spans[i].name = names[i % 3];
        spans[i].startNs = (std::uint64_t(1) << 40) + i * 1000 + rng() % 500; // high digits constant
        spans[i].closed = i % 97 != 0;
        spans[i].durationNs = spans[i].closed ? 1000 + rng() % 10000 : 0;
        spans[i].measured = i == 0;
        if (i > 0)
            spans[i].parentId =
                spans[std::size_t(rng() % std::min<std::uint64_t>(i, 50000) + (i > 50000 ? i - 50000 : 0))].id;
    }
    spans[kSpans - 1].parentId = trace.strings.intern("missing-parent");
    spans[10].parentId = spans[20].id; // 10 -> 20 -> ... -> 10 would need 20's chain to reach 10:
    spans[20].parentId = spans[10].id; // a two-cycle
    std::sort(spans.begin(), spans.end(),
              [&trace](const Span &x, const Span &y) { return trace.strings.less(x.id, y.id); });
    trace.spans = std::move(spans);

    QElapsedTimer timer;
    timer.start();
    const SpanTree tree = SpanTree::build(trace);
    const qint64 ms = timer.elapsed();
    qInfo("SpanTree::build of %u spans: %lld ms, %.1f MiB", kSpans, ms, double(tree.memoryUsage()) / (1 << 20));
    QCOMPARE(tree.spanCount(), std::size_t(kSpans));
    QCOMPARE(tree.danglingCount(), std::size_t(1));
    QCOMPARE(tree.cycleCount(), std::size_t(1));
    QCOMPARE(tree.openCount(), std::size_t((kSpans + 96) / 97));
    QCOMPARE(checkInvariants(trace, tree), QByteArray());
}

void tst_SpanTree::bitCountIsPopcount()
{
    // spanOfId()'s rank of a bit among its word's: the inline count must be the standard one.
    static_assert(bitCount(0) == 0 && bitCount(~std::uint64_t(0)) == 64 && bitCount(0x8000000000000001ULL) == 2);
    std::mt19937_64 rng{7};
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t x = rng() & rng(); // sparse and dense words alike
        QCOMPARE(bitCount(x), std::popcount(x));
        QCOMPARE(bitCount(~x), std::popcount(~x));
    }
    for (int b = 0; b < 64; ++b) {
        const std::uint64_t below = (std::uint64_t(1) << b) - 1;
        QCOMPARE(bitCount(below), b);
    }
}

QTEST_GUILESS_MAIN(tst_SpanTree)
#include "tst_spantree.moc"
