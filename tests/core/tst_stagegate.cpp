// SPDX-License-Identifier: MIT
// The gate a load's health analysis waits at until the window has shown the read trace:
// opened, it lets every waiter through at once; never opened, it lets each one through
// after its bound, so no analysis waits for good.
#include <QTest>

#include <chrono>
#include <thread>
#include <vector>

#include "core/loading/stagegate.h"

using namespace TraceInspector;
using namespace std::chrono_literals;

class TestStageGate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openedBeforeTheWait();
    void openedWhileWaiting();
    void neverOpened();
};

void TestStageGate::openedBeforeTheWait()
{
    StageGate gate;
    gate.open();
    const auto start = std::chrono::steady_clock::now();
    QVERIFY(gate.waitFor(10s));
    QVERIFY(std::chrono::steady_clock::now() - start < 1s);
    QVERIFY(gate.waitFor(0ms)); // and it stays open
}

void TestStageGate::openedWhileWaiting()
{
    StageGate gate;
    std::vector<std::thread> waiters;
    std::vector<char> passed(3, 0);
    for (std::size_t i = 0; i < passed.size(); ++i)
        waiters.emplace_back([&gate, &passed, i] { passed[i] = gate.waitFor(30s) ? 1 : 0; });
    std::this_thread::sleep_for(50ms); // the waiters are (very likely) waiting by now
    const auto opened = std::chrono::steady_clock::now();
    gate.open();
    for (std::thread &t : waiters)
        t.join();
    // Each one woke when the gate opened, not at its bound.
    QVERIFY(std::chrono::steady_clock::now() - opened < 10s);
    for (const char p : passed)
        QCOMPARE(p, char(1));
}

void TestStageGate::neverOpened()
{
    StageGate gate;
    const auto start = std::chrono::steady_clock::now();
    QVERIFY(!gate.waitFor(100ms));
    QVERIFY(std::chrono::steady_clock::now() - start >= 100ms);
}

QTEST_APPLESS_MAIN(TestStageGate)
#include "tst_stagegate.moc"
