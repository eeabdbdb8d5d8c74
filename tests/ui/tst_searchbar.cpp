// SPDX-License-Identifier: MIT
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include "core/model/trace.h"
#include "tests/testutils/timelinefixtures.h"
#include "ui/search/searchbar.h"

using namespace TraceInspector;
using namespace TraceInspector::TestFixtures;

class tst_SearchBar : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void nextAndPreviousWrap();
    void shortcuts();
    void typingSearchesAfterAPause();
    void caseAndRegexToggles_data();
    void caseAndRegexToggles();
    void invalidRegexSaysSo();
    void nextBeforeResultsArrive();
    void escapeHides();

private:
    LoadedFixture m_f;
};

void tst_SearchBar::initTestCase()
{
    // Spans at 0, 10, 20, 200; ops at 30 (matmul), 200 (MatMul), 220 (add).
    m_f = loadFixture(
        traceJsonl("s1=train:-:0:1000 s2=forward:s1:10:500 s3=attention:s2:20:100 s4=Matmul_block:s2:200:100",
                   opsJsonl("s3:matmul:30:5 s4:MatMul:200:5 s4:add:220:5") + tensorsJsonl("s3:t-matmul-out")));
    QVERIFY(m_f.trace);
}

void tst_SearchBar::nextAndPreviousWrap()
{
    SearchBar bar;
    bar.setTrace(m_f.trace);
    QSignalSpy finished(&bar, &SearchBar::searchFinished);
    QSignalSpy selected(&bar, &SearchBar::matchSelected);
    bar.setText(QStringLiteral("matmul"));
    QVERIFY(finished.wait(5000));
    // op 0 (30), span s4 (200), op 1 (200), tensor (at s3's start 20 → first).
    QCOMPARE(finished.at(0).at(0).toInt(), 4);
    QCOMPARE(bar.statusLabel()->text(), QStringLiteral("4 matches"));
    const qint64 s4 = m_f.trace->findSpan(std::string_view("s4"));
    const QList<Selection> order{Selection::tensor(0), Selection::op(0), Selection::span(s4), Selection::op(1)};
    for (int i = 0; i < 5; ++i) {
        bar.findNext();
        QCOMPARE(selected.last().at(0).value<Selection>(), order[i % 4]);
    }
    QCOMPARE(bar.statusLabel()->text(), QStringLiteral("1 of 4"));
    bar.findPrevious();
    QCOMPARE(selected.last().at(0).value<Selection>(), order[3]);
    QCOMPARE(bar.currentMatch(), 3);
    QCOMPARE(bar.statusLabel()->text(), QStringLiteral("4 of 4"));
}

void tst_SearchBar::shortcuts()
{
    SearchBar bar;
    QVERIFY(bar.findAction()->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_F)));
    QVERIFY(bar.findNextAction()->shortcuts().contains(QKeySequence(Qt::Key_F3)));
    QVERIFY(bar.findPreviousAction()->shortcuts().contains(QKeySequence(Qt::SHIFT | Qt::Key_F3)));

    // F3 in a window that carries the actions.
    QWidget window;
    auto *searchBar = new SearchBar(&window);
    window.addAction(searchBar->findAction());
    window.addAction(searchBar->findNextAction());
    window.addAction(searchBar->findPreviousAction());
    searchBar->setTrace(m_f.trace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    searchBar->hide();
    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(searchBar->isVisible());
    QTRY_VERIFY(searchBar->lineEdit()->hasFocus());
    QSignalSpy selected(searchBar, &SearchBar::matchSelected);
    QTest::keyClicks(searchBar->lineEdit(), QStringLiteral("add"));
    QTest::keyClick(&window, Qt::Key_F3);
    QTRY_COMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).value<Selection>(), Selection::op(2));
    QTest::keyClick(searchBar->lineEdit(), Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(selected.count(), 2);
}

void tst_SearchBar::typingSearchesAfterAPause()
{
    SearchBar bar;
    bar.setTrace(m_f.trace);
    QSignalSpy finished(&bar, &SearchBar::searchFinished);
    QTest::keyClicks(bar.lineEdit(), QStringLiteral("forw"));
    QCOMPARE(finished.count(), 0); // debounced
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(bar.matches().size(), std::size_t(1));
}

void tst_SearchBar::caseAndRegexToggles_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("caseSensitive");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<int>("count");
    QTest::newRow("any case") << QStringLiteral("matmul") << false << false << 4;
    QTest::newRow("case") << QStringLiteral("MatMul") << true << false << 1;
    QTest::newRow("regex") << QStringLiteral("^(add|train)$") << false << true << 2;
    QTest::newRow("regex case") << QStringLiteral("^Mat") << true << true << 2;
}

void tst_SearchBar::caseAndRegexToggles()
{
    QFETCH(QString, text);
    QFETCH(bool, caseSensitive);
    QFETCH(bool, regex);
    QFETCH(int, count);
    SearchBar bar;
    bar.setTrace(m_f.trace);
    QSignalSpy finished(&bar, &SearchBar::searchFinished);
    bar.setCaseSensitive(caseSensitive);
    bar.setRegex(regex);
    bar.setText(text);
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.last().at(0).toInt(), count);
}

void tst_SearchBar::invalidRegexSaysSo()
{
    SearchBar bar;
    bar.setTrace(m_f.trace);
    QSignalSpy finished(&bar, &SearchBar::searchFinished);
    bar.setRegex(true);
    bar.setText(QStringLiteral("(add"));
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.last().at(0).toInt(), 0);
    QVERIFY(bar.errorText().startsWith(u"invalid regular expression"));
    QCOMPARE(bar.statusLabel()->text(), QStringLiteral("invalid"));
    QCOMPARE(bar.statusLabel()->toolTip(), bar.errorText());
}

void tst_SearchBar::nextBeforeResultsArrive()
{
    SearchBar bar;
    bar.setTrace(m_f.trace);
    QSignalSpy selected(&bar, &SearchBar::matchSelected);
    bar.setText(QStringLiteral("add"));
    bar.findNext(); // searches at once, then moves
    QVERIFY(selected.wait(5000));
    QCOMPARE(selected.at(0).at(0).value<Selection>(), Selection::op(2));
}

void tst_SearchBar::escapeHides()
{
    SearchBar bar;
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    QTest::keyClick(bar.lineEdit(), Qt::Key_Escape);
    QVERIFY(!bar.isVisible());
}

QTEST_MAIN(tst_SearchBar)
#include "tst_searchbar.moc"
