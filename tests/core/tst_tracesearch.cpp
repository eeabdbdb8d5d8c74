// SPDX-License-Identifier: MIT
#include <QTest>

#include "core/model/trace.h"
#include "core/timeline/tracesearch.h"
#include "tests/testutils/timelinefixtures.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_TraceSearch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void search_data();
    void search();
    void invalidRegex();
    void cancelled();

private:
    LoadedFixture m_fixture;
};

namespace {

QString dump(const Trace &trace, const SearchResult &result)
{
    QStringList out;
    for (const SearchMatch &m : result.matches) {
        switch (m.kind) {
        case SearchMatch::Kind::Span:
            out << u"span:"
                       + QString::fromUtf8(trace.str(trace.spans[m.index].id).data(),
                                           qsizetype(trace.str(trace.spans[m.index].id).size()));
            break;
        case SearchMatch::Kind::Op: out << u"op:" + QString::number(m.index); break;
        case SearchMatch::Kind::Tensor:
            out << u"tensor:"
                       + QString::fromUtf8(trace.str(trace.tensors[m.index].tensorId).data(),
                                           qsizetype(trace.str(trace.tensors[m.index].tensorId).size()));
            break;
        }
    }
    return out.join(u' ');
}

} // namespace

void tst_TraceSearch::initTestCase()
{
    // Spans named after what they do; ids s1..s5. Ops: 0 matmul (in s3), 1 MatMul (s4),
    // 2 add (s4). Tensors: t-attn in s3, t-mlp in s5, t-lost in an unknown span.
    m_fixture = loadFixture(traceJsonl("s1=train_step:-:0:1000 s2=forward:s1:10:500 s3=attention:s2:20:100 "
                                       "s4=Matmul_block:s2:200:100 s5=mlp:s1:600:100",
                                       opsJsonl("s3:matmul:30:5 s4:MatMul:200:5 s4:add:220:5")
                                           + tensorsJsonl("s3:t-attn s5:t-mlp nowhere:t-lost")));
    QVERIFY(m_fixture.trace);
}

void tst_TraceSearch::search_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("caseSensitive");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<int>("scopes");
    QTest::addColumn<QString>("expected");

    const int all = SearchQuery::AllScopes;
    // op 1 starts with span s4: at the same time spans come first.
    QTest::newRow("substring, any case, time order")
        << QStringLiteral("matmul") << false << false << all << QStringLiteral("op:0 span:s4 op:1");
    QTest::newRow("case-sensitive") << QStringLiteral("MatMul") << true << false << all << QStringLiteral("op:1");
    QTest::newRow("span ids") << QStringLiteral("s2") << false << false << all << QStringLiteral("span:s2");
    QTest::newRow("span names only") << QStringLiteral("s") << false << false << int(SearchQuery::SpanNames)
                                     << QStringLiteral("span:s1");
    QTest::newRow("tensor ids, unknown span last")
        << QStringLiteral("t-") << false << false << int(SearchQuery::TensorIds)
        << QStringLiteral("tensor:t-attn tensor:t-mlp tensor:t-lost");
    QTest::newRow("regex anchors") << QStringLiteral("^(add|mlp)$") << false << true << all
                                   << QStringLiteral("op:2 span:s5");
    QTest::newRow("regex any case") << QStringLiteral("^MAT") << false << true << all
                                    << QStringLiteral("op:0 span:s4 op:1");
    QTest::newRow("regex case-sensitive")
        << QStringLiteral("^Mat") << true << true << all << QStringLiteral("span:s4 op:1");
    QTest::newRow("empty text matches nothing") << QString() << false << false << all << QString();
    QTest::newRow("no match") << QStringLiteral("conv") << false << false << all << QString();
}

void tst_TraceSearch::search()
{
    QFETCH(QString, text);
    QFETCH(bool, caseSensitive);
    QFETCH(bool, regex);
    QFETCH(int, scopes);
    QFETCH(QString, expected);
    SearchQuery q;
    q.text = text.toStdString();
    q.caseSensitive = caseSensitive;
    q.regex = regex;
    q.scopes = std::uint8_t(scopes);
    const SearchResult r = TraceSearch::run(*m_fixture.trace, q);
    QVERIFY(r.error.empty());
    QCOMPARE(dump(*m_fixture.trace, r), expected);
}

void tst_TraceSearch::invalidRegex()
{
    SearchQuery q;
    q.text = "(unclosed";
    q.regex = true;
    const SearchResult r = TraceSearch::run(*m_fixture.trace, q);
    QVERIFY(r.matches.empty());
    QVERIFY2(QString::fromStdString(r.error).startsWith(u"invalid regular expression"), r.error.c_str());
}

void tst_TraceSearch::cancelled()
{
    SearchQuery q;
    q.text = "s";
    std::atomic<bool> cancel{true};
    const SearchResult r = TraceSearch::run(*m_fixture.trace, q, &cancel);
    QVERIFY(r.cancelled);
}

QTEST_GUILESS_MAIN(tst_TraceSearch)
#include "tst_tracesearch.moc"
